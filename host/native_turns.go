package host

import (
	"fmt"

	lua "github.com/yuin/gopher-lua"
)

// Native turns of any game: pending_legal lists the legal moves by a
// pending decision that a script variable holds, play_by_kind plays each
// kind of move with its own rule. docs/lua-api.md, "Native rules",
// describes the tables.

// ---- pending_legal ----

// pendingLegal: pending_legal{pending = VAR, none = {f, ...}, site = f,
// count = f}: legal(p). By the variable: 0 (nothing pending), each
// function of none in turn, (p); a site s (from 1), site(p, s); -k,
// count(p, k).
type pendingLegal struct {
	pending     int
	none        []ruleRef
	site, count ruleRef
}

func (vm *machine) apiPendingLegal(L *lua.LState) int {
	const what = "pending_legal"
	t := vm.specTable(L, what, "pending", "none", "site", "count")
	r := &pendingLegal{pending: vm.specVar(L, t, what, "pending"), site: vm.refArg(L, t, "site", what, false),
		count: vm.refArg(L, t, "count", what, false)}
	lt, ok := t.RawGetString("none").(*lua.LTable)
	if !ok || lt.Len() < 1 || lt.Len() > 8 {
		L.RaiseError("%s: none must be a list of 1 to 8 functions that emit the moves when nothing is pending", what)
	}
	for i := 1; i <= lt.Len(); i++ {
		r.none = append(r.none, vm.refValue(L, lt.RawGetInt(i), fmt.Sprintf("none[%d]", i), what, true))
	}
	return vm.newNative(L, what, r)
}

func (r *pendingLegal) fromLua(c *nativeCall) (int, error) {
	c.emitting()
	n, err := r.emit(c, c.playerArg(1))
	c.pushInt(n)
	return 1, err
}

func (r *pendingLegal) emit(c *nativeCall, p int) (int, error) {
	v := int(c.s.cells[c.vm.g.vars[r.pending].cell])
	switch {
	case v == 0:
		total := 0
		for _, f := range r.none {
			n, err := c.stageEmit(f, p)
			if err != nil {
				return 0, err
			}
			total += n
		}
		return total, nil
	case v > 0:
		if !r.site.present() {
			return 0, nil
		}
		if v > c.vm.g.lay.sites {
			return 0, c.fail("the pending variable holds %d, which is not a site", v)
		}
		return c.stageEmitWith(r.site, p, v-1, true)
	}
	if !r.count.present() {
		return 0, nil
	}
	return c.stageEmitWith(r.count, p, -v, false)
}

// stageEmitWith runs an emitting stage called with a second argument,
// (p, at) for a site or (p, k) for a count. A native emitter that takes
// only p ignores it.
func (c *nativeCall) stageEmitWith(r ruleRef, p, x int, site bool) (int, error) {
	switch n := r.native().(type) {
	case *relayChoicesRule:
		if site {
			return n.run(c, p, x)
		}
	case emitter:
		return n.emit(c, p)
	}
	arg := luaInt(x)
	if site {
		arg = luaInt(x + 1)
	}
	before := len(c.s.moves)
	err := c.hook(r.fn, 0, nil, luaInt(p), arg)
	return len(c.s.moves) - before, err
}

// ---- play_by_kind ----

// playByKind: play_by_kind{[K1] = f1, [K2] = false, ...}: play(p, kind,
// ...). A move of kind K is f(p, sites...); false for a kind whose move
// changes nothing (a pass).
type playByKind struct {
	plays []ruleRef // by kind; absent for kinds not listed
	none  []bool    // by kind: the move changes nothing
}

// kindPlayer is a native rule that plays a move of one kind, given the
// move: play_by_kind calls it with the move's sites.
type kindPlayer interface {
	playMove(c *nativeCall, p int, m Move) error
}

func (vm *machine) apiPlayByKind(L *lua.LState) int {
	const what = "play_by_kind"
	vm.mustLoad(L, "a native rule ("+what+")")
	vm.board(L)
	t := L.CheckTable(1)
	r := &playByKind{plays: make([]ruleRef, len(vm.dcl.kinds)), none: make([]bool, len(vm.dcl.kinds))}
	n := 0
	t.ForEach(func(k, v lua.LValue) {
		n++
		kind := vm.kindValue(L, k, what, "a key")
		switch x := v.(type) {
		case lua.LBool:
			if x {
				L.RaiseError("%s: kind %s: give a function, or false for a move that changes nothing", what, vm.dcl.kinds[kind].Name)
			}
			r.none[kind] = true
		default:
			r.plays[kind] = vm.refValue(L, v, "kind "+vm.dcl.kinds[kind].Name, what, true)
		}
	})
	if n == 0 {
		L.RaiseError("%s: give at least one kind of move and the function that plays it", what)
	}
	return vm.newNative(L, what, r)
}

func (r *playByKind) fromLua(c *nativeCall) (int, error) {
	c.mutable()
	return 0, r.play(c, c.playerArg(1), c.moveArgs(2))
}

func (r *playByKind) play(c *nativeCall, p int, m Move) error {
	k := int(m.Kind)
	if r.none[k] {
		return nil
	}
	f := r.plays[k]
	if !f.present() {
		return c.fail("a move of kind %s, but play_by_kind has no function for it", c.vm.dcl.kinds[k].Name)
	}
	if x, ok := f.native().(kindPlayer); ok {
		return x.playMove(c, p, m)
	}
	var args [1 + MaxMoveSites]lua.LValue
	args[0] = luaInt(p)
	for i := 0; i < int(m.N); i++ {
		args[1+i] = luaInt(int(m.Sites[i]) + 1)
	}
	return c.hook(f.fn, 0, nil, args[:1+int(m.N)]...)
}
