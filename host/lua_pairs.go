package host

import lua "github.com/yuin/gopher-lua"

// apiEmitPairs: emit_pairs(kind, from, to) adds a move (a, b) for every site
// a matching the filter from and every other site b matching the filter
// to, a in board order, then b in board order: "any of my pieces to any
// empty point" (flying pieces) in one call. Returns the moves added. It
// does not look for the same moves among those emitted before it.
func (vm *machine) apiEmitPairs(L *lua.LState) int {
	s, k := vm.emitter(L, 2)
	from := vm.filterArg(L, 2)
	to := vm.filterArg(L, 3)
	var buf [64]int32
	dst := buf[:0]
	for _, j := range to.cand {
		if to.matches(s.cells, &vm.g.lay, vm.mover, j) {
			dst = append(dst, j)
		}
	}
	count := 0
	if len(dst) > 0 {
		for _, i := range from.cand {
			if !from.matches(s.cells, &vm.g.lay, vm.mover, i) {
				continue
			}
			// The pairs of one source are charged together: a step for
			// about four moves, as the filters charge for their sites.
			vm.charge(L, len(dst)/4+1)
			m := Move{Kind: uint8(k), N: 2}
			m.Sites[0] = uint16(i)
			for _, j := range dst {
				if j != i {
					m.Sites[1] = uint16(j)
					vm.push(L, s, m)
					count++
				}
			}
		}
	}
	L.Push(luaInt(count))
	return 1
}
