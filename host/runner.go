package host

import (
	"context"
	"fmt"

	"github.com/matombo/matombo/host/internal/watchdog"
	"github.com/matombo/matombo/host/luavm"
)

// Runner plays moves for one goroutine. It keeps one script machine for as
// long as it is open, so a search or analysis loop that applies millions
// of moves pays no pool traffic; State.Apply takes a machine from the
// game's pool for every move instead. A Runner must not be used by several
// goroutines at once; make one per goroutine with Game.NewRunner and Close
// it when done. It works on any state of its game.
type Runner struct {
	g      *Game
	vm     *luavm.Machine
	cancel *watchdog.Cancel
	record bool
	calls  uint64 // the script calls of machines given back, and the count vm had when taken (negated)
}

// SetContext makes the runner's calls stop when ctx is done, as a
// starlark Thread's Cancel does: a script call in progress stops between
// two instructions (within about 10 ms of the context being done; at once
// when it already is), a playout stops before its next move, and every
// call after that returns a *CanceledError, with which errors.Is(err,
// context.Canceled) or errors.Is(err, context.DeadlineExceeded) holds.
// The state being played is left as it was before the stopped move. A nil
// or never-done context (context.Background) removes the limit and costs
// nothing; checking a cancelable one costs a few nanoseconds per call.
func (r *Runner) SetContext(ctx context.Context) {
	r.cancel = watchdog.NewCancel(ctx)
	if r.vm != nil {
		r.vm.SetCancel(r.cancel)
	}
}

// NewRunner returns a runner for states of g.
func (g *Game) NewRunner() *Runner { return &Runner{g: g} }

// Close gives the runner's machine back to the game. A closed runner can be
// used again; it takes a new machine.
func (r *Runner) Close() {
	if r.vm != nil {
		r.calls += r.vm.ScriptCalls()
		r.g.release(r.vm)
		r.vm = nil
	}
}

// ScriptCalls is the number of calls from Go into the script's Lua
// functions the runner made (a rule function such as play or legal, a
// Lua function standing in a native part's slot): 0 while every ply it
// played ran on native parts alone, whatever the script's rules are
// made of otherwise (setup, evaluate).
func (r *Runner) ScriptCalls() uint64 {
	if r.vm != nil {
		return r.calls + r.vm.ScriptCalls()
	}
	return r.calls
}

// machine returns the runner's machine, replacing one a failed call broke.
func (r *Runner) machine() (*luavm.Machine, error) {
	if r.vm != nil && r.vm.Broken() {
		r.calls += r.vm.ScriptCalls()
		r.g.release(r.vm)
		r.vm = nil
	}
	if r.vm == nil {
		vm, err := r.g.machineWith(r.cancel)
		if err != nil {
			return nil, err
		}
		r.vm = vm
		r.calls -= vm.ScriptCalls() // counted from now on
	}
	return r.vm, nil
}

func (r *Runner) check(s *State) error {
	if s.g != r.g {
		return fmt.Errorf("host: a state of %s given to a runner of %s (load the same game once and share it)", s.g.name, r.g.name)
	}
	return nil
}

// Record turns the recording of effects on or off for the moves the
// runner applies from now on (Apply, Play and playouts): with it on, each
// state a move makes keeps the effects of that move (State.Effects). It is
// off for a new runner, and costs nothing then.
func (r *Runner) Record(on bool) { r.record = on }

// Apply plays a legal move on s, as State.Apply does, recording its
// effects when Record is on.
func (r *Runner) Apply(s *State, m Move) error {
	if err := r.check(s); err != nil {
		return err
	}
	if err := r.List(s); err != nil {
		return err
	}
	if !s.isLegal(m) {
		return s.illegal(r.cancel, m)
	}
	vm, err := r.machine()
	if err != nil {
		return err
	}
	if r.record {
		vm.StartRecording()
	}
	return vm.Apply(&s.k, m)
}

// ApplyTo makes dst the state src becomes after the legal move m, leaving
// src unchanged: the same as dst.CopyFrom(src) followed by Apply(dst, m),
// in one step that neither copies src's legal moves nor keeps a copy of
// the state to undo a failed move (src is that copy). A search that plays
// each move of a position on a state of its own saves both copies. On
// error dst is a copy of src. dst may be a zero State; when it is src,
// or when Record is on, ApplyTo copies and applies as said.
func (r *Runner) ApplyTo(dst, src *State, m Move) error {
	if dst == src {
		return r.Apply(src, m)
	}
	if r.record {
		dst.CopyFrom(src)
		return r.Apply(dst, m)
	}
	if err := r.ready(dst, src); err != nil {
		return err
	}
	if !src.isLegal(m) {
		dst.CopyFrom(src)
		return src.illegal(r.cancel, m)
	}
	vm, err := r.machine()
	if err != nil {
		dst.CopyFrom(src)
		return err
	}
	dst.g = src.g
	return vm.ApplyFrom(&dst.k, &src.k, m)
}

// ApplyToUnlisted is ApplyTo of src's i-th legal move (src.Moves()[i],
// legal without looking for it in the list) without listing the legal
// moves of dst's next decision, for a search that looks at many positions
// and goes on from few: dst is then unlisted (Listed is false) until List
// lists them. Its position, key, ply and history are those ApplyTo makes,
// and so is its result when the game is over; an unlisted game goes on
// unless listing its moves ends it (the script's blocked function, when
// there are none). A move that reaches a position for the repetition
// rule's time, and every move when Record is on, is listed at once. In a
// game without a repetition function the move does not compute dst's key
// either: Key computes it when read, without changing dst (concurrent
// reads stay safe), and List or a move played from dst stores it.
// Moves, AppendMoves and Legal panic on an unlisted state; Apply,
// ApplyTo, the playouts, State.Apply, ParseMove, Play, Prompt and
// MarshalJSON list it first. On error dst is a copy of src.
func (r *Runner) ApplyToUnlisted(dst, src *State, i int) error {
	if err := r.ready(dst, src); err != nil {
		return err
	}
	if uint(i) >= uint(len(src.k.Moves)) {
		dst.CopyFrom(src)
		return &IllegalMoveError{Legal: src.Legal(), Reason: fmt.Sprintf("no legal move %d: the position lists %d", i, len(src.k.Moves)), GameOver: src.k.Result.Over}
	}
	m := src.k.Moves[i]
	if dst == src || r.record {
		return r.ApplyTo(dst, src, m)
	}
	vm, err := r.machine()
	if err != nil {
		dst.CopyFrom(src)
		return err
	}
	dst.g = src.g
	return vm.ApplyFromUnlisted(&dst.k, &src.k, m)
}

// List lists the legal moves of s when ApplyToUnlisted left them unlisted,
// as ApplyTo would have: when there are none, the script's blocked
// function ends the game. It does nothing to a listed state. On error s
// is as it was.
func (r *Runner) List(s *State) error {
	if !s.k.Unlisted {
		return nil
	}
	if err := r.check(s); err != nil {
		return err
	}
	vm, err := r.machine()
	if err != nil {
		return err
	}
	return vm.List(&s.k)
}

// ready checks that src is a state of r's game and lists its moves when
// they are not, the first steps of ApplyTo and ApplyToUnlisted; on error
// dst is a copy of src.
func (r *Runner) ready(dst, src *State) error {
	err := r.check(src)
	if err == nil {
		err = r.List(src)
	}
	if err != nil {
		dst.CopyFrom(src)
	}
	return err
}

// Play plays the legal move whose token is tok, as State.Play does.
func (r *Runner) Play(s *State, tok string) error {
	m, err := s.parseMove(r.cancel, tok)
	if err != nil {
		return err
	}
	return r.Apply(s, m)
}

// Playout plays uniformly random legal moves on s until the game ends or
// maxPlies moves have been played (maxPlies <= 0: no limit), and returns
// the number of moves played. On error s is left as it was before the
// failing move.
func (r *Runner) Playout(s *State, rng Rand, maxPlies int) (int, error) {
	return r.playout(s, func(s *State) Move { return s.k.Moves[rng.IntN(len(s.k.Moves))] }, maxPlies, false)
}

// PlayoutWith plays the moves choose picks on s until the game ends or
// maxPlies moves have been played (maxPlies <= 0: no limit), and returns
// the number of moves played. choose is called with s itself, which it must
// not change, and must return one of s.Moves(). On error s is left as it
// was before the failing move.
func (r *Runner) PlayoutWith(s *State, choose func(*State) Move, maxPlies int) (int, error) {
	return r.playout(s, choose, maxPlies, true)
}

// playout plays the moves choose picks; a move picked from s's own list
// (Playout's) needs no legality check.
func (r *Runner) playout(s *State, choose func(*State) Move, maxPlies int, check bool) (int, error) {
	if err := r.check(s); err != nil {
		return 0, err
	}
	if err := r.List(s); err != nil {
		return 0, err
	}
	n := 0
	for !s.k.Result.Over && (maxPlies <= 0 || n < maxPlies) {
		m := choose(s)
		if check && !s.isLegal(m) {
			return n, s.illegal(r.cancel, m)
		}
		vm, err := r.machine()
		if err != nil {
			return n, err
		}
		if r.record {
			vm.StartRecording()
		}
		if err := vm.Apply(&s.k, m); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// Evaluate scores the position of s from player p's side with the
// script's evaluate function. ok is false when the script has none; then
// a caller uses an evaluation of its own. The score's scale is the
// script's; larger is better for p.
func (r *Runner) Evaluate(s *State, p int) (score float64, ok bool, err error) {
	if err := r.check(s); err != nil {
		return 0, false, err
	}
	if p < 1 || p > r.g.players {
		return 0, false, fmt.Errorf("host: evaluate for player %d, but %s has players 1 to %d", p, r.g.name, r.g.players)
	}
	vm, err := r.machine()
	if err != nil {
		return 0, false, err
	}
	return vm.Evaluate(&s.k, p)
}

// HasEvaluate reports whether the script scores positions itself (see
// Runner.Evaluate).
func (g *Game) HasEvaluate() bool { return g.hasEvaluate }

// SetPosition makes dst the state of the position enc, an encoding made by
// State.AppendPosition of a state of the same game, as Game.StateFromPosition
// does, reusing dst's memory. dst must be a state of the runner's game.
// On error dst is unchanged.
func (r *Runner) SetPosition(dst *State, enc []byte) error {
	if err := r.check(dst); err != nil {
		return err
	}
	vm, err := r.machine()
	if err != nil {
		return err
	}
	return r.g.setPosition(vm, dst, enc)
}

// Score appends the players' scores of s to dst, one whole number per
// player (player 1 first), from the script's score function, and returns
// the extended slice. It returns dst unchanged when the script has no
// score (see Game.HasScore). At a finished state the scores are the final
// ones: the margin of a finished two-player game for Player 1 is the first
// score less the second.
func (r *Runner) Score(s *State, dst []int) ([]int, error) {
	if err := r.check(s); err != nil {
		return dst, err
	}
	if r.g.scoreLabel == "" {
		return dst, nil
	}
	vm, err := r.machine()
	if err != nil {
		return dst, err
	}
	return vm.Score(&s.k, dst)
}

// HasScore reports whether the script gives the players' scores (see
// Runner.Score).
func (g *Game) HasScore() bool { return g.scoreLabel != "" }

// ScoreLabel is what the script calls its score (declare's score_label,
// e.g. "seeds"; "score" when it names none), or "" when it has no score.
func (g *Game) ScoreLabel() string { return g.scoreLabel }

// HandLabel is what the players are told a hand holds, written before its
// number (declare's hand_label, e.g. "to place"; "in hand" when it names
// none), or "" when the script keeps its hands to itself (hand_label =
// false: counters the rules keep in hand, such as a supply of crowns,
// that mean nothing to a player).
func (g *Game) HandLabel() string { return g.handLabel }
