package solve_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/solve"
)

// TestEndgameBuildMatchesReference: a database built by the builder, on
// one goroutine and on several, one side to move or both, holds the
// values a plain recursion gives every position (set up from its values,
// its moves played one by one), on small Kalah boards under both capture
// rules, its values coded in halves (as Kalah's always are) and whole.
func TestEndgameBuildMatchesReference(t *testing.T) {
	cases := []struct {
		m, k  int
		empty bool
	}{
		{2, 8, true}, {2, 8, false}, {2, 18, true}, {2, 18, false}, {3, 8, true}, {3, 8, false}, {3, 16, true}, {3, 16, false}, {4, 7, true}, {4, 7, false}, {6, 5, true}, {6, 5, false},
	}
	for _, c := range cases {
		for _, threads := range []int{1, 3} {
			for _, sym := range []bool{true, false} {
				for _, whole := range []bool{false, true} {
					t.Run(fmt.Sprintf("Kalah(%d)/empty=%v/k=%d/threads=%d/sym=%v/whole=%v", c.m, c.empty, c.k, threads, sym, whole), func(t *testing.T) {
						g := loadKalah(t, c.m, 6, c.empty)
						n, err := solve.EndgameMatchesReference(g, c.k, threads, sym, whole)
						require.NoError(t, err)
						assert.Positive(t, n)
					})
				}
			}
		}
	}
}

// TestEndgameBuildPlaysBare: a database of a game whose rules are native
// parts is valued on bare positions (host.Bare), every one of them; a
// game whose moves need a Lua function is valued on the full path, each
// position falling back after its first move, and its database is the
// same: the same file, the same digest.
func TestEndgameBuildPlaysBare(t *testing.T) {
	g := loadKalah(t, 3, 3, true)
	bare, all, err := solve.EndgameBareShare(g, 9)
	require.NoError(t, err)
	assert.Positive(t, all)
	// The positions the script's blocked function ends (no move) and the
	// checks' second valuations are on the full path.
	assert.Greater(t, bare, all*8/10, "%d of %d positions bare", bare, all)
	t.Logf("Kalah(3): %d of %d positions valued bare", bare, all)

	hooked := load(t, "kalahhooked", host.WithParam("pits", 3), host.WithParam("seeds", 3), host.WithParam("empty_capture", true))
	bare, all, err = solve.EndgameBareShare(hooked, 9)
	require.NoError(t, err)
	assert.Zero(t, bare, "a move calling a Lua function is never played bare")
	assert.Positive(t, all)

	want, wantDigest, err := solve.EndgameBytes(g, 9)
	require.NoError(t, err)
	got, digest, err := solve.EndgameBytes(hooked, 9)
	require.NoError(t, err)
	assert.Equal(t, wantDigest, digest)
	assert.Equal(t, want, got, "the full path and the bare one build the same database")
}

// TestEndgameBuildRefusesRepeatingPositions: a game whose positions can
// repeat with the same counters in play gets no database, on one
// goroutine and on several, whichever way the builder reaches the
// repetition (the layer's positions are valued in batches, their moves'
// positions depth first).
func TestEndgameBuildRefusesRepeatingPositions(t *testing.T) {
	g := load(t, "cycle")
	for _, threads := range []int{1, 2} {
		for k := 1; k <= 4; k++ {
			_, err := solve.BuildEndgame(g, k, threads)
			require.Error(t, err, "k=%d threads=%d", k, threads)
			assert.Contains(t, err.Error(), "no endgame database: positions with 1 counter in play can repeat", "k=%d threads=%d", k, threads)
		}
	}
}

// TestEndgameBuildRefusesBankDependence: a game whose moves read the
// stores (an odd store takes the other pit) gets no database, even where
// its layers are too small for one check in 61 and where the banks on
// either side have the same parity (2 counters in play, 6 banked), and
// the search, without one, finds what a search without a database and
// the retrograde engine find, and says why it has none. Before,
// databases of up to 8 counters were built and the search said -4 where
// the game is +4.
func TestEndgameBuildRefusesBankDependence(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	g := load(t, "storecap")
	for k := 2; k <= 8; k++ {
		_, err := solve.BuildEndgame(g, k, 1)
		require.Error(t, err, "k=%d", k)
		assert.Contains(t, err.Error(), "no endgame database: the value of a position depends on what the banks hold", "k=%d", k)
	}
	retro, err := solve.Solve(context.Background(), g, solve.WithEngine(solve.Retrograde))
	require.NoError(t, err)
	want, err := retro.Moves(g.Start())
	require.NoError(t, err)
	require.Len(t, want, 1)
	assert.Equal(t, 4, want[0].Margin)
	for _, k := range []int{0, 6, 8} {
		var said []string
		sol, err := solve.Solve(context.Background(), g, solve.WithEngine(solve.Search), solve.WithEndgame(k),
			solve.WithLog(func(s string) { said = append(said, s) }))
		require.NoError(t, err, "endgame %d", k)
		if k > 0 {
			assert.Equal(t, []string{"no endgame database: the value of a position depends on what the banks hold; searching without one, and without futility bounds"}, said, "endgame %d", k)
		}
		got, err := sol.Moves(g.Start())
		require.NoError(t, err)
		require.Len(t, got, 1)
		assert.Equal(t, want[0].Margin, got[0].Margin, "endgame %d", k)
		assert.Equal(t, want[0].Value, got[0].Value, "endgame %d", k)
	}
}
