package host_test

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/kernel"
)

// TestBareIsTheFullPath: on random games of every shipped game, a
// position set up bare and each of its moves played bare give what the
// full path gives (SetPositionValues, ApplyToUnlisted): the same number
// of legal moves, values, player to move and end, or ErrScriptNeeded
// where a script function has a say. The sowing games with stores play
// bare throughout; the count of bare moves shows it.
func TestBareIsTheFullPath(t *testing.T) {
	lib := games.Library()
	for _, name := range lib.Games() {
		t.Run(name, func(t *testing.T) {
			g, err := lib.Load(name)
			require.NoError(t, err)
			r := g.NewRunner()
			defer r.Close()
			full, fullKid := g.Start(), g.Start()
			bare, bareKid := g.NewBare(), g.NewBare()
			rng := rand.New(rand.NewPCG(7, uint64(len(name))))
			var vals []int
			stepped, needed := 0, 0
			s := g.Start()
			for ply := 0; ply < 60 && !s.Over(); ply++ {
				vals = s.AppendPositionValues(vals[:0])
				require.NoError(t, r.SetPositionValues(full, vals))
				err := r.SetBare(bare, vals)
				if errors.Is(err, host.ErrScriptNeeded) {
					needed++
				} else {
					require.NoError(t, err, "ply %d", ply)
					require.Equal(t, len(full.Moves()), bare.Moves(), "ply %d", ply)
					require.Equal(t, full.ToMove(), bare.ToMove(), "ply %d", ply)
					for i := range bare.Moves() {
						require.NoError(t, r.ApplyToUnlisted(fullKid, full, i))
						err := r.PlayBare(bareKid, bare, i)
						if errors.Is(err, host.ErrScriptNeeded) {
							needed++
							continue
						}
						require.NoError(t, err, "ply %d move %d", ply, i)
						stepped++
						assert.Equal(t, values(fullKid.PositionView()), values(bareKid.PositionView()), "ply %d move %s", ply, g.Token(full.Moves()[i]))
						assert.Equal(t, fullKid.ToMove(), bareKid.ToMove(), "ply %d move %d", ply, i)
						assert.Equal(t, fullKid.Over(), bareKid.Over(), "ply %d move %d", ply, i)
					}
				}
				require.NoError(t, s.Apply(s.Moves()[rng.IntN(len(s.Moves()))]))
			}
			t.Logf("%s: %d moves played bare, %d needed the script", name, stepped, needed)
			if name == "kalah" || name == "oware" {
				assert.Positive(t, stepped)
				assert.Zero(t, r.ScriptCalls(), "a bare move called the script")
			}
		})
	}
}

func values(v host.PositionView) []int {
	out := make([]int, v.Len())
	for i := range out {
		out[i] = v.Value(i)
	}
	return out
}

// TestBareStopsBeforeAScript: a Lua function in a rule part's slot is not
// called by a bare move: PlayBare returns ErrScriptNeeded, the script is
// not called, and the runner goes on (the full path calls it).
func TestBareStopsBeforeAScript(t *testing.T) {
	lib := host.NewLibrary()
	require.NoError(t, lib.AddFS(games.FS(), games.Root))
	require.NoError(t, lib.AddFS(fstest.MapFS{"hooked/hooked.lua": {Data: []byte(
		`return matombo.extends("kalah", { replace = { k3_extra_turn = function(base, p, last) return base(p, last) end } })`)}}, "mine"))
	g, err := lib.Load("hooked")
	require.NoError(t, err)
	r := g.NewRunner()
	defer r.Close()
	vals := g.Start().AppendPositionValues(nil)
	bare, kid := g.NewBare(), g.NewBare()
	require.NoError(t, r.SetBare(bare, vals))
	calls := r.ScriptCalls()
	assert.ErrorIs(t, r.PlayBare(kid, bare, 0), host.ErrScriptNeeded)
	assert.Equal(t, calls, r.ScriptCalls(), "the script function was called")
	full, fullKid := g.Start(), g.Start()
	require.NoError(t, r.SetPositionValues(full, vals))
	require.NoError(t, r.ApplyToUnlisted(fullKid, full, 0))
	assert.Greater(t, r.ScriptCalls(), calls, "the full path calls the script function")
	require.NoError(t, r.SetBare(bare, vals), "the runner goes on after a bare call was stopped")
}

// TestBareRefusesWhatItCannot: wrong values are refused as
// SetPositionValues refuses them; a move is played only from a position
// SetBare set up, and only a listed one.
func TestBareRefusesWhatItCannot(t *testing.T) {
	g, err := games.Library().Load("kalah")
	require.NoError(t, err)
	r := g.NewRunner()
	defer r.Close()
	vals := g.Start().AppendPositionValues(nil)
	bare, kid := g.NewBare(), g.NewBare()
	var pe *host.PositionError
	assert.ErrorAs(t, r.SetBare(bare, vals[1:]), &pe)
	bad := append([]int(nil), vals...)
	bad[0] = -1
	assert.ErrorAs(t, r.SetBare(bare, bad), &pe)
	assert.Error(t, r.PlayBare(kid, bare, 0), "no position set up")
	require.NoError(t, r.SetBare(bare, vals))
	var ie *host.IllegalMoveError
	assert.ErrorAs(t, r.PlayBare(kid, bare, 6), &ie)
	require.NoError(t, r.PlayBare(kid, bare, 0))
	assert.Error(t, r.PlayBare(bare, kid, 0), "a move's position is not listed")
	other, err := games.Library().Load("oware")
	require.NoError(t, err)
	assert.Error(t, r.SetBare(other.NewBare(), vals), "a position of another game")
	var zero host.Bare
	assert.Error(t, r.SetBare(&zero, vals), "a Bare not made by NewBare")
	assert.Error(t, r.PlayBare(&zero, bare, 0))
	assert.Zero(t, zero.ToMove())
	assert.Zero(t, zero.Moves())
	assert.Zero(t, zero.PositionView().Len())
}

// TestBareIsCanceled: a runner whose context is done stops bare calls as
// it stops the full path's, with a *CanceledError, never ErrScriptNeeded.
func TestBareIsCanceled(t *testing.T) {
	g, err := games.Library().Load("kalah")
	require.NoError(t, err)
	r := g.NewRunner()
	defer r.Close()
	vals := g.Start().AppendPositionValues(nil)
	bare, kid := g.NewBare(), g.NewBare()
	require.NoError(t, r.SetBare(bare, vals))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r.SetContext(ctx)
	var ce *host.CanceledError
	for _, err := range []error{r.PlayBare(kid, bare, 0), r.SetBare(bare, vals)} {
		require.ErrorAs(t, err, &ce)
		assert.ErrorIs(t, err, context.Canceled)
		assert.NotErrorIs(t, err, host.ErrScriptNeeded)
	}
}

// TestBareSetUpAfterAnother: a Bare set up again checks only the values
// that changed since its last set-up; it must accept and refuse exactly
// what a new Bare does, with the same error, whatever came before. Random
// walks change one to three values of a game's positions at a time, to
// values in and out of each value's range (counts, owners, captured
// totals, hands, variables, the player to move, and counts that break a
// conserved total), move a counter from one site to another, and
// sometimes start again from a position of a game.
func TestBareSetUpAfterAnother(t *testing.T) {
	lib := games.Library()
	for _, name := range []string{"kalah", "oware", "gore", "tsoro", "draughts"} {
		t.Run(name, func(t *testing.T) {
			g, err := lib.Load(name)
			require.NoError(t, err)
			r := g.NewRunner()
			defer r.Close()
			require.True(t, r.PlaysBare())
			reused := g.NewBare()
			rng := rand.New(rand.NewPCG(11, uint64(len(name))))
			s := g.Start()
			base := s.AppendPositionValues(nil)
			vals := slices.Clone(base)
			odd := []int{-1, 0, 1, 2, 3, kernel.MaxCount, kernel.MaxCount + 1, math.MaxInt32, math.MinInt32}
			if wide := int64(math.MaxInt32); math.MaxInt > wide { // beyond int32, where an int holds it
				odd = append(odd, int(wide+1), int(-wide-2))
			}
			accepted, refused := 0, 0
			for step := range 3000 {
				switch {
				case step%50 == 0: // a position of a game, checked in full
					if s.Over() || len(s.Moves()) == 0 {
						s = g.Start()
					}
					require.NoError(t, s.Apply(s.Moves()[rng.IntN(len(s.Moves()))]))
					vals = s.AppendPositionValues(vals[:0])
				case step%7 == 0: // back to the last valid position
					copy(vals, base)
				case step%3 == 0: // a counter moved, the total kept
					from, to := rng.IntN(g.Board().NumSites()), rng.IntN(g.Board().NumSites())
					vals[from]--
					vals[to]++
				default:
					for range 1 + rng.IntN(3) {
						i := rng.IntN(len(vals))
						if rng.IntN(2) == 0 {
							vals[i] = odd[rng.IntN(len(odd))]
						} else {
							vals[i] += rng.IntN(3) - 1
						}
					}
				}
				errReused := r.SetBare(reused, vals)
				fresh := g.NewBare()
				errFresh := r.SetBare(fresh, vals)
				if errFresh == nil {
					accepted++
					copy(base, vals)
					require.NoError(t, errReused, "step %d: %v", step, vals)
					assert.Equal(t, values(fresh.PositionView()), values(reused.PositionView()), "step %d", step)
					assert.Equal(t, fresh.Moves(), reused.Moves(), "step %d", step)
					continue
				}
				refused++
				require.Error(t, errReused, "step %d: %v accepted by a Bare set up before, refused by a new one: %v", step, vals, errFresh)
				assert.Equal(t, errFresh.Error(), errReused.Error(), "step %d", step)
			}
			t.Logf("%s: %d set-ups accepted, %d refused", name, accepted, refused)
			assert.Greater(t, accepted, 300)
			assert.Greater(t, refused, 300)
		})
	}
}
