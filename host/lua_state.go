package host

import (
	"fmt"
	"math"

	lua "github.com/yuin/gopher-lua"
)

// Primitives that read and change the state.

// ---- the state ----

func (vm *machine) apiCount(L *lua.LState) int {
	s := vm.state(L)
	L.Push(luaInt(int(s.cells[vm.site(L, 1)])))
	return 1
}

// checkCount raises an error for a count the state cannot hold.
func checkCount(L *lua.LState, what string, n int) int32 {
	if n < 0 || n > maxCount {
		countError(L, what, n)
	}
	return int32(n)
}

// checkSiteCount is checkCount for the count of site i; it builds no
// message unless there is an error.
func (vm *machine) checkSiteCount(L *lua.LState, i, n int) int32 {
	if n < 0 || n > maxCount {
		countError(L, "the count of "+vm.dcl.board.sites[i].Name, n)
	}
	return int32(n)
}

func countError(L *lua.LState, what string, n int) {
	if n < 0 {
		L.RaiseError("%s would become %d: counts cannot be negative", what, n)
	}
	L.RaiseError("%s would become %d: too large (at most %d)", what, n, maxCount)
}

func (vm *machine) apiSetCount(L *lua.LState) int {
	s := vm.mutable(L)
	i := vm.site(L, 1)
	n := vm.checkSiteCount(L, i, vm.argInt(L, 2))
	if vm.rec != nil && n != s.cells[i] {
		vm.recordSite(EffectSet, i, int(n))
	}
	s.cells[i] = n
	vm.emptied(s, i)
	return 0
}

func (vm *machine) apiAdd(L *lua.LState) int {
	s := vm.mutable(L)
	i := vm.site(L, 1)
	n := vm.checkSiteCount(L, i, int(s.cells[i])+vm.argInt(L, 2))
	if vm.rec != nil {
		vm.recordAdd(i, int(n-s.cells[i]))
	}
	s.cells[i] = n
	vm.emptied(s, i)
	L.Push(luaInt(int(n)))
	return 1
}

func (vm *machine) apiTake(L *lua.LState) int {
	s := vm.mutable(L)
	i := vm.site(L, 1)
	n := s.cells[i]
	s.cells[i] = 0
	if n != 0 {
		vm.recordSite(EffectTake, i, int(n))
	}
	vm.emptied(s, i)
	L.Push(luaInt(int(n)))
	return 1
}

func (vm *machine) apiOwner(L *lua.LState) int {
	s := vm.state(L)
	L.Push(luaInt(int(s.cells[vm.g.lay.owners+vm.site(L, 1)])))
	return 1
}

func (vm *machine) apiSetOwner(L *lua.LState) int {
	s := vm.mutable(L)
	i := vm.site(L, 1)
	p := vm.argInt(L, 2)
	if p < 0 || p > vm.dcl.players {
		L.ArgError(2, fmt.Sprintf("owner %d does not exist (0 for nobody, players 1..%d)", p, vm.dcl.players))
	}
	if o := &s.cells[vm.g.lay.owners+i]; *o != int32(p) {
		*o = int32(p)
		vm.record(Effect{Kind: EffectOwner, Site: i, To: -1, Player: p})
	}
	return 0
}

func (vm *machine) apiCaptured(L *lua.LState) int {
	s := vm.state(L)
	L.Push(luaInt(int(s.cells[vm.g.lay.captured+vm.player(L, 1)-1])))
	return 1
}

// apiCapture moves the counters of a site (all, or n of them) to a player's
// captured total and returns how many moved.
func (vm *machine) apiCapture(L *lua.LState) int {
	s := vm.mutable(L)
	i := vm.site(L, 1)
	p := vm.player(L, 2)
	n := int(s.cells[i])
	if L.Get(3) != lua.LNil {
		k := vm.argInt(L, 3)
		if k < 0 || k > n {
			L.ArgError(3, fmt.Sprintf("cannot capture %d counters from %s, which holds %d", k, vm.dcl.board.sites[i].Name, n))
		}
		n = k
	}
	s.cells[i] -= int32(n)
	c := &s.cells[vm.g.lay.captured+p-1]
	*c = checkCount(L, "a captured total", int(*c)+n)
	if n != 0 {
		vm.record(Effect{Kind: EffectCapture, Site: i, To: -1, Player: p, Count: n})
	}
	vm.emptied(s, i)
	L.Push(luaInt(n))
	return 1
}

// apiPay moves n counters from a player's captured total onto a site.
func (vm *machine) apiPay(L *lua.LState) int {
	s := vm.mutable(L)
	p := vm.player(L, 1)
	i := vm.site(L, 2)
	n := vm.argInt(L, 3)
	c := &s.cells[vm.g.lay.captured+p-1]
	if n < 0 || int(*c) < n {
		L.ArgError(3, fmt.Sprintf("player %d cannot pay %d counters with %d captured", p, n, *c))
	}
	*c -= int32(n)
	s.cells[i] = vm.checkSiteCount(L, i, int(s.cells[i])+n)
	if n != 0 && vm.rec != nil {
		vm.recordPlayer(EffectCaptured, p, int(*c))
		vm.recordSite(EffectDrop, i, n)
	}
	return 0
}

func (vm *machine) apiHand(L *lua.LState) int {
	s := vm.state(L)
	L.Push(luaInt(int(s.cells[vm.g.lay.hand+vm.player(L, 1)-1])))
	return 1
}

func (vm *machine) apiSetHand(L *lua.LState) int {
	s := vm.mutable(L)
	p := vm.player(L, 1)
	h := &s.cells[vm.g.lay.hand+p-1]
	n := checkCount(L, "a hand", vm.argInt(L, 2))
	if n != *h {
		*h = n
		vm.recordPlayer(EffectHand, p, int(n))
	}
	return 0
}

// apiPlace puts one counter from a player's hand on a site the player then
// owns: dropping a piece.
func (vm *machine) apiPlace(L *lua.LState) int {
	s := vm.mutable(L)
	p := vm.player(L, 1)
	i := vm.site(L, 2)
	h := &s.cells[vm.g.lay.hand+p-1]
	if *h < 1 {
		L.RaiseError("player %d has nothing in hand to place on %s", p, vm.dcl.board.sites[i].Name)
	}
	*h--
	s.cells[i] = vm.checkSiteCount(L, i, int(s.cells[i])+1)
	s.cells[vm.g.lay.owners+i] = int32(p)
	vm.record(Effect{Kind: EffectPlace, Site: i, To: -1, Player: p})
	return 0
}

// apiMovePiece moves everything on one site, counters and owner, to an
// empty site.
func (vm *machine) apiMovePiece(L *lua.LState) int {
	s := vm.mutable(L)
	from, to := vm.site(L, 1), vm.site(L, 2)
	o := vm.g.lay.owners
	if s.cells[to] != 0 || s.cells[o+to] != 0 {
		L.RaiseError("move_piece: %s is not empty", vm.dcl.board.sites[to].Name)
	}
	if s.cells[from] == 0 && s.cells[o+from] == 0 {
		L.RaiseError("move_piece: %s is empty: there is nothing to move", vm.dcl.board.sites[from].Name)
	}
	s.cells[to], s.cells[from] = s.cells[from], 0
	s.cells[o+to], s.cells[o+from] = s.cells[o+from], 0
	vm.record(Effect{Kind: EffectMove, Site: from, To: to})
	return 0
}

func (vm *machine) apiToMove(L *lua.LState) int {
	L.Push(luaInt(vm.state(L).ToMove()))
	return 1
}

func (vm *machine) apiSetToMove(L *lua.LState) int {
	s := vm.mutable(L)
	s.cells[vm.g.lay.toMove] = int32(vm.player(L, 1))
	vm.toMoveSet = true
	return 0
}

func (vm *machine) apiPly(L *lua.LState) int {
	L.Push(luaInt(vm.state(L).ply))
	return 1
}

func (vm *machine) varCell(L *lua.LState, n int) int {
	v := vm.argInt(L, n)
	if v < 1 || v > len(vm.dcl.vars) {
		L.ArgError(n, fmt.Sprintf("variable %d does not exist (declare variables with matombo.var)", v))
	}
	return vm.g.vars[v-1].cell
}

func (vm *machine) apiGet(L *lua.LState) int {
	s := vm.state(L)
	L.Push(luaInt(int(s.cells[vm.varCell(L, 1)])))
	return 1
}

func (vm *machine) apiSet(L *lua.LState) int {
	s := vm.mutable(L)
	c := vm.varCell(L, 1)
	v := vm.argInt(L, 2)
	if v < math.MinInt32 || v > math.MaxInt32 {
		L.ArgError(2, "value out of range")
	}
	s.cells[c] = int32(v)
	return 0
}

// emptied clears the owner of site i when i holds nothing and the board is
// a board of pieces: there an empty point has count 0 and owner 0, so a
// point that take, capture, capture_run, sweep, set_count or add empties
// reads as empty (docs/lua-api.md). On a board of counts an owner is the
// side a hole belongs to, and stays.
func (vm *machine) emptied(s *State, i int) {
	if o := &s.cells[vm.g.lay.owners+i]; s.cells[i] == 0 && *o != 0 && vm.dcl.board.style == Pieces {
		*o = 0
		vm.record(Effect{Kind: EffectOwner, Site: i, To: -1, Player: 0})
	}
}
