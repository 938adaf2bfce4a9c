package rules

import (
	"fmt"
	"testing"

	"github.com/matombo/matombo/host/kernel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The parts of games that place and move pieces, on the 3x3 square with
// its diagonals: two players with three pieces each in hand, moves of
// kinds drop {1}, move {from}-{to} and remove x{1}, and two position
// variables (a pending removal and a barred move's sites) and one outside
// the position (a count).

type fixture struct {
	def *kernel.Def
	s   *kernel.State
	c   *kernel.Ctx
	b   *kernel.Board
}

const (
	kindDrop = iota
	kindMove
	kindRemove
	kindStop
	varPending = 0
	varFrom1   = 1
	varTo1     = 2
	varFrom2   = 3
	varTo2     = 4
	varCount   = 5
)

func newFixture(t *testing.T) *fixture {
	t.Helper()
	b, err := kernel.NewBoard(kernel.BoardSpec{Rows: []string{"a", "b", "c"}, Columns: 3, Style: kernel.Pieces,
		Lines: [][]string{
			{"a1", "a2", "a3"}, {"b1", "b2", "b3"}, {"c1", "c2", "c3"},
			{"a1", "b1", "c1"}, {"a2", "b2", "c2"}, {"a3", "b3", "c3"},
			{"a1", "b2", "c3"}, {"a3", "b2", "c1"},
		}})
	require.NoError(t, err)
	def := &kernel.Def{Board: b, Players: 2, Layout: kernel.NewLayout(9, 2, 5, 1)}
	for _, k := range []struct{ name, tmpl string }{{"drop", "{1}"}, {"move", "{from}-{to}"}, {"remove", "x{1}"}, {"stop", "stop"}} {
		mk, err := kernel.NewMoveKind(k.name, k.tmpl, "")
		require.NoError(t, err)
		def.Kinds = append(def.Kinds, mk)
	}
	for i, name := range []string{"pending", "from1", "to1", "from2", "to2"} {
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

// site returns the index of the named site.
func (f *fixture) site(t *testing.T, name string) int {
	i, ok := f.b.Index(name)
	require.True(t, ok, name)
	return i
}

// set puts player p's pieces on the named sites (p 0: empties them).
func (f *fixture) set(t *testing.T, p int, names ...string) {
	for _, n := range names {
		i := f.site(t, n)
		f.s.Cells[i] = int32(min(p, 1))
		f.s.Cells[f.def.Layout.Owners+i] = int32(p)
	}
}

// make builds the part spec name declares from fields set by fill.
func (f *fixture) make(t *testing.T, name string, fill func(a *Args)) any {
	t.Helper()
	spec, ok := Lookup(name)
	require.True(t, ok, name)
	a := NewArgs(f.def, spec)
	fill(a)
	x, err := spec.New(a)
	require.NoError(t, err)
	return x
}

func (f *fixture) tokens(from int) []string {
	var out []string
	for _, m := range f.s.Moves[from:] {
		out = append(out, f.def.Kinds[m.Kind].Format(f.b, m))
	}
	return out
}

func (f *fixture) filter(spec kernel.FilterSpec) []*kernel.Filter {
	fl := kernel.NewFilter(f.b, spec)
	return []*kernel.Filter{fl, fl}
}

func empty() kernel.FilterSpec {
	return kernel.FilterSpec{Owner: 0, Max: 0, Row: -1}
}

func mine() kernel.FilterSpec {
	return kernel.FilterSpec{Rel: kernel.OwnerMover, Min: 1, Max: -1, Row: -1}
}

func theirs() kernel.FilterSpec {
	return kernel.FilterSpec{Rel: kernel.OwnerOpponent, Min: 1, Max: -1, Row: -1}
}

func (f *fixture) emitter(t *testing.T, kind int, fill func(a *Args)) Emitter {
	return f.make(t, "emit_rule", func(a *Args) { a.Set("kind", kind); fill(a) }).(Emitter)
}

// TestLineRuleOnlyExcept: lines that count for each player, by the
// sites named in either order, and the errors of lines the board lacks.
func TestLineRuleOnlyExcept(t *testing.T) {
	f := newFixture(t)
	a1, a2, a3, c1, c2, c3 := f.site(t, "a1"), f.site(t, "a2"), f.site(t, "a3"), f.site(t, "c1"), f.site(t, "c2"), f.site(t, "c3")
	b2 := f.site(t, "b2")
	rowA, rowC := []int{a3, a2, a1}, []int{c1, c2, c3}
	ownHome := f.make(t, "line_rule", func(a *Args) {
		a.Set("length", 3)
		a.Set("except", [][][]int{{rowA}, {rowC}})
	}).(*line)
	diagonals := f.make(t, "line_rule", func(a *Args) {
		a.Set("length", 3)
		a.Set("only", [][][]int{{{a1, b2, c3}, {a3, b2, c1}}, {{a1, b2, c3}, {a3, b2, c1}}})
	}).(*line)
	f.set(t, 1, "a1", "a2", "a3")
	f.set(t, 2, "c1", "c2", "c3")
	for p, want := range map[int]bool{1: false, 2: false} {
		ok, err := ownHome.TestSite(f.c, p, []int{0, a2, c2}[p])
		require.NoError(t, err)
		assert.Equal(t, want, ok, "player %d on their own home row", p)
	}
	f.set(t, 0, "a1", "a2", "a3", "c1", "c2", "c3")
	f.set(t, 2, "a1", "a2", "a3") // player 2 on player 1's home row wins
	ok, sites, err := ownHome.TestSiteNamed(f.c, 2, a2)
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, []int{a1, a2, a3}, sites)
	ok, err = diagonals.Holds(f.c, 2)
	require.NoError(t, err)
	assert.False(t, ok, "a row is not a diagonal")
	f.set(t, 0, "a1", "a2", "a3")
	f.set(t, 1, "a3", "b2", "c1")
	ok, err = diagonals.TestSite(f.c, 1, b2)
	require.NoError(t, err)
	assert.True(t, ok)

	spec, _ := Lookup("line_rule")
	for _, c := range []struct {
		set  func(a *Args)
		want string
	}{
		{func(a *Args) { a.Set("except", [][][]int{{{a1, a2}}, nil}) }, "except: line 1 (a1 a2) is not a line of the board"},
		{func(a *Args) { a.Set("only", [][][]int{{{a1, c3, b2}}, nil}) }, "only: line 1 (a1 c3 b2) is not a line of the board"},
		{func(a *Args) { a.Set("only", [][][]int{nil, nil}); a.Set("except", [][][]int{nil, nil}) }, "give only or except"},
	} {
		a := NewArgs(f.def, spec)
		a.Set("length", 3)
		c.set(a)
		_, err := spec.New(a)
		require.Error(t, err)
		assert.Contains(t, err.Error(), c.want)
	}
}

// TestChoosingEmitters: if_rule, first_of_rule and except_rule pick among
// the moves of other emitters.
func TestChoosingEmitters(t *testing.T) {
	f := newFixture(t)
	drops := f.emitter(t, kindDrop, func(a *Args) { a.Set("each", f.filter(empty())) })
	removals := f.emitter(t, kindRemove, func(a *Args) { a.Set("each", f.filter(theirs())) })
	pending := f.make(t, "compare_rule", func(a *Args) {
		a.Set("amount", varValue{v: varPending})
		a.Set("op", ">")
		a.Set("value", 0)
	}).(Condition)
	legal := f.make(t, "if_rule", func(a *Args) {
		a.Set("when", pending)
		a.Set("emit", removals)
		a.Set("otherwise", drops)
	}).(Emitter)
	f.set(t, 2, "b2", "c3")
	n, err := legal.Emit(f.c, 1)
	require.NoError(t, err)
	assert.Equal(t, 7, n)
	assert.Equal(t, []string{"a1", "a2", "a3", "b1", "b3", "c1", "c2"}, f.tokens(0))
	f.s.Moves = f.s.Moves[:0]
	f.c.SetVar(varPending, 1)
	_, err = legal.Emit(f.c, 1)
	require.NoError(t, err)
	assert.Equal(t, []string{"xb2", "xc3"}, f.tokens(0))

	// first_of: the first emitter with moves.
	f.s.Moves = f.s.Moves[:0]
	none := f.emitter(t, kindRemove, func(a *Args) { a.Set("each", f.filter(kernel.FilterSpec{Owner: 2, Min: 5, Max: -1, Row: -1})) })
	first := f.make(t, "first_of_rule", func(a *Args) { a.Set(List, []any{none, removals, drops}) }).(Emitter)
	n, err = first.Emit(f.c, 1)
	require.NoError(t, err)
	assert.Equal(t, 2, n)
	assert.Equal(t, []string{"xb2", "xc3"}, f.tokens(0))

	// except: the moves a test bars are left out, the others keep their order.
	f.s.Moves = f.s.Moves[:1] // a move listed before stays
	notB := moveTest(func(m kernel.Move) bool { return f.b.SiteName(int(m.Sites[0]))[0] == 'b' })
	ex := f.make(t, "except_rule", func(a *Args) { a.Set("moves", drops); a.Set("except", notB) }).(Emitter)
	n, err = ex.Emit(f.c, 1)
	require.NoError(t, err)
	assert.Equal(t, 5, n)
	assert.Equal(t, []string{"xb2", "a1", "a2", "a3", "c1", "c2"}, f.tokens(0))
}

type moveTest func(m kernel.Move) bool

func (t moveTest) TestMove(_ *kernel.Ctx, _ int, m kernel.Move) (bool, error) { return t(m), nil }

// TestMillAndRemoval: a drop that makes a mill gives its player a removal
// (again_rule in placement_play's arrival), unless the opponent has no
// piece on the board; the removal (remove_play) clears it and runs its
// followers until the game ends.
func TestMillAndRemoval(t *testing.T) {
	f := newFixture(t)
	mill := f.make(t, "line_rule", func(a *Args) { a.Set("length", 3) }).(SiteTester)
	again := f.make(t, "again_rule", func(a *Args) {
		a.Set("when", mill)
		a.Set("need", f.filter(theirs()))
		a.Set("set", varPending)
	})
	var afters []int
	after := follow(func(p, n int) { afters = append(afters, n) })
	play := f.make(t, "placement_play", func(a *Args) {
		a.Set("drop", kindDrop)
		a.Set("arrival", []any{again})
		a.Set("after", after)
	}).(Player)
	drop := func(name string) kernel.Move {
		return kernel.Move{Kind: kindDrop, N: 1, Sites: [4]uint16{uint16(f.site(t, name))}}
	}
	f.set(t, 1, "a1", "a2")
	f.c.ToMoveSet = false
	require.NoError(t, play.Play(f.c, 1, drop("a3")))
	assert.Equal(t, 0, f.c.Var(varPending), "no piece of the opponent's to remove")
	assert.False(t, f.c.ToMoveSet)
	assert.Equal(t, []int{0}, afters, "after follows a move that gives no other decision")

	f.set(t, 0, "a3")
	f.s.Cells[f.def.Layout.Hand] = 3
	f.set(t, 2, "c3")
	require.NoError(t, play.Play(f.c, 1, drop("a3")))
	assert.Equal(t, 1, f.c.Var(varPending))
	assert.True(t, f.c.ToMoveSet)
	assert.Equal(t, 1, f.c.ToMove())
	assert.Equal(t, []int{0}, afters, "after does not follow a move that gives another decision")

	ends := endWhen(func(c *kernel.Ctx, p int) bool { return c.Captured(p) >= 1 })
	remove := f.make(t, "remove_play", func(a *Args) {
		a.Set("clear", []int{varPending})
		a.Set("after", []any{ends, after})
	}).(Player)
	require.NoError(t, remove.Play(f.c, 1, kernel.Move{Kind: kindRemove, N: 1, Sites: [4]uint16{uint16(f.site(t, "c3"))}}))
	assert.Equal(t, 0, f.c.Var(varPending))
	assert.Equal(t, 1, f.c.Captured(1))
	assert.Equal(t, 0, f.c.Owner(f.site(t, "c3")))
	assert.True(t, f.s.Result.Over)
	assert.Equal(t, []int{0}, afters, "the game ended: the followers after the end do not run")
}

type follow func(p, n int)

func (f follow) After(_ *kernel.Ctx, p, n int) error { f(p, n); return nil }

type endWhen func(c *kernel.Ctx, p int) bool

func (e endWhen) After(c *kernel.Ctx, p, _ int) error {
	if e(c, p) {
		c.Finish(p, "done", nil, nil)
	}
	return nil
}

// TestQuietRule: a count of the decisions without a capture while a
// condition holds, reset by a capture or the condition's failing, that
// ends the game at its limit.
func TestQuietRule(t *testing.T) {
	f := newFixture(t)
	holds := true
	cond := condFunc(func() bool { return holds })
	q := f.make(t, "quiet_rule", func(a *Args) {
		a.Set("count", varCount)
		a.Set("when", cond)
		a.Set("limit", 3)
		a.Set("reason", "quiet")
		a.Set("result", &winner{who: "draw"})
	}).(Follower)
	steps := []struct {
		n     int
		holds bool
		want  int
		over  bool
	}{{0, true, 1, false}, {0, true, 2, false}, {1, true, 0, false}, {0, false, 0, false}, {0, true, 1, false}, {0, true, 2, false}, {0, true, 3, true}}
	for i, st := range steps {
		holds = st.holds
		require.NoError(t, q.After(f.c, 1, st.n))
		assert.Equal(t, st.want, f.c.Var(varCount), "step %d", i)
		assert.Equal(t, st.over, f.s.Result.Over, "step %d", i)
	}
	assert.Equal(t, kernel.Result{Over: true, Reason: "quiet", Method: kernel.MethodRule}, f.s.Result)
}

type condFunc func() bool

func (c condFunc) Holds(*kernel.Ctx, int) (bool, error) { return c(), nil }

// TestNoReturnRule: a move that broke a line and made one bars the way
// back, which the rule then reports as barred only while it would make a
// line again; any other move clears the bar.
func TestNoReturnRule(t *testing.T) {
	f := newFixture(t)
	mill := f.make(t, "line_rule", func(a *Args) { a.Set("length", 3) }).(SiteTester)
	move := f.make(t, "placement_play", func(a *Args) { a.Set("move", kindMove) }).(Player)
	nr := f.make(t, "no_return_rule", func(a *Args) {
		a.Set("play", move)
		a.Set("line", mill)
		a.Set("from", []int{varFrom1, varFrom2})
		a.Set("to", []int{varTo1, varTo2})
	})
	play, test := nr.(Player), nr.(MoveTester)
	mv := func(from, to string) kernel.Move {
		return kernel.Move{Kind: kindMove, N: 2, Sites: [4]uint16{uint16(f.site(t, from)), uint16(f.site(t, to))}}
	}
	// Player 1's b1 leaves the line a1 b1 c1 for the empty b2, which
	// fills the line a2 b2 c2.
	f.set(t, 1, "a1", "b1", "c1", "a2", "c2")
	f.set(t, 2, "a3")
	require.NoError(t, play.Play(f.c, 1, mv("b1", "b2")))
	assert.Equal(t, []int{f.site(t, "b2") + 1, f.site(t, "b1") + 1}, []int{f.c.Var(varFrom1), f.c.Var(varTo1)})
	barred, err := test.TestMove(f.c, 1, mv("b2", "b1"))
	require.NoError(t, err)
	assert.True(t, barred, "going back remakes a1 b1 c1")
	assert.Equal(t, 1, f.c.Owner(f.site(t, "b2")), "the move was tried on a copy")
	barred, err = test.TestMove(f.c, 1, mv("b2", "b3"))
	require.NoError(t, err)
	assert.False(t, barred, "another move is not the way back")
	f.set(t, 0, "c1") // the line it would remake is broken
	barred, err = test.TestMove(f.c, 1, mv("b2", "b1"))
	require.NoError(t, err)
	assert.False(t, barred)

	// A move that breaks no line bars nothing, and clears the bar.
	require.NoError(t, play.Play(f.c, 1, mv("b2", "b1")))
	assert.Equal(t, []int{0, 0}, []int{f.c.Var(varFrom1), f.c.Var(varTo1)})
}

// TestPlayerAndVarRules: the conditions and amounts of a player's number
// and a variable.
func TestPlayerAndVarRules(t *testing.T) {
	f := newFixture(t)
	one := f.make(t, "player_rule", func(a *Args) { a.Set("number", 1) }).(Condition)
	v := f.make(t, "var_rule", func(a *Args) { a.Set("var", varTo2) }).(Amount)
	for p, want := range map[int]bool{1: true, 2: false} {
		ok, err := one.Holds(f.c, p)
		require.NoError(t, err)
		assert.Equal(t, want, ok)
	}
	f.c.SetVar(varTo2, 7)
	n, err := v.Value(f.c, 2)
	require.NoError(t, err)
	assert.Equal(t, 7, n)
}

// TestLineRuleExactly: with exactly, a run of length counts only when it
// is no longer, along any line through the site (Dara's three in a row,
// not four), and the result names the run's sites.
func TestLineRuleExactly(t *testing.T) {
	rows := []string{"a", "b", "c", "d"}
	var lines [][]string
	for _, r := range rows {
		lines = append(lines, []string{r + "1", r + "2", r + "3", r + "4", r + "5"})
	}
	for c := 1; c <= 5; c++ {
		var col []string
		for _, r := range rows {
			col = append(col, fmt.Sprintf("%s%d", r, c))
		}
		lines = append(lines, col)
	}
	b, err := kernel.NewBoard(kernel.BoardSpec{Rows: rows, Columns: 5, Style: kernel.Pieces, Lines: lines})
	require.NoError(t, err)
	f := &fixture{def: &kernel.Def{Board: b, Players: 2, Layout: kernel.NewLayout(20, 2, 0, 0)}, b: b}
	exactly := f.make(t, "line_rule", func(a *Args) { a.Set("length", 3); a.Set("exactly", true) }).(*line)
	atLeast := f.make(t, "line_rule", func(a *Args) { a.Set("length", 3) }).(*line)
	for _, c := range []struct {
		name      string
		mine      []string
		theirs    []string
		at        string // "" asks the condition: any line of the board
		want      bool
		wantSites []string
		wantLeast bool
	}{
		{name: "three", mine: []string{"a1", "a2", "a3"}, at: "a2", want: true, wantSites: []string{"a1", "a2", "a3"}, wantLeast: true},
		{name: "four are not three", mine: []string{"a1", "a2", "a3", "a4"}, at: "a2", wantLeast: true},
		{name: "five are not three", mine: []string{"a1", "a2", "a3", "a4", "a5"}, at: "a5", wantLeast: true},
		{name: "three beside an opponent's piece", mine: []string{"a2", "a3", "a4"}, theirs: []string{"a1", "a5"}, at: "a4", want: true, wantSites: []string{"a2", "a3", "a4"}, wantLeast: true},
		{name: "three, a gap, one more", mine: []string{"a1", "a2", "a3", "a5"}, at: "a1", want: true, wantSites: []string{"a1", "a2", "a3"}, wantLeast: true},
		{name: "the one beyond the gap is in no three", mine: []string{"a1", "a2", "a3", "a5"}, at: "a5"},
		{name: "four along the row, three down the column", mine: []string{"a1", "a2", "a3", "a4", "b1", "c1"}, at: "a1", want: true, wantSites: []string{"a1", "b1", "c1"}, wantLeast: true},
		{name: "the condition: four only", mine: []string{"b1", "b2", "b3", "b4"}, wantLeast: true},
		{name: "the condition: four and a three", mine: []string{"b1", "b2", "b3", "b4", "d3", "d4", "d5"}, want: true, wantLeast: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			f.s = &kernel.State{Cells: make([]int32, f.def.Layout.Size)}
			f.c = &kernel.Ctx{Def: f.def}
			f.c.Reset(f.s, kernel.Unmetered{}, 1)
			f.set(t, 1, c.mine...)
			f.set(t, 2, c.theirs...)
			if c.at == "" {
				ok, err := exactly.Holds(f.c, 1)
				require.NoError(t, err)
				assert.Equal(t, c.want, ok)
				ok, err = atLeast.Holds(f.c, 1)
				require.NoError(t, err)
				assert.Equal(t, c.wantLeast, ok, "without exactly")
				return
			}
			at := f.site(t, c.at)
			ok, sites, err := exactly.TestSiteNamed(f.c, 1, at)
			require.NoError(t, err)
			assert.Equal(t, c.want, ok)
			var names []string
			for _, s := range sites {
				names = append(names, b.SiteName(s))
			}
			assert.Equal(t, c.wantSites, names)
			ok, err = atLeast.TestSite(f.c, 1, at)
			require.NoError(t, err)
			assert.Equal(t, c.wantLeast, ok, "without exactly")
		})
	}

	spec, _ := Lookup("line_rule")
	a := NewArgs(f.def, spec)
	a.Set("length", 3)
	a.Set("anywhere", true)
	a.Set("exactly", true)
	_, err = spec.New(a)
	require.ErrorContains(t, err, "give anywhere or exactly")
}

// TestPartsNeedLines: on a board without lines (a grid declares none of
// its own) a part that moves along, jumps along or counts on lines would
// never find one: it is an error naming the field and the fix, not a game
// where every piece is stuck.
func TestPartsNeedLines(t *testing.T) {
	b, err := kernel.NewBoard(kernel.BoardSpec{Rows: []string{"a", "b"}, Columns: 3, Style: kernel.Pieces})
	require.NoError(t, err)
	require.Zero(t, b.NumLines())
	f := &fixture{b: b, def: &kernel.Def{Board: b, Players: 2, Layout: kernel.NewLayout(6, 2, 0, 0)}}
	for _, k := range []struct{ name, tmpl string }{{"drop", "{1}"}, {"move", "{from}-{to}"}} {
		mk, err := kernel.NewMoveKind(k.name, k.tmpl, "")
		require.NoError(t, err)
		f.def.Kinds = append(f.def.Kinds, mk)
	}
	mineF := f.filter(mine())
	for _, c := range []struct {
		part string
		set  func(a *Args)
		want string
	}{
		{"emit_rule", func(a *Args) { a.Set("kind", kindMove); a.Set("steps", mineF) }, "steps: the board has no lines"},
		{"emit_rule", func(a *Args) { a.Set("kind", kindMove); a.Set("jumps", mineF) }, "jumps: the board has no lines"},
		{"steps_rule", func(a *Args) { a.Set("kind", kindMove); a.Set("from", mineF) }, "the board has no lines"},
		{"jumps_rule", func(a *Args) { a.Set("kind", kindMove); a.Set("from", mineF); a.Set("over", mineF) }, "the board has no lines"},
		{"line_rule", func(a *Args) { a.Set("length", 3) }, "the board has no lines"},
		{"line_cond_rule", func(a *Args) { a.Set("length", 3) }, "the board has no lines"},
		{"custodian_rule", func(a *Args) { a.Set("over", mineF); a.Set("with", mineF) }, "the board has no lines"},
	} {
		spec, ok := Lookup(c.part)
		require.True(t, ok, c.part)
		a := NewArgs(f.def, spec)
		c.set(a)
		_, err := spec.New(a)
		require.Error(t, err, c.part)
		assert.Contains(t, err.Error(), c.want, c.part)
		assert.Contains(t, err.Error(), "give matombo.board its lines", c.part)
	}
	// A grid's drops need no lines.
	_ = f.emitter(t, kindDrop, func(a *Args) { a.Set("each", f.filter(empty())) })
}
