package games_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/matombo/matombo/host"
	"github.com/stretchr/testify/require"
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
		"gore":     {"g3_sow", "g4_capture", "g5_sow_or_pass", "g6_offers", "g6_offer", "g7_answers", "g7_accept", "g7_decline", "g8_over"},
		"yematatu": {"y3_drops", "y4_steps_and_jumps", "y5_three_on_a_line"},
		"tsoro":    {"t10_ends", "t5_starts", "t6_singletons", "t7c_choices", "t9_choices", "t9_bonus", "t8_capture", "t7_sow"},
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

// TestNativeRulePointsTakeEffect replaces rule points of native turns with
// functions that change the rule, and checks that random games follow the
// changed rule: a replaced point runs at its place.
func TestNativeRulePointsTakeEffect(t *testing.T) {
	for _, c := range []struct {
		base, point, fn string
		check           func(t *testing.T, s *host.State, mover int, tok string)
		played          string // a token the games must play, so that the rule is met
	}{
		{"tsoro", "t8_capture", `function(base, p, last, was_empty) return 0 end`, func(t *testing.T, s *host.State, mover int, tok string) {
			require.Equal(t, 0, s.Captured(1)+s.Captured(2), "no capture after %s", tok)
		}, ""},
		// Only stop (the move kind 3) at a head.
		{"tsoro", "t7c_choices", `function(base, p, head) matombo.emit(3) end`, func(t *testing.T, s *host.State, mover int, tok string) {
			require.NotEqual(t, "continue", tok)
		}, "stop"},
		{"gore", "g6_offers", `function(base, p) return 0 end`, func(t *testing.T, s *host.State, mover int, tok string) {
			require.NotContains(t, tok, "offer")
		}, "a1"},
		// A decline that passes the turn back to the offerer.
		{"gore", "g7_decline", `function(base, p) matombo.set(1, 0); matombo.set(2, 0); matombo.set(3, 0) end`, func(t *testing.T, s *host.State, mover int, tok string) {
			if tok == "decline" && !s.Over() {
				require.Equal(t, 3-mover, s.ToMove(), "after decline the turn passes")
			}
		}, "decline"},
		{"yematatu", "y5_three_on_a_line", `function(base, p, s) return false end`, func(t *testing.T, s *host.State, mover int, tok string) {
			require.NotEqual(t, "three on a line", s.Outcome().Reason)
		}, ""},
		// The only drop is on a1 (the move kind 1 on site 1).
		{"yematatu", "y3_drops", `function(base, p) matombo.emit(1, 1) end`, func(t *testing.T, s *host.State, mover int, tok string) {
			if s.Ply() < 6 && !s.Over() {
				require.Equal(t, []string{"a1"}, s.Legal())
			}
		}, "a1"},
	} {
		t.Run(c.base+"/"+c.point, func(t *testing.T) {
			src := fmt.Sprintf(`return matombo.extends(%q, { replace = { %s = %s } })`, c.base, c.point, c.fn)
			lib := gamesLibrary()
			require.NoError(t, lib.AddFS(fstest.MapFS{"changed/changed.lua": {Data: []byte(src)}}, "test"))
			g, err := lib.Load("changed")
			require.NoError(t, err)
			played := c.played == ""
			for i := range 10 {
				rng := rand.New(rand.NewPCG(uint64(i), 9))
				s := g.Start()
				for ply := 0; !s.Over() && ply < 300; ply++ {
					tok, mover := s.Legal()[rng.IntN(len(s.Legal()))], s.ToMove()
					require.NoError(t, s.Play(tok))
					c.check(t, s, mover, tok)
					played = played || tok == c.played
				}
			}
			require.True(t, played, "the games never played %s", c.played)
		})
	}
}
