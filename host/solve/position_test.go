package solve_test

import (
	"context"
	"errors"
	"fmt"
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

// TestSolvePositionWindow values positions of Kalah(3,2) and (4,2) with
// windows around their exact values (the retrograde engine's) on either
// side and on both: a value inside the window is exact, one outside may
// be a bound, which must hold and lie at or beyond the window's side.
func TestSolvePositionWindow(t *testing.T) {
	type p1 struct{ value, margin int } // for Player 1
	less := func(a, b p1) bool { return a.value < b.value || a.value == b.value && a.margin < b.margin }
	sign := func(m int) int { return min(max(m, -1), 1) }
	at := func(m int) solve.Threshold { return solve.Threshold{Value: solve.Value(sign(m)), Margin: m} }
	forP1 := func(e solve.Entry, b solve.Bound) (p1, solve.Bound) {
		if e.ToMove == 1 {
			return p1{int(e.Value), e.Margin}, b
		}
		return p1{-int(e.Value), -e.Margin}, b.Flip()
	}
	for _, tc := range []struct {
		pits    int
		variant []host.Option
		plies   int
	}{
		{3, []host.Option{host.WithVariant("empty-capture")}, 4},
		{3, nil, 4},
		{4, nil, 3},
	} {
		g, err := games.Library().Load("kalah", append(tc.variant, host.WithParam("pits", tc.pits), host.WithParam("seeds", 2))...)
		require.NoError(t, err)
		ctx := context.Background()
		table, err := solve.Solve(ctx, g, solve.WithEngine(solve.Retrograde))
		require.NoError(t, err)
		base := []solve.Option{solve.WithCacheDir(t.TempDir()), solve.WithThreads(1), solve.WithEndgame(3), solve.WithTableBytes(1 << 20)}
		bounds := 0
		var walk func(s *host.State, left int)
		walk = func(s *host.State, left int) {
			e, ok := table.Lookup(s)
			require.True(t, ok)
			want, _ := forP1(e, solve.Exact)
			for _, d := range []int{-3, -1, 0, 1, 3} {
				lo, hi := want.margin+d, want.margin+d+2
				for _, w := range []struct {
					name   string
					opts   []solve.Option
					lo, hi *p1
				}{
					{"above", []solve.Option{solve.WithAbove(at(lo))}, &p1{sign(lo), lo}, nil},
					{"below", []solve.Option{solve.WithBelow(at(hi))}, nil, &p1{sign(hi), hi}},
					{"both", []solve.Option{solve.WithAbove(at(lo)), solve.WithBelow(at(hi))}, &p1{sign(lo), lo}, &p1{sign(hi), hi}},
				} {
					r, err := solve.SolvePosition(ctx, s, append(base[:len(base):len(base)], w.opts...)...)
					require.NoError(t, err)
					got, b := forP1(r.Entry, r.Bound)
					where := fmt.Sprintf("%s %v %s window %v %v", g.Name(), g.Params(), w.name, w.lo, w.hi)
					inside := (w.lo == nil || less(*w.lo, want)) && (w.hi == nil || less(want, *w.hi))
					switch b {
					case solve.Exact:
						assert.Equal(t, want, got, where)
					case solve.AtMost:
						bounds++
						assert.False(t, inside, "%s: a bound %v for a value %v inside", where, got, want)
						assert.False(t, less(got, want), "%s: at most %v, but worth %v", where, got, want)
						require.NotNil(t, w.lo, where)
						assert.False(t, less(*w.lo, got), "%s: at most %v, above the window's side", where, got)
					case solve.AtLeast:
						bounds++
						assert.False(t, inside, "%s: a bound %v for a value %v inside", where, got, want)
						assert.False(t, less(want, got), "%s: at least %v, but worth %v", where, got, want)
						require.NotNil(t, w.hi, where)
						assert.False(t, less(got, *w.hi), "%s: at least %v, below the window's side", where, got)
					}
				}
			}
			if s.Over() || left == 0 {
				return
			}
			for _, m := range s.Moves() {
				c := s.Clone()
				require.NoError(t, c.Apply(m))
				walk(c, left-1)
			}
		}
		walk(g.Start(), tc.plies)
		assert.NotZero(t, bounds, "%s: some searches stop at a bound", g.Name())
	}
}

func TestSolvePositionWindowErrors(t *testing.T) {
	ctx := context.Background()
	g, err := games.Library().Load("kalah", host.WithParam("pits", 3), host.WithParam("seeds", 2))
	require.NoError(t, err)
	opts := []solve.Option{solve.WithCacheDir(t.TempDir()), solve.WithEndgame(3), solve.WithTableBytes(1 << 20)}
	_, err = solve.SolvePosition(ctx, g.Start(), append(opts, solve.WithAbove(solve.Threshold{Value: solve.Win, Margin: 4}), solve.WithBelow(solve.Threshold{Value: solve.Win, Margin: 2}))...)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "WithAbove(win +4) and WithBelow(win +2)")
	_, err = solve.Solve(ctx, g, append(opts, solve.WithAbove(solve.Threshold{}))...)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "SolvePosition, not Solve")
}
