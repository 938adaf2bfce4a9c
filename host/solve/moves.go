package solve

import (
	"context"
	"fmt"

	"github.com/matombo/matombo/host"
)

// MoveValue is one legal move with its value under perfect play.
type MoveValue struct {
	Move  host.Move
	Token string
	Value Value // for the player who makes the move
	Plies int   // plies to the end after the move is made, counting it; -1 for a draw
}

// NotFoundError is returned for a position the solution does not hold: it
// is not reachable from the opening of the solved game.
type NotFoundError struct {
	Game string
	What string // the position, e.g. the token that led to it
}

func (e *NotFoundError) Error() string {
	return fmt.Sprintf("%s: %s is not a position reachable from the opening, so the solution has no value for it", e.Game, e.What)
}

// Moves returns every legal move of s with its value for the player to
// move, in the order the script lists the moves. A move that ends the game
// in s's own history (a third repetition, say) has the value of that end.
func (sol *Solution) Moves(s *host.State) ([]MoveValue, error) {
	if s.Over() {
		return nil, fmt.Errorf("%s: the game is over, there is no move to value", sol.game)
	}
	g := s.Game()
	mover := s.ToMove()
	moves := append([]host.Move(nil), s.Moves()...)
	out := make([]MoveValue, 0, len(moves))
	c := s.Clone()
	for _, m := range moves {
		c.CopyFrom(s)
		if err := c.Apply(m); err != nil {
			return nil, fmt.Errorf("%s: move %s: %w", sol.game, g.Token(m), err)
		}
		mv := MoveValue{Move: m, Token: g.Token(m)}
		if c.Over() {
			mv.Value, mv.Plies = outcomeValue(c.Outcome().Winner, mover), 1
			if mv.Value == Draw {
				mv.Plies = -1
			}
		} else {
			e, ok := sol.Lookup(c)
			if !ok {
				return nil, &NotFoundError{Game: sol.game, What: "the position after " + mv.Token}
			}
			mv.Value, mv.Plies = e.Value.For(mover, e.ToMove), e.Plies+1
			if mv.Value == Draw {
				mv.Plies = -1
			}
		}
		out = append(out, mv)
	}
	return out, nil
}

// outcomeValue is the value of a finished game with the given winner (0 a
// draw) for player p.
func outcomeValue(winner, p int) Value {
	switch winner {
	case 0:
		return Draw
	case p:
		return Win
	default:
		return Loss
	}
}

// Better reports whether a is a better move than b for the player making
// them: a win beats a draw beats a loss; the quicker win and the slower
// loss are better.
func Better(a, b MoveValue) bool {
	if a.Value != b.Value {
		return a.Value > b.Value
	}
	switch a.Value {
	case Win:
		return a.Plies < b.Plies
	case Loss:
		return a.Plies > b.Plies
	}
	return false
}

// Best returns the best move of s under perfect play: the quickest win,
// else a draw, else the slowest loss; the first such move in the script's
// order.
func (sol *Solution) Best(s *host.State) (MoveValue, error) {
	mvs, err := sol.Moves(s)
	if err != nil {
		return MoveValue{}, err
	}
	if len(mvs) == 0 {
		return MoveValue{}, fmt.Errorf("%s: no legal move", sol.game)
	}
	best := mvs[0]
	for _, mv := range mvs[1:] {
		if Better(mv, best) {
			best = mv
		}
	}
	return best, nil
}

// InconsistencyError reports a position whose value does not agree with the
// values one move ahead.
type InconsistencyError struct {
	Game            string
	Position        string // the position's diagram
	Stored, Derived Entry
}

func (e *InconsistencyError) Error() string {
	return fmt.Sprintf("%s: a position stored as %s in %d plies is %s in %d plies by one move of lookahead:\n%s",
		e.Game, e.Stored.Value, e.Stored.Plies, e.Derived.Value, e.Derived.Plies, e.Position)
}

// Check verifies the solution against g's rules: every position, set up
// afresh through the host, is terminal exactly when the solution says so,
// every move from it reaches a position the solution holds, and its value
// and distance are what one move of lookahead gives.
func (sol *Solution) Check(ctx context.Context, g *host.Game) error {
	if fp := g.Fingerprint(); fp != sol.fingerprint {
		return fmt.Errorf("solution of %s does not belong to this game (fingerprint %s, want %s)", sol.game, sol.fingerprint, fp)
	}
	c := g.Start()
	n := 0
	for enc, id := range sol.index {
		if n++; n%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		stored := sol.entry(id)
		if stored.Terminal && id != 0 {
			continue // reached by a move that ended the game: nothing to look ahead
		}
		s := g.Start()
		if id != 0 {
			var err error
			if s, err = sol.codec.decode([]byte(enc)); err != nil {
				return fmt.Errorf("check %s: %w", sol.game, err)
			}
		}
		if s.Over() != stored.Terminal {
			return fmt.Errorf("check %s: position %d is over=%v, the solution says %v", sol.game, id, s.Over(), stored.Terminal)
		}
		if s.Over() {
			continue
		}
		mover := s.ToMove()
		derived := Entry{Value: Loss, Plies: 0, ToMove: mover}
		bestWin := -1
		for _, m := range s.Moves() {
			c.CopyFrom(s)
			if err := c.Apply(m); err != nil {
				return fmt.Errorf("check %s: move %s: %w", sol.game, g.Token(m), err)
			}
			e, ok := sol.Lookup(c)
			if !ok {
				return &NotFoundError{Game: sol.game, What: "the position after " + g.Token(m)}
			}
			if e.Terminal != c.Over() {
				return fmt.Errorf("check %s: the position after %s is over=%v, the solution says %v", sol.game, g.Token(m), c.Over(), e.Terminal)
			}
			switch e.Value.For(mover, e.ToMove) {
			case Win:
				if bestWin < 0 || e.Plies+1 < bestWin {
					bestWin = e.Plies + 1
				}
			case Loss:
				derived.Plies = max(derived.Plies, e.Plies+1)
			default:
				derived.Value = Draw
			}
		}
		switch {
		case bestWin >= 0:
			derived.Value, derived.Plies = Win, bestWin
		case derived.Value == Draw:
			derived.Plies = -1
		}
		if derived.Value != stored.Value || derived.Plies != stored.Plies {
			return &InconsistencyError{Game: sol.game, Position: s.Diagram(), Stored: stored, Derived: derived}
		}
	}
	return nil
}

// Player plays the best move of every position from a solution: the
// quickest win, else a draw, else the slowest loss. It is safe for
// concurrent use.
type Player struct{ sol *Solution }

// Player returns a player that plays from the solution.
func (sol *Solution) Player() *Player { return &Player{sol: sol} }

// Choose returns the best move of s.
func (p *Player) Choose(ctx context.Context, s *host.State) (host.Move, error) {
	if err := ctx.Err(); err != nil {
		return host.Move{}, err
	}
	mv, err := p.sol.Best(s)
	return mv.Move, err
}
