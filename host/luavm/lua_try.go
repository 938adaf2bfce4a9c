package luavm

import (
	"errors"

	"github.com/matombo/matombo/host/kernel"
	lua "github.com/yuin/gopher-lua"
)

// Trying a move on a scratch copy of the state: matombo.try(fn, ...) calls
// fn(...) with the state free to change, then puts the state back exactly as
// it was and returns what fn returned. Rules whose legality depends on
// playing a move out ("a move that never ends is illegal", "take the largest
// capture") call the script's own play code inside legal this way.

// maxTryDepth bounds how deeply tries nest: each level keeps a copy of the
// state.
const maxTryDepth = 8

// trySaved is what a try restores.
type trySaved struct {
	cells     []int32
	ply       int
	result    kernel.Result
	key       uint64
	keyValid  bool
	vmKey     uint64
	toMoveSet bool
	emitting  bool
	irrev     bool
	moves     int
	effects   int  // effects recorded before the try (see effect.go)
	full      bool // whether the recording was full then
}

// apiTry: try(fn, ...) calls fn(...) on a scratch copy of the state and
// returns fn's results; the state is then as it was before, and the ply
// being recorded keeps none of fn's effects. Inside fn the
// primitives may change the state, even when the caller is legal, evaluate
// or result, but may not emit moves. The copy is charged to the step
// budget (a step per eight cells), fn's work as any Lua code. An error in
// fn restores the state and is raised again.
func (vm *Machine) apiTry(L *lua.LState) int {
	s := vm.state(L)
	L.CheckFunction(1)
	if vm.tryDepth >= maxTryDepth {
		L.RaiseError("try: tries nest at most %d deep", maxTryDepth)
	}
	vm.charge(L, len(s.Cells)/8+1)
	for len(vm.trySaves) <= vm.tryDepth {
		vm.trySaves = append(vm.trySaves, trySaved{})
	}
	v := &vm.trySaves[vm.tryDepth]
	v.cells = append(v.cells[:0], s.Cells...)
	v.ply, v.result = s.Ply, s.Result
	v.key, v.keyValid, v.vmKey, v.toMoveSet = s.Key, vm.keyValid, vm.key, vm.ctx.ToMoveSet
	v.emitting, v.irrev, v.moves = vm.emitting, vm.ctx.Irreversible, len(s.Moves)
	if vm.ctx.Rec != nil {
		v.effects, v.full = vm.ctx.Rec.Mark()
	}
	vm.tryDepth++
	vm.emitting = false
	err := vm.protect(L, L.GetTop()-1)
	vm.tryDepth--
	v = &vm.trySaves[vm.tryDepth]
	s.Cells = append(s.Cells[:0], v.cells...)
	sites := s.Result.Sites
	s.Ply, s.Result = v.ply, v.result
	s.Result.Sites = sites
	s.Key, vm.keyValid, vm.key, vm.ctx.ToMoveSet = v.key, v.keyValid, v.vmKey, v.toMoveSet
	vm.emitting, vm.ctx.Irreversible = v.emitting, v.irrev
	s.Moves = s.Moves[:v.moves]
	if vm.ctx.Rec != nil { // a tried move leaves no effects
		vm.ctx.Rec.Rewind(v.effects, v.full)
	}
	if err != nil {
		var apiErr *lua.ApiError
		if errors.As(err, &apiErr) && apiErr.Object != nil {
			L.Error(apiErr.Object, 0)
		}
		L.RaiseError("%s", err.Error())
	}
	return L.GetTop()
}
