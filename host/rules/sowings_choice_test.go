package rules

import (
	"errors"
	"testing"

	"github.com/matombo/matombo/host/kernel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSowingsElseFromSkipAlone: sowings_rule sows from else_from only when
// from matches no site, never from the site the variable skip holds, and
// keeps a site of toward to its direction only while toward_alone finds
// it the one occupied site of that filter.
func TestSowingsElseFromSkipAlone(t *testing.T) {
	for _, c := range []struct {
		name   string
		counts map[string]int32
		skip   string // the site the variable holds; "" for 0
		alone  bool   // toward_alone: the front row
		want   []string
	}{
		{"a front site of two; toward keeps b1 clockwise", map[string]int32{"b1": 3, "b3": 1, "a2": 2}, "", false,
			[]string{"b1-b2"}},
		{"b1 beside another occupied front site goes either way", map[string]int32{"b1": 3, "b3": 1, "a2": 2}, "", true,
			[]string{"b1-b2", "b1-a1"}},
		{"b1 alone in the front row goes its own way", map[string]int32{"b1": 3, "a2": 2}, "", true,
			[]string{"b1-b2"}},
		{"no front site of two: the back row", map[string]int32{"b1": 1, "b3": 1, "a2": 2, "a4": 5}, "", true,
			[]string{"a2-a1", "a2-a3", "a4-a3", "a4-b4"}},
		{"the skipped site is not sown", map[string]int32{"b1": 1, "b3": 1, "a2": 2, "a4": 5}, "a4", true,
			[]string{"a2-a1", "a2-a3"}},
		{"a skipped front site does not send p to the back row", map[string]int32{"b2": 2, "a2": 2}, "b2", true,
			nil},
		{"a skip of another player's site changes nothing", map[string]int32{"b2": 2}, "c2", false,
			[]string{"b2-b3", "b2-b1"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newHouseFixture(t)
			f.counts(t, c.counts)
			if c.skip != "" {
				f.c.SetVar(varHouseStopAt, f.site(t, c.skip)+1)
			}
			big := func(row int) *kernel.Filter {
				return kernel.NewFilter(f.b, kernel.FilterSpec{Min: 2, Max: -1, Row: row})
			}
			x, err := f.make(t, "sowings_rule", func(a *Args) {
				a.Set("kind", kindRingSow)
				a.Set("tracks", f.dirs)
				a.Set("from", []*kernel.Filter{big(1), big(2)})
				a.Set("else_from", []*kernel.Filter{big(0), big(3)})
				a.Set("skip", varHouseStopAt)
				a.Set("toward", [][]int{f.sites(t, "b1", "c4"), f.sites(t, "b4", "c1")})
				if c.alone {
					a.Set("toward_alone", f.front)
				}
			})
			require.NoError(t, err)
			n, err := x.(Emitter).Emit(f.c, 1)
			require.NoError(t, err)
			assert.Equal(t, c.want, f.tokens())
			assert.Equal(t, len(c.want), n)
		})
	}
}

// TestSowingsElseFromUndirected: else_from and skip hold for sowings of one
// site too.
func TestSowingsElseFromUndirected(t *testing.T) {
	f := newHouseFixture(t)
	f.counts(t, map[string]int32{"b1": 1, "a1": 2, "a3": 2})
	f.c.SetVar(varHouseStopAt, f.site(t, "a1")+1)
	big := func(row int) *kernel.Filter {
		return kernel.NewFilter(f.b, kernel.FilterSpec{Min: 2, Max: -1, Row: row})
	}
	mk, err := kernel.NewMoveKind("take", "{1}", "")
	require.NoError(t, err)
	f.def.Kinds = append(f.def.Kinds, mk)
	x, err := f.make(t, "sowings_rule", func(a *Args) {
		a.Set("kind", len(f.def.Kinds)-1)
		a.Set("from", []*kernel.Filter{big(1), big(2)})
		a.Set("else_from", []*kernel.Filter{big(0), big(3)})
		a.Set("skip", varHouseStopAt)
	})
	require.NoError(t, err)
	_, err = x.(Emitter).Emit(f.c, 1)
	require.NoError(t, err)
	assert.Equal(t, []string{"a3"}, f.tokens())
}

// TestSowingsChoiceRefused: toward_alone needs toward, else_from needs
// from.
func TestSowingsChoiceRefused(t *testing.T) {
	f := newHouseFixture(t)
	for _, c := range []struct {
		name string
		fill func(a *Args)
		want string
	}{
		{"toward_alone without toward", func(a *Args) {
			a.Set("from", f.front)
			a.Set("toward_alone", f.front)
		}, "toward_alone needs toward"},
		{"else_from without from", func(a *Args) {
			a.Set("sites", [][]int{f.sites(t, "b1"), f.sites(t, "c1")})
			a.Set("else_from", f.front)
		}, "else_from needs from"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := f.make(t, "sowings_rule", func(a *Args) {
				a.Set("kind", kindRingSow)
				a.Set("tracks", f.dirs)
				c.fill(a)
			})
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}

// TestRelayEndsMove: relay_ends_rule as a move test relays in the
// direction the move names, leaving the counts as they were.
func TestRelayEndsMove(t *testing.T) {
	f := newRingFixture(t)
	// b2's two seeds: clockwise to b3, b4 (empty: ends); anticlockwise
	// to b1, a1 (a1 holds one: a second lap, over a limit of one).
	f.counts(t, map[string]int32{"b2": 2, "a1": 1, "b4": 0})
	x, err := f.make(t, "relay_ends_rule", func(a *Args) {
		a.Set("tracks", f.dirs)
		a.Set("max_laps", 1)
	})
	require.NoError(t, err)
	r := x.(MoveTester)
	before := append([]int32(nil), f.s.Cells...)
	for _, c := range []struct {
		first string
		want  bool
	}{{"b3", true}, {"b1", false}} {
		m := kernel.Move{Kind: kindRingSow, N: 2}
		m.Sites[0], m.Sites[1] = uint16(f.site(t, "b2")), uint16(f.site(t, c.first))
		ok, err := r.TestMove(f.c, 1, m)
		require.NoError(t, err)
		assert.Equal(t, c.want, ok, "b2-%s", c.first)
	}
	assert.Equal(t, before, f.s.Cells, "the counts are unchanged")
	m := kernel.Move{Kind: kindRingSow, N: 2}
	m.Sites[0], m.Sites[1] = uint16(f.site(t, "b2")), uint16(f.site(t, "c1"))
	_, err = r.TestMove(f.c, 1, m)
	require.Error(t, err, "no direction sows from b2 into c1")
}

// TestRelayEndsDrop: with drop the relay is tried with that many more
// counters in the site it starts from, as a move test and as a site
// test, and the counts are left as they were.
func TestRelayEndsDrop(t *testing.T) {
	f := newRingFixture(t)
	// b2's one seed and the one dropped: clockwise to b3, b4 (empty:
	// ends); without the drop the one seed ends in b3, holding one
	// (a second lap, over a limit of one).
	f.counts(t, map[string]int32{"b2": 1, "b3": 1})
	for _, c := range []struct {
		drop int
		want bool
	}{{0, false}, {1, true}} {
		x, err := f.make(t, "relay_ends_rule", func(a *Args) {
			a.Set("tracks", f.dirs)
			a.Set("max_laps", 1)
			a.Set("drop", c.drop)
		})
		require.NoError(t, err)
		before := append([]int32(nil), f.s.Cells...)
		m := kernel.Move{Kind: kindRingSow, N: 2}
		m.Sites[0], m.Sites[1] = uint16(f.site(t, "b2")), uint16(f.site(t, "b3"))
		ok, err := x.(MoveTester).TestMove(f.c, 1, m)
		require.NoError(t, err)
		assert.Equal(t, c.want, ok, "move, drop %d", c.drop)
		ok, err = x.(SiteTester).TestSite(f.c, 1, f.site(t, "b2"))
		require.NoError(t, err)
		assert.Equal(t, c.want, ok, "site, drop %d", c.drop)
		assert.Equal(t, before, f.s.Cells, "the counts are unchanged")
	}
}

// moveTestFunc is a move test of a Go function, for any_move_rule.
type moveTestFunc func(m kernel.Move) (bool, error)

func (f moveTestFunc) TestMove(_ *kernel.Ctx, _ int, m kernel.Move) (bool, error) { return f(m) }

// TestAnyMoveRule: the tests are asked in order until one holds or
// fails; the rest are not asked.
func TestAnyMoveRule(t *testing.T) {
	f := newRingFixture(t)
	broken := errors.New("broken")
	var asked []string
	test := func(name string, ok bool, err error) MoveTester {
		return moveTestFunc(func(kernel.Move) (bool, error) {
			asked = append(asked, name)
			return ok, err
		})
	}
	for _, c := range []struct {
		name    string
		tests   []MoveTester
		want    bool
		wantErr error
		asked   []string
	}{
		{"the first holds", []MoveTester{test("a", true, nil), test("b", true, nil)}, true, nil, []string{"a"}},
		{"the second holds", []MoveTester{test("a", false, nil), test("b", true, nil)}, true, nil, []string{"a", "b"}},
		{"none holds", []MoveTester{test("a", false, nil), test("b", false, nil)}, false, nil, []string{"a", "b"}},
		{"an error stops the list", []MoveTester{test("a", false, broken), test("b", true, nil)}, false, broken, []string{"a"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			asked = nil
			x, err := f.make(t, "any_move_rule", func(a *Args) {
				var parts []any
				for _, m := range c.tests {
					parts = append(parts, m)
				}
				a.Set(List, parts)
			})
			require.NoError(t, err)
			ok, err := x.(MoveTester).TestMove(f.c, 1, kernel.Move{Kind: kindRingSow})
			assert.ErrorIs(t, err, c.wantErr)
			if c.wantErr == nil {
				require.NoError(t, err)
			}
			assert.Equal(t, c.want, ok)
			assert.Equal(t, c.asked, asked)
		})
	}
}
