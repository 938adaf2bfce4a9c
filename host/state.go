package host

import (
	"context"
	"fmt"

	"github.com/matombo/matombo/host/kernel"

	"github.com/matombo/matombo/host/internal/watchdog"
)

// State is a position of a game together with how it was reached: the
// counts and owners of the sites, captured totals, hands, whose decision is
// next, script variables, the ply count, the result, and the keys of the
// positions seen so far (for repetition rules).
//
// A State always knows its legal moves. It is a plain value: Clone copies it
// cheaply and the copy is independent. A State must not be used by several
// goroutines at once; the Game it belongs to may be.
type State struct {
	g *Game
	k kernel.State // the cells, ply, result, history, key, legal moves and effects
}

// Game returns the game the state belongs to.
func (s *State) Game() *Game { return s.g }

// Ply is the number of decisions made since the opening.
func (s *State) Ply() int { return s.k.Ply }

// ToMove is the player whose decision is next. When the game is over it is
// the player whose decision would have been next.
func (s *State) ToMove() int { return int(s.k.Cells[s.g.def.Layout.ToMove]) }

// Count is the number of counters on site i (0 <= i < NumSites). Like a
// slice index, an index out of range panics, with a message naming it and
// the valid range.
func (s *State) Count(i int) int { return int(s.k.Cells[s.siteIndex("Count", i)]) }

// Owner is the owner of site i, 0 for nobody (0 <= i < NumSites; an index
// out of range panics).
func (s *State) Owner(i int) int {
	return int(s.k.Cells[s.g.def.Layout.Owners+s.siteIndex("Owner", i)])
}

// Captured is player p's captured total (players count from 1; a player
// out of range panics).
func (s *State) Captured(p int) int {
	return int(s.k.Cells[s.g.def.Layout.Captured+s.playerIndex("Captured", p)])
}

// Hand is the number of counters or pieces in player p's hand (players
// count from 1; a player out of range panics).
func (s *State) Hand(p int) int { return int(s.k.Cells[s.g.def.Layout.Hand+s.playerIndex("Hand", p)]) }

// siteIndex checks a site index of an accessor: an index out of range
// would read another field of the state.
func (s *State) siteIndex(fn string, i int) int {
	if uint(i) >= uint(s.g.def.Layout.Sites) {
		panic(fmt.Sprintf("host: State.%s: site index %d out of range [0, %d)", fn, i, s.g.def.Layout.Sites))
	}
	return i
}

// playerIndex checks a player of an accessor and returns p-1.
func (s *State) playerIndex(fn string, p int) int {
	if p < 1 || p > s.g.def.Layout.Players {
		panic(fmt.Sprintf("host: State.%s: player %d out of range [1, %d]", fn, p, s.g.def.Layout.Players))
	}
	return p - 1
}

// Var returns the value of the script variable with the given name.
func (s *State) Var(name string) (int, bool) {
	for _, v := range s.g.def.Vars {
		if v.Name == name {
			return int(s.k.Cells[v.Cell]), true
		}
	}
	return 0, false
}

// Over reports whether the game has ended. A game Runner.ApplyToUnlisted
// left unlisted goes on unless listing its moves ends it (Runner.List).
func (s *State) Over() bool { return s.k.Result.Over }

// Outcome describes how a game ended.
type Outcome struct {
	Over    bool
	Winner  int      // 0 for a draw or while the game goes on
	Method  Method   // by which of the script's rule functions it ended
	Reason  string   // how it ended, in the script's words, e.g. "third repetition"
	Notes   []string // notes the rules attach to the result, e.g. "without glory"
	Sites   []int    // the sites that made the result, when the script names them, e.g. the three on a line (Board.Names names them)
	Players int      // the number of players, for Score
}

// Score is player p's result: 1 for the winner, 0 for the other players, and
// an equal share (1/Players, 0.5 with two players) for everyone in a draw.
// It is 0 for everyone while the game goes on. The scores of a finished game
// add up to 1.
func (o Outcome) Score(p int) float64 {
	switch {
	case !o.Over || p < 1 || p > o.Players:
		return 0
	case o.Winner == 0:
		return 1 / float64(o.Players)
	case o.Winner == p:
		return 1
	default:
		return 0
	}
}

// Outcome returns the result so far.
func (s *State) Outcome() Outcome {
	return Outcome{Over: s.k.Result.Over, Winner: s.k.Result.Winner, Method: s.k.Result.Method, Reason: s.k.Result.Reason,
		Notes: append([]string(nil), s.k.Result.Notes...), Sites: append([]int(nil), s.k.Result.Sites...), Players: s.g.players}
}

// Moves returns the legal moves of the current decision, in the order the
// script listed them. The slice belongs to the state: do not modify it, and
// do not keep it past the next change of the state (it is reused by the
// next Apply, also of another state). Use AppendMoves for a copy to keep.
//
// Concurrent reads of one State (Moves, AppendMoves, Key, Count, Clone,
// CopyFrom as the source, ...) are safe, as long as nothing changes it;
// parallel searches may copy from a shared root.
func (s *State) Moves() []Move { return s.moves() }

// Listed reports whether the legal moves of the current decision are
// listed: they are, except after Runner.ApplyToUnlisted (see there) until
// Runner.List.
func (s *State) Listed() bool { return !s.k.Unlisted }

// moves returns the legal list, which an unlisted state does not have.
func (s *State) moves() []Move {
	if s.k.Unlisted {
		panic("host: the legal moves of a state played by Runner.ApplyToUnlisted are read before Runner.List listed them")
	}
	return s.k.Moves
}

// AppendMoves appends the legal moves of the current decision to dst and
// returns the extended slice, which the caller owns.
func (s *State) AppendMoves(dst []Move) []Move { return append(dst, s.moves()...) }

// Legal returns the legal tokens of the current decision.
func (s *State) Legal() []string {
	out := make([]string, len(s.moves()))
	for i, m := range s.k.Moves {
		out[i] = s.g.Token(m)
	}
	return out
}

// Clone returns an independent copy of the state.
func (s *State) Clone() *State {
	c := &State{}
	c.CopyFrom(s)
	return c
}

// CopyFrom makes s a copy of src, reusing s's memory where it can. It does
// not allocate when s was last a copy of a state of the same game.
func (s *State) CopyFrom(src *State) {
	cells, moves, hist := s.k.Cells, s.k.Moves, s.k.Hist
	*s = *src
	s.k.Cells = append(cells[:0], src.k.Cells...)
	s.k.Moves = append(moves[:0], src.k.Moves...)
	s.k.Hist = hist
	s.k.Hist.CopyFrom(&src.k.Hist)
}

// Key is a 64-bit hash of the position: the counts and owners of the sites,
// the captured totals, the hands, the variables the script declared part of
// the position, and the player to move. It is exactly what the repetition
// rule compares, and it leaves out the ply count, the history, the result
// (a finished state and an unfinished one can share a key) and variables
// outside the position. Equal positions have equal keys; different ones
// collide with a probability of about 2^-64 per pair, so a search that
// cannot afford a collision compares AppendPosition encodings. A search
// that caches results by key must also account for history: see
// Repetitions and Game.Repetition.
func (s *State) Key() uint64 { return s.k.CurrentKey(&s.g.def.Layout) }

// computeKey hashes the position as it is now, also while a script is
// changing it.
func (s *State) computeKey() uint64 { return kernel.HashCells(s.k.Cells[:s.g.def.Layout.KeyLen]) }

// Repetitions is how many times the current position has occurred,
// counting the current occurrence.
func (s *State) Repetitions() int {
	return s.k.Occurrences(s.Key())
}

// Apply plays a legal move. An illegal move or a failing script returns an
// error and leaves the state unchanged.
func (s *State) Apply(m Move) error { return s.apply(nil, m) }

// ApplyContext is Apply, stopped when ctx is done: the script's call
// stops between two instructions with a *CanceledError (see
// Runner.SetContext) and the state is left unchanged.
func (s *State) ApplyContext(ctx context.Context, m Move) error {
	return s.apply(watchdog.NewCancel(ctx), m)
}

func (s *State) apply(cancel *watchdog.Cancel, m Move) error {
	if err := s.list(cancel); err != nil {
		return err
	}
	if !s.isLegal(m) {
		return s.illegal(cancel, m)
	}
	vm, err := s.g.machineWith(cancel)
	if err != nil {
		return err
	}
	err = vm.Apply(&s.k, m)
	s.g.release(vm)
	return err
}

// list lists the legal moves of an unlisted state (see
// Runner.ApplyToUnlisted) with a machine of the game's.
func (s *State) list(cancel *watchdog.Cancel) error {
	if !s.k.Unlisted {
		return nil
	}
	vm, err := s.g.machineWith(cancel)
	if err != nil {
		return err
	}
	err = vm.List(&s.k)
	s.g.release(vm)
	return err
}

func (s *State) isLegal(m Move) bool {
	for _, x := range s.k.Moves {
		if x == m {
			return true
		}
	}
	return false
}

// fits reports whether m has the shape of a move of one of g's kinds: a
// kind g declares, as many sites as the kind names (at most MaxMoveSites)
// and every site on the board. A Move's fields are exported, so a caller
// may make any; only one that fits is described site by site.
func (g *Game) fits(m Move) bool {
	if int(m.Kind) >= len(g.def.Kinds) || int(m.N) > MaxMoveSites {
		return false
	}
	if a := g.def.Kinds[m.Kind].Arity(); a >= 0 && int(m.N) != a {
		return false
	}
	for _, x := range m.Sites[:m.N] {
		if int(x) >= g.def.Board.NumSites() {
			return false
		}
	}
	return true
}

// illegal describes why m is not legal in s; a script asked (a prompt)
// stops when cancel is done.
func (s *State) illegal(cancel *watchdog.Cancel, m Move) error {
	tok, reason := s.g.Token(m), ""
	switch {
	case m.IsZero():
		tok, reason = "", "no move (the zero Move)"
	case s.k.Result.Over:
		reason = "the game is over"
	case m.Game() != s.g.def.Tag:
		reason = "the move belongs to another game, or another variant or parameters of this one"
	case !s.g.fits(m):
		reason = "it is no move of this game's kinds (a Move is made by the game, not by hand)"
	default:
		sites := make([]int, m.N)
		for i := range sites {
			sites[i] = int(m.Sites[i])
		}
		reason = s.whyNot(cancel, int(m.Kind), sites)
	}
	return &IllegalMoveError{Token: tok, Legal: s.Legal(), Reason: reason, GameOver: s.k.Result.Over}
}

// ParseMove returns the legal move whose token is tok (listing the legal
// moves of an unlisted state first, see Runner.ApplyToUnlisted).
func (s *State) ParseMove(tok string) (Move, error) { return s.parseMove(nil, tok) }

// parseMove is ParseMove, its script calls stopped when cancel is done.
func (s *State) parseMove(cancel *watchdog.Cancel, tok string) (Move, error) {
	if err := s.list(cancel); err != nil {
		return Move{}, err
	}
	var buf [64]byte
	for _, m := range s.moves() {
		if int(m.Kind) < len(s.g.def.Kinds) && string(s.g.def.Kinds[m.Kind].AppendToken(buf[:0], s.g.def.Board, m)) == tok {
			return m, nil
		}
	}
	return Move{}, &IllegalMoveError{Token: tok, Legal: s.Legal(), Reason: s.illegalToken(cancel, tok), GameOver: s.k.Result.Over}
}

// Play plays the legal move whose token is tok.
func (s *State) Play(tok string) error {
	m, err := s.ParseMove(tok)
	if err != nil {
		return err
	}
	return s.Apply(m)
}

// PlayContext is Play, stopped when ctx is done (see ApplyContext).
func (s *State) PlayContext(ctx context.Context, tok string) error {
	cancel := watchdog.NewCancel(ctx)
	m, err := s.parseMove(cancel, tok)
	if err != nil {
		return err
	}
	return s.apply(cancel, m)
}

// Score returns the players' scores of s, one whole number per player
// (player 1 first), or nil when the game has no score. See Runner.Score.
func (s *State) Score() ([]int, error) {
	if !s.g.HasScore() {
		return nil, nil
	}
	vm, err := s.g.machine()
	if err != nil {
		return nil, err
	}
	defer s.g.release(vm)
	return vm.Score(&s.k, make([]int, 0, s.g.players))
}
