package luavm

import (
	"fmt"

	lua "github.com/yuin/gopher-lua"
)

// Primitives that read the board.

// ---- the board ----

func (vm *Machine) apiSite(L *lua.LState) int {
	vm.pushSite(L, vm.site(L, 1))
	return 1
}

func (vm *Machine) apiName(L *lua.LState) int {
	i := vm.site(L, 1)
	if vm.strs.names != nil {
		L.Push(vm.strs.names[i])
	} else {
		L.Push(lua.LString(vm.def.Board.Site(i).Name))
	}
	return 1
}

func (vm *Machine) apiRow(L *lua.LState) int {
	L.Push(luaInt(vm.board(L).Site(vm.site(L, 1)).Row + 1))
	return 1
}

func (vm *Machine) apiCol(L *lua.LState) int {
	L.Push(luaInt(vm.board(L).Site(vm.site(L, 1)).Col))
	return 1
}

func (vm *Machine) apiSize(L *lua.LState) int {
	L.Push(luaInt(vm.board(L).NumSites()))
	return 1
}

func (vm *Machine) apiHasTag(L *lua.LState) int {
	s := vm.site(L, 1)
	if L.Get(2) == lua.LNil {
		L.ArgError(2, "tag expected")
	}
	pushBool(L, vm.def.Board.TagMask(s)&vm.tagMask(L, 2) != 0)
	return 1
}

func (vm *Machine) apiNext(L *lua.LState) int {
	t := vm.track(L, 1)
	s := vm.site(L, 2)
	vm.pushSite(L, t.Step(s, vm.optInt(L, 3, 1)))
	return 1
}

func (vm *Machine) apiPrev(L *lua.LState) int {
	t := vm.track(L, 1)
	s := vm.site(L, 2)
	vm.pushSite(L, t.Step(s, -vm.optInt(L, 3, 1)))
	return 1
}

func (vm *Machine) apiOnTrack(L *lua.LState) int {
	t := vm.track(L, 1)
	pushBool(L, t.Pos(vm.site(L, 2)) >= 0)
	return 1
}

func (vm *Machine) apiOpposite(L *lua.LState) int {
	b := vm.board(L)
	s := vm.site(L, 1)
	r := vm.argInt(L, 2)
	if r < 1 || r > b.NumRows() {
		L.ArgError(2, fmt.Sprintf("row %d does not exist (rows are 1..%d)", r, b.NumRows()))
	}
	vm.pushSite(L, b.At(r-1, b.Site(s).Col))
	return 1
}

// chargeBuilt charges the tables a primitive makes for the script, before
// it makes them: a step per value they hold and builtTableSteps per table.
// Their making costs Go what a Lua loop that built them would cost, which
// the loop would pay in instructions: m.sites over 4,093 sites, m.lines of
// 20,000 lines or m.jumps of a site with 20,000 jumps, each in a loop,
// ran into the time guard when only the sites visited were charged.
func (vm *Machine) chargeBuilt(L *lua.LState, values, tables int) {
	vm.charge(L, 1+values+tables*builtTableSteps)
}

// builtTableSteps is the charge for a table a primitive makes, besides its
// values: its allocation and its fields' (as a Lua constructor's).
const builtTableSteps = 4

func (vm *Machine) apiAdjacent(L *lua.LState) int {
	s := vm.site(L, 1)
	neighbours := vm.def.Board.Neighbours(s)
	vm.chargeBuilt(L, len(neighbours), 1)
	t := L.NewTable()
	for _, a := range neighbours {
		t.Append(luaInt(int(a) + 1))
	}
	L.Push(t)
	return 1
}

func (vm *Machine) apiJumps(L *lua.LState) int {
	s := vm.site(L, 1)
	jumps := vm.def.Board.JumpsFrom(s)
	vm.chargeBuilt(L, 3*len(jumps), 1+len(jumps))
	t := L.NewTable()
	for _, j := range jumps {
		p := L.NewTable()
		p.RawSetString("over", luaInt(int(j.Over)+1))
		p.RawSetString("to", luaInt(int(j.To)+1))
		t.Append(p)
	}
	L.Push(t)
	return 1
}

func (vm *Machine) apiLines(L *lua.LState) int {
	b := vm.board(L)
	s := vm.optSite(L, 1)
	out := L.NewTable()
	add := func(li int32) {
		vm.chargeBuilt(L, len(b.Line(int(li))), 1)
		t := L.NewTable()
		for _, x := range b.Line(int(li)) {
			t.Append(luaInt(int(x) + 1))
		}
		out.Append(t)
	}
	if s < 0 {
		for i := range b.NumLines() {
			add(int32(i))
		}
	} else {
		for _, li := range b.LinesAt(s) {
			add(li)
		}
	}
	L.Push(out)
	return 1
}

func (vm *Machine) apiPlayers(L *lua.LState) int {
	L.Push(luaInt(vm.dcl.Players))
	return 1
}

func (vm *Machine) apiNextPlayer(L *lua.LState) int {
	L.Push(luaInt(vm.player(L, 1)%vm.dcl.Players + 1))
	return 1
}
