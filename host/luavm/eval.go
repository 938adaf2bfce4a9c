package luavm

import (
	"github.com/matombo/matombo/host/kernel"
	lua "github.com/yuin/gopher-lua"
)

// Running Lua code directly on a machine, as the body of a rule function:
// for tests of the primitives and for tools that inspect a game.

// EvalMode says as which rule function Eval runs its code.
type EvalMode int

// The ways Eval runs code.
const (
	// AsSetup runs code like setup or blocked: the state may change, no
	// moves can be emitted.
	AsSetup EvalMode = iota
	// AsLegal runs code like legal: moves may be emitted (they replace the
	// state's legal moves) and the state may not change.
	AsLegal
	// AsPlay runs code like play: the position being made is not yet in
	// the history.
	AsPlay
)

// Eval runs Lua code on the machine with s as the current state, as the
// body of the rule function mode says, among the sandbox's globals as a
// script's own code runs, and returns its results.
func (vm *Machine) Eval(s *kernel.State, mode EvalMode, code string) ([]lua.LValue, error) {
	return vm.eval(s, mode, code, false, nil)
}

// EvalWith is Eval that also sees the script's filters as F[1], F[2], ...
// in the order the script made them, and globals.
func (vm *Machine) EvalWith(s *kernel.State, mode EvalMode, code string, globals map[string]lua.LValue) ([]lua.LValue, error) {
	return vm.eval(s, mode, code, true, globals)
}

func (vm *Machine) eval(s *kernel.State, mode EvalMode, code string, withEnv bool, globals map[string]lua.LValue) ([]lua.LValue, error) {
	L := vm.L
	vm.bind(s)
	defer vm.bind(nil)
	vm.ctx.Mover = vm.toMove(s)
	fn, err := L.LoadString(code)
	if err != nil {
		return nil, err
	}
	if withEnv {
		vm.evalEnv(fn, globals)
	}
	switch mode {
	case AsLegal:
		s.Moves = s.Moves[:0]
		vm.emitting = true
		defer func() { vm.emitting = false }()
	case AsPlay:
		vm.playing = true
		defer func() { vm.playing = false }()
	}
	top := L.GetTop()
	if err := vm.call(fn, "test", lua.MultRet); err != nil {
		return nil, err
	}
	out := []lua.LValue{}
	for i := top + 1; i <= L.GetTop(); i++ {
		out = append(out, L.Get(i))
	}
	L.SetTop(top)
	return out, nil
}

// evalEnv gives fn an environment with the script's filters as F and
// globals, over the sandbox's globals.
func (vm *Machine) evalEnv(fn *lua.LFunction, globals map[string]lua.LValue) {
	L := vm.L
	env := L.NewTable()
	filters := L.NewTable()
	for _, f := range vm.filters {
		ud := L.NewUserData()
		ud.Value = f
		filters.Append(ud)
	}
	env.RawSetString("F", filters)
	for k, v := range globals {
		env.RawSetString(k, v)
	}
	meta := L.NewTable()
	meta.RawSetString("__index", L.Get(lua.GlobalsIndex))
	L.SetMetatable(env, meta)
	fn.Env = env
}

// HeldMemory measures what the machine's script holds, stopping early
// once over limit (it must run on the machine's goroutine).
func (vm *Machine) HeldMemory(limit uint64) uint64 { return vm.heldMemory(limit) }

// Idle reports how many idle machines the program keeps.
func (g *Program) Idle() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.free)
}

// NewMachine makes a machine besides the pooled ones, as a game used
// from several goroutines at once does; the caller closes it with
// Discard.
func (g *Program) NewMachine() (*Machine, error) { return newMachine(g, nil) }

// Discard closes a machine made by NewMachine.
func (vm *Machine) Discard() { vm.close() }

// SandboxGlobals lists the globals a script may read.
func SandboxGlobals() []string { return append([]string(nil), sandboxGlobals...) }

// GlobalNames lists the globals the machine's Lua state holds.
func (vm *Machine) GlobalNames() []string {
	var names []string
	vm.L.Get(lua.GlobalsIndex).(*lua.LTable).ForEach(func(k, _ lua.LValue) { names = append(names, k.String()) })
	return names
}
