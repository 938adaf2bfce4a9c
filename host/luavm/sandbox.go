package luavm

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/matombo/matombo/host/diag"
	"github.com/matombo/matombo/host/internal/luastr"
	"github.com/matombo/matombo/host/internal/memwalk"
	lua "github.com/yuin/gopher-lua"
)

func init() {
	// gopher-lua grows a table's array part up to the largest integer key
	// below MaxArrayIndex, one element at a time and in one VM instruction,
	// so "t[67108863] = 1" would allocate a gigabyte before any budget could
	// act. Keys at or above the limit go to the hash part instead, where
	// the # operator does not see them: a sequence longer than the limit
	// would count wrong. table.insert refuses to grow a table that far
	// (Limits.TableItems is below it); rule scripts never need arrays of a
	// million elements. An embedding program that set a lower limit keeps
	// it.
	if lua.MaxArrayIndex > maxArrayIndex {
		lua.MaxArrayIndex = maxArrayIndex
	}
}

const maxArrayIndex = 1 << 20

// sandboxGlobals are the globals a script may read. Everything else
// (os, io, debug, package, require, load, loadstring, dofile, loadfile,
// setfenv, getfenv, collectgarbage, coroutine, channel, string.dump,
// math.random) does not exist in the sandbox.
var sandboxGlobals = []string{
	"assert", "error", "ipairs", "next", "pairs", "pcall", "print", "rawequal",
	"rawget", "rawset", "select", "setmetatable", "getmetatable", "tonumber",
	"tostring", "type", "unpack", "xpcall", "_VERSION",
	"string", "table", "math", "matombo",
}

func allowedGlobals() map[string]bool {
	m := make(map[string]bool, len(sandboxGlobals))
	for _, g := range sandboxGlobals {
		m[g] = true
	}
	return m
}

// newSandbox creates a Lua state holding only the sandbox's globals. The
// library tables a script sees are read-only proxies, the string metatable
// is hidden, and reading or writing an undeclared global raises an error.
func (vm *Machine) newSandbox(lim Limits) *lua.LState {
	L := lua.NewState(lua.Options{
		SkipOpenLibs:        true,
		CallStackSize:       lim.CallStack,
		RegistrySize:        1024,
		RegistryMaxSize:     lim.DataStack,
		RegistryGrowStep:    256,
		MinimizeStackMemory: true,
	})
	for _, open := range []lua.LGFunction{lua.OpenBase, lua.OpenTable, lua.OpenString, lua.OpenMath} {
		L.Push(L.NewFunction(open))
		L.Call(0, 0)
	}
	globals := L.Get(lua.GlobalsIndex).(*lua.LTable)
	keep := allowedGlobals()
	var drop []string
	globals.ForEach(func(k, _ lua.LValue) {
		if s, ok := k.(lua.LString); !ok || !keep[string(s)] {
			drop = append(drop, k.String())
		}
	})
	for _, k := range drop {
		globals.RawSetString(k, lua.LNil)
	}

	str := L.GetGlobal("string").(*lua.LTable)
	str.RawSetString("dump", lua.LNil)
	str.RawSetString("__index", lua.LNil)
	tbl := L.GetGlobal("table").(*lua.LTable)
	luastr.Install(L, str, tbl, luastr.Limits{
		StringBytes: lim.StringBytes, PatternText: lim.PatternText,
		TableItems: lim.TableItems, DataStack: lim.DataStack,
	}, vm)
	mth := L.GetGlobal("math").(*lua.LTable)
	mth.RawSetString("random", lua.LNil)
	mth.RawSetString("randomseed", lua.LNil)
	noAllocLibs(L, globals, mth)

	vm.protected = map[*lua.LTable]bool{globals: true}
	strMeta := L.NewTable()
	strMeta.RawSetString("__index", str)
	strMeta.RawSetString("__metatable", lua.LString("locked"))
	L.SetMetatable(lua.LString(""), strMeta)
	vm.protected[strMeta] = true
	for _, name := range []string{"string", "table", "math"} {
		lib := L.GetGlobal(name).(*lua.LTable)
		globals.RawSetString(name, vm.readOnly(L, lib, name))
	}
	globals.RawSetString("rawset", L.NewFunction(vm.rawset))
	// unpack pushes a value per index, nil or not: a count the data stack
	// cannot hold is refused before the pushes.
	globals.RawSetString("unpack", L.NewFunction(func(L *lua.LState) int {
		t := L.CheckTable(1)
		i := math.Floor(float64(L.OptNumber(2, 1)))
		var j float64
		if L.Get(3) != lua.LNil {
			j = math.Floor(float64(L.CheckNumber(3)))
		} else {
			n := t.Len()
			vm.charge(L, (memwalk.ArrayLen(t)-n)/luastr.ItemsPerStep) // the nils after t's last value
			j = float64(n)
		}
		if math.IsNaN(i) || math.IsNaN(j) || j < i {
			return 0
		}
		count := j - i + 1
		if count > float64(lim.DataStack)/2 {
			vm.overBudget(L, "data stack", fmt.Sprintf("%d values", lim.DataStack), fmt.Sprintf("unpack of %.0f values", count))
		}
		vm.charge(L, 1+int(count)/luastr.ItemsPerStep)
		for k := 0; k < int(count); k++ {
			if x := i + float64(k); math.Abs(x) <= 1<<53 && x >= math.MinInt && x <= math.MaxInt {
				L.Push(t.RawGetInt(int(x)))
			} else {
				L.Push(t.RawGet(lua.LNumber(x)))
			}
		}
		return int(count)
	}))
	globals.RawSetString("print", L.NewFunction(vm.print))
	// The walks of a table's slots, charged (tablewalk.go).
	next := L.NewFunction(vm.next)
	globals.RawSetString("next", next)
	globals.RawSetString("pairs", L.NewFunction(pairs(next)))
	globals.RawSetString(lengthGlobal, L.NewFunction(vm.length))
	// The scripts' ".." operator, charged by the bytes it builds (concat.go).
	globals.RawSetString(concatGlobal, L.NewFunction(vm.concat))
	// A new closure's search of the open upvalues, charged (closures.go).
	globals.RawSetString(closureGlobal, L.NewFunction(vm.closureCharge))
	// "..." where it gives every value, charged by the values (varargs.go).
	globals.RawSetString(varargsGlobal, L.NewFunction(vm.varargs))
	// Errors raised and caught are charged by their cost (lua_pcall.go).
	vm.trampoline = vm.newTrampoline(L)
	globals.RawSetString("pcall", L.NewFunction(vm.pcall))
	globals.RawSetString("xpcall", L.NewFunction(vm.xpcall))
	// tonumber parses its argument in Go: a long string costs its bytes.
	tonumber := globals.RawGetString("tonumber").(*lua.LFunction).GFunction
	globals.RawSetString("tonumber", L.NewFunction(func(L *lua.LState) int {
		if s, ok := L.Get(1).(lua.LString); ok {
			vm.charge(L, 1+len(s)/luastr.BytesPerStep)
		}
		return tonumber(L)
	}))

	gm := L.NewTable()
	gm.RawSetString("__index", L.NewFunction(func(L *lua.LState) int {
		L.RaiseError("undeclared global %q", L.Get(2).String())
		return 0
	}))
	gm.RawSetString("__newindex", L.NewFunction(func(L *lua.LState) int {
		L.RaiseError("assignment to global %q: declare it local", L.Get(2).String())
		return 0
	}))
	gm.RawSetString("__metatable", lua.LString("locked"))
	L.SetMetatable(globals, gm)
	return L
}

// readOnly returns a proxy of t that reads through to t and refuses writes.
func (vm *Machine) readOnly(L *lua.LState, t *lua.LTable, name string) *lua.LTable {
	proxy := L.NewTable()
	mt := L.NewTable()
	mt.RawSetString("__index", t)
	mt.RawSetString("__newindex", L.NewFunction(func(L *lua.LState) int {
		L.RaiseError("%s is read-only: cannot set %s.%s", name, name, L.Get(2).String())
		return 0
	}))
	mt.RawSetString("__metatable", lua.LString("locked"))
	L.SetMetatable(proxy, mt)
	vm.protected[proxy] = true
	vm.protected[t] = true
	return proxy
}

// rawset is the base rawset that refuses the sandbox's own tables.
func (vm *Machine) rawset(L *lua.LState) int {
	t := L.CheckTable(1)
	if vm.protected[t] {
		L.RaiseError("rawset: this table belongs to the sandbox and is read-only")
	}
	k := L.CheckAny(2)
	if k == lua.LNil {
		L.ArgError(2, "table index is nil")
	}
	t.RawSet(k, L.CheckAny(3))
	L.SetTop(1)
	return 1
}

// print writes its arguments to the game's log writer (discarded unless
// the embedding program asks for it).
func (vm *Machine) print(L *lua.LState) int {
	if vm.g == nil || vm.g.Log == nil || vm.g.Log == io.Discard {
		return 0
	}
	parts := make([]string, L.GetTop())
	n := 0
	for i := range parts {
		parts[i] = diag.EscapeControls(luaText(L.Get(i + 1)))
		n += len(parts[i])
	}
	vm.charge(L, 1+len(parts)/luastr.ItemsPerStep+n/luastr.BytesPerStep)
	fmt.Fprintf(vm.g.Log, "%s: %s\n", vm.g.Name, strings.Join(parts, "\t"))
	return 0
}

// luaText describes a value without calling metamethods.
func luaText(v lua.LValue) string {
	switch x := v.(type) {
	case lua.LString:
		return string(x)
	case lua.LNumber, lua.LBool, *lua.LNilType:
		return v.String()
	default:
		return v.Type().String()
	}
}

// charge spends n steps of the call's step budget for work a primitive
// does in Go, and raises a budget error when the steps are spent.
func (vm *Machine) charge(L *lua.LState, n int) {
	if !vm.trip.Charge(n) {
		vm.overBudget(L, diag.BudgetSteps, fmt.Sprintf("%d steps", vm.g.Limits.Steps), "the call ran too many steps")
	}
}

// chargeL charges n steps to the call running in L, for helpers that
// have no machine at hand (reading a table argument); when the steps are
// spent the call stops at its next instruction with the step budget
// error.
func chargeL(L *lua.LState, n int) {
	if t, ok := L.Context().(*tripwire); ok {
		t.Charge(n)
	}
}

// Charge is charge for package luastr.
func (vm *Machine) Charge(L *lua.LState, n int) { vm.charge(L, n) }

// Exceeded is overBudget for package luastr.
func (vm *Machine) Exceeded(L *lua.LState, budget, limit, detail string) {
	vm.overBudget(L, diag.Budget(budget), limit, detail)
}

// overBudget records a sandbox budget error and raises it in the script.
func (vm *Machine) overBudget(L *lua.LState, budget diag.Budget, limit, detail string) {
	vm.budgetHit = &diag.BudgetError{Budget: budget, Limit: limit, Detail: detail}
	L.RaiseError("%s budget exceeded (limit %s): %s", budget, limit, detail)
}

// luaNumber converts a number to a Lua value without allocating when it is
// a small whole number.
func luaNumber(f float64) lua.LValue {
	if i := int(f); float64(i) == f && i >= minSmall && i < maxSmall {
		return smallInts[i-minSmall]
	}
	return lua.LNumber(f)
}

// noAllocLibs replaces ipairs and the most used math functions with
// versions that return small whole numbers without allocating (gopher-lua
// boxes every number a library function returns). They behave the same.
func noAllocLibs(L *lua.LState, globals, mth *lua.LTable) {
	aux := L.NewFunction(func(L *lua.LState) int {
		t := L.CheckTable(1)
		i := L.CheckInt(2) + 1
		v := t.RawGetInt(i)
		if v == lua.LNil {
			return 0
		}
		L.Push(luaInt(i))
		L.Push(v)
		return 2
	})
	globals.RawSetString("ipairs", L.NewFunction(func(L *lua.LState) int {
		L.Push(aux)
		L.Push(L.CheckTable(1))
		L.Push(luaInt(0))
		return 3
	}))
	unary := func(name string, f func(float64) float64) {
		mth.RawSetString(name, L.NewFunction(func(L *lua.LState) int {
			L.Push(luaNumber(f(float64(L.CheckNumber(1)))))
			return 1
		}))
	}
	unary("floor", math.Floor)
	unary("ceil", math.Ceil)
	unary("abs", math.Abs)
	extreme := func(name string, better func(a, b float64) bool) {
		mth.RawSetString(name, L.NewFunction(func(L *lua.LState) int {
			r := float64(L.CheckNumber(1))
			for i := 2; i <= L.GetTop(); i++ {
				if v := float64(L.CheckNumber(i)); better(v, r) {
					r = v
				}
			}
			L.Push(luaNumber(r))
			return 1
		}))
	}
	extreme("min", func(a, b float64) bool { return a < b })
	extreme("max", func(a, b float64) bool { return a > b })
}
