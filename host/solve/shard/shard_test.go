package shard_test

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/solve"
	"github.com/matombo/matombo/host/solve/shard"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func loadKalah(t testing.TB, pits, seeds int, empty bool) *host.Game {
	t.Helper()
	opts := []host.Option{host.WithParam("pits", pits), host.WithParam("seeds", seeds)}
	if empty {
		opts = append(opts, host.WithVariant("empty-capture"))
	}
	g, err := games.Library().Load("kalah", opts...)
	require.NoError(t, err)
	return g
}

// solveAll solves every job of the plan, each with its own engine (as on
// separate machines), and merges the results.
func solveAll(t *testing.T, p *shard.Plan, opts []solve.Option) (*shard.Merged, []shard.Result) {
	t.Helper()
	ctx := context.Background()
	var results []shard.Result
	var names []string
	for k := range p.Jobs {
		r, err := p.Solve(ctx, k, opts...)
		require.NoError(t, err)
		results = append(results, r)
		names = append(names, fmt.Sprintf("job-%d.json", k))
	}
	m, err := p.Merge(results, names)
	require.NoError(t, err)
	return m, results
}

// TestMergeIsExact shards small Kalah boards, under both capture rules
// (in both, a sowing that ends in the mover's store gives them the next
// move too, so a child of a position may have the same player to move),
// at several depths, and compares the merged values of the opening and of
// each opening move with one unsharded solve by the search engine, and
// the opening with the retrograde engine, which values every position.
// Kalah(2,2) at depths 2 to 5, (2,3) at 4 and (3,2) at 6 have lines on
// which the game ends before the plan's depth: the merge scores those.
func TestMergeIsExact(t *testing.T) {
	cases := []struct {
		pits, seeds int
		empty       bool
		depths      []int
		margin      int // the opening's for Player 1, from the documented table
	}{
		{2, 2, true, []int{1, 2, 3, 5}, -2},
		{2, 3, true, []int{1, 2, 4}, -2},
		{3, 2, true, []int{1, 2, 3, 6}, 4},
		{3, 3, true, []int{1, 2, 3}, 2},
		{3, 3, false, []int{1, 2}, 0},
		{4, 2, true, []int{1, 2}, 6},
	}
	if testing.Short() {
		cases = cases[:3]
	}
	for _, tc := range cases {
		rules := "default rules"
		if tc.empty {
			rules = "empty capture"
		}
		t.Run(fmt.Sprintf("Kalah(%d,%d) %s", tc.pits, tc.seeds, rules), func(t *testing.T) {
			g := loadKalah(t, tc.pits, tc.seeds, tc.empty)
			opts := []solve.Option{solve.WithCacheDir(t.TempDir()), solve.WithThreads(1), solve.WithEndgame(4), solve.WithTableBytes(4 << 20)}
			ctx := context.Background()
			whole, err := solve.Solve(ctx, g, append(opts, solve.WithEngine(solve.Search))...)
			require.NoError(t, err)
			want, err := whole.Moves(g.Start())
			require.NoError(t, err)
			retro, err := solve.Solve(ctx, g, solve.WithEngine(solve.Retrograde))
			require.NoError(t, err)
			if !tc.empty {
				// Under the default rules the documented table does
				// not apply; the retrograde engine is the reference.
				tc.margin = retro.Opening().Margin
			}
			require.Equal(t, tc.margin, whole.Opening().Margin, "the unsharded solve")
			require.Equal(t, retro.Opening().Margin, whole.Opening().Margin, "the two engines")
			for _, depth := range tc.depths {
				p, err := shard.NewPlan(ctx, g, depth)
				require.NoError(t, err)
				require.NotEmpty(t, p.Jobs)
				m, _ := solveAll(t, p, opts)
				assert.Equal(t, whole.Opening().Value, m.Opening.Value, "depth %d: the opening's value", depth)
				assert.Equal(t, tc.margin, m.Opening.Margin, "depth %d: the opening's margin", depth)
				assert.Equal(t, retro.Opening().Value, m.Opening.Value, "depth %d: against the retrograde engine", depth)
				require.Len(t, m.Moves, len(want), "depth %d", depth)
				for i, mv := range m.Moves {
					assert.Equal(t, want[i].Token, mv.Token, "depth %d", depth)
					assert.Equal(t, want[i].Value, mv.Value, "depth %d, move %s: value", depth, mv.Token)
					assert.Equal(t, want[i].Margin, mv.Margin, "depth %d, move %s: margin", depth, mv.Token)
					assert.Equal(t, want[i].Plies == 1, mv.Plies == 1, "depth %d, move %s: ends the game", depth, mv.Token)
				}
			}
		})
	}
}

// TestPlanJobs checks a plan's jobs against the golden file: their
// number, lines, players to move, and that a position reached by several
// lines is one job.
func TestPlanJobs(t *testing.T) {
	g := loadKalah(t, 3, 3, true)
	var b strings.Builder
	for _, depth := range []int{1, 2, 3} {
		p, err := shard.NewPlan(context.Background(), g, depth)
		require.NoError(t, err)
		lines := 0
		for k, j := range p.Jobs {
			require.Equal(t, k, j.Index)
			lines += j.Lines
			s, err := p.Position(k)
			require.NoError(t, err)
			require.Equal(t, j.ToMove, s.ToMove())
			require.False(t, s.Over())
		}
		fmt.Fprintf(&b, "depth %d: %d jobs, %d lines\n", depth, len(p.Jobs), lines)
		for _, j := range p.Jobs {
			fmt.Fprintf(&b, "  %d %v P%d lines=%d\n", j.Index, j.Tokens, j.ToMove, j.Lines)
		}
	}
	golden := filepath.Join("testdata", "kalah-3x3-plans.golden")
	if *update {
		require.NoError(t, os.WriteFile(golden, []byte(b.String()), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err)
	assert.Equal(t, string(want), b.String())
}

// TestMergeErrors checks that results that do not belong together are
// refused, naming the result.
func TestMergeErrors(t *testing.T) {
	ctx := context.Background()
	g := loadKalah(t, 2, 2, true)
	opts := []solve.Option{solve.WithCacheDir(t.TempDir()), solve.WithThreads(1), solve.WithTableBytes(1 << 20)}
	p, err := shard.NewPlan(ctx, g, 2)
	require.NoError(t, err)
	_, results := solveAll(t, p, opts)
	names := func(rs []shard.Result) []string {
		out := make([]string, len(rs))
		for i := range rs {
			out[i] = fmt.Sprintf("r%d.json", i)
		}
		return out
	}
	other := loadKalah(t, 2, 3, true)
	po, err := shard.NewPlan(ctx, other, 2)
	require.NoError(t, err)
	ro, err := po.Solve(ctx, 0, opts...)
	require.NoError(t, err)
	p1, err := shard.NewPlan(ctx, g, 1)
	require.NoError(t, err)
	rd, err := p1.Solve(ctx, 0, opts...)
	require.NoError(t, err)

	cases := []struct {
		name    string
		results func() []shard.Result
		want    string
	}{
		{"missing", func() []shard.Result { return results[1:] }, "no result for job 0 (of jobs 0 to"},
		{"duplicate", func() []shard.Result { return append(clone(results), results[0]) }, fmt.Sprintf("r%d.json: a second result of job 0 (%s), after r0.json", len(results), strings.Join(results[0].Tokens, " "))},
		{"another game", func() []shard.Result { return append(clone(results), ro) }, fmt.Sprintf("r%d.json: a result of kalah", len(results))},
		{"another plan", func() []shard.Result { return append(clone(results[1:]), rd) }, "a job of a plan of depth 1 with"},
		{"wrong line", func() []shard.Result {
			rs := clone(results)
			rs[1].Tokens = rs[0].Tokens
			return rs
		}, "r1.json: job 1 is"},
		{"no job", func() []shard.Result {
			rs := clone(results)
			rs[0].Index = len(results)
			return rs
		}, fmt.Sprintf("r0.json: job %d: the plan has jobs 0 to %d", len(results), len(results)-1)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rs := tc.results()
			_, err := p.Merge(rs, names(rs))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}

	_, err = p.Merge(results[1:], names(results[1:]))
	var me *shard.MissingError
	require.True(t, errors.As(err, &me))
	assert.Equal(t, []int{0}, me.Missing)
	_, err = shard.NewPlan(ctx, g, 0)
	var de *shard.DepthError
	require.True(t, errors.As(err, &de))
	_, err = p.Solve(ctx, len(p.Jobs))
	var je *shard.JobError
	require.True(t, errors.As(err, &je))
	assert.Contains(t, err.Error(), fmt.Sprintf("has jobs 0 to %d", len(p.Jobs)-1))
}

func clone(rs []shard.Result) []shard.Result { return append([]shard.Result(nil), rs...) }

// TestResultRoundTrip writes results and reads them back; what is not a
// result is refused.
func TestResultRoundTrip(t *testing.T) {
	ctx := context.Background()
	g := loadKalah(t, 2, 2, true)
	p, err := shard.NewPlan(ctx, g, 1)
	require.NoError(t, err)
	r, err := p.Solve(ctx, 0, solve.WithCacheDir(t.TempDir()), solve.WithThreads(1))
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, shard.WriteResult(&buf, r))
	back, err := shard.ReadResult(bytes.NewReader(buf.Bytes()))
	require.NoError(t, err)
	// Numbers of parameters come back as float64 from JSON.
	back.Params, r.Params = nil, nil
	assert.Equal(t, r, back)

	// A bound, from a job solved above what it is worth.
	r, err = p.Solve(ctx, 0, solve.WithCacheDir(t.TempDir()), solve.WithThreads(1), solve.WithAbove(solve.Threshold{Value: solve.Win, Margin: 10}))
	require.NoError(t, err)
	require.Equal(t, "at most", r.Bound)
	buf.Reset()
	require.NoError(t, shard.WriteResult(&buf, r))
	back, err = shard.ReadResult(bytes.NewReader(buf.Bytes()))
	require.NoError(t, err)
	back.Params, r.Params = nil, nil
	assert.Equal(t, r, back)

	for _, bad := range []struct{ in, want string }{
		{"", "not a job's result"},
		{`{"format":"matombo analyze shard 1"}`, "format \"matombo analyze shard 1\""},
		{`{"format":"matombo solve job 1","value":"maybe"}`, "value \"maybe\""},
		{`{"format":"matombo solve job 1","value":"win","surprise":1}`, "unknown field"},
		{`{"format":"matombo solve job 1","value":"win"} {}`, "something follows"},
		// Read one way only: encoding/json keeps the last of a key given
		// twice, another reader the first.
		{`{"format":"matombo solve job 1","value":"win","margin":4,"margin":-4}`, `the key "margin" is given twice`},
		{`{"format":"matombo solve job 1","value":"win","job":1,"job":0}`, `the key "job" is given twice`},
		{`{"format":"matombo solve job 1","Value":"win"}`, `unknown field "Value"`},
		{`{"format":"matombo solve job 1","value":"win","positions":-1}`, "negative"},
		{`{"format":"matombo solve job 1","value":"win","bound":"at best"}`, `bound "at best": want "at most", "at least" or none`},
		{strings.Repeat(" ", shard.MaxResultBytes+1), "more than"},
	} {
		_, err := shard.ReadResult(strings.NewReader(bad.in))
		require.Error(t, err, bad.in)
		assert.Contains(t, err.Error(), bad.want)
	}
}

// FuzzReadResult: no input crashes the reader, and what it accepts
// writes back to the same result.
func FuzzReadResult(f *testing.F) {
	f.Add([]byte(`{"format":"matombo solve job 1","game":"kalah","fingerprint":"ab","depth":1,"jobs":2,"job":1,"tokens":["a2"],"to_move":1,"lines":1,"value":"win","margin":4,"positions":10,"seconds":0.1}`))
	f.Add([]byte(`{"format":"matombo solve job 1","value":"draw","tokens":null}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := shard.ReadResult(bytes.NewReader(data))
		if err != nil {
			return
		}
		var buf bytes.Buffer
		require.NoError(t, shard.WriteResult(&buf, r))
		back, err := shard.ReadResult(&buf)
		require.NoError(t, err)
		assert.Equal(t, r.Index, back.Index)
		assert.Equal(t, r.Value, back.Value)
		assert.Equal(t, r.Margin, back.Margin)
	})
}

// TestPlanTranspositions: lines that reach one position make one job, and
// the merge still values every line.
func TestPlanTranspositions(t *testing.T) {
	ctx := context.Background()
	g := loadKalah(t, 3, 3, true)
	p, err := shard.NewPlan(ctx, g, 6)
	require.NoError(t, err)
	lines, shared := 0, 0
	for _, j := range p.Jobs {
		lines += j.Lines
		if j.Lines > 1 {
			shared++
		}
	}
	require.NotZero(t, shared, "Kalah(3,3) at depth 6 has positions reached by several lines")
	assert.Equal(t, []int{275, 280}, []int{len(p.Jobs), lines})
	m, _ := solveAll(t, p, []solve.Option{solve.WithCacheDir(t.TempDir()), solve.WithThreads(1), solve.WithEndgame(4), solve.WithTableBytes(1 << 20)})
	assert.Equal(t, 2, m.Opening.Margin)
}
