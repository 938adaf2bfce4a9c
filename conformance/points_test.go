package conformance

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/matombo/matombo/docs"
	"github.com/matombo/matombo/games"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestScenariosCitePoints: every rule a scenario of the shipped games
// cites is a numbered point of its game's rules page (docs/rules/GAME.md,
// "### X1 Title"; "T7b" is part of "T7"), checked by CheckRules as
// `matombo conform` checks it, and every point of a page is cited by some
// scenario, except the points listed here, which scenarios cannot show
// from a position of the game (a rule of a page that no reachable position
// exercises).
func TestScenariosCitePoints(t *testing.T) {
	uncited := map[string][]string{
		"bao":          {"B8", "B9"}, // no move is endless (the page shows why); no repetition is reachable in a few moves
		"baokiswahili": {"Z17"},      // no repetition turned up in random games, from the opening or from small positions
	}
	entries, err := os.ReadDir(".")
	require.NoError(t, err)
	var dirs []string
	for _, e := range entries {
		if e.IsDir() && e.Name() != "testdata" && !hasGoFiles(e.Name()) {
			dirs = append(dirs, e.Name())
		}
	}
	files, errs := LoadFiles(dirs...)
	require.Empty(t, errs)
	cited := map[string]map[string]bool{}
	for _, f := range files {
		for _, sc := range f.Scenarios {
			page, ok := docs.Rules(sc.Game)
			require.True(t, ok, "%s: game %s has no rules page", filepath.ToSlash(f.Path), sc.Game)
			assert.NoError(t, CheckRules(sc, Points(page), "docs/rules/"+sc.Game+".md"))
			if cited[sc.Game] == nil {
				cited[sc.Game] = map[string]bool{}
			}
			for _, label := range sc.Rules {
				if p, ok := PointOf(label); ok {
					cited[sc.Game][p] = true
				}
			}
		}
	}
	for _, game := range games.Library().Games() {
		page, ok := docs.Rules(game)
		require.True(t, ok, "game %s has no rules page", game)
		points := Points(page)
		assert.NotEmpty(t, points, "docs/rules/%s.md has no points", game)
		for _, p := range points {
			if !slices.Contains(uncited[game], p.Label) {
				assert.True(t, cited[game][p.Label], "no scenario cites %s of docs/rules/%s.md", p.Label, game)
			}
		}
	}
}
