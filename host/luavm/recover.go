package luavm

import (
	"errors"

	"github.com/matombo/matombo/host/diag"
	"github.com/matombo/matombo/host/internal/watchdog"
	"github.com/matombo/matombo/host/kernel"
	"github.com/matombo/matombo/host/rules"
	lua "github.com/yuin/gopher-lua"
)

// Every problem of a script at once. While a script loads, a declaration
// that fails (a rule part or a filter whose table is wrong) is recorded as
// a problem with the script's line, a placeholder stands for it, and the
// chunk goes on: the load then fails with all the problems found (as
// hcl's diagnostics), not only the first. A budget running out or the
// caller giving up still stops the load at once.

// maxProblems bounds the problems one load records.
const maxProblems = 20

// declare runs body, a declaration that pushes one value; while loading,
// an error it raises is recorded and placeholder pushes a value instead.
func (vm *Machine) declare(L *lua.LState, body lua.LGFunction, placeholder func(L *lua.LState)) int {
	if !vm.loading || len(vm.problems) >= maxProblems {
		return body(L)
	}
	nargs := L.GetTop()
	outer := vm.declPos
	vm.declPos = vm.callerPos(L) // the inner call has no script line of its own
	defer func() { vm.declPos = outer }()
	L.Insert(L.NewFunction(body), 1)
	err := L.PCall(nargs, 1, nil)
	if err == nil {
		return 1
	}
	var apiErr *lua.ApiError
	if vm.trip.FiredFor(vm.trip.Seq()) != watchdog.None || vm.budgetHit != nil || !errors.As(err, &apiErr) {
		L.Error(apiErr.Object, 0) // the call stops: raise it again as it was
	}
	var problem error
	if vm.dcl.cfgErr != nil {
		problem, vm.dcl.cfgErr = vm.dcl.cfgErr, nil
	} else {
		pos, text := vm.splitPos(luaErrorText(apiErr.Object))
		if pos.Line == 0 {
			pos = vm.declPos
		}
		problem = &diag.ScriptError{Pos: pos, Func: diag.CallLoad, Msg: text}
	}
	vm.problems = append(vm.problems, problem)
	placeholder(L)
	return 1
}

// loadProblems joins the problems recorded while loading with err, the
// load's own error (nil when the chunk ran to its end).
func (vm *Machine) loadProblems(err error) error {
	if len(vm.problems) == 0 {
		return err
	}
	d := diag.Diagnostics(vm.problems)
	if err != nil {
		d = append(d, err)
	}
	vm.problems = nil
	return d
}

// brokenPart stands for a rule part whose declaration failed: it fits
// every slot and fails when run.
type brokenPart struct{ name string }

func (b brokenPart) err() error {
	return kernel.Failf("%s was declared with errors (see the script's other problems)", b.name)
}

func (b brokenPart) Emit(*kernel.Ctx, int) (int, error)               { return 0, b.err() }
func (b brokenPart) Play(*kernel.Ctx, int, kernel.Move) error         { return b.err() }
func (b brokenPart) Sow(*kernel.Ctx, int, int) (int, bool, error)     { return -1, false, b.err() }
func (b brokenPart) Capture(*kernel.Ctx, int, int, bool) (int, error) { return 0, b.err() }
func (b brokenPart) TestSite(*kernel.Ctx, int, int) (bool, error)     { return false, b.err() }
func (b brokenPart) TestMove(*kernel.Ctx, int, kernel.Move) (bool, error) {
	return false, b.err()
}
func (b brokenPart) After(*kernel.Ctx, int, int) error         { return b.err() }
func (b brokenPart) Result(*kernel.Ctx, string) error          { return b.err() }
func (b brokenPart) EmitAt(*kernel.Ctx, int, int) (int, error) { return 0, b.err() }
func (b brokenPart) Holds(*kernel.Ctx, int) (bool, error)      { return false, b.err() }
func (b brokenPart) Value(*kernel.Ctx, int) (int, error)       { return 0, b.err() }
func (b brokenPart) Relay(*kernel.Ctx, int, int) (int, kernel.How, int, error) {
	return -1, 0, 0, b.err()
}
func (b brokenPart) Lap(*kernel.Ctx, int, int, *kernel.Track, int) (kernel.LapEnd, error) {
	return kernel.LapEnd{}, b.err()
}
func (b brokenPart) Arrive(*kernel.Ctx, int, int) (bool, error)          { return false, b.err() }
func (b brokenPart) Score(_ *kernel.Ctx, _ bool, d []int) ([]int, error) { return d, b.err() }

// pushBrokenPart pushes the placeholder of a part of spec that failed.
func (vm *Machine) pushBrokenPart(L *lua.LState, spec *rules.Spec) {
	ref := &partRef{spec: spec, part: brokenPart{name: spec.Name}, pos: vm.declPos}
	fn := L.NewFunction(func(L *lua.LState) int { return vm.callPart(L, ref) })
	if vm.parts == nil {
		vm.parts = map[*lua.LFunction]*partRef{}
	}
	vm.parts[fn] = ref
	L.Push(fn)
}

// pushBrokenFilter pushes the placeholder of a filter that failed: it
// matches no site.
func (vm *Machine) pushBrokenFilter(L *lua.LState) {
	ud := L.NewUserData()
	ud.Value = new(kernel.Filter)
	L.Push(ud)
}
