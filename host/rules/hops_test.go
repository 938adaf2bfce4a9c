package rules

import (
	"testing"

	"github.com/matombo/matombo/host/kernel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The moves of pieces along the lines of the fixture's 3x3 square, whose
// lines run from a to c and from column 1 to 3: ahead is towards row c
// on the columns and diagonals (a3-b2-c1 too), towards column 3 on the
// rows.

// crown makes the piece on the named site two counters (a king).
func (f *fixture) crown(t *testing.T, name string) {
	f.s.Cells[f.site(t, name)] = 2
}

func kings() kernel.FilterSpec {
	return kernel.FilterSpec{Rel: kernel.OwnerMover, Min: 2, Max: -1, Row: -1}
}

func men() kernel.FilterSpec {
	return kernel.FilterSpec{Rel: kernel.OwnerMover, Min: 1, Max: 1, Row: -1}
}

// position is a test's pieces: player 1's, player 2's, and the kings
// among them.
type position struct{ one, two, kings []string }

func (f *fixture) put(t *testing.T, pos position) {
	f.set(t, 1, pos.one...)
	f.set(t, 2, pos.two...)
	for _, k := range pos.kings {
		f.crown(t, k)
	}
}

// hopFields fills the fields steps_rule and jumps_rule share.
func (f *fixture) hopFields(a *Args, toward []string) {
	a.Set("from", f.filter(mine()))
	a.Set("both", f.filter(kings()))
	if toward != nil {
		a.Set("toward", toward)
	}
}

func TestStepsRule(t *testing.T) {
	for _, c := range []struct {
		name   string
		toward []string
		pos    position
		mover  int
		want   []string
	}{
		{"both ways by default, by the site moved to", nil, position{one: []string{"b2"}}, 1,
			[]string{"b2-a1", "b2-a2", "b2-a3", "b2-b1", "b2-b3", "b2-c1", "b2-c2", "b2-c3"}},
		{"ahead: in the order of each line", []string{"ahead", "back"}, position{one: []string{"b2"}}, 1,
			[]string{"b2-b3", "b2-c1", "b2-c2", "b2-c3"}},
		{"back for player 2", []string{"ahead", "back"}, position{two: []string{"b2"}}, 2,
			[]string{"b2-a1", "b2-a2", "b2-a3", "b2-b1"}},
		{"ahead_across: forward or sideways", []string{"ahead_across", "back_across"}, position{one: []string{"b2"}}, 1,
			[]string{"b2-b1", "b2-b3", "b2-c1", "b2-c2", "b2-c3"}},
		{"back_across for player 2", []string{"ahead_across", "back_across"}, position{two: []string{"b2"}}, 2,
			[]string{"b2-a1", "b2-a2", "b2-a3", "b2-b1", "b2-b3"}},
		{"a king of men that go across moves both ways", []string{"ahead_across", "back_across"}, position{one: []string{"b2"}, kings: []string{"b2"}}, 1,
			[]string{"b2-a1", "b2-a2", "b2-a3", "b2-b1", "b2-b3", "b2-c1", "b2-c2", "b2-c3"}},
		{"a king moves both ways", []string{"ahead", "back"}, position{one: []string{"b2"}, kings: []string{"b2"}}, 1,
			[]string{"b2-a1", "b2-a2", "b2-a3", "b2-b1", "b2-b3", "b2-c1", "b2-c2", "b2-c3"}},
		{"only to empty sites, piece by piece in board order", []string{"ahead", "ahead"}, position{one: []string{"b2", "a1"}, two: []string{"c2", "c3"}}, 1,
			[]string{"a1-a2", "a1-b1", "b2-b3", "b2-c1"}},
		{"the opponent's pieces do not move", []string{"both", "both"}, position{two: []string{"b2"}}, 1, nil},
		{"none: player 2 has no steps", []string{"both", "none"}, position{two: []string{"b2"}}, 2, nil},
		{"none: not even player 2's kings", []string{"both", "none"}, position{two: []string{"b2"}, kings: []string{"b2"}}, 2, nil},
		{"none for player 2 only: player 1 steps", []string{"both", "none"}, position{one: []string{"a1"}, two: []string{"b2"}}, 1,
			[]string{"a1-a2", "a1-b1"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			f.put(t, c.pos)
			f.c.Mover = c.mover
			r := f.make(t, "steps_rule", func(a *Args) {
				a.Set("kind", kindMove)
				f.hopFields(a, c.toward)
			}).(Emitter)
			n, err := r.Emit(f.c, c.mover)
			require.NoError(t, err)
			assert.Equal(t, len(c.want), n)
			assert.Equal(t, c.want, f.tokens(0))
			for _, name := range append(c.pos.one, c.pos.two...) {
				ok, err := r.(SiteTester).TestSite(f.c, c.mover, f.site(t, name))
				require.NoError(t, err)
				can := false
				for _, tok := range c.want {
					can = can || len(tok) > 2 && tok[:2] == name
				}
				assert.Equal(t, can, ok, "whether %s can step", name)
			}
		})
	}
}

// TestHopsNoneForAll: toward "none" for every player makes a part with
// no moves at all, which is refused.
func TestHopsNoneForAll(t *testing.T) {
	for _, name := range []string{"steps_rule", "jumps_rule"} {
		f := newFixture(t)
		spec, ok := Lookup(name)
		require.True(t, ok)
		a := NewArgs(f.def, spec)
		a.Set("kind", kindMove)
		a.Set("over", f.filter(theirs()))
		f.hopFields(a, []string{"none", "none"})
		_, err := spec.New(a)
		require.ErrorContains(t, err, `toward is "none" for every player`, name)
	}
}

// TestHopsCharged: listing steps spends steps of the budget, and a budget
// spent stops it.
func TestHopsCharged(t *testing.T) {
	f := newFixture(t)
	f.put(t, position{one: []string{"a1", "b2", "c3"}})
	r := f.make(t, "steps_rule", func(a *Args) { a.Set("kind", kindMove); f.hopFields(a, nil) }).(Emitter)
	f.c.Steps.Spent = 0
	_, err := r.Emit(f.c, 1)
	require.NoError(t, err)
	assert.Positive(t, f.c.Steps.Spent)
	f.s.Moves = f.s.Moves[:0]
	f.c.Steps.Limit = f.c.Steps.Spent
	_, err = r.Emit(f.c, 1)
	assert.ErrorIs(t, err, kernel.ErrSteps)
}

// TestBoardHeadings: a site's neighbours and jumps ahead and back along
// the lines, and the sites between two sites of a line.
func TestBoardHeadings(t *testing.T) {
	f := newFixture(t)
	names := func(sites []int32) []string {
		var out []string
		for _, s := range sites {
			out = append(out, f.b.SiteName(int(s)))
		}
		return out
	}
	a1, b2, c3 := f.site(t, "a1"), f.site(t, "b2"), f.site(t, "c3")
	assert.Equal(t, []string{"a2", "b1", "b2"}, names(f.b.Toward(a1, kernel.Ahead)))
	assert.Empty(t, f.b.Toward(a1, kernel.Back))
	assert.Equal(t, []string{"a1", "a2", "a3", "b1"}, names(f.b.Toward(b2, kernel.Back)))
	assert.Len(t, f.b.Toward(b2, kernel.BothWays), 8)
	assert.Len(t, f.b.JumpsToward(a1, kernel.Ahead), 3)
	assert.Empty(t, f.b.JumpsToward(a1, kernel.Back))
	assert.Len(t, f.b.JumpsToward(c3, kernel.Back), 3)
	assert.Equal(t, []string{"b2"}, names(f.b.Between(nil, a1, c3)))
	assert.Equal(t, []string{"b2"}, names(f.b.Between(nil, c3, a1)))
	assert.Empty(t, f.b.Between(nil, a1, b2))
	assert.NotNil(t, f.b.Between(nil, a1, b2), "neighbours share a line: nothing between, not no line")
	assert.Nil(t, f.b.Between(nil, f.site(t, "a2"), f.site(t, "b1")), "a2 and b1 share no line")
}
