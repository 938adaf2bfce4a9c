package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func (f *fixture) jumpsRule(t *testing.T, toward []string, again bool) *jumps {
	return f.make(t, "jumps_rule", func(a *Args) {
		a.Set("kind", kindMove)
		a.Set("over", f.filter(theirs()))
		if again {
			a.Set("again", kindRemove)
		}
		f.hopFields(a, toward)
	}).(*jumps)
}

func TestJumpsRule(t *testing.T) {
	for _, c := range []struct {
		name   string
		toward []string
		pos    position
		mover  int
		want   []string
		can    map[string]bool // whether the piece on a site can jump
	}{
		{"over the opponent's pieces to the empty site beyond", []string{"ahead", "back"},
			position{one: []string{"a1"}, two: []string{"a2", "b2"}}, 1,
			[]string{"a1-a3", "a1-c3"}, map[string]bool{"a1": true}},
		{"not over one's own pieces, nor onto a piece", []string{"ahead", "back"},
			position{one: []string{"a1", "a2", "b1"}, two: []string{"b2", "c3"}}, 1,
			[]string{"a2-c2", "b1-b3"}, map[string]bool{"a1": false, "a2": true, "b1": true}},
		{"a man does not jump back", []string{"ahead", "back"},
			position{one: []string{"c3"}, two: []string{"b2"}}, 1,
			nil, map[string]bool{"c3": false}},
		{"a king does", []string{"ahead", "back"},
			position{one: []string{"c3"}, two: []string{"b2", "b3"}, kings: []string{"c3"}}, 1,
			[]string{"c3-a1", "c3-a3"}, map[string]bool{"c3": true}},
		{"a man that goes across jumps sideways against a row's order, never back", []string{"ahead_across", "back_across"},
			position{one: []string{"a3", "c3"}, two: []string{"a2", "b3", "c2", "b2"}}, 1,
			[]string{"a3-a1", "a3-c1", "c3-c1"}, map[string]bool{"a3": true, "c3": true}}, // not c3 over b2 to a1
		{"player 2's men jump back", []string{"ahead", "back"},
			position{one: []string{"b2", "b3"}, two: []string{"c3", "a1"}}, 2,
			[]string{"c3-a3"}, map[string]bool{"c3": true, "a1": false}},
		{"none: player 2 has no jumps, not even a king's", []string{"both", "none"},
			position{one: []string{"b2", "b3"}, two: []string{"c3", "a1"}, kings: []string{"c3"}}, 2,
			nil, map[string]bool{"c3": false, "a1": false}},
		{"none for player 2 only: player 1 jumps", []string{"both", "none"},
			position{one: []string{"a1"}, two: []string{"a2", "b2"}}, 1,
			[]string{"a1-a3", "a1-c3"}, map[string]bool{"a1": true}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			f.put(t, c.pos)
			f.c.Mover = c.mover
			r := f.jumpsRule(t, c.toward, true)
			n, err := r.Emit(f.c, c.mover)
			require.NoError(t, err)
			assert.Equal(t, len(c.want), n)
			assert.Equal(t, c.want, f.tokens(0))
			for name, want := range c.can {
				ok, err := r.TestSite(f.c, c.mover, f.site(t, name))
				require.NoError(t, err)
				assert.Equal(t, want, ok, "whether %s can jump", name)
			}
		})
	}
}

// TestJumpsRuleChoices: the next jumps of a piece that waits, written as
// moves of kind again (the site landed on) or, without again, of kind;
// only that piece's.
func TestJumpsRuleChoices(t *testing.T) {
	f := newFixture(t)
	f.put(t, position{one: []string{"a1", "c1", "a3"}, two: []string{"a2", "b2", "b1"}})
	f.set(t, 0, "a3")
	n, err := f.jumpsRule(t, nil, true).EmitAt(f.c, 1, f.site(t, "a1"))
	require.NoError(t, err)
	assert.Equal(t, 2, n)
	assert.Equal(t, []string{"xa3", "xc3"}, f.tokens(0), "not onto c1, which is taken")
	f.s.Moves = f.s.Moves[:0]
	_, err = f.jumpsRule(t, nil, false).EmitAt(f.c, 1, f.site(t, "c1"))
	require.NoError(t, err)
	assert.Equal(t, []string{"c1-a3"}, f.tokens(0), "c1 jumps over b2; over b1 it would land on a1, which is taken")
}

// TestJumpsRuleStop: with stop, the choices of a piece that waits end
// with a move that ends its capture, after its jumps (none too).
func TestJumpsRuleStop(t *testing.T) {
	f := newFixture(t)
	f.put(t, position{one: []string{"a1"}, two: []string{"a2", "b2"}})
	r := f.make(t, "jumps_rule", func(a *Args) {
		a.Set("kind", kindMove)
		a.Set("over", f.filter(theirs()))
		a.Set("stop", kindStop)
		f.hopFields(a, nil)
	}).(*jumps)
	n, err := r.EmitAt(f.c, 1, f.site(t, "a1"))
	require.NoError(t, err)
	assert.Equal(t, 3, n)
	assert.Equal(t, []string{"a1-a3", "a1-c3", "stop"}, f.tokens(0))
	f.s.Moves = f.s.Moves[:0]
	f.set(t, 2, "a3", "c3")
	n, err = r.EmitAt(f.c, 1, f.site(t, "a1"))
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	assert.Equal(t, []string{"stop"}, f.tokens(0), "no jump left: only the stop")
	f.s.Moves = f.s.Moves[:0]
	n, err = r.Emit(f.c, 1)
	require.NoError(t, err)
	assert.Zero(t, n, "a capture that has not begun has no stop")
}

// TestJumpsRuleStopNone: a player whose toward is "none" has no jumps as
// the choices of a piece that waits either; the stop still ends them.
func TestJumpsRuleStopNone(t *testing.T) {
	f := newFixture(t)
	f.put(t, position{one: []string{"b2", "b3"}, two: []string{"c3"}})
	f.c.Mover = 2
	r := f.make(t, "jumps_rule", func(a *Args) {
		a.Set("kind", kindMove)
		a.Set("over", f.filter(theirs()))
		a.Set("stop", kindStop)
		f.hopFields(a, []string{"both", "none"})
	}).(*jumps)
	n, err := r.EmitAt(f.c, 2, f.site(t, "c3"))
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	assert.Equal(t, []string{"stop"}, f.tokens(0))
}
