package luavm

import "github.com/matombo/matombo/host/kernel"

// StartRecording makes the machine record the effects of the ply it
// applies next into its own buffer.
func (vm *Machine) StartRecording() {
	vm.recBuf.Reset()
	vm.ctx.Rec = &vm.recBuf
}

// finishRecording ends the recording of a ply that succeeded on s: a
// list that overflowed is completed with the values that still differ
// from the state before the ply (vm.saved), the turn is added, and s gets
// its own copy of the list.
func (vm *Machine) finishRecording(s *kernel.State) {
	r := vm.ctx.Rec
	vm.ctx.Rec = nil
	if r == nil {
		return
	}
	list := r.List()
	if r.Full() {
		list = vm.summarize(s, list)
	}
	if !s.Result.Over {
		list = append(list, kernel.Effect{Kind: kernel.EffectTurn, Site: -1, To: -1, Player: vm.toMove(s)})
	}
	r.SetList(list)
	s.Effects = kernel.NewEffectList(list)
}

// summarize appends to a full list the effects that lead from the state
// before the ply with the list applied to s: a new count, owner, captured
// total or hand wherever one still differs.
func (vm *Machine) summarize(s *kernel.State, list []kernel.Effect) []kernel.Effect {
	lay := &vm.def.Layout
	pos := kernel.PositionOf(lay, vm.saved.cells)
	if err := pos.ApplyEffects(list); err != nil {
		// The recorded effects are what the primitives did, so they
		// apply; should one not, the summary starts from scratch.
		pos = kernel.PositionOf(lay, vm.saved.cells)
		list = list[:0]
	}
	for i := 0; i < lay.Sites; i++ {
		if o := int(s.Cells[lay.Owners+i]); pos.Owners[i] != o {
			list = append(list, kernel.Effect{Kind: kernel.EffectOwner, Site: i, To: -1, Player: o})
		}
		if c := int(s.Cells[i]); pos.Counts[i] != c {
			list = append(list, kernel.Effect{Kind: kernel.EffectSet, Site: i, To: -1, Count: c})
		}
	}
	for p := 0; p < lay.Players; p++ {
		if c := int(s.Cells[lay.Captured+p]); pos.Captured[p] != c {
			list = append(list, kernel.Effect{Kind: kernel.EffectCaptured, Site: -1, To: -1, Player: p + 1, Count: c})
		}
		if h := int(s.Cells[lay.Hand+p]); pos.Hand[p] != h {
			list = append(list, kernel.Effect{Kind: kernel.EffectHand, Site: -1, To: -1, Player: p + 1, Count: h})
		}
	}
	return list
}
