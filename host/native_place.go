package host

import (
	"github.com/matombo/matombo/host/internal/luastr"
	lua "github.com/yuin/gopher-lua"
)

// The native rules of games that place pieces and move them (drops from
// a hand, steps and jumps along lines, a line that wins), and emit_rule,
// which serves any game: each type is made from a script's table by its
// constructor and run by its methods. docs/lua-api.md, "Native rules", describes the tables.

// ---- emit_rule ----

// emitRule: emit_rule{kind = K, each = F} or {kind = K, steps = F, jumps =
// F, pairs = {from = F, to = G}}, or emit_rule{moves = {K1, K2, ...}}, with
// when_none = F: (p) -> the moves emitted. The moves of the primitives of
// the same names (emit_each, emit_steps, emit_jumps, emit_pairs, emit), in
// that order; nothing when a site of when_none matches. Filters are per
// player.
type emitRule struct {
	kind               int
	each               []*filter
	steps, jumps       []*filter
	pairsFrom, pairsTo []*filter
	moves              []int // kinds of moves without sites
	whenNone           []*filter
}

func (vm *machine) apiEmitRule(L *lua.LState) int {
	const what = "emit_rule"
	t := vm.specTable(L, what, "kind", "each", "steps", "jumps", "pairs", "moves", "when_none")
	r := &emitRule{kind: -1}
	filters := func(field string) []*filter {
		if t.RawGetString(field) == lua.LNil {
			return nil
		}
		return perPlayer(vm, L, t, field, what, vm.specFilter(L, what, field))
	}
	r.each, r.steps, r.jumps, r.whenNone = filters("each"), filters("steps"), filters("jumps"), filters("when_none")
	if v := t.RawGetString("pairs"); v != lua.LNil {
		pt, ok := v.(*lua.LTable)
		if !ok {
			L.RaiseError("%s: pairs must be a table {from = F, to = G}, got %s", what, describeLua(v))
		}
		checkFields(L, pt, what+": pairs", "from", "to")
		if pt.RawGetString("from") == lua.LNil || pt.RawGetString("to") == lua.LNil {
			L.RaiseError("%s: pairs needs from and to (filters)", what)
		}
		r.pairsFrom = perPlayer(vm, L, pt, "from", what, vm.specFilter(L, what, "pairs' from"))
		r.pairsTo = perPlayer(vm, L, pt, "to", what, vm.specFilter(L, what, "pairs' to"))
	}
	if v := t.RawGetString("moves"); v != lua.LNil {
		lt, ok := v.(*lua.LTable)
		if !ok || lt.Len() < 1 || lt.Len() > 64 {
			L.RaiseError("%s: moves must be a list of 1 to 64 move kinds, got %s", what, describeLua(v))
		}
		for i := 1; i <= lt.Len(); i++ {
			k := vm.kindValue(L, lt.RawGetInt(i), what, "moves")
			if a := vm.dcl.kinds[k].arity; a != 0 {
				L.RaiseError("%s: moves lists kinds of moves without sites; %s takes %s", what, vm.dcl.kinds[k].Name, arityText(a))
			}
			r.moves = append(r.moves, k)
		}
	}
	sited := r.each != nil || r.steps != nil || r.jumps != nil || r.pairsFrom != nil
	switch {
	case r.moves != nil && (sited || t.RawGetString("kind") != lua.LNil):
		L.RaiseError("%s: give moves (kinds of moves without sites) or kind with each, steps, jumps or pairs, not both", what)
	case r.moves == nil && !sited:
		L.RaiseError("%s: give kind with each, steps, jumps or pairs (filters), or moves (a list of kinds)", what)
	case sited:
		r.kind = vm.specKind(L, t, what, "kind", true)
		a := vm.dcl.kinds[r.kind].arity
		if r.each != nil && (r.steps != nil || r.jumps != nil || r.pairsFrom != nil) {
			L.RaiseError("%s: each emits moves of one site, steps, jumps and pairs of two: give them in rules of their own", what)
		}
		if want := 2 - b2i(r.each != nil); a != want {
			L.RaiseError("%s: kind %s takes %s, but these moves name %d", what, vm.dcl.kinds[r.kind].Name, arityText(a), want)
		}
	}
	return vm.newNative(L, what, r)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (r *emitRule) fromLua(c *nativeCall) (int, error) {
	c.emitting()
	n, err := r.emit(c, c.playerArg(1))
	c.pushInt(n)
	return 1, err
}

func (r *emitRule) emit(c *nativeCall, p int) (int, error) {
	vm := c.vm
	s, lay, b := c.s, &vm.g.lay, vm.dcl.board
	cells, mover := s.cells, vm.mover
	if r.whenNone != nil {
		f := r.whenNone[p-1]
		if err := c.chargeFilter(f); err != nil {
			return 0, err
		}
		if filterFirst(f, cells, lay, mover) >= 0 {
			return 0, nil
		}
	}
	before := len(s.moves)
	for _, k := range r.moves {
		if err := c.push(Move{Kind: uint8(k)}); err != nil {
			return 0, err
		}
	}
	if r.each != nil {
		f := r.each[p-1]
		if err := c.chargeFilter(f); err != nil {
			return 0, err
		}
		m := Move{Kind: uint8(r.kind), N: 1}
		t, owners := f.tester(mover), lay.ownersOf(cells)
		for _, i := range f.cand {
			if t.ok(cells, owners, i) && (!t.rare || f.matchesOwner(cells, lay, mover, i)) {
				m.Sites[0] = uint16(i)
				if err := c.push(m); err != nil {
					return 0, err
				}
			}
		}
	}
	m := Move{Kind: uint8(r.kind), N: 2}
	if r.steps != nil {
		f := r.steps[p-1]
		if err := c.chargeFilter(f); err != nil {
			return 0, err
		}
		t, owners := f.tester(mover), lay.ownersOf(cells)
		for _, i := range f.cand {
			if !t.ok(cells, owners, i) || t.rare && !f.matchesOwner(cells, lay, mover, i) {
				continue
			}
			m.Sites[0] = uint16(i)
			for _, to := range b.adj[i] {
				if cells[to] == 0 {
					m.Sites[1] = uint16(to)
					if err := c.pushNew(m); err != nil {
						return 0, err
					}
				}
			}
		}
	}
	if r.jumps != nil {
		f := r.jumps[p-1]
		if err := c.chargeFilter(f); err != nil {
			return 0, err
		}
		t, owners := f.tester(mover), lay.ownersOf(cells)
		for _, i := range f.cand {
			if !t.ok(cells, owners, i) || t.rare && !f.matchesOwner(cells, lay, mover, i) {
				continue
			}
			m.Sites[0] = uint16(i)
			for _, j := range b.jumps[i] {
				if cells[j.over] != 0 && cells[j.to] == 0 {
					m.Sites[1] = uint16(j.to)
					if err := c.pushNew(m); err != nil {
						return 0, err
					}
				}
			}
		}
	}
	if r.pairsFrom != nil {
		if err := r.emitPairs(c, r.pairsFrom[p-1], r.pairsTo[p-1]); err != nil {
			return 0, err
		}
	}
	return len(s.moves) - before, nil
}

// emitPairs emits the moves of emit_pairs(kind, from, to).
func (r *emitRule) emitPairs(c *nativeCall, from, to *filter) error {
	vm := c.vm
	cells, lay, mover := c.s.cells, &vm.g.lay, vm.mover
	if err := c.chargeFilter(from); err != nil {
		return err
	}
	if err := c.chargeFilter(to); err != nil {
		return err
	}
	var buf [64]int32
	dst := buf[:0]
	tt, owners := to.tester(mover), lay.ownersOf(cells)
	for _, j := range to.cand {
		if tt.ok(cells, owners, j) && (!tt.rare || to.matchesOwner(cells, lay, mover, j)) {
			dst = append(dst, j)
		}
	}
	if len(dst) == 0 {
		return nil
	}
	m := Move{Kind: uint8(r.kind), N: 2}
	ft := from.tester(mover)
	for _, i := range from.cand {
		if !ft.ok(cells, owners, i) || ft.rare && !from.matchesOwner(cells, lay, mover, i) {
			continue
		}
		if err := c.charge(len(dst)/4 + 1); err != nil {
			return err
		}
		m.Sites[0] = uint16(i)
		for _, j := range dst {
			if j != i {
				m.Sites[1] = uint16(j)
				if err := c.push(m); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// ---- line_rule ----

// lineRule: line_rule{length = K, anywhere = false, through = S}: (p, s)
// -> whether p owns K consecutive sites of a line through s, s among them
// (as in_a_row); with anywhere, K sites of a line through s wherever they
// stand on it; with through, the lines through S instead of s, S owned by
// p. With s nil (from Lua), any line of the board.
type lineRule struct {
	length   int
	anywhere bool
	through  int     // -1: the site given
	whole    [][]int // per line of the board, its sites: the result's sites when p holds all of it
}

func (vm *machine) apiLineRule(L *lua.LState) int {
	const what = "line_rule"
	t := vm.specTable(L, what, "length", "anywhere", "through")
	if t.RawGetString("length") == lua.LNil {
		L.RaiseError("%s: length is required (the number of sites in a line that win)", what)
	}
	r := &lineRule{length: specInt(L, t, what, "length", 3, 1, maxSites), anywhere: specBool(L, t, what, "anywhere"), through: -1}
	for _, line := range vm.dcl.board.lines {
		sites := make([]int, len(line))
		for i, x := range line {
			sites[i] = int(x)
		}
		r.whole = append(r.whole, sites)
	}
	if v := t.RawGetString("through"); v != lua.LNil {
		r.through = vm.specSite(L, what, "through")(v)
	}
	return vm.newNative(L, what, r)
}

func (r *lineRule) fromLua(c *nativeCall) (int, error) {
	c.readOnly()
	yes, err := r.run(c, c.playerArg(1), c.vm.optSite(c.L, 2))
	c.pushBool(yes)
	return 1, err
}

func (r *lineRule) run(c *nativeCall, p, site int) (bool, error) {
	li, err := r.find(c, p, site)
	return li >= 0, err
}

// find is run, giving the index of the line that wins (-1 when none does).
func (r *lineRule) find(c *nativeCall, p, site int) (int, error) {
	b := c.vm.dcl.board
	owners := c.s.cells[c.vm.g.lay.owners:]
	if r.through >= 0 {
		site = r.through
		if int(owners[site]) != p {
			return -1, nil
		}
	}
	check := func(line []int32) (bool, error) {
		if err := c.charge(1 + len(line)/luastr.ItemsPerStep); err != nil {
			return false, err
		}
		run := 0
		has := site < 0
		for _, x := range line {
			if int(owners[x]) != p {
				if !r.anywhere {
					run, has = 0, site < 0
				}
				continue
			}
			run++
			has = has || int(x) == site
			if run >= r.length && (has || r.anywhere) {
				return true, nil
			}
		}
		return false, nil
	}
	if site < 0 {
		for li, line := range b.lines {
			if ok, err := check(line); ok || err != nil {
				return winning(ok, li), err
			}
		}
		return -1, nil
	}
	for _, li := range b.linesAt[site] {
		if ok, err := check(b.lines[li]); ok || err != nil {
			return winning(ok, int(li)), err
		}
	}
	return -1, nil
}

func winning(ok bool, li int) int {
	if !ok {
		return -1
	}
	return li
}

// sites names the sites of a winning line that made the win: p's run of
// length or more through site (anywhere: all of p's sites on the line).
// Made once a game is won, for the result's sites; p holding the whole
// line (as three on a line of three) costs no allocation.
func (r *lineRule) sites(c *nativeCall, li, p, site int) []int {
	owners := c.s.cells[c.vm.g.lay.owners:]
	line := c.vm.dcl.board.lines[li]
	all := true
	for _, x := range line {
		all = all && int(owners[x]) == p
	}
	if all {
		return r.whole[li] // shared: a result's sites are never modified in place
	}
	out := make([]int, 0, len(line))
	has := site < 0
	for _, x := range line {
		if int(owners[x]) != p {
			if !r.anywhere {
				if len(out) >= r.length && has {
					return out
				}
				out, has = out[:0], site < 0
			}
			continue
		}
		out = append(out, int(x))
		has = has || int(x) == site
	}
	return out
}

// ---- placement_play and placement_legal: native turns ----

// placementPlay: placement_play{drop = K, move = K, win = f, reason =
// TEXT, other = f}: play(p, kind, ...). A drop puts a piece from p's hand
// on its site (as matombo.place), a move takes a piece from its first site
// to its second (as matombo.move_piece); then, when win(p, s) holds for
// the site s the piece went to, p wins (matombo.finish(p, reason)). A move
// of another kind is other(p, kind, sites...).
type placementPlay struct {
	drop, move int // -1: none
	win, other ruleRef
	reason     string
}

func (vm *machine) apiPlacementPlay(L *lua.LState) int {
	const what = "placement_play"
	t := vm.specTable(L, what, "drop", "move", "win", "reason", "other")
	r := &placementPlay{drop: vm.specKind(L, t, what, "drop", false), move: vm.specKind(L, t, what, "move", false),
		win: vm.refArg(L, t, "win", what, false), other: vm.refArg(L, t, "other", what, false)}
	if r.drop < 0 && r.move < 0 {
		L.RaiseError("%s: give drop or move (a move kind), or both", what)
	}
	if r.drop >= 0 && vm.dcl.kinds[r.drop].arity != 1 {
		L.RaiseError("%s: drop's kind %s must take 1 site (the point)", what, vm.dcl.kinds[r.drop].Name)
	}
	if r.move >= 0 && vm.dcl.kinds[r.move].arity != 2 {
		L.RaiseError("%s: move's kind %s must take 2 sites (from, to)", what, vm.dcl.kinds[r.move].Name)
	}
	r.reason = vm.specReason(L, t, what, "reason", r.win.present())
	return vm.newNative(L, what, r)
}

// specReason reads the reason a rule ends a game with.
func (vm *machine) specReason(L *lua.LState, t *lua.LTable, what, field string, required bool) string {
	v := t.RawGetString(field)
	if v == lua.LNil && !required {
		return ""
	}
	reason, ok := v.(lua.LString)
	if !ok || len(reason) > 200 {
		L.RaiseError("%s: %s must be the reason the game ends (text of at most 200 characters), got %s", what, field, describeLua(v))
	}
	checkText(L, what+": "+field, string(reason), false)
	return string(reason)
}

func (r *placementPlay) fromLua(c *nativeCall) (int, error) {
	c.mutable()
	return 0, r.play(c, c.playerArg(1), c.moveArgs(2))
}

func (r *placementPlay) play(c *nativeCall, p int, m Move) error {
	var at int
	switch int(m.Kind) {
	case r.drop:
		at = int(m.Sites[0])
		if err := c.place(p, at); err != nil {
			return err
		}
	case r.move:
		at = int(m.Sites[1])
		if err := c.movePiece(int(m.Sites[0]), at); err != nil {
			return err
		}
	default:
		return c.stageOther(r.other, p, m)
	}
	if !r.win.present() {
		return nil
	}
	if x, ok := r.win.native().(*lineRule); ok {
		// The line that wins names the result's sites.
		li, err := x.find(c, p, at)
		if li >= 0 && err == nil {
			c.finish(p, r.reason, nil)
			site := at
			if x.through >= 0 {
				site = x.through
			}
			c.s.sites = x.sites(c, li, p, site)
		}
		return err
	}
	won, err := c.stageWin(r.win, p, at)
	if won && err == nil {
		c.finish(p, r.reason, nil)
	}
	return err
}

// placementLegal: placement_legal{drops = f, moves = f, stuck = f}:
// legal(p). While p has pieces in hand, drops(p); once no player has,
// moves(p), and stuck(p) when it emitted nothing; otherwise nothing (a
// position where p must wait for the others' drops).
type placementLegal struct {
	drops, moves, stuck ruleRef
}

func (vm *machine) apiPlacementLegal(L *lua.LState) int {
	const what = "placement_legal"
	t := vm.specTable(L, what, "drops", "moves", "stuck")
	r := &placementLegal{drops: vm.refArg(L, t, "drops", what, false), moves: vm.refArg(L, t, "moves", what, false),
		stuck: vm.refArg(L, t, "stuck", what, false)}
	if !r.drops.present() && !r.moves.present() {
		L.RaiseError("%s: give drops or moves (functions that emit them), or both", what)
	}
	return vm.newNative(L, what, r)
}

func (r *placementLegal) fromLua(c *nativeCall) (int, error) {
	c.emitting()
	_, err := r.emit(c, c.playerArg(1))
	return 0, err
}

func (r *placementLegal) emit(c *nativeCall, p int) (int, error) {
	lay, cells := &c.vm.g.lay, c.s.cells
	if cells[lay.hand+p-1] > 0 {
		if !r.drops.present() {
			return 0, nil
		}
		return c.stageEmit(r.drops, p)
	}
	for q := range lay.players {
		if cells[lay.hand+q] > 0 {
			return 0, nil
		}
	}
	if !r.moves.present() {
		return 0, nil
	}
	n, err := c.stageEmit(r.moves, p)
	if n == 0 && err == nil && r.stuck.present() {
		return c.stageEmit(r.stuck, p)
	}
	return n, err
}

// ---- the stages of the placement turns ----

// stageWin asks win(p, at).
func (c *nativeCall) stageWin(r ruleRef, p, at int) (bool, error) {
	if x, ok := r.native().(*lineRule); ok {
		return x.run(c, p, at)
	}
	var out [1]lua.LValue
	err := c.hook(r.fn, 1, out[:], luaInt(p), siteValue(at))
	return lua.LVAsBool(out[0]), err
}

// stageOther plays a move of a kind the turn does not know with
// other(p, kind, sites...).
func (c *nativeCall) stageOther(r ruleRef, p int, m Move) error {
	if !r.present() {
		return c.fail("a move of kind %s, but no other function to play it", c.vm.dcl.kinds[m.Kind].Name)
	}
	if x := r.native(); x != nil {
		if pl, ok := x.(turnPlayer); ok {
			return pl.play(c, p, m)
		}
	}
	var args [2 + MaxMoveSites]lua.LValue
	args[0], args[1] = luaInt(p), luaInt(int(m.Kind)+1)
	for i := 0; i < int(m.N); i++ {
		args[2+i] = luaInt(int(m.Sites[i]) + 1)
	}
	return c.hook(r.fn, 0, nil, args[:2+int(m.N)]...)
}

// ---- primitives for native rules ----

// place puts a piece from p's hand on site i, as matombo.place does.
func (c *nativeCall) place(p, i int) error {
	vm := c.vm
	cells, lay := c.s.cells, &vm.g.lay
	h := &cells[lay.hand+p-1]
	if *h < 1 {
		return c.fail("player %d has nothing in hand to place on %s", p, vm.dcl.board.sites[i].Name)
	}
	if cells[i] >= maxCount {
		return c.fail("the count of %s would pass %d", vm.dcl.board.sites[i].Name, maxCount)
	}
	*h--
	cells[i]++
	cells[lay.owners+i] = int32(p)
	if vm.rec != nil {
		vm.record(Effect{Kind: EffectPlace, Site: i, To: -1, Player: p})
	}
	return nil
}

// movePiece moves everything on from, counters and owner, to the empty
// site to, as matombo.move_piece does.
func (c *nativeCall) movePiece(from, to int) error {
	vm := c.vm
	cells, o := c.s.cells, vm.g.lay.owners
	if cells[to] != 0 || cells[o+to] != 0 {
		return c.fail("move_piece: %s is not empty", vm.dcl.board.sites[to].Name)
	}
	if cells[from] == 0 && cells[o+from] == 0 {
		return c.fail("move_piece: %s is empty: there is nothing to move", vm.dcl.board.sites[from].Name)
	}
	cells[to], cells[from] = cells[from], 0
	cells[o+to], cells[o+from] = cells[o+from], 0
	if vm.rec != nil {
		vm.record(Effect{Kind: EffectMove, Site: from, To: to})
	}
	return nil
}

// push adds a legal move, as the emitters do.
func (c *nativeCall) push(m Move) error {
	m.game = c.vm.g.tag
	if len(c.s.moves) >= maxLegal {
		return c.fail("more than %d legal moves in one decision", maxLegal)
	}
	c.s.moves = append(c.s.moves, m)
	return nil
}

// pushNew adds a legal move unless the decision lists it already, as
// emit_steps and emit_jumps do (a step for each move tried).
func (c *nativeCall) pushNew(m Move) error {
	if err := c.charge(1); err != nil {
		return err
	}
	m.game = c.vm.g.tag
	if c.vm.listed(c.s, m) {
		return nil
	}
	return c.push(m)
}

// chargeFilter charges a filter's candidate sites, as a primitive given
// the filter does.
func (c *nativeCall) chargeFilter(f *filter) error {
	return c.charge(len(f.cand)/4 + 1)
}
