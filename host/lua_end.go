package host

import (
	"fmt"

	lua "github.com/yuin/gopher-lua"
)

// Primitives that end the game and count repetitions.

func (vm *machine) apiOver(L *lua.LState) int {
	pushBool(L, vm.state(L).over)
	return 1
}

// finishMethod is how a game that the script ends now ends: by the rule
// function running.
func (vm *machine) finishMethod() Method {
	switch vm.phase {
	case CallBlocked:
		return MethodNoMoves
	case CallRepeated:
		return MethodRepetition
	case CallResult:
		return MethodPosition
	}
	return MethodRule
}

func (vm *machine) apiFinish(L *lua.LState) int {
	s := vm.state(L)
	method := vm.finishMethod()
	if method == MethodRule {
		s = vm.mutable(L)
	}
	w := vm.argInt(L, 1)
	if w < 0 || w > vm.dcl.players {
		L.ArgError(1, fmt.Sprintf("winner %d does not exist (0 for a draw, players 1..%d)", w, vm.dcl.players))
	}
	reason := ""
	if v := L.Get(2); v != lua.LNil {
		reason = L.CheckString(2)
	}
	if len(reason) > 200 || L.GetTop() > 2+16 {
		L.RaiseError("finish: a reason has at most 200 characters and there are at most 16 notes")
	}
	checkText(L, "finish: the reason", reason, false)
	var notes []string
	for i := 3; i <= L.GetTop(); i++ {
		n := L.CheckString(i)
		if len(n) > 200 {
			L.ArgError(i, "a note has at most 200 characters")
		}
		checkText(L, fmt.Sprintf("finish: note %d", i-2), n, false)
		notes = append(notes, n)
	}
	s.over, s.winner, s.reason, s.notes, s.method = true, w, reason, notes, method
	return 0
}

// apiRepetitions counts the occurrences of the current position. During
// play the position being made is not in the history yet, so it counts
// once more.
func (vm *machine) apiRepetitions(L *lua.LState) int {
	s := vm.state(L)
	vm.chargeKey(L)
	vm.charge(L, s.hist.len()/64) // the keys compared (a filter skips most)
	k := s.computeKey()
	n := s.hist.count(k)
	if vm.playing && vm.irrev.marked {
		n = 0 // the older positions are forgotten (lua_irreversible.go)
	}
	if vm.playing {
		n++
		vm.key, vm.keyValid = k, true
	}
	L.Push(luaInt(n))
	return 1
}

// chargeKey charges the hashing of a position's cells, about 16 a step.
func (vm *machine) chargeKey(L *lua.LState) { vm.charge(L, 1+vm.g.lay.keyLen/16) }

func (vm *machine) apiKey(L *lua.LState) int {
	vm.chargeKey(L)
	L.Push(lua.LString(fmt.Sprintf("%016x", vm.state(L).computeKey())))
	return 1
}
