package player

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/host/solve"
)

// TestPerfectNeverLosesToMCTS plays perfect against MCTS in both seats on
// both boards of Tsoro Yematatu: perfect never ends below the value of the
// opening for its seat, so on the triangle (a draw) it never loses, and on
// the square it wins every game as Player 1.
func TestPerfectNeverLosesToMCTS(t *testing.T) {
	for _, variant := range []string{"triangle", "square"} {
		g := load(t, "yematatu", variant)
		sol, err := solve.Solve(context.Background(), g)
		require.NoError(t, err)
		for seat := 1; seat <= 2; seat++ {
			want := sol.Opening().Value.For(seat, 1)
			for seed := 0; seed < 4; seed++ {
				perfect := FromSolution(sol)
				mcts, err := New(g, fmt.Sprintf("mcts:iterations=300,seed=%d", seed))
				require.NoError(t, err)
				seats := map[int]Player{seat: perfect, 3 - seat: mcts}
				s := g.Start()
				for !s.Over() {
					m, err := seats[s.ToMove()].Choose(context.Background(), s)
					require.NoError(t, err)
					require.NoError(t, s.Apply(m))
				}
				got := solve.Draw
				switch w := s.Outcome().Winner; {
				case w == seat:
					got = solve.Win
				case w != 0:
					got = solve.Loss
				}
				assert.GreaterOrEqual(t, got, want, "%s: perfect as Player %d against mcts seed %d ended %s", variant, seat, seed, got)
				if variant == "triangle" {
					assert.NotEqual(t, solve.Loss, got)
				}
			}
		}
	}
}

// New builds "perfect" only with a solution source; the source's error
// stays the cause, and the library writes no file of its own.
func TestPerfectSolutionSource(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	g := load(t, "yematatu", "square")

	_, err := New(g, "perfect")
	assert.ErrorIs(t, err, ErrNoSolutions)

	_, err = NewPerfect(context.Background(), g, Solver(solve.WithMaxPositions(10)))
	var tooLarge *solve.TooLargeError
	require.ErrorAs(t, err, &tooLarge, "the solver's error is the cause")
	var pe *PerfectError
	require.ErrorAs(t, err, &pe)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = NewPerfect(ctx, g, Solver())
	assert.ErrorIs(t, err, context.Canceled, "the caller's context reaches the solver")

	p, err := New(g, "perfect", WithSolutions(Solver()))
	require.NoError(t, err)
	s := replay(t, g, "b2", "a1")
	m, err := p.Choose(context.Background(), s)
	require.NoError(t, err)
	assert.Contains(t, []string{"b3", "c2"}, g.Token(m), "a quickest win")
	s = replay(t, g, "b2", "a2", "a1", "b1", "c3") // a1-b2-c3
	_, err = p.Choose(context.Background(), s)
	assert.ErrorIs(t, err, ErrGameOver)

	entries, err := os.ReadDir(cache)
	require.NoError(t, err)
	assert.Empty(t, entries, "the library wrote nothing into the cache folder")
}
