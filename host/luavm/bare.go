package luavm

import (
	"errors"
	"slices"

	"github.com/matombo/matombo/host/diag"
	"github.com/matombo/matombo/host/kernel"
)

// Bare positions: a builder that values every position of some kind one
// by one (an endgame database) sets each up from its cells and plays each
// of its moves once. The full path (SetCells, ApplyFromUnlisted) keeps for
// each what a game needs to go on: a history and a key for the
// repetition rule, a copy to undo a failed move. A bare position keeps
// none of them: its cells, its ply, its result and its legal moves are
// those the full path makes, at the cost of the rule parts alone, as long
// as no script function has a say. When one would (the script's result,
// blocked or repeated function, a Lua function in a part's slot, a legal
// or play written in Lua), the bare call stops with ErrScriptNeeded
// before calling it and the caller takes the full path for that position.

// ErrScriptNeeded says that a bare call stopped where the full path would
// call a script function.
var ErrScriptNeeded = errors.New("a script function has a say")

// BareReady reports whether the game's turn can be played bare at all:
// its legal and play are native parts, it has no result function, it
// records nothing, and a repeated function it has needs a position to
// occur at least twice (a bare position's move makes the second
// occurrence at most: its history is the position it was set up from).
func (vm *Machine) BareReady() bool {
	return vm.natPlay != nil && vm.natLegal != nil && vm.fnResult == nil && vm.ctx.Rec == nil &&
		(vm.fnRepeated == nil || vm.g.Decl.Repetition >= 2)
}

// repeats reports whether the repeated function may have a say on dst,
// the position a move made from src: the script counts a second
// occurrence as a repetition and the move changed nothing.
func (vm *Machine) repeats(dst, src *kernel.State) bool {
	if vm.fnRepeated == nil || vm.g.Decl.Repetition > 2 || dst.Result.Over {
		return false
	}
	n := vm.def.Layout.KeyLen
	return slices.Equal(dst.Cells[:n], src.Cells[:n])
}

// SetBare makes s the position whose key cells are those s holds (the
// rest zero), as SetCells would, and lists its legal moves, without a
// history or a key: s.Hist and s.Key are left as they are and mean
// nothing. It returns ErrScriptNeeded when setting it up needs a script
// function: BareReady is false, a part calls a Lua function, or the
// position has no legal move or is over once listed (the blocked
// function, or a part that ends it). Any other error is the full path's.
func (vm *Machine) SetBare(s *kernel.State) error {
	if !vm.BareReady() {
		return ErrScriptNeeded
	}
	freshPosition(s, &vm.def.Layout)
	s.KeyStale = true
	vm.bind(s)
	vm.bare, vm.stopped = true, false
	err := vm.settle(s)
	if vm.stopped {
		err = ErrScriptNeeded
	}
	vm.bare = false
	vm.bind(nil)
	if err == nil && s.Result.Over {
		err = ErrScriptNeeded // a part ended the game while listing
	}
	return err
}

// StepBare makes dst the position legal move m of src (a position SetBare
// set up) leads to, as ApplyFromUnlisted would, src unchanged: dst's
// cells, ply and result are the full path's, its legal moves are not
// listed (dst.Unlisted, unless the game is over) and it has no history or
// key. It returns ErrScriptNeeded when the move needs a script function
// (see SetBare), or when src has counted the most plies a state may (the
// full path's error says so).
func (vm *Machine) StepBare(dst, src *kernel.State, m kernel.Move) error {
	if !vm.BareReady() || src.Ply >= kernel.MaxPly {
		return ErrScriptNeeded
	}
	dst.Cells = append(dst.Cells[:0], src.Cells...)
	dst.Ply, dst.Key, dst.KeyStale = src.Ply, 0, true
	if !src.Result.IsZero() || !dst.Result.IsZero() {
		dst.Result = src.Result
	}
	dst.Moves = dst.Moves[:0]
	vm.beginMove()
	vm.bind(dst)
	p := vm.beginPly(dst)
	vm.bare, vm.stopped = true, false
	err := vm.runTurn(diag.CallPlay, p, m)
	if vm.stopped {
		err = ErrScriptNeeded
	}
	vm.bare, vm.playing = false, false
	vm.bind(nil)
	if err == nil && vm.repeats(dst, src) {
		err = ErrScriptNeeded
	}
	dst.Unlisted = err == nil && !dst.Result.Over
	return err
}
