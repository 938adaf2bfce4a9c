package solve_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/solve"
)

// TestSolvePositionAgrees values every position within seven plies of the
// opening of Kalah(3,2), both capture rules, finished ones included, and
// compares each with the retrograde engine's table.
func TestSolvePositionAgrees(t *testing.T) {
	for _, variant := range [][]host.Option{{host.WithVariant("empty-capture")}, nil} {
		g, err := games.Library().Load("kalah", append(variant, host.WithParam("pits", 3), host.WithParam("seeds", 2))...)
		require.NoError(t, err)
		ctx := context.Background()
		table, err := solve.Solve(ctx, g, solve.WithEngine(solve.Retrograde))
		require.NoError(t, err)
		opts := []solve.Option{solve.WithCacheDir(t.TempDir()), solve.WithThreads(2), solve.WithEndgame(3), solve.WithTableBytes(1 << 20)}
		seen, over := 0, 0
		var walk func(s *host.State, left int)
		walk = func(s *host.State, left int) {
			want, ok := table.Lookup(s)
			require.True(t, ok)
			got, err := solve.SolvePosition(ctx, s, opts...)
			require.NoError(t, err)
			assert.Equal(t, want.Value, got.Value)
			assert.Equal(t, want.Margin, got.Margin)
			assert.Equal(t, want.ToMove, got.ToMove)
			assert.Equal(t, s.Over(), got.Terminal)
			seen++
			if s.Over() {
				over++
				assert.Zero(t, got.Stats.Nodes)
				return
			}
			if left == 0 {
				return
			}
			for _, m := range s.Moves() {
				c := s.Clone()
				require.NoError(t, c.Apply(m))
				walk(c, left-1)
			}
		}
		walk(g.Start(), 7)
		assert.Greater(t, seen, 40)
		assert.NotZero(t, over, "games that end within seven plies")
	}
}

func TestSolvePositionErrors(t *testing.T) {
	ctx := context.Background()
	ttt, err := games.Library().Load("yematatu")
	require.NoError(t, err)
	_, err = solve.SolvePosition(ctx, ttt.Start())
	var ue *solve.UnsupportedError
	require.True(t, errors.As(err, &ue), "%v", err)

	g, err := games.Library().Load("kalah", host.WithParam("pits", 3), host.WithParam("seeds", 3))
	require.NoError(t, err)
	_, err = solve.SolvePosition(ctx, g.Start(), solve.WithMaxBytes(1<<20))
	var tl *solve.TooLargeError
	require.True(t, errors.As(err, &tl), "%v", err)

	stopped, cancel := context.WithCancel(ctx)
	cancel()
	_, err = solve.SolvePosition(stopped, g.Start(), solve.WithCacheDir(t.TempDir()), solve.WithEndgame(0), solve.WithTableBytes(1<<20))
	require.Error(t, err)
	assert.True(t, errors.Is(err, context.Canceled), "%v", err)
}
