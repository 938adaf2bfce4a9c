package luavm

import (
	"github.com/matombo/matombo/host/kernel"
	lua "github.com/yuin/gopher-lua"
)

// Repetition counted since an irreversible change: a move that makes every
// earlier position impossible to reach again (a capture that raises a score
// for good, a pawn's move) may say so, and the host then counts repetitions
// from the position that move makes, forgetting the older ones.

// irreversible is what a machine knows about the move it is applying.
type irreversible struct {
	dropped kernel.History // the history forgotten, kept until the move succeeds
	forgot  bool           // dropped holds the history to restore on failure
}

// apiIrreversible: irreversible() declares, inside play, that no position
// before this move can occur again: repetitions count from the position the
// move makes.
func (vm *Machine) apiIrreversible(L *lua.LState) int {
	vm.state(L)
	if !vm.playing {
		L.RaiseError("irreversible can only be called inside play")
	}
	vm.ctx.Irreversible = true
	return 0
}

// beginMove forgets what an earlier move marked.
func (vm *Machine) beginMove() {
	vm.ctx.Irreversible, vm.irrev.forgot = false, false
}

// forgetBefore empties the history of s before the position of a move that
// play marked irreversible, keeping it to restore if the move fails. The
// machine and the state swap histories, so nothing is copied: the state's
// new, emptied one reuses the buffer of the history last forgotten.
func (vm *Machine) forgetBefore(s *kernel.State) {
	if !vm.ctx.Irreversible {
		return
	}
	vm.irrev.dropped, s.Hist = s.Hist, vm.irrev.dropped
	vm.irrev.forgot = true
	s.Hist.Reset()
}

// rememberBefore gives s back the history forgetBefore emptied, when a
// move that was marked irreversible fails after all.
func (vm *Machine) rememberBefore(s *kernel.State) {
	if vm.irrev.forgot {
		vm.irrev.dropped, s.Hist = s.Hist, vm.irrev.dropped
		vm.irrev.forgot = false
	}
}
