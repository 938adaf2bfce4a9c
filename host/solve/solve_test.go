package solve_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/solve"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func load(t testing.TB, name string, opts ...host.Option) *host.Game {
	t.Helper()
	lib := games.Library()
	require.NoError(t, lib.AddDir("testdata/games"))
	g, err := lib.Load(name, opts...)
	require.NoError(t, err)
	return g
}

// summary writes what a solution says of a game, for the golden files.
func summary(sol *solve.Solution) string {
	o := sol.Opening()
	return fmt.Sprintf("positions %d, terminal %d\nopening: %s for Player %d in %d plies\ncounts: %+v\n",
		sol.Positions(), sol.Terminals(), o.Value, o.ToMove, o.Plies, sol.Counts())
}

// TestSolveShippedBoards solves Tsoro Yematatu on both boards, checks every
// value against one move of lookahead, and compares the figures with the
// golden files (go test -update rewrites them).
func TestSolveShippedBoards(t *testing.T) {
	for _, variant := range []string{"triangle", "square"} {
		t.Run(variant, func(t *testing.T) {
			g := load(t, "yematatu", host.WithVariant(variant))
			sol, err := solve.Solve(context.Background(), g)
			require.NoError(t, err)
			require.NoError(t, sol.Check(context.Background(), g))
			golden := filepath.Join("testdata", "yematatu-"+variant+".golden")
			got := summary(sol)
			if *update {
				require.NoError(t, os.WriteFile(golden, []byte(got), 0o644))
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err)
			assert.Equal(t, string(want), got)
		})
	}
}

// reference solves the pile game `twice` by plain recursion: the mover
// takes one stone (the opponent moves next) or two (and moves again); the
// last stone loses. It returns the value for the mover and the plies to the
// end, the winner hurrying and the loser delaying.
func reference(n int) (solve.Value, int) {
	best := solve.MoveValue{Value: solve.Loss, Plies: -1}
	for take := 1; take <= min(2, n); take++ {
		mv := solve.MoveValue{Value: solve.Loss, Plies: 1}
		if n > take {
			v, d := reference(n - take)
			if take == 1 {
				v = -v // the opponent moves next
			}
			mv = solve.MoveValue{Value: v, Plies: d + 1}
		}
		if best.Plies < 0 || solve.Better(mv, best) {
			best = mv
		}
	}
	return best.Value, best.Plies
}

// TestSolveFollowsToMove solves a game where a player may move twice in a
// row and compares every position with a plain recursion.
func TestSolveFollowsToMove(t *testing.T) {
	for _, pile := range []int{1, 2, 5, 9} {
		t.Run(fmt.Sprint(pile), func(t *testing.T) {
			g := load(t, "twice", host.WithParam("pile", pile))
			sol, err := solve.Solve(context.Background(), g)
			require.NoError(t, err)
			require.NoError(t, sol.Check(context.Background(), g))
			seen := 0
			for n := 1; n <= pile; n++ {
				for p := 1; p <= 2; p++ {
					s, err := g.NewState(host.Position{Counts: []int{n}, Owners: []int{0}, Captured: []int{0, 0}, Hand: []int{0, 0}, ToMove: p})
					require.NoError(t, err)
					e, ok := sol.Lookup(s)
					if !ok {
						continue
					}
					seen++
					v, d := reference(n)
					assert.Equal(t, v, e.Value, "pile %d, Player %d to move", n, p)
					assert.Equal(t, d, e.Plies, "pile %d, Player %d to move", n, p)
					assert.Equal(t, p, e.ToMove)
				}
			}
			assert.Positive(t, seen)
		})
	}
}

// TestSolveEndlessPlayIsADraw: when a stone may go back, the side that
// would lose keeps putting stones back, so positions are drawn.
func TestSolveEndlessPlayIsADraw(t *testing.T) {
	g := load(t, "twice", host.WithVariant("refill"), host.WithParam("pile", 4))
	sol, err := solve.Solve(context.Background(), g)
	require.NoError(t, err)
	require.NoError(t, sol.Check(context.Background(), g))
	assert.Positive(t, sol.Counts().Drawn)
	assert.Equal(t, -1, sol.Opening().Plies)
}

func TestSolveRefusesLargeGames(t *testing.T) {
	g := load(t, "yematatu", host.WithVariant("square"))
	_, err := solve.Solve(context.Background(), g, solve.WithMaxPositions(100))
	var tl *solve.TooLargeError
	require.ErrorAs(t, err, &tl)
	assert.Equal(t, 100, tl.MaxPositions)
	assert.Positive(t, tl.EstimateBytes)
	assert.Contains(t, err.Error(), "more than 100 positions")
	assert.Equal(t, solve.LimitPositions, tl.Limit)
	assert.Contains(t, err.Error(), "solve.WithMaxPositions")
	assert.NotContains(t, err.Error(), "--", "the library names its Go options, not the command's flags")
}

func TestSolveStopsWhenCancelled(t *testing.T) {
	g := load(t, "yematatu", host.WithVariant("square"))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := solve.Solve(ctx, g)
	assert.ErrorIs(t, err, context.Canceled)
}

func TestReadWriteRoundTrip(t *testing.T) {
	g := load(t, "yematatu")
	sol, err := solve.Solve(context.Background(), g)
	require.NoError(t, err)
	var buf bytes.Buffer
	_, err = sol.WriteTo(&buf)
	require.NoError(t, err)
	data := buf.Bytes()

	back, err := solve.Read(bytes.NewReader(data), g)
	require.NoError(t, err)
	assert.Equal(t, summary(sol), summary(back))
	require.NoError(t, back.Check(context.Background(), g))

	other := load(t, "yematatu", host.WithVariant("square"))
	_, err = solve.Read(bytes.NewReader(data), other)
	assert.ErrorContains(t, err, "not of this yematatu")

	for _, cut := range []int{0, 5, len(data) / 2, len(data) - 1} {
		_, err := solve.Read(bytes.NewReader(data[:cut]), g)
		assert.Error(t, err, "cut at %d", cut)
	}
}

func TestCache(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	g := load(t, "yematatu")
	_, err := solve.LoadCached(g)
	assert.ErrorIs(t, err, fs.ErrNotExist)
	sol, err := solve.Solve(context.Background(), g)
	require.NoError(t, err)
	path, err := solve.SaveCached(sol, g)
	require.NoError(t, err)
	assert.True(t, strings.HasSuffix(path, ".solution"), path)
	back, err := solve.LoadCached(g)
	require.NoError(t, err)
	assert.Equal(t, summary(sol), summary(back))
}

// TestCacheFolder: a Cache keeps its files in its folder; it trusts the
// files it wrote itself (their checksum proves them), while another Cache
// checks them against the rules.
func TestCacheFolder(t *testing.T) {
	home := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", home)
	t.Setenv("HOME", home)
	dir := t.TempDir()
	g := load(t, "twice", host.WithParam("pile", 5))
	sol, err := solve.Solve(context.Background(), g)
	require.NoError(t, err)
	c := solve.NewCache(dir)
	got, err := c.Dir()
	require.NoError(t, err)
	assert.Equal(t, dir, got)
	path, err := c.Save(sol, g)
	require.NoError(t, err)
	assert.Equal(t, dir, filepath.Dir(path))
	same, err := solve.CachePath(g, solve.WithCacheDir(dir))
	require.NoError(t, err)
	assert.Equal(t, path, same)
	back, err := solve.LoadCached(g, solve.WithCacheDir(dir))
	require.NoError(t, err)
	assert.Equal(t, summary(sol), summary(back))

	solve.SwapWinsAndLosses(sol)
	_, err = c.Save(sol, g)
	require.NoError(t, err)
	_, err = c.Load(context.Background(), g)
	require.NoError(t, err, "the Cache that wrote it does not check it again")
	_, err = solve.NewCache(dir).Load(context.Background(), g)
	var ce *solve.CacheError
	require.ErrorAs(t, err, &ce, "another Cache checks it")

	held, err := os.ReadDir(home)
	require.NoError(t, err)
	assert.Empty(t, held, "the user's cache is not touched")
}

func TestCachePathPerRules(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	tri, err := solve.CachePath(load(t, "yematatu", host.WithVariant("triangle")))
	require.NoError(t, err)
	sq, err := solve.CachePath(load(t, "yematatu", host.WithVariant("square")))
	require.NoError(t, err)
	assert.NotEqual(t, tri, sq)
	again, err := solve.CachePath(load(t, "yematatu", host.WithVariant("triangle")))
	require.NoError(t, err)
	assert.Equal(t, tri, again)
}

// TestCheckFindsAWrongValue: a solution whose wins and losses were
// swapped, written with a right checksum, reads back, and Check finds it.
func TestCheckFindsAWrongValue(t *testing.T) {
	g := load(t, "twice", host.WithParam("pile", 5))
	sol, err := solve.Solve(context.Background(), g)
	require.NoError(t, err)
	solve.SwapWinsAndLosses(sol)
	var buf bytes.Buffer
	_, err = sol.WriteTo(&buf)
	require.NoError(t, err)
	bad, err := solve.Read(bytes.NewReader(buf.Bytes()), g)
	require.NoError(t, err)
	var ie *solve.InconsistencyError
	assert.ErrorAs(t, bad.Check(context.Background(), g), &ie)
}

// TestCacheIsCheckedBeforeUse: a cache file changed on disk is refused
// with the reason, whether its checksum is wrong (a byte flipped) or right
// (wins and losses swapped by someone who rewrote the file).
func TestCacheIsCheckedBeforeUse(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	g := load(t, "yematatu", host.WithVariant("square"))
	sol, err := solve.Solve(context.Background(), g)
	require.NoError(t, err)
	path, err := solve.SaveCached(sol, g)
	require.NoError(t, err)
	data, err := os.ReadFile(path)
	require.NoError(t, err)

	flipped := bytes.Clone(data)
	flipped[len(flipped)/2] ^= 0x40
	require.NoError(t, os.WriteFile(path, flipped, 0o644))
	_, err = solve.LoadCached(g)
	var ce *solve.CacheError
	require.ErrorAs(t, err, &ce)
	assert.Contains(t, err.Error(), "checksum")

	solve.SwapWinsAndLosses(sol)
	_, err = solve.SaveCached(sol, g)
	require.NoError(t, err)
	_, err = solve.LoadCached(g)
	require.ErrorAs(t, err, &ce)
	assert.Contains(t, err.Error(), "do not agree with the rules")
	var ie *solve.InconsistencyError
	assert.ErrorAs(t, err, &ie)
}

// TestPerfectNeverDoesWorse plays the best moves against random ones in
// both seats: the perfect side never ends worse than the opening's value.
func TestPerfectNeverDoesWorse(t *testing.T) {
	for _, variant := range []string{"triangle", "square"} {
		g := load(t, "yematatu", host.WithVariant(variant))
		sol, err := solve.Solve(context.Background(), g)
		require.NoError(t, err)
		for seat := 1; seat <= 2; seat++ {
			want := sol.Opening().Value.For(seat, 1)
			for seed := uint64(0); seed < 20; seed++ {
				rng := rand.New(rand.NewPCG(seed, 7))
				s := g.Start()
				for !s.Over() {
					if s.ToMove() == seat {
						mv, err := sol.Best(s)
						require.NoError(t, err)
						require.NoError(t, s.Apply(mv.Move))
					} else {
						require.NoError(t, s.Apply(s.Moves()[rng.IntN(len(s.Moves()))]))
					}
				}
				got := solve.Draw
				if w := s.Outcome().Winner; w == seat {
					got = solve.Win
				} else if w != 0 {
					got = solve.Loss
				}
				assert.GreaterOrEqual(t, got, want, "%s, perfect in seat %d, seed %d", variant, seat, seed)
			}
		}
	}
}

func TestMovesOfAFinishedGame(t *testing.T) {
	g := load(t, "yematatu")
	sol, err := solve.Solve(context.Background(), g)
	require.NoError(t, err)
	s := g.Start()
	for _, tok := range strings.Fields("b2 c1 a1 b3 c2") {
		require.NoError(t, s.Play(tok))
	}
	_, err = sol.Moves(s)
	assert.ErrorContains(t, err, "over")
	e, ok := sol.Lookup(s)
	require.True(t, ok)
	assert.True(t, e.Terminal)
	assert.Equal(t, solve.Loss, e.Value) // Player 2 to move has lost
}

func TestValueString(t *testing.T) {
	for v, want := range map[solve.Value]string{solve.Win: "win", solve.Draw: "draw", solve.Loss: "loss"} {
		assert.Equal(t, want, v.String())
	}
}

func BenchmarkSolve(b *testing.B) {
	for _, variant := range []string{"triangle", "square"} {
		b.Run(variant, func(b *testing.B) {
			g := load(b, "yematatu", host.WithVariant(variant))
			for b.Loop() {
				if _, err := solve.Solve(context.Background(), g); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// FuzzRead reads solution files: whatever a file holds, Read returns a
// solution or an error, and a solution it returns answers lookups.
func FuzzRead(f *testing.F) {
	g := load(f, "twice", host.WithParam("pile", 3))
	sol, err := solve.Solve(context.Background(), g)
	if err != nil {
		f.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := sol.WriteTo(&buf); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Add([]byte("matombo solution 2\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		back, err := solve.Read(bytes.NewReader(data), g)
		if err != nil {
			return
		}
		if back.Positions() > 0 {
			back.Opening()
		}
		back.Lookup(g.Start())
		_ = back.Check(context.Background(), g)
	})
}

// TestSearchStopsAtACycle: the search engine refuses a game whose
// positions repeat on a line of play, naming the retrograde engine, as
// soon as the first position repeats (a line of the search is short).
func TestSearchStopsAtACycle(t *testing.T) {
	g := load(t, "shuttle")
	_, err := solve.Solve(context.Background(), g, solve.WithEngine(solve.Search))
	var ce *solve.CycleError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, "shuttle", ce.Game)
	assert.Contains(t, err.Error(), "solve.Retrograde")

	sol, err := solve.Solve(context.Background(), g, solve.WithEngine(solve.Retrograde))
	require.NoError(t, err, "the retrograde engine solves it")
	assert.Positive(t, sol.Counts().Drawn)
}
