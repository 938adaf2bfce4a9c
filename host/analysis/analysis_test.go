package analysis_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strings"
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
		{"kalah", nil, 120}, // a lead and margins read from the score
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

	// A script that fails: the game is counted from 1, as people count.
	lib := host.NewLibrary()
	require.NoError(t, lib.AddDir(filepath.Join("..", "testdata", "standin"))) // stuck: Player 2's play fails
	stuck, err := lib.Load("stuck")
	require.NoError(t, err)
	_, err = analysis.Run(ctx, stuck)
	assert.ErrorContains(t, err, "game 1 (seed ")
	assert.ErrorContains(t, err, "player 2 cannot move")
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
	// A result whose lead and margins are read from the score.
	k, err := games.Library().Load("kalah")
	if err != nil {
		f.Fatal(err)
	}
	if r, err = analysis.Run(context.Background(), k, analysis.WithGames(6), analysis.WithShard(1, 2)); err != nil {
		f.Fatal(err)
	}
	b, _ = json.Marshal(r)
	f.Add(b)
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

// shardOf is a hand-made shard d of n of a run of games games, all won by
// Player 1 in 10 plies.
func shardOf(games, d, n int) *analysis.Result {
	played := 0
	if d < games {
		played = (games-d-1)/n + 1
	}
	r := &analysis.Result{Game: "g", Games: games, P1: "random", P2: "random", MaxPlies: 100, Shards: n, Done: []int{d},
		Played: played, Wins: []int{played, 0}, Lengths: map[int]int{}, Reasons: map[string]int{}, Notes: map[string]int{}}
	if played > 0 {
		r.Lengths[10] = played
		r.Reasons["three in a row"] = played
	}
	return r
}

// Files are data from another machine: counts that add up only after
// wrapping around, lengths beyond the ply cap, more wins than games and
// more games than the shards play are refused.
func TestMergeRefusesBadCounts(t *testing.T) {
	const big = math.MaxInt
	for _, tc := range []struct {
		name  string
		edit  func(r *analysis.Result)
		parts int
		want  string
	}{
		{"wins that wrap around", func(r *analysis.Result) { r.Wins = []int{big, big}; r.Draws = 2; r.Capped = 0 }, 1, "do not add up"},
		{"lengths that wrap around", func(r *analysis.Result) { r.Lengths = map[int]int{10: big, 11: big, 12: 2} }, 1, "do not add up"},
		{"plies beyond the cap", func(r *analysis.Result) { r.Lengths = map[int]int{101: r.Played} }, 1, "beyond its ply cap of 100"},
		{"more wins than games", func(r *analysis.Result) { r.Wins[0] += 5; r.Played += 5; r.Lengths[10] += 5 }, 1, "counts 15 games, but its shards play 10"},
		{"more games than the run", func(r *analysis.Result) { r.Games = 5 }, 1, "do not add up"},
		{"a shard twice in one result", func(r *analysis.Result) { r.Done = []int{0, 0} }, 1, "comes twice"},
		{"a turn count that wraps across shards", func(r *analysis.Result) { r.Turns = big }, 2, "add up to more"},
		{"a ply cap of 0", func(r *analysis.Result) { r.MaxPlies = 0 }, 1, "ply cap of 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var parts []*analysis.Result
			for d := range tc.parts {
				r := shardOf(20, d, 2)
				tc.edit(r)
				parts = append(parts, r)
			}
			_, err := analysis.Merge(parts...)
			var me *analysis.MergeError
			require.ErrorAs(t, err, &me)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	m, err := analysis.Merge(shardOf(20, 0, 2), shardOf(20, 1, 2))
	require.NoError(t, err)
	assert.True(t, m.Complete())
	assert.Equal(t, 20, m.Played)
}

// 250,000 shards merge in time linear in their number (the check for a
// shard given twice was quadratic), and the shards missing from a run of
// a billion are named in a short message.
func TestMergeManyShards(t *testing.T) {
	const n = 250_000
	var m analysis.Merger
	for d := n - 1; d >= 0; d-- {
		require.NoError(t, m.Add(shardOf(n, d, n)))
	}
	r, err := m.Result()
	require.NoError(t, err)
	assert.True(t, r.Complete())
	assert.Equal(t, n, r.Played)
	assert.Equal(t, 0, r.Done[0])
	assert.Error(t, m.Add(shardOf(n, 7, n)), "a shard given twice")

	one, err := analysis.Merge(shardOf(3, 0, 1_000_000_000))
	require.NoError(t, err)
	msg := one.Missing(10)
	assert.True(t, strings.HasPrefix(msg, "1/1000000000, 2/1000000000,"), msg)
	assert.True(t, strings.HasSuffix(msg, "10/1000000000 and 999999989 more"), msg)
	assert.Less(t, len(msg), 300)
}

// A run whose shards are far more than int can step over plays its one
// game without looping for ever (i += N wrapped around).
func TestRunHugeShardCount(t *testing.T) {
	g := load(t, "yematatu")
	r, err := analysis.Run(context.Background(), g, analysis.WithGames(math.MaxInt), analysis.WithShard(math.MaxInt-1, math.MaxInt))
	require.NoError(t, err)
	assert.Equal(t, 1, r.Played)
}
