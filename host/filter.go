package host

import (
	"fmt"
	"math"

	"github.com/matombo/matombo/host/internal/luastr"
	lua "github.com/yuin/gopher-lua"
)

// filter selects sites by fixed properties (tag, row, track), decided when
// it is made, and by properties of the state (owner, count, an empty next
// site), decided when it is used.
type filter struct {
	cand      []int32 // sites passing the fixed tests, in board order
	owner     int     // -1 for any owner
	rel       int     // relOwner, relMover, relOpponent
	min, max  int32   // count bounds; max < 0 for none
	nextEmpty *Track  // the next site on this track must be empty
	run       lineRun // in or not in a run of one owner along a line (lua_lines.go)
	tests     int     // which state tests apply: testsNone, testsCount or testsAll
}

// What a filter tests of the state, so that the hot loops can skip the
// tests that cannot fail.
const (
	testsNone  = iota // every candidate matches
	testsCount        // only the count bounds
	testsAll          // owners or the next site too
)

// classify sets f.tests from the filter's state tests.
func (f *filter) classify() {
	switch {
	case f.rel != relOwner || f.owner >= 0 || f.nextEmpty != nil || f.run.k > 0:
		f.tests = testsAll
	case f.min > 0 || f.max >= 0:
		f.tests = testsCount
	default:
		f.tests = testsNone
	}
}

// sum adds the counts of the matching sites.
func (f *filter) sum(c []int32, lay *layout, mover int) int {
	n := 0
	switch {
	case f.tests == testsNone || f.tests == testsCount && f.min <= 1 && f.max < 0:
		for _, i := range f.cand { // sites below the minimum hold 0 or nothing
			n += int(c[i])
		}
	default:
		t, owners := f.tester(mover), lay.ownersOf(c)
		for _, i := range f.cand {
			if t.ok(c, owners, i) && (!t.rare || f.matchesOwner(c, lay, mover, i)) {
				n += int(c[i])
			}
		}
	}
	return n
}

const (
	relOwner = iota
	relMover
	relOpponent
)

// apiFilter: filter{owner=, min=, max=, tag=, not_tag=, row=, track=,
// next_empty=} makes a filter, while the script loads.
func (vm *machine) apiFilter(L *lua.LState) int {
	vm.mustLoad(L, "a filter")
	b := vm.board(L)
	t := L.CheckTable(1)
	checkFields(L, t, "matombo.filter", "owner", "min", "max", "tag", "not_tag", "row", "track", "next_empty", "in_row", "not_in_row")
	f := &filter{owner: -1, max: -1}
	intField := func(name string) (int, bool) {
		v := t.RawGetString(name)
		if v == lua.LNil {
			return 0, false
		}
		n, ok := v.(lua.LNumber)
		if !ok || float64(n) != math.Trunc(float64(n)) {
			L.RaiseError("filter: %s must be a whole number, got %s", name, describeLua(v))
		}
		return int(n), true
	}
	switch v := t.RawGetString("owner").(type) {
	case *lua.LNilType:
	case lua.LString:
		switch v {
		case "mover":
			f.rel = relMover
		case "opponent":
			f.rel = relOpponent
		case "nobody":
			f.owner = 0
		default:
			L.RaiseError("filter: owner must be a player number, \"mover\", \"opponent\" or \"nobody\", got %q", string(v))
		}
	case lua.LNumber:
		p := int(v)
		if float64(p) != float64(v) || p < 0 || p > vm.dcl.players {
			L.RaiseError("filter: owner %v does not exist", v)
		}
		f.owner = p
	default:
		L.RaiseError("filter: owner must be a player number or a word, got %s", describeLua(v))
	}
	if n, ok := intField("min"); ok {
		f.min = int32(n)
	}
	if n, ok := intField("max"); ok {
		if n < 0 {
			L.RaiseError("filter: max must be at least 0")
		}
		f.max = int32(n)
	}
	var tagOn, tagOff uint64
	if n, ok := intField("tag"); ok {
		if n < 1 || n > len(b.tags) {
			L.RaiseError("filter: tag %d does not exist", n)
		}
		tagOn = 1 << uint(n-1)
	}
	if n, ok := intField("not_tag"); ok {
		if n < 1 || n > len(b.tags) {
			L.RaiseError("filter: tag %d does not exist", n)
		}
		tagOff = 1 << uint(n-1)
	}
	row := -1
	if n, ok := intField("row"); ok {
		if n < 1 || n > len(b.rows) {
			L.RaiseError("filter: row %d does not exist", n)
		}
		row = n - 1
	}
	var on *Track
	if n, ok := intField("track"); ok {
		if n < 1 || n > len(b.tracks) {
			L.RaiseError("filter: track %d does not exist", n)
		}
		on = &b.tracks[n-1]
	}
	if n, ok := intField("next_empty"); ok {
		if n < 1 || n > len(b.tracks) {
			L.RaiseError("filter: track %d does not exist", n)
		}
		f.nextEmpty = &b.tracks[n-1]
	}
	f.run = vm.lineRunFields(L, t, b)
	for i, s := range b.sites {
		m := b.tagMask[i]
		if tagOn != 0 && m&tagOn == 0 || m&tagOff != 0 || row >= 0 && s.Row != row || on != nil && on.pos[i] < 0 {
			continue
		}
		if f.nextEmpty != nil && f.nextEmpty.next[i] < 0 {
			continue
		}
		f.cand = append(f.cand, int32(i))
	}
	f.classify()
	ud := L.NewUserData()
	ud.Value = f
	vm.filters = append(vm.filters, f)
	L.Push(ud)
	return 1
}

// matches reports whether site i passes the filter's state tests.
func (f *filter) matches(c []int32, lay *layout, mover int, i int32) bool {
	n := c[i]
	if n < f.min || f.max >= 0 && n > f.max {
		return false
	}
	return f.tests != testsAll || f.matchesOwner(c, lay, mover, i)
}

// tester is a filter's state tests made ready for one mover, for the hot
// loops of emitters and native rules. The count bounds and an owner are
// tested by ok, small enough for the compiler to inline (and the struct
// small enough to live in registers); the rarer tests (an empty next site,
// an opponent's sites, runs along lines) are the filter's matchesOwner,
// asked only when rare is set:
//
//	t.ok(c, lay.ownersOf(c), i) && (!t.rare || f.matchesOwner(c, lay, mover, i))
//
// is f.matches(c, lay, mover, i).
type tester struct {
	lo, hi int32 // count bounds
	owner  int32 // the owner required, -1 for any
	rare   bool  // matchesOwner must be asked too
}

// tester returns f's tests with mover to move.
func (f *filter) tester(mover int) tester {
	t := tester{lo: f.min, hi: f.max, owner: int32(f.owner)}
	if t.hi < 0 {
		t.hi = math.MaxInt32
	}
	switch f.rel {
	case relMover:
		t.owner = int32(mover)
	case relOpponent:
		t.rare = true
	}
	t.rare = t.rare || f.nextEmpty != nil || f.run.k > 0
	return t
}

// ok reports whether site i passes the count bounds and the owner test;
// owners are the owners' cells of c.
func (t *tester) ok(c, owners []int32, i int32) bool {
	n := c[i]
	return n >= t.lo && n <= t.hi && (t.owner < 0 || owners[i] == t.owner)
}

// hits returns the set of the sites of block (at most 64) that pass ok:
// bit k for block[k]. It is not inlined, so that its loop keeps the
// tests in registers.
//
//go:noinline
func (t *tester) hits(c, owners []int32, block []int32) uint64 {
	lo, hi, owner := t.lo, t.hi, t.owner
	c = c[:len(owners)] // the counts: one bounds check serves both
	var set uint64
	for k, i := range block {
		if n := c[i]; n >= lo && n <= hi && (owner < 0 || owners[i] == owner) {
			set |= 1 << (uint(k) & 63)
		}
	}
	return set
}

// ownersOf returns the owners' cells of the state whose cells are c.
func (lay *layout) ownersOf(c []int32) []int32 { return c[lay.owners : lay.owners+lay.sites] }

// matchesOwner is the owner and next-site part of matches.
func (f *filter) matchesOwner(c []int32, lay *layout, mover int, i int32) bool {
	o := int(c[lay.owners+int(i)])
	switch f.rel {
	case relMover:
		if o != mover {
			return false
		}
	case relOpponent:
		if o == 0 || o == mover {
			return false
		}
	default:
		if f.owner >= 0 && o != f.owner {
			return false
		}
	}
	if f.nextEmpty != nil && c[f.nextEmpty.next[i]] != 0 {
		return false
	}
	if f.run.k > 0 && f.run.through(c[lay.owners:lay.owners+lay.sites], i) != f.run.in {
		return false
	}
	return true
}

func (vm *machine) apiCountSites(L *lua.LState) int {
	s := vm.state(L)
	f := vm.filterArg(L, 1)
	n := 0
	for _, i := range f.cand {
		if f.matches(s.cells, &vm.g.lay, vm.mover, i) {
			n++
		}
	}
	L.Push(luaInt(n))
	return 1
}

func (vm *machine) apiSum(L *lua.LState) int {
	s := vm.state(L)
	f := vm.filterArg(L, 1)
	L.Push(luaInt(f.sum(s.cells, &vm.g.lay, vm.mover)))
	return 1
}

func (vm *machine) apiFirst(L *lua.LState) int {
	s := vm.state(L)
	f := vm.filterArg(L, 1)
	for _, i := range f.cand {
		if f.matches(s.cells, &vm.g.lay, vm.mover, i) {
			vm.pushSite(L, int(i))
			return 1
		}
	}
	L.Push(lua.LNil)
	return 1
}

// apiSites returns a new table of the matching sites; it allocates, so hot
// paths should prefer the emitters and counters.
func (vm *machine) apiSites(L *lua.LState) int {
	s := vm.state(L)
	f := vm.filterArg(L, 1)
	t := L.NewTable()
	for _, i := range f.cand {
		if f.matches(s.cells, &vm.g.lay, vm.mover, i) {
			t.Append(luaInt(int(i) + 1))
		}
	}
	L.Push(t)
	return 1
}

// apiInARow: in_a_row(player, site, k) reports whether the player owns k or
// more consecutive sites of a line through site (of any line when site is
// nil).
func (vm *machine) apiInARow(L *lua.LState) int {
	line, _, run := vm.inARow(L)
	pushBool(L, line != nil && run > 0)
	return 1
}

// apiRowSites: row_sites(player, site, k) is in_a_row that returns the
// sites of the run, or nil: what finish { sites = ... } names as the sites
// that made a result. Unlike in_a_row it makes a table, so a script calls
// it once it knows the run is there.
func (vm *machine) apiRowSites(L *lua.LState) int {
	line, end, run := vm.inARow(L)
	if line == nil {
		L.Push(lua.LNil)
		return 1
	}
	t := L.CreateTable(run, 0)
	for _, x := range line[end-run : end] {
		t.Append(luaInt(int(x) + 1))
	}
	L.Push(t)
	return 1
}

// inARow finds the first run of k or more of a player's sites along a
// line through a site (any line when the site is nil), for in_a_row and
// row_sites: the line, the end of the run (exclusive) and its length, or
// a nil line.
func (vm *machine) inARow(L *lua.LState) (line []int32, end, run int) {
	s := vm.state(L)
	p := vm.player(L, 1)
	site := vm.optSite(L, 2)
	k := vm.argInt(L, 3)
	b := vm.dcl.board
	owners := s.cells[vm.g.lay.owners:]
	check := func(line []int32) (end, run int) {
		vm.charge(L, 1+len(line)/luastr.ItemsPerStep)
		hasSite := site < 0
		for i, x := range line {
			if int(owners[x]) == p {
				run++
				if int(x) == site {
					hasSite = true
				}
				if run >= k && hasSite {
					return i + 1, run
				}
			} else {
				run = 0
				hasSite = site < 0
			}
		}
		return 0, 0
	}
	if site >= 0 {
		for _, li := range b.linesAt[site] {
			if end, run := check(b.lines[li]); run > 0 {
				return b.lines[li], end, run
			}
		}
		return nil, 0, 0
	}
	for _, line := range b.lines {
		if end, run := check(line); run > 0 {
			return line, end, run
		}
	}
	return nil, 0, 0
}

// ---- emitting legal moves ----

// maxLegal bounds the number of legal moves of one decision.
const maxLegal = 100000

func (vm *machine) emitter(L *lua.LState, arity int) (*State, int) {
	if !vm.emitting {
		if vm.tryDepth > 0 {
			L.RaiseError("moves cannot be emitted inside matombo.try")
		}
		L.RaiseError("moves can only be emitted inside legal")
	}
	k := vm.kind(L, 1)
	a := vm.dcl.kinds[k].arity
	if arity >= 0 && a != arity && !(a < 0 && arity <= MaxMoveSites) {
		L.ArgError(1, fmt.Sprintf("move kind %s takes %s, not %d", vm.dcl.kinds[k].Name, arityText(a), arity))
	}
	return vm.st, k
}

func arityText(a int) string {
	switch {
	case a < 0:
		return "a list of sites"
	case a == 1:
		return "1 site"
	default:
		return fmt.Sprintf("%d sites", a)
	}
}

func (vm *machine) push(L *lua.LState, s *State, m Move) {
	m.game = vm.g.tag
	if len(s.moves) >= maxLegal { // the bound on emitting: no charge per move
		L.RaiseError("more than %d legal moves in one decision", maxLegal)
	}
	s.moves = append(s.moves, m)
}

// pushNew adds a move unless the decision lists it already: on some boards
// the same from-to pair is both a step and a jump, or two jumps.
func (vm *machine) pushNew(L *lua.LState, s *State, m Move) bool {
	// Emitters try a move per candidate, duplicates included: a step
	// each, as the duplicates are not bounded by the length of the list.
	vm.charge(L, 1)
	m.game = vm.g.tag
	if vm.listed(s, m) {
		return false
	}
	vm.push(L, s, m)
	return true
}

// listed reports whether the decision's legal list has m already.
// Short lists are searched; long ones get a set, kept for the rest of the
// decision.
func (vm *machine) listed(s *State, m Move) bool {
	if len(s.moves) <= 32 {
		for _, x := range s.moves {
			if x == m {
				return true
			}
		}
		return false
	}
	if vm.seenFor != vm.trip.Seq() || vm.seen == nil {
		if vm.seen == nil {
			vm.seen = map[Move]struct{}{}
		}
		clear(vm.seen)
		vm.seenFor, vm.seenLen = vm.trip.Seq(), 0
	}
	for _, x := range s.moves[vm.seenLen:] {
		vm.seen[x] = struct{}{}
	}
	vm.seenLen = len(s.moves)
	_, dup := vm.seen[m]
	return dup
}

// apiEmit: emit(kind, site, ...) adds one legal move.
func (vm *machine) apiEmit(L *lua.LState) int {
	n := L.GetTop() - 1
	if n > MaxMoveSites {
		L.RaiseError("a move names at most %d sites", MaxMoveSites)
	}
	s, k := vm.emitter(L, n)
	if vm.dcl.kinds[k].arity < 0 && n == 0 {
		L.ArgError(2, fmt.Sprintf("move kind %s needs at least one site", vm.dcl.kinds[k].Name))
	}
	m := Move{Kind: uint8(k), N: uint8(n)}
	for i := 0; i < n; i++ {
		m.Sites[i] = uint16(vm.site(L, i+2))
	}
	vm.push(L, s, m)
	return 0
}

// apiEmitEach: emit_each(kind, filter) adds a move for each matching site.
func (vm *machine) apiEmitEach(L *lua.LState) int {
	s, k := vm.emitter(L, 1)
	f := vm.filterArg(L, 2)
	count := 0
	for _, i := range f.cand {
		if f.matches(s.cells, &vm.g.lay, vm.mover, i) {
			m := Move{Kind: uint8(k), N: 1}
			m.Sites[0] = uint16(i)
			vm.push(L, s, m)
			count++
		}
	}
	L.Push(luaInt(count))
	return 1
}

// apiEmitSubsets: emit_subsets(kind, filter, kmin, kmax) adds a move for
// each set of kmin..kmax matching sites, smaller sets first, each set in
// board order.
func (vm *machine) apiEmitSubsets(L *lua.LState) int {
	s, k := vm.emitter(L, -1)
	if vm.dcl.kinds[k].arity >= 0 {
		L.ArgError(1, fmt.Sprintf("move kind %s names fixed sites; emit_subsets needs a kind whose template uses {sites}", vm.dcl.kinds[k].Name))
	}
	f := vm.filterArg(L, 2)
	lo, hi := vm.argInt(L, 3), vm.argInt(L, 4)
	if lo < 1 || hi > MaxMoveSites || lo > hi {
		L.RaiseError("emit_subsets: sizes must satisfy 1 <= kmin <= kmax <= %d, got %d and %d", MaxMoveSites, lo, hi)
	}
	var pool []int32
	for _, i := range f.cand {
		if f.matches(s.cells, &vm.g.lay, vm.mover, i) {
			pool = append(pool, i)
		}
	}
	count := 0
	var idx [MaxMoveSites]int
	for size := lo; size <= hi && size <= len(pool); size++ {
		for i := 0; i < size; i++ {
			idx[i] = i
		}
		for {
			m := Move{Kind: uint8(k), N: uint8(size)}
			for i := 0; i < size; i++ {
				m.Sites[i] = uint16(pool[idx[i]])
			}
			vm.push(L, s, m)
			count++
			// next combination
			i := size - 1
			for i >= 0 && idx[i] == len(pool)-size+i {
				i--
			}
			if i < 0 {
				break
			}
			idx[i]++
			for j := i + 1; j < size; j++ {
				idx[j] = idx[j-1] + 1
			}
		}
	}
	L.Push(luaInt(count))
	return 1
}

// apiEmitSteps: emit_steps(kind, filter) adds a move (from, to) for each
// matching site and each empty neighbour along the board's lines, unless
// the decision lists that move already.
func (vm *machine) apiEmitSteps(L *lua.LState) int {
	s, k := vm.emitter(L, 2)
	f := vm.filterArg(L, 2)
	b := vm.dcl.board
	count := 0
	for _, i := range f.cand {
		if !f.matches(s.cells, &vm.g.lay, vm.mover, i) {
			continue
		}
		for _, to := range b.adj[i] {
			if s.cells[to] == 0 && vm.pushNew(L, s, Move{Kind: uint8(k), N: 2, Sites: [MaxMoveSites]uint16{uint16(i), uint16(to)}}) {
				count++
			}
		}
	}
	L.Push(luaInt(count))
	return 1
}

// apiEmitJumps: emit_jumps(kind, filter) adds a move (from, to) for each
// matching site that can jump along a line over an occupied neighbour to
// the empty site just beyond, unless the decision lists that move already.
func (vm *machine) apiEmitJumps(L *lua.LState) int {
	s, k := vm.emitter(L, 2)
	f := vm.filterArg(L, 2)
	b := vm.dcl.board
	count := 0
	for _, i := range f.cand {
		if !f.matches(s.cells, &vm.g.lay, vm.mover, i) {
			continue
		}
		for _, j := range b.jumps[i] {
			if s.cells[j.over] != 0 && s.cells[j.to] == 0 && vm.pushNew(L, s, Move{Kind: uint8(k), N: 2, Sites: [MaxMoveSites]uint16{uint16(i), uint16(j.to)}}) {
				count++
			}
		}
	}
	L.Push(luaInt(count))
	return 1
}
