package rules

import (
	"testing"

	"github.com/matombo/matombo/host/kernel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Flying pieces, marked pieces and the most pieces taken, on a 5x5 board
// whose lines are its rows and columns: a king flies along a row or a
// column, an Alquerque-style man steps and jumps one site. The variables
// are a pending decision and three taken pieces (taken1-taken3).

const varTaken1 = 1

func newLinesFixture(t *testing.T) *fixture {
	t.Helper()
	rows := []string{"a", "b", "c", "d", "e"}
	var lines [][]string
	for _, r := range rows {
		var line []string
		for col := 1; col <= 5; col++ {
			line = append(line, r+string(rune('0'+col)))
		}
		lines = append(lines, line)
	}
	for col := 1; col <= 5; col++ {
		var line []string
		for _, r := range rows {
			line = append(line, r+string(rune('0'+col)))
		}
		lines = append(lines, line)
	}
	b, err := kernel.NewBoard(kernel.BoardSpec{Rows: rows, Columns: 5, Style: kernel.Pieces, Lines: lines})
	require.NoError(t, err)
	def := &kernel.Def{Board: b, Players: 2, Layout: kernel.NewLayout(25, 2, 4, 1)}
	for _, k := range []struct{ name, tmpl string }{{"drop", "{1}"}, {"move", "{from}-{to}"}, {"remove", "x{1}"}} {
		mk, err := kernel.NewMoveKind(k.name, k.tmpl, "")
		require.NoError(t, err)
		def.Kinds = append(def.Kinds, mk)
	}
	for i, name := range []string{"pending", "taken1", "taken2", "taken3"} {
		def.Vars = append(def.Vars, kernel.Var{Name: name, Position: true, Cell: def.Layout.Vars + i})
	}
	def.Vars = append(def.Vars, kernel.Var{Name: "count", Cell: def.Layout.Memo})
	s := &kernel.State{Cells: make([]int32, def.Layout.Size)}
	s.Cells[def.Layout.ToMove] = 1
	s.Cells[def.Layout.Hand], s.Cells[def.Layout.Hand+1] = 3, 3
	c := &kernel.Ctx{Def: def}
	c.Reset(s, kernel.Unmetered{}, 1)
	return &fixture{def: def, s: s, c: c, b: b}
}

var takenVars = []int{varTaken1, varTaken1 + 1, varTaken1 + 2}

// flyFields fills the fields of pieces whose kings fly.
func (f *fixture) flyFields(a *Args) {
	f.hopFields(a, nil)
	a.Set("fly", f.filter(kings()))
}

func TestFlyingSteps(t *testing.T) {
	for _, c := range []struct {
		name string
		pos  position
		want []string
	}{
		{"a king flies to every empty site up to the first piece", position{one: []string{"c3", "c5"}, two: []string{"a3"}, kings: []string{"c3"}},
			[]string{"c3-b3", "c3-c1", "c3-c2", "c3-c4", "c3-d3", "c3-e3", "c5-b5", "c5-c4", "c5-d5"}},
		{"a man steps one site", position{one: []string{"c3"}},
			[]string{"c3-b3", "c3-c2", "c3-c4", "c3-d3"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newLinesFixture(t)
			f.put(t, c.pos)
			r := f.make(t, "steps_rule", func(a *Args) {
				a.Set("kind", kindMove)
				f.flyFields(a)
			}).(*steps)
			n, err := r.Emit(f.c, 1)
			require.NoError(t, err)
			assert.Equal(t, len(c.want), n)
			assert.Equal(t, c.want, f.tokens(0))
		})
	}
}

func TestFlyingJumps(t *testing.T) {
	for _, c := range []struct {
		name    string
		pos     position
		taken   []string // the pieces jumped already in this move
		goOn    bool
		most    bool
		want    []string
		canJump map[string]bool
	}{
		{"a king jumps at a distance and lands on any empty site beyond, before the next piece",
			position{one: []string{"a1"}, two: []string{"a3", "c1", "e1"}, kings: []string{"a1"}}, nil, false, false,
			[]string{"a1-a4", "a1-a5", "a1-d1"}, map[string]bool{"a1": true}},
		{"not over two pieces, nor its own",
			position{one: []string{"a1", "a4"}, two: []string{"a2", "a3", "b1"}, kings: []string{"a1"}}, nil, false, false,
			[]string{"a1-c1", "a1-d1", "a1-e1"}, map[string]bool{"a1": true, "a4": false}},
		{"a piece taken already is not jumped again, and blocks the way",
			position{one: []string{"a1"}, two: []string{"a3", "c1"}, kings: []string{"a1"}}, []string{"c1"}, false, false,
			[]string{"a1-a4", "a1-a5"}, map[string]bool{"a1": true}},
		{"nor by a man", position{one: []string{"a1"}, two: []string{"a2"}}, []string{"a2"}, false, false,
			nil, map[string]bool{"a1": false}},
		{"go_on: the king lands where it can jump again",
			position{one: []string{"a1"}, two: []string{"a3", "b5"}, kings: []string{"a1"}}, nil, true, false,
			[]string{"a1-a5"}, nil},
		{"go_on: every landing when none goes on",
			position{one: []string{"a1"}, two: []string{"a3"}, kings: []string{"a1"}}, nil, true, false,
			[]string{"a1-a4", "a1-a5"}, nil},
		{"go_on: beyond each piece on its own",
			position{one: []string{"c3"}, two: []string{"c4", "b3", "a4"}, kings: []string{"c3"}}, nil, true, false,
			[]string{"c3-a3", "c3-c5"}, nil},
		{"most: only the jumps that begin the longest chain",
			position{one: []string{"a1", "a5"}, two: []string{"b1", "d1", "a4"}}, nil, false, true,
			[]string{"a1-c1"}, nil},
		{"most: a king's landings from which it takes the most",
			position{one: []string{"a1"}, two: []string{"a2", "c4", "d2"}, kings: []string{"a1"}}, nil, false, true,
			[]string{"a1-a4"}, nil},
		{"most: a king's chain against a man's",
			position{one: []string{"a1", "e5"}, two: []string{"b1", "d2", "e4"}, kings: []string{"e5"}}, nil, false, true,
			[]string{"e5-e2"}, nil},
		{"most: a chain may pass its starting site, marked pieces still not jumped",
			position{one: []string{"a1"}, two: []string{"a2", "b3", "c2"}}, nil, false, true,
			[]string{"a1-a3"}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newLinesFixture(t)
			f.put(t, c.pos)
			for i, name := range c.taken {
				f.c.SetVar(takenVars[i], f.site(t, name)+1)
			}
			r := f.make(t, "jumps_rule", func(a *Args) {
				a.Set("kind", kindMove)
				a.Set("again", kindRemove)
				a.Set("over", f.filter(theirs()))
				a.Set("taken", takenVars)
				a.Set("go_on", c.goOn)
				a.Set("most", c.most)
				f.flyFields(a)
			}).(*jumps)
			n, err := r.Emit(f.c, 1)
			require.NoError(t, err)
			assert.Equal(t, len(c.want), n)
			assert.Equal(t, c.want, f.tokens(0))
			for name, want := range c.canJump {
				ok, err := r.TestSite(f.c, 1, f.site(t, name))
				require.NoError(t, err)
				assert.Equal(t, want, ok, "whether %s can jump", name)
			}
		})
	}
}

// TestFlyingJumpsWaiting: the next jumps of a piece that waits, by the
// site landed on, skip the pieces it has jumped.
func TestFlyingJumpsWaiting(t *testing.T) {
	f := newLinesFixture(t)
	f.put(t, position{one: []string{"c3"}, two: []string{"c2", "b3", "e3"}, kings: []string{"c3"}})
	f.c.SetVar(varTaken1, f.site(t, "c2")+1)
	r := f.make(t, "jumps_rule", func(a *Args) {
		a.Set("kind", kindMove)
		a.Set("again", kindRemove)
		a.Set("over", f.filter(theirs()))
		a.Set("taken", takenVars)
		a.Set("most", true)
		f.flyFields(a)
	}).(*jumps)
	n, err := r.EmitAt(f.c, 1, f.site(t, "c3"))
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	assert.Equal(t, []string{"xa3"}, f.tokens(0))
}

// TestHopPlayTaken: with taken the pieces jumped stay on the board until
// the move ends, then come off together; after follows once, for the
// whole move; arrival_last crowns only where the move ends.
func TestHopPlayTaken(t *testing.T) {
	type step struct {
		move     []string
		pending  string
		taken    []string // the pieces marked after the step
		captured int
		heard    []int // what after was told, so far
		crowned  string
	}
	for _, c := range []struct {
		name  string
		pos   position
		last  bool
		steps []step
	}{
		{"the pieces jumped come off at the end, in one", position{one: []string{"a1"}, two: []string{"b1", "c2", "d3"}}, false,
			[]step{
				{move: []string{"a1", "c1"}, pending: "c1", taken: []string{"b1"}},
				{move: []string{"c3"}, pending: "c3", taken: []string{"b1", "c2"}},
				{move: []string{"e3"}, captured: 3, heard: []int{3}, crowned: "e3"},
			}},
		{"a king's jump at a distance", position{one: []string{"a1"}, two: []string{"a3"}, kings: []string{"a1"}}, false,
			[]step{{move: []string{"a1", "a5"}, captured: 1, heard: []int{1}}}},
		{"a man passing its crowning row goes on as a man, crowned where it ends (arrival_last)",
			position{one: []string{"c1"}, two: []string{"d1", "e2", "d3"}}, true,
			[]step{
				{move: []string{"c1", "e1"}, pending: "e1", taken: []string{"d1"}},
				{move: []string{"e3"}, pending: "e3", taken: []string{"d1", "e2"}},
				{move: []string{"c3"}, captured: 3, heard: []int{3}},
			}},
		{"and crowned on it when it ends there", position{one: []string{"c1"}, two: []string{"d1"}}, true,
			[]step{{move: []string{"c1", "e1"}, captured: 1, heard: []int{1}, crowned: "e1"}}},
		{"a step: after is told 1 for a man's progress", position{one: []string{"a1"}}, false,
			[]step{{move: []string{"a1", "a2"}, heard: []int{1}}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newLinesFixture(t)
			f.put(t, c.pos)
			h := &heard{}
			again := f.make(t, "jumps_rule", func(a *Args) {
				a.Set("kind", kindMove)
				a.Set("over", f.filter(theirs()))
				a.Set("taken", takenVars)
				a.Set("toward", []string{"both", "both"})
				f.flyFields(a)
			})
			crown := f.make(t, "promote_rule", func(a *Args) {
				a.Set("row", []int{4, 0})
				a.Set("piece", f.filter(men()))
			})
			r := f.make(t, "hop_play", func(a *Args) {
				a.Set("pending", varPending)
				a.Set("again", again)
				a.Set("taken", takenVars)
				a.Set("arrival", []any{crown})
				a.Set("arrival_last", c.last)
				a.Set("progress", f.filter(men()))
				a.Set("after", []any{h})
			}).(Player)
			for i, st := range c.steps {
				m := kernel.Move{Kind: kindMove, N: uint8(len(st.move))}
				for k, name := range st.move {
					m.Sites[k] = uint16(f.site(t, name))
				}
				require.NoError(t, r.Play(f.c, 1, m), "step %d", i)
				want := 0
				if st.pending != "" {
					want = f.site(t, st.pending) + 1
				}
				assert.Equal(t, want, f.c.Var(varPending), "step %d: the pending decision", i)
				var marked []string
				for _, v := range takenVars {
					if x := f.c.Var(v); x > 0 {
						marked = append(marked, f.b.Site(x-1).Name)
						assert.Equal(t, 2, f.c.Owner(x-1), "step %d: the piece jumped stays on %s", i, f.b.Site(x-1).Name)
					}
				}
				assert.Equal(t, st.taken, marked, "step %d: the pieces marked", i)
				assert.Equal(t, st.captured, f.c.Captured(1), "step %d", i)
				assert.Equal(t, st.heard, h.ns, "step %d: after", i)
				to := f.site(t, st.move[len(st.move)-1])
				wantCount := 1
				if st.crowned != "" || slicesContains(c.pos.kings, c.pos.one[0]) {
					wantCount = 2
				}
				assert.Equal(t, wantCount, f.c.Count(to), "step %d: the piece on %s", i, st.move[len(st.move)-1])
			}
		})
	}
}

func slicesContains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// TestHopPlayTakenFull: a move that jumps more pieces than taken has
// variables is an error naming the variables, and a piece marked twice
// another.
func TestHopPlayTakenFull(t *testing.T) {
	f := newLinesFixture(t)
	f.put(t, position{one: []string{"a1"}, two: []string{"a3"}, kings: []string{"a1"}})
	r := f.make(t, "hop_play", func(a *Args) {
		a.Set("pending", varPending)
		a.Set("taken", takenVars[:1])
	}).(Player)
	f.c.SetVar(varTaken1, f.site(t, "e5")+1)
	err := r.Play(f.c, 1, kernel.Move{Kind: kindMove, N: 2, Sites: [kernel.MaxMoveSites]uint16{uint16(f.site(t, "a1")), uint16(f.site(t, "a5"))}})
	assert.ErrorContains(t, err, "as many as the variables of taken hold")
	f.c.SetVar(varTaken1, f.site(t, "a3")+1)
	err = r.Play(f.c, 1, kernel.Move{Kind: kindMove, N: 2, Sites: [kernel.MaxMoveSites]uint16{uint16(f.site(t, "a1")), uint16(f.site(t, "a5"))}})
	assert.ErrorContains(t, err, "was jumped already in this move")
}

// holds is a condition with a fixed answer.
type holds bool

func (h holds) Holds(*kernel.Ctx, int) (bool, error) { return bool(h), nil }

// TestAfterIfRule: the parts of after follow only when the condition
// holds, with what the decision was told.
func TestAfterIfRule(t *testing.T) {
	for _, c := range []struct {
		name string
		when bool
		want []int
	}{
		{"the parts follow when it holds", true, []int{3}},
		{"nothing follows when it does not", false, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newLinesFixture(t)
			h := &heard{}
			r := f.make(t, "after_if_rule", func(a *Args) {
				a.Set("when", holds(c.when))
				a.Set("after", []any{h})
			}).(Follower)
			require.NoError(t, r.After(f.c, 1, 3))
			assert.Equal(t, c.want, h.ns)
		})
	}
}

// TestMostPromotes: with promote_row the search of the longest chain
// crowns a man where it lands on its row, and it captures on as a flying
// piece, or with promote_ends its chain ends there.
func TestMostPromotes(t *testing.T) {
	for _, c := range []struct {
		name string
		row  bool
		ends bool
		want []string
	}{
		// The man on c1 reaches row e over d1: crowned, it flies over e3
		// and on, two pieces; the man on a5 takes one, b5.
		{"a man goes on as it started without promote_row", false, false, []string{"a5-c5", "c1-e1"}},
		{"crowned on its row, it captures on as a king", true, false, []string{"c1-e1"}},
		{"or its chain ends there with promote_ends", true, true, []string{"a5-c5", "c1-e1"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newLinesFixture(t)
			f.put(t, position{one: []string{"c1", "a5"}, two: []string{"d1", "e3", "b5"}})
			r := f.make(t, "jumps_rule", func(a *Args) {
				a.Set("kind", kindMove)
				a.Set("over", f.filter(theirs()))
				a.Set("most", true)
				if c.row {
					a.Set("promote_row", []int{4, 0})
					a.Set("promote_ends", c.ends)
				}
				f.flyFields(a)
			}).(*jumps)
			_, err := r.Emit(f.c, 1)
			require.NoError(t, err)
			assert.Equal(t, c.want, f.tokens(0))
		})
	}
}
