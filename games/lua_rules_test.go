package games_test

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"testing/fstest"

	"github.com/matombo/matombo/host"
	"github.com/stretchr/testify/require"
)

// TestNativeRulesAgreeWithLua plays random games of the shipped games
// whose plies run as native rules next to their scripts as they were
// before, written with primitives in Lua (testdata/lua-rules): in every
// variant the two list the same legal tokens, make the same positions,
// record the same effects for every move and end alike.
func TestNativeRulesAgreeWithLua(t *testing.T) {
	games := 30
	if n := os.Getenv("MATOMBO_AGREE_GAMES"); n != "" {
		games, _ = strconv.Atoi(n)
	}
	if testing.Short() || raceEnabled {
		games = 3
	}
	for _, name := range []string{"tsoro", "gore", "yematatu", "bao"} {
		script, err := os.ReadFile(filepath.Join("testdata", "lua-rules", name+".lua"))
		require.NoError(t, err)
		variants, err := os.ReadFile(filepath.Join(name, "variants.yaml"))
		require.NoError(t, err)
		ref := host.NewLibrary()
		require.NoError(t, ref.AddFS(fstest.MapFS{
			name + "/" + name + ".lua": {Data: script},
			name + "/variants.yaml":    {Data: variants},
		}, "reference"))
		shipped, err := gamesLibrary().Load(name)
		require.NoError(t, err)
		labels := []string{""}
		for _, v := range shipped.Variants() {
			labels = append(labels, v.Name)
		}
		for _, v := range labels {
			t.Run(name+"/"+v, func(t *testing.T) {
				t.Parallel()
				var opts []host.Option
				if v != "" {
					opts = append(opts, host.WithVariant(v))
				}
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
		require.Equal(t, sa.Outcome(), sb.Outcome(), "game %d", i)
	}
}
