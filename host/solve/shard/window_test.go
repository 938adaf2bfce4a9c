package shard_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/host/solve"
	"github.com/matombo/matombo/host/solve/shard"
)

// threshold is a result's value for Player 1 as a threshold.
func threshold(r shard.Result) solve.Threshold {
	t := solve.Threshold{Margin: r.Margin}
	for _, v := range []solve.Value{solve.Win, solve.Draw, solve.Loss} {
		if v.String() == r.Value {
			t.Value = v
		}
	}
	return t
}

// TestMergeWithBounds solves the jobs of depth-2 plans as alpha-beta
// would split them: in each position one ply from the opening, the job
// best for its player to move exactly, its siblings only against that
// value (WithAbove when Player 1 moves there, WithBelow when Player 2
// does); jobs that several lines reach, exactly. The merge must give
// every opening move's exact value, as one solve does, with some results
// bounds. At depth 1, the best opening move's job exact and the others
// above its value give the opening exactly and bounds for the others; all
// of them above it leave the opening open, an *OpenError.
func TestMergeWithBounds(t *testing.T) {
	for _, tc := range []struct {
		pits, seeds int
		empty       bool
	}{
		{3, 3, true},
		{3, 3, false},
		{4, 2, true},
	} {
		t.Run(fmt.Sprintf("Kalah(%d,%d) empty=%v", tc.pits, tc.seeds, tc.empty), func(t *testing.T) {
			ctx := context.Background()
			g := loadKalah(t, tc.pits, tc.seeds, tc.empty)
			opts := []solve.Option{solve.WithCacheDir(t.TempDir()), solve.WithThreads(1), solve.WithEndgame(4), solve.WithTableBytes(4 << 20)}
			whole, err := solve.Solve(ctx, g, append(opts, solve.WithEngine(solve.Search))...)
			require.NoError(t, err)
			want, err := whole.Moves(g.Start())
			require.NoError(t, err)

			p, err := shard.NewPlan(ctx, g, 2)
			require.NoError(t, err)
			_, exact := solveAll(t, p, opts)
			groups := map[string][]int{} // the first token: its jobs
			for k, j := range p.Jobs {
				if j.Lines == 1 && len(j.Tokens) == 2 {
					groups[j.Tokens[0]] = append(groups[j.Tokens[0]], k)
				}
			}
			results := append([]shard.Result(nil), exact...)
			bounds := 0
			for first, jobs := range groups {
				s, err := g.Replay([]string{first})
				require.NoError(t, err)
				mover := s.ToMove()
				best := jobs[0]
				for _, k := range jobs[1:] {
					a, b := threshold(exact[k]), threshold(exact[best])
					if mover == 1 && b.Less(a) || mover == 2 && a.Less(b) {
						best = k
					}
				}
				for _, k := range jobs {
					if k == best {
						continue
					}
					side := solve.WithAbove(threshold(exact[best]))
					if mover == 2 {
						side = solve.WithBelow(threshold(exact[best]))
					}
					r, err := p.Solve(ctx, k, append(opts, side)...)
					require.NoError(t, err)
					if r.Bound != "" {
						bounds++
						got, truth := threshold(r), threshold(exact[k])
						if r.Bound == solve.AtMost.String() {
							assert.False(t, got.Less(truth), "job %d: at most %v, worth %v", k, got, truth)
						} else {
							assert.False(t, truth.Less(got), "job %d: at least %v, worth %v", k, got, truth)
						}
					} else {
						assert.Equal(t, exact[k].Value, r.Value, "job %d", k)
						assert.Equal(t, exact[k].Margin, r.Margin, "job %d", k)
					}
					results[k] = r
				}
			}
			assert.NotZero(t, bounds, "results that are bounds")
			names := make([]string, len(results))
			for i := range names {
				names[i] = fmt.Sprintf("job-%d.json", i)
			}
			m, err := p.Merge(results, names)
			require.NoError(t, err)
			assert.Equal(t, whole.Opening().Value, m.Opening.Value)
			assert.Equal(t, whole.Opening().Margin, m.Opening.Margin)
			for i, mv := range m.Moves {
				assert.Equal(t, solve.Exact, m.Bounds[i], "move %s", mv.Token)
				assert.Equal(t, want[i].Value, mv.Value, "move %s", mv.Token)
				assert.Equal(t, want[i].Margin, mv.Margin, "move %s", mv.Token)
			}

			// Depth 1: the best opening move exactly, the others above it.
			p1, err := shard.NewPlan(ctx, g, 1)
			require.NoError(t, err)
			_, exact1 := solveAll(t, p1, opts)
			best := 0
			for k := range exact1 {
				if threshold(exact1[best]).Less(threshold(exact1[k])) {
					best = k
				}
			}
			v := threshold(exact1[best])
			above := make([]shard.Result, len(exact1))
			names = names[:len(exact1)]
			for k := range exact1 {
				above[k], err = p1.Solve(ctx, k, append(opts, solve.WithAbove(v))...)
				require.NoError(t, err)
			}
			_, err = p1.Merge(above, names)
			var oe *shard.OpenError
			require.True(t, errors.As(err, &oe), "every job above the best value: %v", err)
			assert.Contains(t, err.Error(), "leave the opening's value open")
			above[best] = exact1[best]
			m, err = p1.Merge(above, names)
			require.NoError(t, err)
			assert.Equal(t, whole.Opening().Margin, m.Opening.Margin)
			for i, mv := range m.Moves {
				switch m.Bounds[i] {
				case solve.Exact:
					assert.Equal(t, want[i].Margin, mv.Margin, "move %s", mv.Token)
				case solve.AtMost:
					assert.LessOrEqual(t, want[i].Margin, mv.Margin, "move %s", mv.Token)
					assert.LessOrEqual(t, mv.Margin, v.Margin, "move %s", mv.Token)
				default:
					t.Errorf("move %s: bound %v", mv.Token, m.Bounds[i])
				}
			}
		})
	}
}
