package host

import (
	"fmt"

	"github.com/matombo/matombo/host/kernel"
	"github.com/matombo/matombo/host/luavm"
)

// ErrScriptNeeded is returned by SetBare and PlayBare when the position or
// the move needs a script function (the script's result, blocked or
// repeated function, a Lua function standing in a rule part's slot, a
// legal or play written in Lua): they stop before calling it, and the
// caller takes the full path (SetPositionValues, ApplyToUnlisted) for that
// position.
var ErrScriptNeeded = luavm.ErrScriptNeeded

// A Bare is a position set up from its values with SetBare, with its
// legal moves listed, or the position PlayBare makes from one of them:
// for a builder that values every position of some kind once (an endgame
// database), each with its moves played once and nothing played after
// them. It is what SetPositionValues and ApplyToUnlisted make, values,
// player to move, ply and result alike, without what a game needs to go
// on (a history and a key for the repetition rule, a copy to undo a failed
// move), so its moves cost about what the game's rule parts cost. A
// position PlayBare made is not listed: no move is played from it. Make
// one with Game.NewBare; like a Runner, a Bare is used by one goroutine at
// a time.
type Bare struct {
	g      *Game
	k      kernel.State
	listed bool // set up by SetBare: its moves are listed

	// The values SetBare last checked, whose counters total total, when
	// checked: the next set-up checks only the values that differ.
	vals    []int32
	total   int
	checked bool
}

// NewBare returns a bare position of g, holding none until SetBare sets
// one up.
func (g *Game) NewBare() *Bare {
	return &Bare{g: g, k: kernel.State{Cells: make([]int32, g.def.Layout.Size)}, vals: make([]int32, g.def.Layout.KeyLen)}
}

// Moves is the number of legal moves of a position SetBare set up (0 for
// one PlayBare made, whose moves are not listed).
func (b *Bare) Moves() int {
	if !b.listed {
		return 0
	}
	return len(b.k.Moves)
}

// ToMove is the player to move (0 for a Bare that holds no position).
func (b *Bare) ToMove() int {
	if b.g == nil {
		return 0
	}
	return int(b.k.Cells[b.g.def.Layout.ToMove])
}

// Over reports whether the move that made the position ended the game.
func (b *Bare) Over() bool { return b.k.Result.Over }

// PositionView returns a view of the position's values (no values for a
// Bare not made by NewBare).
func (b *Bare) PositionView() PositionView {
	if b.g == nil {
		return PositionView{}
	}
	n := b.g.def.Layout.KeyLen
	return PositionView{cells: b.k.Cells[:n:n]}
}

// PlaysBare reports whether SetBare can set up any position of the game:
// false when its legal or play is written in Lua, it has a result
// function, or its repeated function counts a first occurrence.
func (r *Runner) PlaysBare() bool {
	vm, err := r.machine()
	return err == nil && vm.BareReady()
}

// SetBare sets up the position of vals (AppendPositionValues) in dst, as
// SetPositionValues does, checked as it checks them, and lists its legal
// moves. It returns ErrScriptNeeded when that needs a script function:
// always when the script has a result or repeated function or its legal
// or play is written in Lua, and when the position has no legal move (the
// blocked function decides). On error dst holds no position.
func (r *Runner) SetBare(dst *Bare, vals []int) error {
	dst.listed = false
	if dst.g != r.g {
		return fmt.Errorf("host: a bare position of another game (or not made by Game.NewBare) given to a runner of %s", r.g.name)
	}
	vm, err := r.machine()
	if err != nil {
		return err
	}
	if !vm.BareReady() {
		return ErrScriptNeeded // before any work: the caller may try every position
	}
	if err := dst.setValues(vals); err != nil {
		return err
	}
	copy(dst.k.Cells, dst.vals)
	if err := vm.SetBare(&dst.k); err != nil {
		return err
	}
	dst.listed = true
	return nil
}

// PlayBare makes dst the position src's i-th legal move leads to, src
// unchanged: what ApplyToUnlisted makes of the state SetPositionValues set
// up, its values, player to move, ply and result, the game over or not.
// It returns ErrScriptNeeded when the move needs a script function (see
// SetBare). On error dst holds no position.
func (r *Runner) PlayBare(dst, src *Bare, i int) error {
	dst.listed = false
	switch {
	case dst == src:
		return fmt.Errorf("host: PlayBare needs two bare positions")
	case dst.g != r.g || src.g != r.g:
		return fmt.Errorf("host: a bare position of another game given to a runner of %s", r.g.name)
	case !src.listed:
		return fmt.Errorf("host: PlayBare from a position SetBare did not set up")
	case uint(i) >= uint(len(src.k.Moves)):
		return &IllegalMoveError{Reason: fmt.Sprintf("no legal move %d: the position lists %d", i, len(src.k.Moves))}
	}
	vm, err := r.machine()
	if err != nil {
		return err
	}
	return vm.StepBare(&dst.k, &src.k, src.k.Moves[i])
}

// setValues makes vals the bare position's checked values. A builder sets
// up one position after another that differ in a few counts: when the
// last set-up's values were checked, only the values that differ are
// converted and checked (changeCells); else, or when one of them is out of
// range, all are, as SetPositionValues checks them, for its error.
func (b *Bare) setValues(vals []int) error {
	g := b.g
	if b.checked && g.changeCells(b.vals, &b.total, vals) {
		return nil
	}
	b.checked = false
	if err := g.valueCells(b.vals, vals); err != nil {
		return err
	}
	b.total, b.checked = g.def.Layout.Total(b.vals), true
	return nil
}
