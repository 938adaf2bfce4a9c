package luavm

import (
	"fmt"
	"math"

	lua "github.com/yuin/gopher-lua"
)

// Primitives that read and change the state: each reads its arguments
// and calls the kernel's mechanic of the same name (host/kernel).

func (vm *Machine) apiCount(L *lua.LState) int {
	s := vm.state(L)
	L.Push(luaInt(int(s.Cells[vm.site(L, 1)])))
	return 1
}

func (vm *Machine) apiSetCount(L *lua.LState) int {
	vm.mutable(L)
	i := vm.site(L, 1)
	vm.check(L, vm.ctx.SetCount(i, vm.argInt(L, 2)))
	return 0
}

func (vm *Machine) apiAdd(L *lua.LState) int {
	vm.mutable(L)
	i := vm.site(L, 1)
	n, err := vm.ctx.Add(i, vm.argInt(L, 2))
	vm.check(L, err)
	L.Push(luaInt(n))
	return 1
}

func (vm *Machine) apiTake(L *lua.LState) int {
	vm.mutable(L)
	L.Push(luaInt(vm.ctx.Take(vm.site(L, 1))))
	return 1
}

func (vm *Machine) apiOwner(L *lua.LState) int {
	s := vm.state(L)
	L.Push(luaInt(int(s.Cells[vm.def.Layout.Owners+vm.site(L, 1)])))
	return 1
}

func (vm *Machine) apiSetOwner(L *lua.LState) int {
	vm.mutable(L)
	i := vm.site(L, 1)
	p := vm.argInt(L, 2)
	if p < 0 || p > vm.dcl.Players {
		L.ArgError(2, fmt.Sprintf("owner %d does not exist (0 for nobody, players 1..%d)", p, vm.dcl.Players))
	}
	vm.ctx.SetOwner(i, p)
	return 0
}

func (vm *Machine) apiCaptured(L *lua.LState) int {
	s := vm.state(L)
	L.Push(luaInt(int(s.Cells[vm.def.Layout.Captured+vm.player(L, 1)-1])))
	return 1
}

// apiCapture moves the counters of a site (all, or n of them) to a player's
// captured total and returns how many moved.
func (vm *Machine) apiCapture(L *lua.LState) int {
	vm.mutable(L)
	i := vm.site(L, 1)
	p := vm.player(L, 2)
	n := -1
	if L.Get(3) != lua.LNil {
		if n = vm.argInt(L, 3); n < 0 {
			L.ArgError(3, fmt.Sprintf("cannot capture %d counters from %s, which holds %d", n, vm.def.Board.SiteName(i), vm.ctx.Count(i)))
		}
	}
	got, err := vm.ctx.Capture(i, p, n)
	vm.check(L, err)
	L.Push(luaInt(got))
	return 1
}

// apiPay moves n counters from a player's captured total onto a site.
func (vm *Machine) apiPay(L *lua.LState) int {
	vm.mutable(L)
	p := vm.player(L, 1)
	i := vm.site(L, 2)
	vm.check(L, vm.ctx.Pay(p, i, vm.argInt(L, 3)))
	return 0
}

func (vm *Machine) apiHand(L *lua.LState) int {
	s := vm.state(L)
	L.Push(luaInt(int(s.Cells[vm.def.Layout.Hand+vm.player(L, 1)-1])))
	return 1
}

func (vm *Machine) apiSetHand(L *lua.LState) int {
	vm.mutable(L)
	p := vm.player(L, 1)
	vm.check(L, vm.ctx.SetHand(p, vm.argInt(L, 2)))
	return 0
}

// apiPlace puts one counter from a player's hand on a site the player then
// owns: dropping a piece.
func (vm *Machine) apiPlace(L *lua.LState) int {
	vm.mutable(L)
	p := vm.player(L, 1)
	vm.check(L, vm.ctx.Place(p, vm.site(L, 2)))
	return 0
}

// apiMovePiece moves everything on one site, counters and owner, to an
// empty site.
func (vm *Machine) apiMovePiece(L *lua.LState) int {
	vm.mutable(L)
	from, to := vm.site(L, 1), vm.site(L, 2)
	vm.check(L, vm.ctx.MovePiece(from, to))
	return 0
}

func (vm *Machine) apiToMove(L *lua.LState) int {
	L.Push(luaInt(vm.toMove(vm.state(L))))
	return 1
}

func (vm *Machine) apiSetToMove(L *lua.LState) int {
	vm.mutable(L)
	vm.ctx.SetToMove(vm.player(L, 1))
	return 0
}

func (vm *Machine) apiPly(L *lua.LState) int {
	L.Push(luaInt(vm.state(L).Ply))
	return 1
}

func (vm *Machine) varCell(L *lua.LState, n int) int {
	return vm.def.Vars[vm.handleArg(L, n, varSlot)].Cell
}

func (vm *Machine) apiGet(L *lua.LState) int {
	s := vm.state(L)
	L.Push(luaInt(int(s.Cells[vm.varCell(L, 1)])))
	return 1
}

func (vm *Machine) apiSet(L *lua.LState) int {
	s := vm.mutable(L)
	c := vm.varCell(L, 1)
	v := vm.argInt(L, 2)
	if v < math.MinInt32 || v > math.MaxInt32 {
		L.ArgError(2, "value out of range")
	}
	s.Cells[c] = int32(v)
	return 0
}
