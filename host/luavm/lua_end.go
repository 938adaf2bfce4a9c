package luavm

import (
	"fmt"

	"github.com/matombo/matombo/host/diag"
	"github.com/matombo/matombo/host/kernel"
	lua "github.com/yuin/gopher-lua"
)

// Primitives that end the game and count repetitions.

func (vm *Machine) apiOver(L *lua.LState) int {
	pushBool(L, vm.state(L).Result.Over)
	return 1
}

// finishMethod is how a game that the script ends now ends: by the rule
// function running.
func (vm *Machine) finishMethod() kernel.Method {
	switch vm.phase {
	case diag.CallBlocked:
		return kernel.MethodNoMoves
	case diag.CallRepeated:
		return kernel.MethodRepetition
	case diag.CallResult:
		return kernel.MethodPosition
	}
	return kernel.MethodRule
}

func (vm *Machine) apiFinish(L *lua.LState) int {
	s := vm.state(L)
	method := vm.finishMethod()
	if method == kernel.MethodRule {
		s = vm.mutable(L)
	}
	if t, ok := L.Get(1).(*lua.LTable); ok {
		w, reason, notes, sites := vm.finishTable(L, t)
		s.Result.Over, s.Result.Winner, s.Result.Reason, s.Result.Notes, s.Result.Sites, s.Result.Method = true, w, reason, notes, sites, method
		return 0
	}
	w := vm.winnerArg(L, L.Get(1), 1)
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
		if _, _, bad := diag.BadRune(n, false); bad { // the note's number is formatted only for an error
			checkText(L, fmt.Sprintf("finish: note %d", i-2), n, false)
		}
		notes = append(notes, n)
	}
	s.Result.Over, s.Result.Winner, s.Result.Reason, s.Result.Notes, s.Result.Sites, s.Result.Method = true, w, reason, notes, nil, method
	return 0
}

// winnerArg reads the winner of finish: 0 for a draw or a player.
func (vm *Machine) winnerArg(L *lua.LState, v lua.LValue, arg int) int {
	f, ok := v.(lua.LNumber)
	w := int(f)
	switch {
	case !ok || float64(w) != float64(f):
		L.ArgError(arg, fmt.Sprintf("winner %s does not exist (0 for a draw, players 1..%d)", vm.describe(v, plainSlot), vm.dcl.Players))
	case w < 0 || w > vm.dcl.Players:
		L.ArgError(arg, fmt.Sprintf("winner %d does not exist (0 for a draw, players 1..%d)", w, vm.dcl.Players))
	}
	return w
}

// finishTable reads finish { winner = w, reason = "...", notes = { ... },
// sites = { ... } }: the table form, which can name the sites that made
// the result (the three on a line).
func (vm *Machine) finishTable(L *lua.LState, t *lua.LTable) (w int, reason string, notes []string, sites []int) {
	checkFields(L, t, "finish", "winner", "reason", "notes", "sites")
	w = vm.winnerArg(L, t.RawGetString("winner"), 1)
	switch v := t.RawGetString("reason").(type) {
	case *lua.LNilType:
	case lua.LString:
		reason = string(v)
	default:
		L.RaiseError("finish: the reason must be a text, got %s", vm.describe(v, plainSlot))
	}
	if len(reason) > 200 {
		L.RaiseError("finish: a reason has at most 200 characters")
	}
	checkText(L, "finish: the reason", reason, false)
	switch v := t.RawGetString("notes").(type) {
	case *lua.LNilType:
	case *lua.LTable:
		count := vm.tableLen(L, v)
		if count > 16 {
			L.RaiseError("finish: there are at most 16 notes")
		}
		for i := 1; i <= count; i++ {
			n, ok := v.RawGetInt(i).(lua.LString)
			if !ok || len(n) > 200 {
				L.RaiseError("finish: note %d must be a text of at most 200 characters, got %s", i, vm.describe(v.RawGetInt(i), plainSlot))
			}
			if _, _, bad := diag.BadRune(string(n), false); bad { // the note's number is formatted only for an error
				checkText(L, fmt.Sprintf("finish: note %d", i), string(n), false)
			}
			notes = append(notes, string(n))
		}
	default:
		L.RaiseError("finish: notes must be a list of texts, got %s", vm.describe(v, anySlot))
	}
	switch v := t.RawGetString("sites").(type) {
	case *lua.LNilType:
	case *lua.LTable:
		if n := vm.tableLen(L, v); n > vm.def.Layout.Sites {
			L.RaiseError("finish: %d sites, the board has %d", n, vm.def.Layout.Sites)
		}
		sites = vm.siteList(L, v, "finish: sites")
	default:
		L.RaiseError("finish: sites must be a list of sites, got %s", vm.describe(v, anySlot))
	}
	return w, reason, notes, sites
}

// apiRepetitions counts the occurrences of the current position. During
// play the position being made is not in the history yet, so it counts
// once more.
func (vm *Machine) apiRepetitions(L *lua.LState) int {
	s := vm.state(L)
	vm.chargeKey(L)
	vm.charge(L, s.Hist.Len()/64) // the keys compared (a filter skips most)
	k := s.ComputeKey(&vm.def.Layout)
	n := s.Occurrences(k) // a state played unlisted counts it once more; one being played is never so
	if vm.playing && vm.ctx.Irreversible {
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
func (vm *Machine) chargeKey(L *lua.LState) { vm.charge(L, 1+vm.def.Layout.KeyLen/16) }

func (vm *Machine) apiKey(L *lua.LState) int {
	vm.chargeKey(L)
	L.Push(lua.LString(fmt.Sprintf("%016x", vm.state(L).ComputeKey(&vm.def.Layout))))
	return 1
}
