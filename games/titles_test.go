package games_test

import (
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/matombo/matombo/games"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestVariantTitles: every variant of every shipped game has a title
// written for players: a few words, in sentence case (a capital or a
// digit first).
func TestVariantTitles(t *testing.T) {
	lib := games.Library()
	for _, name := range lib.Games() {
		g, err := lib.Load(name)
		require.NoError(t, err, name)
		for _, v := range g.Variants() {
			first, _ := utf8.DecodeRuneInString(v.Title)
			assert.NotEmpty(t, v.Title, "%s: variant %s has no title", name, v.Name)
			assert.True(t, unicode.IsUpper(first) || unicode.IsDigit(first), "%s: variant %s: %q is not in sentence case", name, v.Name, v.Title)
			assert.LessOrEqual(t, utf8.RuneCountInString(v.Title), 30, "%s: variant %s: %q is more than a few words", name, v.Name, v.Title)
			assert.Equal(t, v.Title, v.Label(), "%s: variant %s", name, v.Name)
		}
		g.Close()
	}
}
