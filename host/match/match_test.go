package match

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/player"
)

func load(t *testing.T, name string, opts ...host.Option) *host.Game {
	t.Helper()
	g, err := games.Library().Load(name, opts...)
	require.NoError(t, err)
	return g
}

// failing is a player that fails at its first move.
type failing struct{}

func (failing) Choose(context.Context, *host.State) (host.Move, error) {
	return host.NoMove, errors.New("this player always fails")
}

// Seats alternate, every game is counted once, the same seed plays the
// same match whatever the parallelism, and a failing game is recorded
// while the others go on.
func TestRun(t *testing.T) {
	g := load(t, "yematatu")
	greedy, err := Spec(g, "greedy")
	require.NoError(t, err)
	random, err := Spec(g, "random")
	require.NoError(t, err)
	one, err := Run(context.Background(), g, greedy, random, WithGames(8), WithSeed(3))
	require.NoError(t, err)
	two, err := Run(context.Background(), g, greedy, random, WithGames(8), WithSeed(3), WithParallel(3))
	require.NoError(t, err)
	require.Len(t, one.Games, 8)
	for i := range one.Games {
		a, b := one.Games[i], two.Games[i]
		assert.Equal(t, i%2, a.First, "seats alternate")
		assert.Equal(t, i, a.Index)
		a.Think, b.Think = [2]time0{}, [2]time0{}
		assert.Equal(t, a, b, "game %d is the same with three goroutines", i)
	}
	sum := one.Summary()
	assert.Equal(t, 8, sum.Games)
	assert.Equal(t, 8, sum.Wins[0]+sum.Wins[1]+sum.Draws)

	// Entrant 1 fails in the games where it is made with an odd seed.
	flaky := Entrant{Name: "flaky", New: func(seed uint64) (player.Player, error) {
		if seed%2 == 1 {
			return failing{}, nil
		}
		return player.NewRandom(seed), nil
	}}
	res, err := Run(context.Background(), g, greedy, flaky, WithGames(10))
	require.NoError(t, err)
	sum = res.Summary()
	require.NotZero(t, sum.Failed, "some seeds are odd")
	assert.Equal(t, 10, sum.Games+sum.Failed)
	for _, err := range res.Failures() {
		var pe *PlayError
		require.ErrorAs(t, err, &pe)
		assert.Contains(t, err.Error(), "flaky as Player")
		assert.Contains(t, err.Error(), "this player always fails")
	}
}

// A match counts the work of each entrant's searches (alpha-beta's nodes)
// the same on every run, and nothing for a player that does not search.
func TestRunSearch(t *testing.T) {
	g := load(t, "kalah")
	ab, err := Spec(g, "alphabeta:depth=2")
	require.NoError(t, err)
	random, err := Spec(g, "random")
	require.NoError(t, err)
	var sums [2]Summary
	for i := range sums {
		res, err := Run(context.Background(), g, ab, random, WithGames(2))
		require.NoError(t, err)
		sums[i] = res.Summary()
	}
	assert.Greater(t, sums[0].SearchPerMove[0], 1.0, "depth 2 searches more than one node a move")
	assert.Zero(t, sums[0].SearchPerMove[1])
	assert.Equal(t, sums[0].SearchPerMove, sums[1].SearchPerMove)
}

// An opening of random plies comes before the players' moves: games 1
// and 2 (3 and 4, ...) start from the same position, other pairs from
// others, the same with any parallelism.
func TestRunOpening(t *testing.T) {
	g := load(t, "kalah")
	var mu sync.Mutex
	first := map[uint64]uint64{} // a player's seed: the position of its first move
	entrant := Entrant{Name: "first", New: func(seed uint64) (player.Player, error) {
		return firstPosition{seed: seed, mu: &mu, seen: first}, nil
	}}
	const games = 8
	res, err := Run(context.Background(), g, entrant, entrant, WithGames(games), WithOpening(6), WithParallel(3))
	require.NoError(t, err)
	starts := map[uint64]bool{}
	for i, gm := range res.Games {
		assert.GreaterOrEqual(t, gm.Plies, 6, "game %d has its opening", i+1)
		// Player 1 of game i moves first after the opening.
		k := first[GameSeed(GameSeed(1, i), 1)]
		starts[k] = true
		if i%2 == 1 {
			assert.Equal(t, first[GameSeed(GameSeed(1, i-1), 1)], k, "games %d and %d share their opening", i, i+1)
		}
	}
	assert.Len(t, starts, games/2, "each pair has an opening of its own")
	_, err = Run(context.Background(), g, entrant, entrant, WithOpening(-1))
	assert.ErrorContains(t, err, "an opening of -1 plies")
}

// firstPosition plays the first legal move and notes the key of the
// position of its first move under its seed.
type firstPosition struct {
	seed uint64
	mu   *sync.Mutex
	seen map[uint64]uint64
}

func (f firstPosition) Choose(_ context.Context, s *host.State) (host.Move, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.seen[f.seed]; !ok {
		f.seen[f.seed] = s.Key()
	}
	return s.Moves()[0], nil
}

// time0 is the zero thinking time, for comparing records.
type time0 = time.Duration

// Run refuses what it cannot play and stops with ctx.
func TestRunErrors(t *testing.T) {
	g := load(t, "yematatu")
	random, err := Spec(g, "random")
	require.NoError(t, err)
	_, err = Run(context.Background(), g, random, random, WithGames(0))
	assert.ErrorContains(t, err, "0 games")
	_, err = Run(context.Background(), g, random, Entrant{Name: "none"})
	assert.ErrorContains(t, err, "no New function")
	_, err = Spec(g, "minimax")
	var se *player.SpecError
	assert.ErrorAs(t, err, &se)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := Run(ctx, g, random, random, WithGames(5))
	assert.ErrorIs(t, err, context.Canceled)
	require.NotNil(t, res)
	assert.Empty(t, res.Games)
}

// Play stops at the ply cap and names the seat and ply of a failure.
func TestPlay(t *testing.T) {
	g := load(t, "tsoro")
	s := g.Start()
	players := []player.Player{player.NewRandom(1), player.NewRandom(2)}
	plies := 0
	require.NoError(t, Play(context.Background(), s, players, 7, nil, func(*host.State, host.Move) { plies++ }))
	assert.Equal(t, 7, s.Ply())
	assert.Equal(t, 7, plies)

	err := Play(context.Background(), load(t, "yematatu").Start(), []player.Player{player.NewRandom(1), failing{}}, 100, nil, nil)
	var pe *PlayError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, 2, pe.Seat)
	assert.Equal(t, "Player 2 at ply 2: this player always fails", err.Error())

	assert.ErrorContains(t, Play(context.Background(), g.Start(), players[:1], 10, nil, nil), "2 players, 1 were given")
}

func TestPlyCap(t *testing.T) {
	assert.Equal(t, 5, PlyCap(load(t, "kalah"), 5))
	assert.Equal(t, 1001, PlyCap(load(t, "kalah"), 0))
}

func TestGameSeed(t *testing.T) {
	seen := map[uint64]bool{}
	for seed := uint64(0); seed < 4; seed++ {
		for i := 0; i < 100; i++ {
			s := GameSeed(seed, i)
			assert.False(t, seen[s])
			seen[s] = true
			assert.Equal(t, s, GameSeed(seed, i))
		}
	}
}

// The Wilson interval and the Elo interval are ordered and finite for
// every score, and the Elo difference is zero at an even score.
func TestIntervals(t *testing.T) {
	for _, tc := range []struct{ score, n float64 }{{0, 10}, {0.5, 40}, {0.95, 40}, {1, 10}, {0.25, 4}} {
		low, high := Wilson(tc.score, tc.n)
		assert.True(t, 0 <= low && low <= tc.score && tc.score <= high && high <= 1, "%v: %v %v", tc, low, high)
		elo, elow, ehigh := EloInterval(tc.score, tc.n)
		assert.LessOrEqual(t, elow, elo, tc)
		assert.LessOrEqual(t, elo, ehigh, tc)
		assert.Less(t, ehigh-elow, 5000.0, tc)
	}
	low, high := Wilson(0.5, 40)
	assert.InDelta(t, 0.3519, low, 1e-4) // the textbook value for 20 of 40
	assert.InDelta(t, 0.6481, high, 1e-4)
	elo, low, high := EloInterval(0.5, 40)
	assert.Zero(t, elo)
	assert.InDelta(t, -low, high, 0.11)
	assert.InDelta(t, 190.8, Elo(0.75), 0.1) // 400 log10(3)
	assert.Equal(t, fmt.Sprint(MaxElo), fmt.Sprint(Elo(1)))
}
