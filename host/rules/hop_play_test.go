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
}
