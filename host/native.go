package host

import (
	"errors"
	"fmt"
	"math"

	"github.com/matombo/matombo/host/internal/watchdog"

	lua "github.com/yuin/gopher-lua"
)

// Native rules: the common mechanics of sowing games, declared as data and
// run in Go. A script makes a rule from a table (sow_rule, capture_rule,
// ...; see docs/lua-api.md, "Native rules") and names it as a rule point
// with matombo.rule like any function. Called from Lua, a native rule
// behaves as the function it stands for; a turn made with sowing_play or
// sowing_legal calls its native rules directly from Go, so a ply of a
// game whose rules are all native never enters the Lua VM. A rule point an
// extending script replaced is a Lua function: the turn calls it there
// instead, with the same arguments, so the replacement takes effect.

// native is what the host knows of a native rule.
type native struct {
	name string // the constructor, for messages
	fn   *lua.LFunction
	rule nativeRule
	pos  Pos // the line of the script that made it

	emits emitter    // the rule emits moves: it may serve as a script's legal
	plays turnPlayer // the rule is a play turn: it may serve as a script's play
}

// nativeRule is one kind of native rule (sowRule, captureRule, ...).
type nativeRule interface {
	// fromLua runs the rule called from Lua, its arguments on c.L: it
	// pushes its results and returns their number.
	fromLua(c *nativeCall) (int, error)
}

// emitter is a native rule that emits legal moves for player p and
// returns how many it emitted.
type emitter interface {
	emit(c *nativeCall, p int) (int, error)
}

// turnPlayer is a native rule that plays move m of player p.
type turnPlayer interface {
	play(c *nativeCall, p int, m Move) error
}

// ruleRef is a stage of a native turn: a native rule, or a Lua function
// (a replaced rule point, or a script's own).
type ruleRef struct {
	nat *native
	fn  lua.LValue // nil when the stage is absent
}

func (r ruleRef) present() bool { return r.fn != nil }

// native is the rule of a native stage, nil for a Lua function.
func (r ruleRef) native() nativeRule {
	if r.nat == nil {
		return nil
	}
	return r.nat.rule
}

// nativeCall is one run of native rules: from Go (a native turn) or from
// Lua (a script calling a native rule).
type nativeCall struct {
	vm   *machine
	s    *State
	L    *lua.LState
	lua  bool // called from Lua: errors are raised, hooks called with L.Call
	name Call
	seq  uint64
}

// nativeError is an error of a native rule; it becomes a ScriptError, or
// a Lua error when the rule was called from Lua.
type nativeError struct{ msg string }

func (e *nativeError) Error() string { return e.msg }

func (c *nativeCall) fail(format string, args ...any) error {
	return &nativeError{msg: fmt.Sprintf(format, args...)}
}

// errNativeSteps is the error of a native rule that ran out of steps.
var errNativeSteps = errors.New("matombo: step budget exceeded")

// charge spends n steps of the call's budget.
func (c *nativeCall) charge(n int) error {
	if !c.vm.trip.Charge(n) {
		return errNativeSteps
	}
	return nil
}

// hook calls the Lua function fn with args and returns its first nret
// results.
func (c *nativeCall) hook(fn lua.LValue, nret int, out []lua.LValue, args ...lua.LValue) error {
	L := c.L
	L.Push(fn)
	for _, a := range args {
		L.Push(a)
	}
	if c.lua {
		L.Call(len(args), nret)
	} else if err := L.PCall(len(args), nret, nil); err != nil {
		return err
	}
	for i := 0; i < nret; i++ {
		out[i] = L.Get(-nret + i)
	}
	L.Pop(nret)
	return nil
}

// ---- declaring native rules ----

// newNative registers a native rule and returns its Lua function.
func (vm *machine) newNative(L *lua.LState, name string, r nativeRule) int {
	n := &native{name: name, rule: r, pos: vm.callerPos(L)}
	n.emits, _ = r.(emitter)
	n.plays, _ = r.(turnPlayer)
	n.fn = L.NewFunction(func(L *lua.LState) int { return vm.callNative(L, n) })
	if vm.natives == nil {
		vm.natives = map[*lua.LFunction]*native{}
	}
	vm.natives[n.fn] = n
	L.Push(n.fn)
	return 1
}

// refArg reads a stage of a turn: a function, native or not; absent when
// nil and optional.
func (vm *machine) refArg(L *lua.LState, t *lua.LTable, field, what string, required bool) ruleRef {
	return vm.refValue(L, t.RawGetString(field), field, what, required)
}

// refValue reads the stage field of a turn from its value v.
func (vm *machine) refValue(L *lua.LState, v lua.LValue, field, what string, required bool) ruleRef {
	if v == lua.LNil {
		if required {
			L.RaiseError("%s: %s is required (a function, usually a rule point)", what, field)
		}
		return ruleRef{}
	}
	fn, ok := v.(*lua.LFunction)
	if !ok {
		L.RaiseError("%s: %s must be a function, got %s", what, field, describeLua(v))
	}
	return ruleRef{nat: vm.natives[fn], fn: fn}
}

// specTable reads the spec table of a constructor, while the script loads.
func (vm *machine) specTable(L *lua.LState, what string, fields ...string) *lua.LTable {
	vm.mustLoad(L, "a native rule ("+what+")")
	vm.board(L)
	t := L.CheckTable(1)
	checkFields(L, t, what, fields...)
	return t
}

// perPlayer reads a field that is one value for every player or a list
// of one value per player; read converts one value.
func perPlayer[T any](vm *machine, L *lua.LState, t *lua.LTable, field, what string, read func(lua.LValue) T) []T {
	v := t.RawGetString(field)
	n := vm.dcl.players
	out := make([]T, n)
	if lt, ok := v.(*lua.LTable); ok && lt.Len() > 0 && !isFilter(v) {
		if lt.Len() != n {
			L.RaiseError("%s: %s lists %d values; give one, or one per player (%d)", what, field, lt.Len(), n)
		}
		for p := range n {
			out[p] = read(lt.RawGetInt(p + 1))
		}
		return out
	}
	x := read(v)
	for p := range out {
		out[p] = x
	}
	return out
}

func isFilter(v lua.LValue) bool {
	ud, ok := v.(*lua.LUserData)
	if !ok {
		return false
	}
	_, ok = ud.Value.(*filter)
	return ok
}

func (vm *machine) specTrack(L *lua.LState, what, field string) func(lua.LValue) *Track {
	b := vm.dcl.board
	return func(v lua.LValue) *Track {
		switch x := v.(type) {
		case lua.LNumber:
			if i := int(x); float64(i) == float64(x) && i >= 1 && i <= len(b.tracks) {
				return &b.tracks[i-1]
			}
		case lua.LString:
			for i := range b.tracks {
				if b.tracks[i].Name == string(x) {
					return &b.tracks[i]
				}
			}
		}
		L.RaiseError("%s: %s must be a track (from matombo.track, or its name), got %s", what, field, describeLua(v))
		return nil
	}
}

func (vm *machine) specFilter(L *lua.LState, what, field string) func(lua.LValue) *filter {
	return func(v lua.LValue) *filter {
		if ud, ok := v.(*lua.LUserData); ok {
			if f, ok := ud.Value.(*filter); ok {
				return f
			}
		}
		L.RaiseError("%s: %s must be a filter (from matombo.filter), got %s", what, field, describeLua(v))
		return nil
	}
}

func (vm *machine) specSite(L *lua.LState, what, field string) func(lua.LValue) int {
	b := vm.dcl.board
	return func(v lua.LValue) int {
		switch x := v.(type) {
		case lua.LNumber:
			if i := int(x); float64(i) == float64(x) && i >= 1 && i <= len(b.sites) {
				return i - 1
			}
		case lua.LString:
			if i, ok := b.byName[string(x)]; ok {
				return i
			}
		}
		L.RaiseError("%s: %s must be a site of the board, got %s", what, field, describeLua(v))
		return 0
	}
}

func (vm *machine) specKind(L *lua.LState, t *lua.LTable, what, field string, required bool) int {
	v := t.RawGetString(field)
	if v == lua.LNil && !required {
		return -1
	}
	return vm.kindValue(L, v, what, field)
}

// kindValue reads a move kind: its handle or its name.
func (vm *machine) kindValue(L *lua.LState, v lua.LValue, what, field string) int {
	if name, ok := v.(lua.LString); ok {
		for k := range vm.dcl.kinds {
			if vm.dcl.kinds[k].Name == string(name) {
				return k
			}
		}
	}
	n, ok := v.(lua.LNumber)
	k := int(n)
	if !ok || float64(k) != float64(n) || k < 1 || k > len(vm.dcl.kinds) {
		L.RaiseError("%s: %s must be a move kind (from matombo.move, or its name), got %s", what, field, describeLua(v))
	}
	return k - 1
}

func specInt(L *lua.LState, t *lua.LTable, what, field string, def, lo, hi int) int {
	v := t.RawGetString(field)
	if v == lua.LNil {
		return def
	}
	n, ok := v.(lua.LNumber)
	if !ok || float64(n) != math.Trunc(float64(n)) || float64(n) < float64(lo) || float64(n) > float64(hi) {
		L.RaiseError("%s: %s must be a whole number from %d to %d, got %s", what, field, lo, hi, describeLua(v))
	}
	return int(n)
}

func specBool(L *lua.LState, t *lua.LTable, what, field string) bool {
	switch v := t.RawGetString(field).(type) {
	case *lua.LNilType:
		return false
	case lua.LBool:
		return bool(v)
	default:
		L.RaiseError("%s: %s must be true or false, got %s", what, field, describeLua(v))
		return false
	}
}

func specString(L *lua.LState, t *lua.LTable, what, field string, allowed ...string) string {
	v := t.RawGetString(field)
	if v == lua.LNil {
		return ""
	}
	s, ok := v.(lua.LString)
	if ok {
		for _, a := range allowed {
			if string(s) == a {
				return a
			}
		}
	}
	L.RaiseError("%s: %s must be one of %q, got %s", what, field, allowed, describeLua(v))
	return ""
}

// specCounts reads a list of counts, e.g. {2, 3}.
func specCounts(L *lua.LState, t *lua.LTable, what, field string) []int32 {
	v := t.RawGetString(field)
	if v == lua.LNil {
		return nil
	}
	lt, ok := v.(*lua.LTable)
	if !ok || lt.Len() < 1 || lt.Len() > 8 {
		L.RaiseError("%s: %s must be a list of 1 to 8 counts, got %s", what, field, describeLua(v))
	}
	var out []int32
	for i := 1; i <= lt.Len(); i++ {
		n, ok := lt.RawGetInt(i).(lua.LNumber)
		if !ok || float64(n) != math.Trunc(float64(n)) || n < 1 || n > maxCount {
			L.RaiseError("%s: %s[%d] must be a count of at least 1, got %s", what, field, i, describeLua(lt.RawGetInt(i)))
		}
		out = append(out, int32(n))
	}
	return out
}

// ---- calling native rules from Lua ----

// callNative runs native rule n called from Lua with the arguments on L.
func (vm *machine) callNative(L *lua.LState, n *native) int {
	// The call's record is the machine's, one per depth of native rules
	// called from Lua inside each other's hooks: a call allocates nothing.
	if vm.luaDepth == len(vm.luaCalls) {
		vm.luaCalls = append(vm.luaCalls, new(nativeCall))
	}
	c := vm.luaCalls[vm.luaDepth]
	vm.luaDepth++
	defer func() { vm.luaDepth-- }()
	*c = nativeCall{vm: vm, L: L, lua: true, name: vm.phase}
	if n.emits != nil && !vm.emitting {
		L.RaiseError("moves can only be emitted inside legal")
	}
	nret, err := n.rule.fromLua(c)
	if err != nil {
		if err == errNativeSteps {
			L.RaiseError("%s", err.Error())
		}
		L.RaiseError("%s: %s", n.name, err.Error())
	}
	return nret
}

// mutable makes the call work on the state, as a primitive that changes
// it (an error inside legal, evaluate, ...).
func (c *nativeCall) mutable() { c.s = c.vm.mutable(c.L) }

// readOnly makes the call work on the state, as a primitive that only
// reads it.
func (c *nativeCall) readOnly() { c.s = c.vm.state(c.L) }

// emitting makes the call work on the state of the legal call running.
func (c *nativeCall) emitting() { c.s = c.vm.st }

// playerArg, siteArg, ... read argument i of a call from Lua.
func (c *nativeCall) playerArg(i int) int { return c.vm.player(c.L, i) }
func (c *nativeCall) siteArg(i int) int   { return c.vm.site(c.L, i) }

// moveArgs reads a move from a call from Lua: its kind at argument i,
// then its sites.
func (c *nativeCall) moveArgs(i int) Move {
	L := c.L
	var m Move
	m.Kind = uint8(c.vm.kind(L, i))
	for j := i + 1; j <= L.GetTop() && int(m.N) < MaxMoveSites; j++ {
		m.Sites[m.N] = uint16(c.vm.site(L, j))
		m.N++
	}
	return m
}

// push pushes the results of a call from Lua.
func (c *nativeCall) pushInt(n int)   { c.L.Push(luaInt(n)) }
func (c *nativeCall) pushBool(b bool) { pushBool(c.L, b) }
func (c *nativeCall) pushSite(i int)  { c.vm.pushSite(c.L, i) }

// ---- running native turns from Go ----

// runNativeTurn runs the native play (move m of player p) or legal (for
// player p) on vm.st as one call of the script.
func (vm *machine) runNativeTurn(name Call, p int, m Move) error {
	if err := vm.gameFailed(); err != nil {
		return err
	}
	seq := vm.begin()
	outer := vm.phase
	vm.phase = name
	c := &vm.natCall // set field by field: a struct copy costs more
	if c.vm != vm {
		c.vm, c.L = vm, vm.L
	}
	if c.s != vm.st {
		c.s = vm.st
	}
	c.lua, c.name, c.seq = false, name, seq
	var err error
	if name == "play" {
		err = vm.natPlay.play(c, p, m)
		vm.keyValid = false // native rules change the state without mutable
	} else {
		_, err = vm.natLegal.emit(c, p)
	}
	vm.phase = outer
	vm.g.wd.End(vm.trip)
	if err == nil {
		return nil
	}
	vm.broken = true
	if ne, ok := err.(*nativeError); ok && vm.trip.FiredFor(seq) == watchdog.None {
		fn := vm.fnLegal
		if name == CallPlay {
			fn = vm.fnPlay
		}
		return &ScriptError{Pos: vm.funcPos(fn), Func: name, Msg: ne.msg}
	}
	return vm.convertError(err, name, seq)
}

// finish ends the game, as matombo.finish does.
func (c *nativeCall) finish(w int, reason string, notes []string) {
	s := c.s
	s.over, s.winner, s.reason, s.notes, s.sites, s.method = true, w, reason, notes, nil, c.vm.finishMethod()
}
