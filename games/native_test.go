package games_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/matombo/matombo/host"
)

// TestNativeRulePointsReplaced replaces each native rule point of the
// shipped games with a Lua function that calls it and returns what
// it returns, and plays random games against the game itself: the native
// turns must then call the replacement at its place (the Lua path) with
// the arguments and results of the native rule, and play the same games.
func TestNativeRulePointsReplaced(t *testing.T) {
	native := map[string][]string{
		"kalah":    {"k2_sow", "k3_extra_turn", "k4_capture", "k6_result", "k5_end", "k2_sowings"},
		"oware":    {"o2_sow", "o4_grand_slam", "o3_capture", "o5_feeding_moves", "o8_result", "o7_scores_decide", "o2_sowings"},
		"gore":     {"g3_sow", "g4_capture", "g5_sow_or_pass", "g8_over"},
		"yematatu": {"y3_drops", "y4_steps_and_jumps", "y5_three_on_a_line"},
	}
	games := 20
	if testing.Short() || raceEnabled {
		games = 2
	}
	for base, points := range native {
		for _, point := range points {
			t.Run(base+"/"+point, func(t *testing.T) {
				t.Parallel()
				src := fmt.Sprintf(`return matombo.extends(%q, { replace = { %s = function(base, ...) return base(...) end } })`, base, point)
				lib := gamesLibrary()
				if err := lib.AddFS(fstest.MapFS{"passthrough/passthrough.lua": {Data: []byte(src)}}, "test"); err != nil {
					t.Fatal(err)
				}
				want, err := lib.Load(base)
				if err != nil {
					t.Fatal(err)
				}
				got, err := lib.Load("passthrough")
				if err != nil {
					t.Fatal(err)
				}
				samePlay(t, want, got, games)
			})
		}
	}
}

// samePlay plays random games of a and b with the same choices and
// compares every legal list and the results.
func samePlay(t *testing.T, a, b *host.Game, games int) {
	t.Helper()
	ra, rb := a.NewRunner(), b.NewRunner()
	defer ra.Close()
	defer rb.Close()
	for i := range games {
		rng := rand.New(rand.NewPCG(uint64(i), 3))
		sa, sb := a.Start(), b.Start()
		for ply := 0; !sa.Over() && ply < a.MaxPlies(); ply++ {
			if la, lb := sa.Legal(), sb.Legal(); !slices.Equal(la, lb) {
				t.Fatalf("game %d, ply %d: %v, but the replaced rule lists %v", i, ply, la, lb)
			}
			k := rng.IntN(len(sa.Moves()))
			if err := ra.Apply(sa, sa.Moves()[k]); err != nil {
				t.Fatal(err)
			}
			if err := rb.Apply(sb, sb.Moves()[k]); err != nil {
				t.Fatal(err)
			}
			if sa.Key() != sb.Key() {
				t.Fatalf("game %d, ply %d: the positions differ:\n%s\n%s", i, ply, sa.Diagram(), sb.Diagram())
			}
		}
		oa, ob := sa.Outcome(), sb.Outcome()
		if oa.Over != ob.Over || oa.Winner != ob.Winner || oa.Reason != ob.Reason || oa.Method != ob.Method {
			t.Fatalf("game %d: %+v, but the replaced rule ends %+v", i, oa, ob)
		}
	}
}
