package solve_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/solve"
)

// kalahRef plays Kalah(m,n) from docs/rules/kalah.md (K2 to K6, K8, K9)
// in plain Go, independently of the rule script, and solves it by
// recursion with a memo: the margin (Player 1's total minus Player 2's at
// the end) under perfect play.
type kalahRef struct {
	m     int
	empty bool // K9
	memo  map[string]int
}

// board: pits 0..m-1 are Player 1's, m is their store, m+1..2m are Player
// 2's (m+1 faces m-1... as b(m)..b1 in sowing order), 2m+1 is theirs.
type kalahPos struct {
	b    []int
	turn int // 0 or 1
}

func (k *kalahRef) store(p int) int { return p*(k.m+1) + k.m }

func (k *kalahRef) own(p, i int) bool { return i >= p*(k.m+1) && i < p*(k.m+1)+k.m }

// opposite: Player 1's pit i (0-based from a1) faces Player 2's b(i+1),
// which in sowing order is at m+1 + (m-1-i).
func (k *kalahRef) opposite(i int) int { return 2*k.m - i }

func (k *kalahRef) sideEmpty(b []int, p int) bool {
	for i := 0; i < k.m; i++ {
		if b[p*(k.m+1)+i] > 0 {
			return false
		}
	}
	return true
}

// play sows pit i (an index of the mover's) and returns the position
// after it and whether the game is over.
func (k *kalahRef) play(pos kalahPos, i int) (kalahPos, bool) {
	b := append([]int(nil), pos.b...)
	p := pos.turn
	seeds := b[i]
	b[i] = 0
	j := i
	n := len(b)
	var wasEmpty bool
	for seeds > 0 {
		j = (j + 1) % n
		if j == k.store(1-p) {
			continue
		}
		wasEmpty = b[j] == 0
		b[j]++
		seeds--
	}
	next := 1 - p
	if j == k.store(p) {
		next = p // K3
	} else if wasEmpty && k.own(p, j) { // K4, K9
		o := k.opposite(j)
		if b[o] > 0 || k.empty {
			b[k.store(p)] += b[o] + b[j]
			b[o], b[j] = 0, 0
		}
	}
	over := k.sideEmpty(b, 0) || k.sideEmpty(b, 1) // K5
	return kalahPos{b: b, turn: next}, over
}

// final is Player 1's margin at the end (K6: pits and store).
func (k *kalahRef) final(b []int) int {
	t := [2]int{}
	for p := 0; p < 2; p++ {
		for i := 0; i <= k.m; i++ {
			t[p] += b[p*(k.m+1)+i]
		}
	}
	return t[0] - t[1]
}

// value is Player 1's margin under perfect play.
func (k *kalahRef) value(pos kalahPos) int {
	key := fmt.Sprint(pos.b, pos.turn)
	if v, ok := k.memo[key]; ok {
		return v
	}
	best, first := 0, true
	for i := 0; i < k.m; i++ {
		pit := pos.turn*(k.m+1) + i
		if pos.b[pit] == 0 {
			continue
		}
		next, over := k.play(pos, pit)
		v := k.final(next.b)
		if !over {
			v = k.value(next)
		}
		if first || (pos.turn == 0 && v > best) || (pos.turn == 1 && v < best) {
			best, first = v, false
		}
	}
	k.memo[key] = best
	return best
}

func kalahRefValue(m, n int, empty bool) int {
	k := &kalahRef{m: m, empty: empty, memo: map[string]int{}}
	b := make([]int, 2*m+2)
	for p := 0; p < 2; p++ {
		for i := 0; i < m; i++ {
			b[p*(m+1)+i] = n
		}
	}
	return k.value(kalahPos{b: b})
}

// kalahSolved are the margins for Player 1 of Kalah(m,n) with empty
// captures (K9) that both engines and the plain recursion above find.
// They run in seconds; docs/analysis.md has the larger ones.
var kalahSolved = []struct{ m, n, margin int }{
	{1, 1, 0}, {1, 2, -2}, {1, 3, 6}, {1, 4, -2}, {1, 5, 2}, {1, 6, 0},
	{2, 1, 2}, {2, 2, -2}, {2, 3, -2}, {2, 4, -12}, {2, 5, 6}, {2, 6, 8},
	{3, 1, 0}, {3, 2, 4}, {3, 3, 2},
}

func loadKalah(t testing.TB, m, n int, empty bool) *host.Game {
	return load(t, "kalah", host.WithParam("pits", m), host.WithParam("seeds", n), host.WithParam("empty_capture", empty))
}

// TestKalahMargins solves Kalah(m,n) with empty captures with both
// engines and checks the margins against the plain recursion and the
// table above.
func TestKalahMargins(t *testing.T) {
	for _, c := range kalahSolved {
		t.Run(fmt.Sprintf("Kalah(%d,%d)", c.m, c.n), func(t *testing.T) {
			t.Setenv("XDG_CACHE_HOME", t.TempDir())
			g := loadKalah(t, c.m, c.n, true)
			want := kalahRefValue(c.m, c.n, true)
			assert.Equal(t, c.margin, want, "the recursion")
			for _, e := range []solve.Engine{solve.Retrograde, solve.Search} {
				sol, err := solve.Solve(context.Background(), g, solve.WithEngine(e))
				require.NoError(t, err, e)
				o := sol.Opening()
				assert.Equal(t, want, o.Margin, "%s engine", e)
				wantValue := solve.Draw
				if want > 0 {
					wantValue = solve.Win
				} else if want < 0 {
					wantValue = solve.Loss
				}
				assert.Equal(t, wantValue, o.Value, "%s engine", e)
				require.NoError(t, sol.Check(context.Background(), g))
			}
		})
	}
}

// TestEndgameDatabaseFile: the search engine caches its endgame database;
// a damaged file is rebuilt, and the value does not change.
func TestEndgameDatabaseFile(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	g := loadKalah(t, 2, 3, true)
	opts := []solve.Option{solve.WithEngine(solve.Search), solve.WithEndgame(6)}
	sol, err := solve.Solve(context.Background(), g, opts...)
	require.NoError(t, err)
	assert.Equal(t, -2, sol.Opening().Margin)
	files, err := filepath.Glob(filepath.Join(os.Getenv("XDG_CACHE_HOME"), "matombo", "solve", "kalah-*.endgame-6"))
	require.NoError(t, err)
	require.Len(t, files, 1)
	data, err := os.ReadFile(files[0])
	require.NoError(t, err)
	data[len(data)-40] ^= 1 // a value
	require.NoError(t, os.WriteFile(files[0], data, 0o644))
	again, err := solve.Solve(context.Background(), g, opts...)
	require.NoError(t, err)
	assert.Equal(t, -2, again.Opening().Margin)
	fixed, err := os.ReadFile(files[0])
	require.NoError(t, err)
	assert.NotEqual(t, data, fixed, "rebuilt")
}

// TestSearchNeedsAScore: the search engine solves games whose value is a
// score; Auto keeps the retrograde engine for the others.
func TestSearchNeedsAScore(t *testing.T) {
	g := load(t, "yematatu")
	_, err := solve.Solve(context.Background(), g, solve.WithEngine(solve.Search))
	var ue *solve.UnsupportedError
	require.ErrorAs(t, err, &ue)
	est, err := solve.Estimate(g)
	require.NoError(t, err)
	assert.Equal(t, solve.Retrograde, est.Engine)
}

// TestRefusedBeforeExploring: a solve whose estimate is over the budget
// is refused before anything is explored.
func TestRefusedBeforeExploring(t *testing.T) {
	g := loadKalah(t, 6, 4, true)
	_, err := solve.Solve(context.Background(), g, solve.WithEngine(solve.Search), solve.WithMaxBytes(1<<20))
	var tl *solve.TooLargeError
	require.ErrorAs(t, err, &tl)
	assert.Zero(t, tl.Positions)
	assert.Greater(t, tl.EstimateBytes, int64(1<<20))
}

// TestRetrogradeStopsAtItsBytes: the table engine stops when its table
// would pass the memory budget, whatever the number of positions allowed.
func TestRetrogradeStopsAtItsBytes(t *testing.T) {
	g := load(t, "yematatu", host.WithVariant("square"))
	_, err := solve.Solve(context.Background(), g, solve.WithEngine(solve.Retrograde), solve.WithMaxBytes(100_000))
	var tl *solve.TooLargeError
	require.ErrorAs(t, err, &tl)
	assert.Positive(t, tl.Positions)
	assert.Less(t, tl.Positions, 5390)
	assert.Contains(t, err.Error(), "solve.WithMaxBytes")
	assert.NotContains(t, err.Error(), "--", "the library names its Go options, not the command's flags")
}

// BenchmarkSearchKalah solves Kalah(4,3) with empty captures by search,
// with an endgame database of 8 counters, from a fresh table each time.
func BenchmarkSearchKalah(b *testing.B) {
	b.Setenv("XDG_CACHE_HOME", b.TempDir())
	g := loadKalah(b, 4, 3, true)
	for b.Loop() {
		if _, err := solve.Solve(context.Background(), g, solve.WithEngine(solve.Search), solve.WithEndgame(8), solve.WithTableBytes(16<<20)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEndgameBuild builds the endgame database of at most 10
// counters in play on the 12 pits of Kalah(6,n), Player 1 to move (the
// other by the mirror): C(22,12) = 646,646 positions, on one goroutine, and
// writes its file; it reports positions a second.
func BenchmarkEndgameBuild(b *testing.B) {
	g := loadKalah(b, 6, 3, true)
	for b.Loop() {
		if _, _, err := solve.EndgameBytes(g, 10); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(646_646*float64(b.N)/b.Elapsed().Seconds(), "positions/s")
}

// BenchmarkEndgameBuildLarge builds the endgame database of at most k
// counters in play on the 12 pits of Kalah(6,n), k from the environment
// variable MATOMBO_BENCH_ENDGAME (12 when unset), on every core, without
// writing its file; it reports positions a second of wall time.
func BenchmarkEndgameBuildLarge(b *testing.B) {
	k := 12
	if v := os.Getenv("MATOMBO_BENCH_ENDGAME"); v != "" {
		var err error
		if k, err = strconv.Atoi(v); err != nil {
			b.Fatal(err)
		}
	}
	g := loadKalah(b, 6, 6, true)
	var n int64
	for b.Loop() {
		var err error
		if n, err = solve.BuildEndgame(g, k, runtime.NumCPU()); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "positions/s")
}

// FuzzReadEndgame reads endgame database files: whatever a file holds,
// reading it returns a database or an error, never a panic.
func FuzzReadEndgame(f *testing.F) {
	g := loadKalah(f, 2, 2, true)
	data, digest, err := solve.EndgameBytes(g, 4)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add(data[:len(data)/2])
	f.Fuzz(func(t *testing.T, b []byte) {
		_ = solve.ReadEndgame(b, g, digest, 4)
	})
}

// TestKalahMarginsDefaultRules solves Kalah(m,n) with the default capture
// rule (K4 without K9) by search, with no database, a small one and the
// one chosen from the budget, and checks the margins against the plain
// recursion.
func TestKalahMarginsDefaultRules(t *testing.T) {
	boards := []struct{ m, n int }{{1, 3}, {2, 2}, {2, 4}, {2, 6}, {3, 2}, {3, 3}}
	for _, c := range boards {
		want := kalahRefValue(c.m, c.n, false)
		for _, k := range []int{0, 3, -1} {
			t.Run(fmt.Sprintf("Kalah(%d,%d)/endgame=%d", c.m, c.n, k), func(t *testing.T) {
				g := loadKalah(t, c.m, c.n, false)
				sol, err := solve.Solve(context.Background(), g, solve.WithEngine(solve.Search),
					solve.WithEndgame(k), solve.WithCacheDir(t.TempDir()))
				require.NoError(t, err)
				assert.Equal(t, want, sol.Opening().Margin)
				require.NoError(t, sol.Check(context.Background(), g))
			})
		}
	}
}

// TestSearchStopsAtMaxPositions: WithMaxPositions bounds the search
// engine too, and its error names the option, not a flag.
func TestSearchStopsAtMaxPositions(t *testing.T) {
	g := loadKalah(t, 4, 4, true)
	_, err := solve.Solve(context.Background(), g, solve.WithEngine(solve.Search), solve.WithEndgame(0),
		solve.WithThreads(1), solve.WithMaxPositions(5000), solve.WithCacheDir(t.TempDir()))
	var tl *solve.TooLargeError
	require.ErrorAs(t, err, &tl)
	assert.Equal(t, solve.LimitSearched, tl.Limit)
	assert.Equal(t, 5000, tl.MaxPositions)
	assert.Greater(t, tl.Positions, 5000)
	assert.Contains(t, err.Error(), "solve.WithMaxPositions")
	assert.NotContains(t, err.Error(), "--")
}

// TestEndgameDatabaseShared: boards that differ only in their opening
// share one database file, kept in the folder WithCacheDir names (and
// nothing is written to the user's cache). (Kalah(2,2) would not share
// it: its digest samples endings whose outcome the 8 counters in all
// change.)
func TestEndgameDatabaseShared(t *testing.T) {
	home := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", home)
	t.Setenv("HOME", home)
	dir := t.TempDir()
	for _, n := range []int{3, 4, 5} {
		g := loadKalah(t, 2, n, true)
		sol, err := solve.Solve(context.Background(), g, solve.WithEngine(solve.Search), solve.WithEndgame(5), solve.WithCacheDir(dir))
		require.NoError(t, err)
		assert.Equal(t, kalahRefValue(2, n, true), sol.Opening().Margin, "Kalah(2,%d)", n)
		assert.Equal(t, 5, sol.SearchStats().EndgameCounters)
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.endgame-*"))
	require.NoError(t, err)
	assert.Len(t, files, 1, "one database for the three boards")
	held, err := os.ReadDir(home)
	require.NoError(t, err)
	assert.Empty(t, held, "the user's cache is not touched")
}
