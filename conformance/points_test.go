package conformance

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/matombo/matombo/docs"
	"github.com/matombo/matombo/games"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var (
	pointHeading = regexp.MustCompile(`(?m)^### ([A-Z][0-9]+) `)
	pointLabel   = regexp.MustCompile(`^([A-Z][0-9]+)[a-z]?$`)
)

// TestScenariosCitePoints: every rule a scenario of the shipped games
// cites is a numbered point of its game's rules page (docs/rules/GAME.md,
// "### X1 Title"; "T7b" is part of "T7"), and every point of a page is cited
// by some scenario, except the points listed here, which scenarios cannot
// show from a position of the game (a rule of a page that no reachable
// position exercises).
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
			points := pointHeading.FindAllStringSubmatch(page, -1)
			for _, label := range sc.Rules {
				m := pointLabel.FindStringSubmatch(strings.TrimSpace(label))
				require.NotNil(t, m, "%s:%d: rule %q is not a point label like T7 or T7b", f.Path, sc.Line, label)
				found := slices.ContainsFunc(points, func(p []string) bool { return p[1] == m[1] })
				assert.True(t, found, "%s:%d: rule %s is no point of docs/rules/%s.md", f.Path, sc.Line, label, sc.Game)
				if cited[sc.Game] == nil {
					cited[sc.Game] = map[string]bool{}
				}
				cited[sc.Game][m[1]] = true
			}
		}
	}
	for _, game := range games.Library().Games() {
		page, ok := docs.Rules(game)
		require.True(t, ok, "game %s has no rules page", game)
		for _, p := range pointHeading.FindAllStringSubmatch(page, -1) {
			if !slices.Contains(uncited[game], p[1]) {
				assert.True(t, cited[game][p[1]], "no scenario cites %s of docs/rules/%s.md", p[1], game)
			}
		}
	}
}
