package luavm

import (
	"fmt"

	"github.com/matombo/matombo/host/internal/luastr"
	lua "github.com/yuin/gopher-lua"
)

// Raising and catching errors under the step budget.
//
// An error a script raises and catches makes gopher-lua work in Go that
// no instruction pays for: raising closes the open upvalues of every frame
// of the stack and formats the message with its position, the Go panic
// unwinds to the nearest protected call, and catching it there builds a
// traceback of the whole stack (a formatted line per frame, each found by
// walking the frames from the top: quadratic in the depth), which pcall
// then throws away. A loop of pcall(error, "x") spent about 5 µs a
// catch, where its five instructions were charged 50 ns; nested pcalls
// and tries ran 16 s before their 2,000,000 steps were spent, a stack 190
// deep or a 1 MiB message longer than the 30 s time guard.
//
// So pcall, xpcall and matombo.try call their function through protect:
// an error raised anywhere under it goes through raised, which measures
// the stack at the raise, charges the raise by its real cost and skips
// the traceback no one reads. The other protected calls of the host (a
// call into the script from Go) build their traceback once, for the
// error they return.

// Costs of an error raised and caught under protect, in steps (a step is
// about the time of one Lua instruction, 10 ns), from BenchmarkRaise on
// gopher-lua 1.1.2: about 3 µs for the raise, the panic, its recovery and
// the error value (formatting the message's position, closing upvalues);
// a level of the stack the raise walks or the panic unwinds (stackDepth
// bounds the levels by at most twice); and the message's bytes, which
// raising copies when it puts the position in front.
const (
	RaiseSteps      = 300
	RaiseFrameSteps = 4
)

// errorCaught marks the error values of errors caught under protect: the
// traceback is not built (see raised).
const errorCaught = "(the traceback of an error caught by pcall is not built)"

// protect calls the function below the nargs arguments on top of L's
// stack, as L.PCall(nargs, MultRet, nil) does, charging errors raised under
// it to the step budget.
func (vm *Machine) protect(L *lua.LState, nargs int) error {
	L.Insert(vm.trampoline, L.GetTop()-nargs)
	return L.PCall(nargs+1, lua.MultRet, nil)
}

// newTrampoline makes the function protect calls under L.PCall: it makes
// raised the handler of errors raised under it (L.PCall has just set its
// own; the protected call puts back the one before when it returns) and
// calls the function with its arguments, returning all its results. The
// method value vm.raised is made once: making it at every call would
// allocate.
func (vm *Machine) newTrampoline(L *lua.LState) *lua.LFunction {
	raised := vm.raised
	return L.NewFunction(func(L *lua.LState) int {
		L.Panic = raised
		defer vm.overflowed(L)
		L.Call(L.GetTop()-1, lua.MultRet)
		return L.GetTop()
	})
}

// overflowed, deferred under protect, turns a Go panic that is not a Lua
// error (gopher-lua's "lua callstack overflow", raised by the frame stack
// itself, not through L.Panic) into one that raised would have made:
// charged by the stack's depth, with no traceback. L.PCall would build a
// traceback for it, walking the frames from the top for each frame:
// quadratic in the depth, so a loop of pcall(f) over a runaway recursion
// ran seconds (tens of seconds for a deep CallStack) before its steps
// were spent.
func (vm *Machine) overflowed(L *lua.LState) {
	r := recover()
	if r == nil {
		return
	}
	if _, ok := r.(*lua.ApiError); ok {
		panic(r)
	}
	vm.trip.Charge(RaiseSteps + RaiseFrameSteps*vm.stackDepth(L))
	panic(&lua.ApiError{Type: lua.ApiErrorPanic, Object: lua.LString(fmt.Sprint(r)), StackTrace: errorCaught})
}

// raised is gopher-lua's panic handler under protect: the error value is on
// top of the stack and every frame is still there. It charges the raise
// and panics with the error for the protected call to recover, with a
// placeholder for the traceback, so that none is built. It must not raise
// an error itself: a raise it pays for beyond the budget stops the call
// at its next instruction.
func (vm *Machine) raised(L *lua.LState) {
	obj := L.Get(-1)
	steps := RaiseSteps + RaiseFrameSteps*vm.stackDepth(L)
	if s, ok := obj.(lua.LString); ok {
		steps += len(s) / luastr.BytesPerStep
	}
	vm.trip.Charge(steps)
	panic(&lua.ApiError{Type: lua.ApiErrorRun, Object: obj, StackTrace: errorCaught})
}

// stackDepth bounds the number of levels of L's call stack (frames and
// the tail calls they made): it is at least the depth and less than twice
// it, and at most the call stack budget. lua.GetStack(n) walks n frames
// from the top, so doubling n until it fails walks about twice the
// frames.
func (vm *Machine) stackDepth(L *lua.LState) int {
	limit := vm.g.Limits.CallStack
	n := 1
	for n < limit {
		if _, ok := L.GetStack(n); !ok {
			break
		}
		n *= 2
	}
	return min(n, limit)
}

// pcall is Lua's pcall(f, ...) under protect.
func (vm *Machine) pcall(L *lua.LState) int {
	v := L.CheckAny(1)
	if v.Type() != lua.LTFunction && L.GetMetaField(v, "__call").Type() != lua.LTFunction {
		L.Push(lua.LFalse)
		L.Push(lua.LString("attempt to call a " + v.Type().String() + " value"))
		return 2
	}
	if err := vm.protect(L, L.GetTop()-1); err != nil {
		L.Push(lua.LFalse)
		L.Push(errorValue(err))
		return 2
	}
	L.Insert(lua.LTrue, 1)
	return L.GetTop()
}

// xpcall is Lua's xpcall(f, handler) under protect: f is called without
// arguments; when it raises an error, handler is called with the error
// value (also under protect) and xpcall returns false and what the handler
// returned, or the handler's own error. Unlike in Lua 5.1 the handler runs
// after the stack is unwound: the sandbox has no debug library that could
// see the difference, and the handler's frames are not stacked above
// those of the error.
func (vm *Machine) xpcall(L *lua.LState) int {
	fn := L.CheckFunction(1)
	handler := L.CheckFunction(2)
	L.SetTop(0)
	L.Push(fn)
	if err := vm.protect(L, 0); err != nil {
		L.SetTop(0)
		L.Push(handler)
		L.Push(errorValue(err))
		if err := vm.protect(L, 1); err != nil {
			L.SetTop(0)
			L.Push(lua.LFalse)
			L.Push(errorValue(err))
			return 2
		}
		L.SetTop(min(L.GetTop(), 1))
		if L.GetTop() == 0 {
			L.Push(lua.LNil)
		}
		L.Insert(lua.LFalse, 1)
		return 2
	}
	L.Insert(lua.LTrue, 1)
	return L.GetTop()
}

// errorValue is the Lua value an error of a protected call raised.
func errorValue(err error) lua.LValue {
	if ae, ok := err.(*lua.ApiError); ok && ae.Object != nil {
		return ae.Object
	}
	return lua.LString(err.Error())
}
