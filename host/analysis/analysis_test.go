package analysis_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/analysis"
)

func load(t testing.TB, name string, opts ...host.Option) *host.Game {
	t.Helper()
	g, err := games.Library().Load(name, opts...)
	require.NoError(t, err)
	return g
}

// roundTrip sends a result through JSON, as shards travel between machines.
func roundTrip(t *testing.T, r *analysis.Result) *analysis.Result {
	t.Helper()
	b, err := json.Marshal(r)
	require.NoError(t, err)
	var back analysis.Result
	require.NoError(t, json.Unmarshal(b, &back))
	return &back
}

// Four shards, played on their own and merged, give exactly the report of
// one run.
func TestShardsMergeToOneRun(t *testing.T) {
	for _, tc := range []struct {
		game string
		opts []host.Option
		n    int
	}{
		{"yematatu", []host.Option{host.WithVariant("square")}, 120},
		{"tsoro", []host.Option{host.WithVariant("4x6")}, 12},
	} {
		t.Run(tc.game, func(t *testing.T) {
			g := load(t, tc.game, tc.opts...)
			ctx := context.Background()
			one, err := analysis.Run(ctx, g, analysis.WithGames(tc.n), analysis.WithSeed(42))
			require.NoError(t, err)
			var parts []*analysis.Result
			for i := 3; i >= 0; i-- { // any order
				part, err := analysis.Run(ctx, g, analysis.WithGames(tc.n), analysis.WithSeed(42),
					analysis.WithShard(i, 4), analysis.WithParallel(i+1))
				require.NoError(t, err)
				assert.False(t, part.Complete())
				parts = append(parts, roundTrip(t, part))
			}
			merged, err := analysis.Merge(parts...)
			require.NoError(t, err)
			assert.True(t, merged.Complete())
			assert.Equal(t, []int{0, 1, 2, 3}, merged.Done)
			// Parameters come back from JSON as float64: compare the JSON.
			want, got := analysis.Summarize(one), analysis.Summarize(merged)
			wb, _ := json.Marshal(want)
			gb, _ := json.Marshal(got)
			assert.JSONEq(t, string(wb), string(gb))
			assert.Equal(t, tc.n, got.Games)
		})
	}
}

func TestParallelChangesNothing(t *testing.T) {
	g := load(t, "yematatu")
	a, err := analysis.Run(context.Background(), g, analysis.WithGames(60), analysis.WithSeed(3))
	require.NoError(t, err)
	b, err := analysis.Run(context.Background(), g, analysis.WithGames(60), analysis.WithSeed(3), analysis.WithParallel(4))
	require.NoError(t, err)
	assert.Equal(t, analysis.Summarize(a), analysis.Summarize(b))
	c, err := analysis.Run(context.Background(), g, analysis.WithGames(60), analysis.WithSeed(4))
	require.NoError(t, err)
	assert.NotEqual(t, a.Lengths, c.Lengths, "another seed plays other games")
}

func TestMeasuresAddUp(t *testing.T) {
	g := load(t, "gore")
	r, err := analysis.Run(context.Background(), g, analysis.WithGames(10), analysis.WithMaxPlies(60))
	require.NoError(t, err)
	rep := analysis.Summarize(r)
	assert.Equal(t, 10, rep.Games)
	assert.Equal(t, rep.Games, rep.Wins[0]+rep.Wins[1]+rep.Draws+(rep.Games-rep.Completion.Count))
	ended := 0
	for _, e := range rep.Endings {
		ended += e.Games
	}
	assert.Equal(t, rep.Completion.Count, ended)
	assert.LessOrEqual(t, rep.PliesMax, 60)
	assert.LessOrEqual(t, rep.PliesMedian, rep.PliesP95)
	assert.LessOrEqual(t, rep.PliesP95, rep.PliesMax)
	assert.GreaterOrEqual(t, rep.DecisionsPerTurn, 1.0)
	assert.Greater(t, rep.BranchingMean, 1.0)
	assert.True(t, rep.HasCaptures)
	assert.LessOrEqual(t, rep.P1RateLow, rep.P1Rate)
	assert.GreaterOrEqual(t, rep.P1RateHigh, rep.P1Rate)
}

func TestWilson(t *testing.T) {
	for _, tc := range []struct {
		k, n      int
		low, high float64
	}{
		{0, 10, 0, 0.2775},
		{5, 10, 0.2366, 0.7634},
		{10, 10, 0.7225, 1},
		{81, 263, 0.2553, 0.3662},
	} {
		r := analysis.NewRate(tc.k, tc.n)
		assert.InDelta(t, tc.low, r.Low, 5e-5, "%d/%d", tc.k, tc.n)
		assert.InDelta(t, tc.high, r.High, 5e-5, "%d/%d", tc.k, tc.n)
		assert.InDelta(t, float64(tc.k)/float64(tc.n), r.Rate, 1e-12)
	}
	assert.Equal(t, analysis.Rate{}, analysis.NewRate(0, 0))
}

func TestLengthStatistics(t *testing.T) {
	r := &analysis.Result{Wins: []int{0, 0}, Lengths: map[int]int{10: 3, 20: 1, 100: 1}, Played: 5}
	rep := analysis.Summarize(r)
	assert.InDelta(t, 30.0, rep.PliesMean, 1e-12)
	assert.InDelta(t, 39.370039, rep.PliesSD, 1e-6)
	assert.Equal(t, 10, rep.PliesMedian)
	assert.Equal(t, 100, rep.PliesP95)
	assert.Equal(t, 100, rep.PliesMax)
}

func TestMergeRefusesMixedRuns(t *testing.T) {
	g := load(t, "yematatu")
	ctx := context.Background()
	a, err := analysis.Run(ctx, g, analysis.WithGames(8), analysis.WithShard(0, 2))
	require.NoError(t, err)
	b, err := analysis.Run(ctx, g, analysis.WithGames(8), analysis.WithShard(1, 2), analysis.WithSeed(9))
	require.NoError(t, err)
	_, err = analysis.Merge(a, b)
	var me *analysis.MergeError
	require.ErrorAs(t, err, &me)
	assert.Contains(t, err.Error(), "seed 1 and 9")
	_, err = analysis.Merge(a, a)
	assert.ErrorContains(t, err, "shard 0/2 of yematatu comes twice")
	_, err = analysis.Merge()
	assert.ErrorContains(t, err, "no results")
}

func TestRunErrors(t *testing.T) {
	g := load(t, "yematatu")
	ctx := context.Background()
	_, err := analysis.Run(ctx, g, analysis.WithPlayers("random", "genius"))
	assert.ErrorContains(t, err, `player "genius": unknown player (known: random)`)
	_, err = analysis.Run(ctx, g, analysis.WithShard(4, 4))
	assert.ErrorContains(t, err, "shard 4/4")
	_, err = analysis.Run(ctx, g, analysis.WithGames(0))
	assert.ErrorContains(t, err, "0 games")
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	_, err = analysis.Run(cancelled, g)
	assert.ErrorIs(t, err, context.Canceled)
}

func ExampleRun() {
	g, err := games.Library().Load("yematatu", host.WithVariant("square"))
	if err != nil {
		panic(err)
	}
	res, err := analysis.Run(context.Background(), g, analysis.WithGames(200), analysis.WithSeed(1))
	if err != nil {
		panic(err)
	}
	rep := analysis.Summarize(res)
	fmt.Printf("%d games, Player 1 wins %.0f%% [%.0f%%, %.0f%%]\n", rep.Games, 100*rep.P1Rate, 100*rep.P1RateLow, 100*rep.P1RateHigh)
	// Output: 200 games, Player 1 wins 57% [50%, 64%]
}

// FuzzMerge reads shard results as JSON, as `matombo analyze --merge`
// does: whatever the file holds, merging and summarizing must not panic.
func FuzzMerge(f *testing.F) {
	g, err := games.Library().Load("yematatu")
	if err != nil {
		f.Fatal(err)
	}
	r, err := analysis.Run(context.Background(), g, analysis.WithGames(6), analysis.WithShard(1, 2))
	if err != nil {
		f.Fatal(err)
	}
	b, _ := json.Marshal(r)
	f.Add(b)
	f.Add([]byte(`{"wins":[],"played":1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var r analysis.Result
		if json.Unmarshal(data, &r) != nil {
			return
		}
		m, err := analysis.Merge(&r)
		if err != nil {
			return
		}
		rep := analysis.Summarize(m)
		if rep.Games != r.Played {
			t.Fatalf("merged %d games into %d", r.Played, rep.Games)
		}
	})
}
