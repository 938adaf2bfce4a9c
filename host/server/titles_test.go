package server

import (
	"encoding/json"
	"net/http"
	"testing"
	"testing/fstest"

	"github.com/matombo/matombo/games"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestVariantTitlesOffered: wherever the server offers variants (the
// catalog) or names those a game was made with (the game's
// variant_titles, one for each variant), it says them in a player's
// words: the variants file's title, or the name made into words for a
// variant without one (here one a folder adds to the shipped game).
func TestVariantTitlesOffered(t *testing.T) {
	l := games.Library()
	require.NoError(t, l.AddFS(fstest.MapFS{
		"tsoro/variants.yaml": {Data: []byte("variants:\n  no-bonus_here:\n    params: {bonus: 1}\n")},
	}, "extra"))
	ts := newTestServerOf(t, l, newMemStore())

	status, b := ts.do("GET", "/api/catalog", "")
	require.Equal(t, http.StatusOK, status)
	var c struct {
		Games []catalogGame `json:"games"`
	}
	require.NoError(t, json.Unmarshal(b, &c))
	titles := map[string]string{}
	for _, g := range c.Games {
		for _, v := range g.Variants {
			assert.NotEmpty(t, v.Title, "%s %s", g.Name, v.Name)
			titles[g.Name+" "+v.Name] = v.Title
		}
	}
	assert.Equal(t, "4 by 8", titles["tsoro 4x8"])
	assert.Equal(t, "No bonus here", titles["tsoro no-bonus_here"], "a variant without a title")

	for _, c := range []struct {
		name, body string
		want       []string
	}{
		{"none", `{"game": "tsoro"}`, []string{}},
		{"titled", `{"game": "tsoro", "variants": ["4x8", "bonus-3"]}`, []string{"4 by 8", "Three bonus captures"}},
		{"in the order chosen", `{"game": "tsoro", "variants": ["bonus-3", "4x8"]}`, []string{"Three bonus captures", "4 by 8"}},
		{"untitled", `{"game": "tsoro", "variants": ["4x6", "no-bonus_here"]}`, []string{"4 by 6", "No bonus here"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := ts.create(c.body)
			assert.Equal(t, c.want, g.Titles)
			got := ts.get(g.ID)
			assert.Equal(t, c.want, got.Titles, "the game as it is read again")
		})
	}
}
