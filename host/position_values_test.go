package host_test

import (
	"fmt"
	"log"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host"
)

// TestAppendPositionValues: the values are the counts, the owners, the
// captured totals, the hands, the position variables and the player to
// move, as the accessors read them, on random games of several shipped
// games; they are appended after what dst holds.
func TestAppendPositionValues(t *testing.T) {
	onRandomPlies(t, 60, 1, 2, func(t *testing.T, g *host.Game) func(int, *host.State) {
		n := g.Board().NumSites()
		return func(ply int, s *host.State) {
			vals := s.AppendPositionValues([]int{-7})
			require.Equal(t, -7, vals[0])
			v := vals[1:]
			require.GreaterOrEqual(t, len(v), 2*n+5)
			for i := range n {
				require.Equal(t, s.Count(i), v[i], "ply %d site %d", ply, i)
				require.Equal(t, s.Owner(i), v[n+i], "ply %d site %d", ply, i)
			}
			require.Equal(t, []int{s.Captured(1), s.Captured(2), s.Hand(1), s.Hand(2)}, v[2*n:2*n+4], "ply %d", ply)
			require.Equal(t, s.ToMove(), v[len(v)-1], "ply %d", ply)
		}
	})
}

// onRandomPlies plays a random game (the moves drawn with the seeds, at
// most plies positions) of several shipped games, one subtest a game, and
// checks each position with the check newCheck makes for the game.
func onRandomPlies(t *testing.T, plies int, seed1, seed2 uint64, newCheck func(t *testing.T, g *host.Game) func(ply int, s *host.State)) {
	for _, name := range []string{"kalah", "oware", "gore", "bao", "draughts"} {
		t.Run(name, func(t *testing.T) {
			g, err := games.Library().Load(name)
			require.NoError(t, err)
			check := newCheck(t, g)
			rng := rand.New(rand.NewPCG(seed1, seed2))
			s := g.Start()
			for ply := 0; ply < plies && !s.Over(); ply++ {
				check(ply, s)
				require.NoError(t, s.Apply(s.Moves()[rng.IntN(len(s.Moves()))]))
			}
		})
	}
}

// TestSetPositionValues: a state set up from a position's values is the
// state StateFromPosition makes from its encoding (the same position,
// legal moves and result), on random games of several shipped games.
func TestSetPositionValues(t *testing.T) {
	onRandomPlies(t, 80, 3, 4, func(t *testing.T, g *host.Game) func(int, *host.State) {
		r := g.NewRunner()
		t.Cleanup(r.Close)
		dst := g.Start()
		var vals []int
		return func(ply int, s *host.State) {
			vals = s.AppendPositionValues(vals[:0])
			require.NoError(t, r.SetPositionValues(dst, vals))
			want, err := g.StateFromPosition(s.AppendPosition(nil))
			require.NoError(t, err)
			assert.Equal(t, want.AppendPosition(nil), dst.AppendPosition(nil), "ply %d", ply)
			assert.Equal(t, want.Key(), dst.Key(), "ply %d", ply)
			assert.Equal(t, want.Legal(), dst.Legal(), "ply %d", ply)
			assert.Equal(t, want.Outcome(), dst.Outcome(), "ply %d", ply)
		}
	})
}

// TestSetPositionValuesRefused: values that are no position of the game
// are a *PositionError, and the state is left as it was.
func TestSetPositionValuesRefused(t *testing.T) {
	g, err := games.Library().Load("kalah", host.WithParam("pits", 3), host.WithParam("seeds", 2))
	require.NoError(t, err)
	r := g.NewRunner()
	defer r.Close()
	good := g.Start().AppendPositionValues(nil) // 8 counts, 8 owners, 2 captured, 2 hands, to move
	with := func(i, v int) []int { c := slices.Clone(good); c[i] = v; return c }
	past32 := int64(math.MaxInt32) + 1 // an int holds it on a 64-bit machine
	for _, c := range []struct {
		name string
		vals []int
		want string
	}{
		{"too few", good[:len(good)-1], "values, want"},
		{"too many", append(slices.Clone(good), 0), "values, want"},
		{"a negative count", with(0, -1), "count -1"},
		{"a count past int32", with(0, int(past32)), "out of range"},
		{"an owner out of range", with(8, 3), "owner 3"},
		{"a total the game does not have", with(0, 3), "conserves"},
		{"no player to move", with(len(good)-1, 0), "to_move"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if strings.Contains(c.name, "past int32") && strconv.IntSize < 64 {
				t.Skip("an int holds no value past int32 on this machine")
			}
			dst := g.Start()
			require.NoError(t, dst.Play("a1"))
			before := dst.AppendPosition(nil)
			err := r.SetPositionValues(dst, c.vals)
			var pe *host.PositionError
			require.ErrorAs(t, err, &pe)
			assert.Contains(t, err.Error(), c.want)
			assert.Equal(t, before, dst.AppendPosition(nil), "unchanged")
		})
	}
}

// Set up a position from its values: here the opening with Player 2 to
// move.
func ExampleRunner_SetPositionValues() {
	g, err := games.Library().Load("kalah", host.WithParam("pits", 3), host.WithParam("seeds", 2))
	if err != nil {
		log.Fatal(err)
	}
	r := g.NewRunner()
	defer r.Close()
	vals := g.Start().AppendPositionValues(nil)
	vals[len(vals)-1] = 2 // the player to move is the last value
	s := g.Start()
	if err := r.SetPositionValues(s, vals); err != nil {
		log.Fatal(err)
	}
	fmt.Println(s.ToMove(), s.Legal())
	// Output:
	// 2 [b1 b2 b3]
}

// Read a whole position at once: the counts of the sites, their owners,
// the captured totals, the hands and the player to move.
func ExampleState_AppendPositionValues() {
	g, err := games.Library().Load("kalah", host.WithParam("pits", 2), host.WithParam("seeds", 3))
	if err != nil {
		log.Fatal(err)
	}
	s := g.Start()
	if err := s.Play("a1"); err != nil {
		log.Fatal(err)
	}
	n := g.Board().NumSites()
	vals := s.AppendPositionValues(nil)
	fmt.Println("counts", vals[:n], "owners", vals[n:2*n], "to move", vals[len(vals)-1])
	// Output:
	// counts [0 4 1 3 4 0] owners [1 1 1 2 2 2] to move 2
}
