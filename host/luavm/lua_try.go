package luavm

import (
	"errors"

	lua "github.com/yuin/gopher-lua"
)

// Trying a move on a scratch copy of the state: matombo.try(fn, ...) calls
// fn(...) with the state free to change, then puts the state back exactly as
// it was and returns what fn returned. Rules whose legality depends on
// playing a move out ("a move that never ends is illegal", "take the largest
// capture") call the script's own play code inside legal this way.

// apiTry: try(fn, ...) calls fn(...) on a scratch copy of the state and
// returns fn's results; the state is then as it was before, and the ply
// being recorded keeps none of fn's effects. Inside fn the
// primitives may change the state, even when the caller is legal, evaluate
// or result, but may not emit moves. The trial is the kernel's (Ctx.Try,
// which the rule parts use too: it puts back the state, charges the copy
// to the step budget and bounds the nesting); fn's work is charged as any
// Lua code, and the machine's own view of the state (its key, whether it
// is emitting) is put back here. An error in fn is raised again once the
// state is back.
func (vm *Machine) apiTry(L *lua.LState) int {
	vm.state(L)
	L.CheckFunction(1)
	key, keyValid, emitting := vm.key, vm.keyValid, vm.emitting
	vm.emitting = false
	ran := false
	err := vm.ctx.Try(func() error {
		ran = true
		return vm.protect(L, L.GetTop()-1)
	})
	vm.key, vm.keyValid, vm.emitting = key, keyValid, emitting
	switch {
	case err == nil:
		return L.GetTop()
	case !ran: // the trial did not start: its nesting or its copy's steps
		vm.raisePart(L, "try", err)
	}
	var apiErr *lua.ApiError
	if errors.As(err, &apiErr) && apiErr.Object != nil {
		L.Error(apiErr.Object, 0)
	}
	L.RaiseError("%s", err.Error())
	return 0
}
