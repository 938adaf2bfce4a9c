package luavm

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/matombo/matombo/host/diag"
	"github.com/matombo/matombo/host/internal/luastr"
	"github.com/matombo/matombo/host/internal/memwalk"
	"github.com/matombo/matombo/host/kernel"
	lua "github.com/yuin/gopher-lua"
)

// Reading and checking the arguments of primitives.

// ---- argument helpers ----

func (vm *Machine) board(L *lua.LState) *kernel.Board {
	b := vm.def.Board
	if b == nil {
		L.RaiseError("the board is not declared yet (call matombo.board first)")
	}
	return b
}

func (vm *Machine) state(L *lua.LState) *kernel.State {
	if vm.st == nil {
		L.RaiseError("this primitive works on a state: use it inside setup, legal, play or blocked, not while the script loads")
	}
	return vm.st
}

// mutable returns the state for a primitive that changes it.
func (vm *Machine) mutable(L *lua.LState) *kernel.State {
	s := vm.state(L)
	switch {
	case vm.ctx.Trying(): // a scratch copy (lua_try.go)
	case vm.emitting:
		L.RaiseError("legal must not change the state")
	case vm.phase == diag.CallEvaluate:
		L.RaiseError("evaluate must not change the state")
	case vm.phase == diag.CallScore:
		L.RaiseError("score must not change the state")
	case vm.phase == diag.CallPrompt:
		L.RaiseError("prompt must not change the state")
	case vm.phase == diag.CallResult:
		L.RaiseError("result must not change the state (it may only call finish)")
	}
	vm.keyValid = false
	return s
}

func (vm *Machine) mustLoad(L *lua.LState, what string) {
	if !vm.loading {
		L.RaiseError("%s can only be declared while the script loads", what)
	}
}

func (vm *Machine) argInt(L *lua.LState, n int) int {
	v := L.Get(n)
	f, ok := v.(lua.LNumber)
	if !ok || float64(f) != math.Trunc(float64(f)) || math.Abs(float64(f)) > 1<<31 {
		L.ArgError(n, "integer expected, got "+vm.describe(v, plainSlot))
	}
	if float64(f) > math.MaxInt { // 2^31 on a 32-bit machine
		L.ArgError(n, "value out of range")
	}
	return int(f)
}

func (vm *Machine) optInt(L *lua.LState, n, def int) int {
	if L.Get(n) == lua.LNil {
		return def
	}
	return vm.argInt(L, n)
}

// site reads a site argument: an index from 1 or a site name. It returns
// the 0-based index.
func (vm *Machine) site(L *lua.LState, n int) int {
	b := vm.board(L)
	switch v := L.Get(n).(type) {
	case lua.LNumber:
		i := int(v)
		if float64(i) == float64(v) && i >= 1 && i <= b.NumSites() {
			return i - 1
		}
	case lua.LString:
		if i, ok := b.Index(string(v)); ok {
			return i
		}
	}
	L.ArgError(n, "site expected, got "+vm.describe(L.Get(n), siteSlot))
	return 0
}

func (vm *Machine) optSite(L *lua.LState, n int) int {
	if L.Get(n) == lua.LNil {
		return -1
	}
	return vm.site(L, n)
}

func (vm *Machine) player(L *lua.LState, n int) int {
	p := vm.argInt(L, n)
	if p < 1 || p > vm.dcl.Players {
		L.ArgError(n, fmt.Sprintf("player %d does not exist (players are 1..%d)", p, vm.dcl.Players))
	}
	return p
}

func (vm *Machine) track(L *lua.LState, n int) *kernel.Track {
	return vm.board(L).TrackAt(vm.handleArg(L, n, trackSlot))
}

func (vm *Machine) tagMask(L *lua.LState, n int) uint64 {
	if L.Get(n) == lua.LNil {
		return 0
	}
	vm.board(L)
	return 1 << uint(vm.handleArg(L, n, tagSlot))
}

func (vm *Machine) kind(L *lua.LState, n int) int { return vm.handleArg(L, n, kindSlot) }

// handleArg reads argument n, the handle of a declaration of sort s, and
// returns its index from 0.
func (vm *Machine) handleArg(L *lua.LState, n int, s slotSort) int {
	v := L.Get(n)
	if x, ok := v.(lua.LNumber); ok {
		if i := int(x); float64(i) == float64(x) && i >= 1 && i <= vm.numDeclared(s) {
			return i - 1
		}
	}
	L.ArgError(n, fmt.Sprintf("%s expected (from %s), got %s", s.noun(), s.maker(), vm.describe(v, s)))
	return 0
}

func (vm *Machine) filterArg(L *lua.LState, n int) *kernel.Filter {
	if ud, ok := L.Get(n).(*lua.LUserData); ok {
		if f, ok := ud.Value.(*kernel.Filter); ok {
			// Every primitive that takes a filter visits its candidate
			// sites: charge for them (a step is about four sites).
			vm.charge(L, f.Cost())
			return f
		}
	}
	L.ArgError(n, "filter expected (make one with matombo.filter), got "+vm.describe(L.Get(n), filterSlot))
	return nil
}

// describeLua names a value for an error message (see luastr.Describe).
func describeLua(v lua.LValue) string { return luastr.Describe(v) }

func pushBool(L *lua.LState, b bool) {
	if b {
		L.Push(lua.LTrue)
	} else {
		L.Push(lua.LFalse)
	}
}

func (vm *Machine) pushSite(L *lua.LState, i int) {
	if i < 0 {
		L.Push(lua.LNil)
		return
	}
	L.Push(luaInt(i + 1))
}

// stringList reads a list of strings from a table field.
func stringList(L *lua.LState, v lua.LValue, what string) []string {
	t, ok := v.(*lua.LTable)
	if !ok {
		L.RaiseError("%s must be a list, got %s", what, describeLua(v))
	}
	var out []string
	n := t.Len()
	chargeL(L, 1+(memwalk.ArrayLen(t)-n)/luastr.ItemsPerStep+n/luastr.ItemsPerStep) // the walk of #t, the values read
	for i := 1; i <= n; i++ {
		s, ok := t.RawGetInt(i).(lua.LString)
		if !ok {
			L.RaiseError("%s[%d] must be a string, got %s", what, i, describeLua(t.RawGetInt(i)))
		}
		out = append(out, string(s))
	}
	return out
}

// siteList reads a list of sites (indices from 1 or names).
func (vm *Machine) siteList(L *lua.LState, v lua.LValue, what string) []int {
	b := vm.board(L)
	t, ok := v.(*lua.LTable)
	if !ok {
		L.RaiseError("%s must be a list of sites, got %s", what, vm.describe(v, anySlot))
	}
	var out []int
	n := vm.tableLen(L, t)
	for i := 1; i <= n; i++ {
		x := t.RawGetInt(i)
		switch x := x.(type) {
		case lua.LNumber:
			if k := int(x); float64(k) == float64(x) && k >= 1 && k <= b.NumSites() {
				out = append(out, k-1)
				continue
			}
		case lua.LString:
			if k, ok := b.Index(string(x)); ok {
				out = append(out, k)
				continue
			}
		}
		L.RaiseError("%s[%d] must be a site, got %s", what, i, vm.describe(x, siteSlot))
	}
	return out
}

// checkFields raises an error for keys of t outside known.
func checkFields(L *lua.LState, t *lua.LTable, what string, known ...string) {
	var bad []string
	keys := 0
	defer func() { chargeL(L, 1+keys/luastr.ItemsPerStep) }()
	t.ForEach(func(k, _ lua.LValue) {
		keys++
		ks, ok := k.(lua.LString)
		if !ok {
			bad = append(bad, k.String())
			return
		}
		for _, n := range known {
			if string(ks) == n {
				return
			}
		}
		bad = append(bad, string(ks))
	})
	if len(bad) > 0 {
		sort.Strings(bad)
		L.RaiseError("%s: unknown field %s (known: %s)", what, strings.Join(bad, ", "), strings.Join(known, ", "))
	}
}

// check raises err, an error of a kernel mechanic, as the error of the
// primitive running: an argument error names the argument, a budget the
// budget exceeded.
func (vm *Machine) check(L *lua.LState, err error) {
	if err == nil {
		return
	}
	var arg *kernel.ArgError
	var over *kernel.BudgetExceeded
	switch {
	case err == kernel.ErrSteps:
		vm.overBudget(L, diag.BudgetSteps, fmt.Sprintf("%d steps", vm.g.Limits.Steps), "the call ran too many steps")
	case errors.As(err, &arg):
		L.ArgError(arg.N, arg.Msg)
	case errors.As(err, &over):
		vm.overBudget(L, diag.Budget(over.Budget), over.Limit, over.Detail)
	}
	L.RaiseError("%s", err.Error())
}
