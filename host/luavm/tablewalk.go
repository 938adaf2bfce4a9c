package luavm

import (
	"github.com/matombo/matombo/host/internal/luastr"
	"github.com/matombo/matombo/host/internal/memwalk"
	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/ast"
)

// Walks of a table's slots. gopher-lua's table keeps its array part as
// large as the largest index ever set (up to lua.MaxArrayIndex, one
// instruction: t[1000000] = 1) and its hash part's list of every key ever
// set, cleared ones included. "#t" searches the array part from its end
// for its last value, and next(t, k) (so also a pairs loop's start) from
// k for the next value, over every nil: a million slots in one
// instruction or call, charged one step. A loop of "#t" or "next(t)" over
// a table with one value and a million nils ran into the 30 s time guard
// instead of the step budget in 50 ms. So the compiler never sees a "#"
// (rewrite turns it into a call of lengthGlobal, lengthCall), and next and pairs
// are the sandbox's: each charges what it walks after the walk, a step per
// luastr.ItemsPerStep slots of the array part and keyLookupSteps per key
// of the hash part.

// lengthGlobal is the global the rewritten "#" calls: no Lua name, so no
// script can write it; a traceback shows it as function '#'.
const lengthGlobal = "#"

// keyLookupSteps is the charge for a key of the hash part that next
// walks: a map lookup of an interface, measured at about four
// instructions' time (200,000 cleared keys walked: 110 ns each).
const keyLookupSteps = 4

// length is the "#" operator as gopher-lua's runs it (a string's bytes,
// a __len metamethod's result, a table's length), with the walk of a
// table's array part charged.
func (vm *Machine) length(L *lua.LState) int {
	v := L.Get(1)
	if s, ok := v.(lua.LString); ok {
		L.Push(luaInt(len(s)))
		return 1
	}
	if mm := L.GetMetaField(v, "__len"); mm.Type() == lua.LTFunction {
		L.Push(mm)
		L.Push(v)
		L.Call(1, 1)
		return 1
	}
	t, ok := v.(*lua.LTable)
	if !ok {
		L.RaiseError("attempt to get length of a %s value", v.Type().String())
	}
	n := t.Len()
	vm.charge(L, 1+(memwalk.ArrayLen(t)-n)/luastr.ItemsPerStep)
	L.Push(luaInt(n))
	return 1
}

// next is the base library's next, with the slots it walks charged.
func (vm *Machine) next(L *lua.LState) int {
	t := L.CheckTable(1)
	key := L.Get(2)
	k, v := t.Next(key)
	slots, keys := memwalk.NextWork(t, key, k)
	vm.charge(L, 1+slots/luastr.ItemsPerStep+keys*keyLookupSteps)
	if k == lua.LNil {
		L.Push(lua.LNil)
		return 1
	}
	L.Push(k)
	L.Push(v)
	return 2
}

// pairs is the base library's pairs, whose loop calls the sandbox's
// next.
func pairs(next *lua.LFunction) lua.LGFunction {
	return func(L *lua.LState) int {
		t := L.CheckTable(1)
		L.Push(next)
		L.Push(t)
		L.Push(lua.LNil)
		return 3
	}
}

// tableLen is the length of a table a primitive reads (#t), charging the
// walk of its array part as "#" does and a step per luastr.ItemsPerStep
// values the primitive then reads.
func (vm *Machine) tableLen(L *lua.LState, t *lua.LTable) int {
	n := t.Len()
	vm.charge(L, 1+(memwalk.ArrayLen(t)-n)/luastr.ItemsPerStep+n/luastr.ItemsPerStep)
	return n
}

// lengthCall is the call of lengthGlobal that stands for "#" of operand
// (see rewrite): "#t" searches t's array part from its end in one
// instruction, which the sandbox's length charges (vm.length).
func lengthCall(ex *ast.UnaryLenOpExpr, operand ast.Expr) ast.Expr {
	return operatorCall(lengthGlobal, []ast.Expr{operand}, ex)
}
