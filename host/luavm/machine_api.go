package luavm

import (
	"github.com/matombo/matombo/host/internal/watchdog"
	"github.com/matombo/matombo/host/kernel"
)

// The machine's calls for the host: each runs the script (or its parts) on
// a state of the program's game under the budgets.

// Setup runs the script's setup on a blank state and settles it.
func (vm *Machine) Setup(s *kernel.State) error { return vm.setup(s) }

// Start settles a state built from a position: the script's result
// function, when it has one, says whether the position is decided;
// otherwise the script lists the legal moves.
func (vm *Machine) Start(s *kernel.State) error { return vm.start(s) }

// Apply plays legal move m on s; on any error s is as it was. The move's
// effects are recorded when StartRecording was called before.
func (vm *Machine) Apply(s *kernel.State, m kernel.Move) error { return vm.apply(s, m) }

// ApplyFrom makes dst the state src becomes after legal move m (legal in
// src), leaving src unchanged: a copy and Apply in one step that keeps no
// copy to undo a failed move and copies no legal list. On error dst is a
// copy of src. dst and src must be different states; the move's effects
// are not recorded (use Apply for that).
func (vm *Machine) ApplyFrom(dst, src *kernel.State, m kernel.Move) error {
	return vm.applyFrom(dst, src, m)
}

// ApplyFromUnlisted is ApplyFrom without listing the legal moves of dst's
// next decision: dst.Unlisted is set, unless the game ended, and List
// lists them. Listing them may still end the game (the script's blocked
// function, when there are none); a move that reaches a position for the
// repetition rule's time is listed at once.
func (vm *Machine) ApplyFromUnlisted(dst, src *kernel.State, m kernel.Move) error {
	vm.unlisted = true
	err := vm.applyFrom(dst, src, m)
	vm.unlisted = false
	return err
}

// List lists the legal moves of s when ApplyFromUnlisted left them
// unlisted (s.Unlisted), as ApplyFrom would have, ending the game when the
// script's blocked function does; on error s is as it was.
func (vm *Machine) List(s *kernel.State) error { return vm.list(s) }

// Evaluate runs the script's evaluate function on s for player p; ok is
// false when the script has none.
func (vm *Machine) Evaluate(s *kernel.State, p int) (score float64, ok bool, err error) {
	if vm.fnEvaluate == nil {
		return 0, false, nil
	}
	score, err = vm.evaluate(s, p)
	return score, err == nil, err
}

// Score runs the script's score function on s and appends one whole
// number per player to dst.
func (vm *Machine) Score(s *kernel.State, dst []int) ([]int, error) { return vm.score(s, dst) }

// SetCells makes dst the state of the position cells (its key cells, see
// kernel.Layout), with a fresh history, and settles it as Start does; on
// error dst is as it was.
func (vm *Machine) SetCells(dst *kernel.State, cells []int32) error {
	lay := &vm.def.Layout
	vm.save(dst)
	vm.savedHist.CopyFrom(&dst.Hist)
	stale := dst.KeyStale
	copy(dst.Cells, cells)
	freshPosition(dst, lay)
	if err := vm.start(dst); err != nil {
		vm.restore(dst)
		dst.Hist.CopyFrom(&vm.savedHist)
		dst.KeyStale = stale
		return err
	}
	vm.done()
	return nil
}

// freshPosition makes s the position its key cells hold, as set up: the
// cells after them zero, no ply, no result, no effects.
func freshPosition(s *kernel.State, lay *kernel.Layout) {
	clear(s.Cells[lay.KeyLen:lay.Size])
	s.Ply = 0
	if !s.Result.IsZero() {
		s.Result = kernel.Result{}
	}
	s.Effects = kernel.NoEffects
}

// CellBuffer returns the machine's buffer for decoding a position's
// cells, empty; a caller hands it back with KeepCellBuffer.
func (vm *Machine) CellBuffer() []int32 { return vm.posBuf[:0] }

// KeepCellBuffer keeps buf as the machine's buffer for the next position.
func (vm *Machine) KeepCellBuffer(buf []int32) { vm.posBuf = buf }

// SetCancel makes the machine's calls stop when cancel is done (nil for
// never).
func (vm *Machine) SetCancel(cancel *watchdog.Cancel) { vm.cancel = cancel }

// ScriptCalls is the number of calls from Go into the script's Lua
// functions this machine made (a rule function, a Lua function in a
// part's slot): it does not grow while the plies played run on native
// parts alone.
func (vm *Machine) ScriptCalls() uint64 { return vm.calls }

// Broken reports whether a call failed: the machine must be released and
// not used again.
func (vm *Machine) Broken() bool { return vm.broken }
