package games_test

import (
	"fmt"
	"io/fs"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"testing/fstest"

	"github.com/matombo/matombo/host"
	"github.com/stretchr/testify/require"
)

// agreeParams are the combinations of parameters, beyond the named
// variants, whose rules interact in ways the variants do not show: a
// rule that only acts without another (Morabaraba's no-return, which
// flying makes moot at three pieces) or a value no variant names.
var agreeParams = map[string][]map[string]any{
	"yemutwelve": {
		{"morabaraba": true, "flying": false},
		{"morabaraba": true, "board": "diagonal-moves"},
		{"board": "plain", "pieces": 9, "flying": false},
		{"pieces": 10},
	},
	"tantfant": {{"blocked": "draw"}, {"wins": "diagonals", "blocked": "draw"}},
	"tapatan":  {{"first_drop": "centre", "moves": "anywhere"}},
	"achi":     {{"pieces": 3, "blocked": "loses"}},
	// The house in the mtaji stage with takasia, and a house of five
	// without it: the house's stops next to the hole takasia blocks.
	"baokiswahili": {{"house_in_mtaji": true, "house_min": 5}, {"house_in_mtaji": true, "takasia": false, "kichwa_inward": true}},
	// Bawo's kuu of ten with the house in the mtaji stage, and without
	// takasia.
	"bawo": {{"kuu": 10, "house_in_mtaji": true}, {"kuu": 10, "takasia": false}},
}

// referenceBase names the game a shipped game extends: its reference is
// its own script extending the base's Lua version, so that the native
// rules run with the base's rule points as it replaces them (Bawo's kuu
// and lone kichwa) are checked against Lua too.
var referenceBase = map[string]string{"bawo": "baokiswahili"}

// TestNativeRulesAgreeWithLua plays random games of the shipped games
// whose plies run as native rules next to their scripts as they were
// before, written with primitives in Lua (testdata/lua-rules): in every
// variant (and the combinations of agreeParams) the two list the same
// legal tokens, make the same positions, record the same effects for
// every move and end alike.
func TestNativeRulesAgreeWithLua(t *testing.T) {
	games := 30
	if n := os.Getenv("MATOMBO_AGREE_GAMES"); n != "" {
		games, _ = strconv.Atoi(n)
	}
	if testing.Short() || raceEnabled {
		games = 3
	}
	for _, name := range []string{"tsoro", "gore", "yematatu", "bao",
		"tictactoe", "tapatan", "achi", "nineholes", "shisima", "tantfant", "yemutwelve", "baokiswahili", "bawo"} {
		files := fstest.MapFS{}
		for _, g := range []string{name, referenceBase[name]} {
			if g == "" {
				continue
			}
			// A game that extends another is its shipped script over the
			// base's Lua version.
			path := filepath.Join("testdata", "lua-rules", g+".lua")
			if g == name && referenceBase[name] != "" {
				path = filepath.Join(name, name+".lua")
			}
			script, err := os.ReadFile(path)
			require.NoError(t, err)
			files[g+"/"+g+".lua"] = &fstest.MapFile{Data: script}
			if variants, err := os.ReadFile(filepath.Join(g, "variants.yaml")); err == nil {
				files[g+"/variants.yaml"] = &fstest.MapFile{Data: variants}
			} else {
				require.ErrorIs(t, err, fs.ErrNotExist)
			}
		}
		ref := host.NewLibrary()
		require.NoError(t, ref.AddFS(files, "reference"))
		shipped, err := gamesLibrary().Load(name)
		require.NoError(t, err)
		runs := map[string][]host.Option{"": nil}
		for _, v := range shipped.Variants() {
			runs[v.Name] = []host.Option{host.WithVariant(v.Name)}
		}
		for _, params := range agreeParams[name] {
			var opts []host.Option
			label := ""
			for _, k := range slices.Sorted(maps.Keys(params)) {
				opts = append(opts, host.WithParam(k, params[k]))
				label += fmt.Sprintf("%s=%v,", k, params[k])
			}
			runs[label] = opts
		}
		for v, opts := range runs {
			t.Run(name+"/"+v, func(t *testing.T) {
				t.Parallel()
				native, err := gamesLibrary().Load(name, opts...)
				require.NoError(t, err)
				lua, err := ref.Load(name, opts...)
				require.NoError(t, err)
				sameGames(t, lua, native, games)
			})
		}
	}
}

// sameGames plays random games of a and b with the same choices and
// compares every legal list, position and the effects of every move, and
// the results.
func sameGames(t *testing.T, a, b *host.Game, games int) {
	t.Helper()
	ra, rb := a.NewRunner(), b.NewRunner()
	defer ra.Close()
	defer rb.Close()
	ra.Record(true)
	rb.Record(true)
	for i := range games {
		rng := rand.New(rand.NewPCG(uint64(i), 11))
		sa, sb := a.Start(), b.Start()
		for ply := 0; !sa.Over() && ply < a.MaxPlies(); ply++ {
			require.Equal(t, sa.Legal(), sb.Legal(), "game %d, ply %d:\n%s", i, ply, sa.Diagram())
			k := rng.IntN(len(sa.Moves()))
			tok := sa.Legal()[k]
			require.NoError(t, ra.Apply(sa, sa.Moves()[k]))
			require.NoError(t, rb.Apply(sb, sb.Moves()[k]))
			require.Equal(t, sa.Key(), sb.Key(), "game %d, ply %d:\n%s\n%s", i, ply, sa.Diagram(), sb.Diagram())
			ea, _ := sa.Effects()
			eb, _ := sb.Effects()
			require.Equal(t, ea, eb, "game %d, ply %d: the effects of %s", i, ply, tok)
		}
		sameOutcome(t, sb, sa.Outcome(), i)
	}
}

// sameOutcome requires the outcome of the finished state s, played by a
// native script, to be want, the one its Lua version made. Where the Lua
// version named no sites for a win, the native one may name the winning
// line's: they must be the winner's pieces, all on one line of the board.
func sameOutcome(t *testing.T, s *host.State, want host.Outcome, game int) {
	t.Helper()
	got := s.Outcome()
	if len(want.Sites) == 0 && len(got.Sites) > 0 && got.Winner > 0 {
		require.True(t, onOneLine(s.Game(), got.Sites), "game %d: the sites of the win %v are on no line of the board", game, got.Sites)
		for _, x := range got.Sites {
			require.Equal(t, got.Winner, s.Owner(x), "game %d: the sites of the win %v", game, got.Sites)
		}
		got.Sites = nil
	}
	require.Equal(t, want, got, "game %d", game)
}

// onOneLine reports whether every site of sites lies on one line of g's
// board.
func onOneLine(g *host.Game, sites []int) bool {
	for _, line := range g.Board().Lines() {
		all := true
		for _, s := range sites {
			all = all && slices.Contains(line, s)
		}
		if all {
			return true
		}
	}
	return false
}
