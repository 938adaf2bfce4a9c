package rules

import (
	"testing"

	"github.com/matombo/matombo/host/kernel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// heard records what an after slot was told.
type heard struct{ ns []int }

func (h *heard) After(_ *kernel.Ctx, _, n int) error {
	h.ns = append(h.ns, n)
	return nil
}

func TestHopPlay(t *testing.T) {
	type step struct {
		move     []string // the sites the move names
		pending  string   // the site the piece waits at after it, "" for none
		toMove   bool     // the player decides again
		captured int      // the mover's captured total after it
		heard    int      // what after was told
		irrev    bool
	}
	for _, c := range []struct {
		name        string
		pos         position
		arrivalEnds bool
		steps       []step
	}{
		{"a step captures nothing; a man's step is progress", position{one: []string{"a1"}}, false,
			[]step{{move: []string{"a1", "a2"}, heard: 1, irrev: true}}},
		{"a king's step is not", position{one: []string{"a1"}, kings: []string{"a1"}}, false,
			[]step{{move: []string{"a1", "a2"}, heard: 0}}},
		{"a jump captures the piece passed over, and the king goes on while it can", position{one: []string{"a1"}, two: []string{"b2", "b3"}, kings: []string{"a1"}}, false,
			[]step{
				{move: []string{"a1", "c3"}, pending: "c3", toMove: true, captured: 1, heard: 1, irrev: true},
				{move: []string{"a3"}, captured: 2, heard: 1, irrev: true},
			}},
		{"a man crowned as it lands goes on without arrival_ends", position{one: []string{"a1"}, two: []string{"b2", "b3"}}, false,
			[]step{
				{move: []string{"a1", "c3"}, pending: "c3", toMove: true, captured: 1, heard: 1, irrev: true},
				{move: []string{"a3"}, captured: 2, heard: 1, irrev: true},
			}},
		{"and stops with it", position{one: []string{"a1"}, two: []string{"b2", "b3"}}, true,
			[]step{{move: []string{"a1", "c3"}, captured: 1, heard: 1, irrev: true}}},
		{"a king counts two", position{one: []string{"a1"}, two: []string{"b2"}, kings: []string{"a1", "b2"}}, false,
			[]step{{move: []string{"a1", "c3"}, captured: 2, heard: 2, irrev: true}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			f.put(t, c.pos)
			h := &heard{}
			again := f.jumpsRule(t, nil, true)
			crown := f.make(t, "promote_rule", func(a *Args) {
				a.Set("row", []int{2, 0})
				a.Set("piece", f.filter(men()))
			})
			r := f.make(t, "hop_play", func(a *Args) {
				a.Set("pending", varPending)
				a.Set("again", again)
				a.Set("arrival", []any{crown})
				a.Set("arrival_ends", c.arrivalEnds)
				a.Set("progress", f.filter(men()))
				a.Set("after", []any{h})
			}).(Player)
			for i, st := range c.steps {
				f.c.ToMoveSet, f.c.Irreversible = false, false
				m := kernel.Move{Kind: kindMove, N: uint8(len(st.move))}
				if len(st.move) == 1 {
					m.Kind = kindRemove
				}
				for k, name := range st.move {
					m.Sites[k] = uint16(f.site(t, name))
				}
				require.NoError(t, r.Play(f.c, 1, m), "step %d", i)
				to := st.move[len(st.move)-1]
				assert.Equal(t, 1, f.c.Owner(f.site(t, to)), "step %d: the piece is on %s", i, to)
				want := 0
				if st.pending != "" {
					want = f.site(t, st.pending) + 1
				}
				assert.Equal(t, want, f.c.Var(varPending), "step %d: the pending decision", i)
				assert.Equal(t, st.toMove, f.c.ToMoveSet, "step %d", i)
				assert.Equal(t, st.captured, f.c.Captured(1), "step %d", i)
				assert.Equal(t, st.heard, h.ns[len(h.ns)-1], "step %d", i)
				assert.Equal(t, st.irrev, f.c.Irreversible, "step %d", i)
			}
		})
	}
}

// TestHopPlayRefuses: a move naming only the site landed on when no piece
// waits, and a move of three sites, are errors that name the kind.
func TestHopPlayRefuses(t *testing.T) {
	f := newFixture(t)
	f.put(t, position{one: []string{"a1"}})
	r := f.make(t, "hop_play", func(a *Args) { a.Set("pending", varPending) }).(Player)
	err := r.Play(f.c, 1, kernel.Move{Kind: kindRemove, N: 1})
	assert.ErrorContains(t, err, "a move of kind remove names only the site landed on, but no piece waits")
	err = r.Play(f.c, 1, kernel.Move{Kind: kindMove, N: 3})
	assert.ErrorContains(t, err, "names 3 sites")
	err = r.Play(f.c, 1, kernel.Move{Kind: kindStop})
	assert.ErrorContains(t, err, "a move of kind stop names no site, which ends a capture, but no piece waits in the middle of one")
}

// TestHopPlayStop: a move naming no site ends the capture of the piece
// that waits, where it stands; the pieces of taken come off then.
func TestHopPlayStop(t *testing.T) {
	for _, c := range []struct {
		name     string
		taken    bool
		captured int   // before the stop
		heard    []int // what after was told, at the jump and at the stop
	}{
		{"the pieces jumped are off already", false, 1, []int{1, 0}},
		{"the pieces jumped come off at the stop", true, 0, []int{1}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			f.put(t, position{one: []string{"a1"}, two: []string{"b2", "b3"}, kings: []string{"a1"}})
			h := &heard{}
			again := f.jumpsRule(t, nil, true)
			r := f.make(t, "hop_play", func(a *Args) {
				a.Set("pending", varPending)
				a.Set("again", again)
				a.Set("after", []any{h})
				if c.taken {
					a.Set("taken", []int{varFrom1, varTo1})
				}
			}).(Player)
			jump := kernel.Move{Kind: kindMove, N: 2}
			jump.Sites[0], jump.Sites[1] = uint16(f.site(t, "a1")), uint16(f.site(t, "c3"))
			require.NoError(t, r.Play(f.c, 1, jump))
			require.Equal(t, f.site(t, "c3")+1, f.c.Var(varPending), "the king waits on c3 to jump b3")
			assert.Equal(t, c.captured, f.c.Captured(1))
			f.c.ToMoveSet = false
			require.NoError(t, r.Play(f.c, 1, kernel.Move{Kind: kindStop}))
			assert.Zero(t, f.c.Var(varPending), "nothing pending after the stop")
			assert.False(t, f.c.ToMoveSet, "the turn passes")
			assert.Equal(t, 1, f.c.Owner(f.site(t, "c3")), "the king stays where it stopped")
			assert.Equal(t, 2, f.c.Owner(f.site(t, "b3")), "b3 is not jumped")
			assert.Equal(t, 1, f.c.Captured(1))
			assert.Equal(t, c.heard, h.ns)
		})
	}
}
