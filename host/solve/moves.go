package solve

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/matombo/matombo/host"
)

// MoveValue is one legal move with its value under perfect play.
type MoveValue struct {
	Move   host.Move
	Token  string
	Value  Value // for the player who makes the move
	Margin int   // in games with a score: that player's score minus the other's at the end
	Plies  int   // plies to the end after the move is made, counting it; -1 for a draw or when unknown
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
	return sol.MovesContext(context.Background(), s)
}

// MovesContext is Moves, stopped by ctx (a search solution searches the
// positions after the moves).
func (sol *Solution) MovesContext(ctx context.Context, s *host.State) ([]MoveValue, error) {
	if s.Over() {
		return nil, fmt.Errorf("%s: the game is over, there is no move to value", sol.game)
	}
	g := s.Game()
	mover := s.ToMove()
	if sol.search != nil && s.Ply() == 0 && len(sol.search.moves) > 0 {
		if st, ok := sol.search.openingMoves(s); ok {
			return st, nil
		}
	}
	moves := append([]host.Move(nil), s.Moves()...)
	out := make([]MoveValue, 0, len(moves))
	c := s.Clone()
	sc := newScorer(g)
	for _, m := range moves {
		c.CopyFrom(s)
		if err := c.Apply(m); err != nil {
			return nil, fmt.Errorf("%s: move %s: %w", sol.game, g.Token(m), err)
		}
		mv := MoveValue{Move: m, Token: g.Token(m)}
		if c.Over() {
			v, err := sc.final(nil, c)
			if err != nil {
				return nil, err
			}
			e := sol.makeEntry(v, 0, mover, true)
			mv.Value, mv.Margin, mv.Plies = e.Value, e.Margin, 1
		} else {
			e, err := sol.LookupContext(ctx, c)
			if err != nil {
				var nf *NotFoundError
				if errors.As(err, &nf) {
					return nil, &NotFoundError{Game: sol.game, What: "the position after " + mv.Token}
				}
				return nil, err
			}
			mv.Value, mv.Margin, mv.Plies = e.Value.For(mover, e.ToMove), e.Margin, e.Plies+1
			if e.ToMove != mover {
				mv.Margin = -e.Margin
			}
			if e.Plies < 0 {
				mv.Plies = -1
			}
		}
		if mv.Value == Draw && sol.engine != Search {
			mv.Plies = -1
		}
		out = append(out, mv)
	}
	return out, nil
}

// Better reports whether a is a better move than b for the player making
// them: a win beats a draw beats a loss; then the larger margin; then the
// quicker win and the slower loss (a known distance before an unknown
// one).
func Better(a, b MoveValue) bool {
	if a.Value != b.Value {
		return a.Value > b.Value
	}
	if a.Margin != b.Margin {
		return a.Margin > b.Margin
	}
	if (a.Plies < 0) != (b.Plies < 0) {
		return a.Plies >= 0
	}
	switch a.Value {
	case Win:
		return a.Plies < b.Plies
	case Loss:
		return a.Plies > b.Plies
	}
	return false
}

// Best returns the best move of s under perfect play: the largest result
// and margin, then the quickest win or the slowest loss; the first such
// move in the script's order.
func (sol *Solution) Best(s *host.State) (MoveValue, error) {
	return sol.BestContext(context.Background(), s)
}

// BestContext is Best, stopped by ctx.
func (sol *Solution) BestContext(ctx context.Context, s *host.State) (MoveValue, error) {
	mvs, err := sol.MovesContext(ctx, s)
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
	return fmt.Sprintf("%s: a position stored as %s (margin %d) in %d plies is %s (margin %d) in %d plies by one move of lookahead:\n%s",
		e.Game, e.Stored.Value, e.Stored.Margin, e.Stored.Plies, e.Derived.Value, e.Derived.Margin, e.Derived.Plies, e.Position)
}

// Check verifies the solution against g's rules: every position, set up
// afresh through the host, is terminal exactly when the solution says so,
// every move from it reaches a position the solution holds, and its value
// and distance are what one move of lookahead gives. A search solution
// checks the opening's value against its moves'.
func (sol *Solution) Check(ctx context.Context, g *host.Game) error {
	return sol.CheckSample(ctx, g, math.MaxInt, 0)
}

// CheckSample is Check on every position when the solution holds at most
// all of them, and otherwise on the opening and k positions drawn at
// random.
func (sol *Solution) CheckSample(ctx context.Context, g *host.Game, all, k int) error {
	if fp := g.Fingerprint(); fp != sol.fingerprint {
		return fmt.Errorf("solution of %s does not belong to this game (fingerprint %s, want %s)", sol.game, sol.fingerprint, fp)
	}
	if sol.search != nil {
		return sol.search.check(sol)
	}
	r := g.NewRunner()
	defer r.Close()
	sc := newScorer(g)
	s, c := g.Start(), g.Start()
	for n, id := range sampleIDs(sol.tab.Len(), all, k) {
		if n%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		terminal := (*sol.flags.at(id))&flagTerminal != 0
		if sol.tab.key(id)[0] != 0 {
			continue // reached by a move that ended the game: nothing to look ahead
		}
		if err := r.SetPosition(s, sol.enc(id)); err != nil {
			return fmt.Errorf("check %s: %w", sol.game, err)
		}
		if s.Over() != terminal {
			return fmt.Errorf("check %s: position %d is over=%v, the solution says %v", sol.game, id, s.Over(), terminal)
		}
		var derived score
		plies := int32(-1)
		if s.Over() {
			v, err := sc.final(r, s)
			if err != nil {
				return err
			}
			derived = v
			if v.outcome() != 0 {
				plies = 0
			}
		} else {
			mover := s.ToMove()
			type kid struct {
				v     score
				plies int32
			}
			var kids []kid
			for _, m := range s.Moves() {
				if err := r.ApplyTo(c, s, m); err != nil {
					return fmt.Errorf("check %s: move %s: %w", sol.game, g.Token(m), err)
				}
				class := byte(0)
				if c.Over() {
					v, err := sc.final(r, c)
					if err != nil {
						return err
					}
					if class = sol.classOf(v); class == 0 {
						return &NotFoundError{Game: sol.game, What: "the end after " + g.Token(m)}
					}
				}
				key := sol.appendKey(nil, c, class)
				kidID, ok := sol.findKey(key)
				if !ok {
					return &NotFoundError{Game: sol.game, What: "the position after " + g.Token(m)}
				}
				if kt := (*sol.flags.at(kidID))&flagTerminal != 0; kt != c.Over() {
					return fmt.Errorf("check %s: the position after %s is over=%v, the solution says %v", sol.game, g.Token(m), c.Over(), kt)
				}
				kids = append(kids, kid{(*sol.val.at(kidID)), (*sol.plies.at(kidID))})
			}
			derived = kids[0].v
			for _, k := range kids[1:] {
				if better(k.v, derived, mover) {
					derived = k.v
				}
			}
			if derived.outcome() != 0 {
				win := derived.favours(mover)
				for _, k := range kids {
					if k.v != derived {
						continue
					}
					if d := k.plies + 1; plies < 0 || (win && d < plies) || (!win && d > plies) {
						plies = d
					}
				}
			}
		}
		if derived != (*sol.val.at(id)) || plies != (*sol.plies.at(id)) {
			return &InconsistencyError{Game: sol.game, Position: s.Diagram(), Stored: sol.entry(id),
				Derived: sol.makeEntry(derived, int(plies), sol.mover(id), terminal)}
		}
	}
	return nil
}

// findKey returns the id of a key, padded to the table's width.
func (sol *Solution) findKey(key []byte) (int32, bool) {
	if len(key) > sol.tab.width {
		return 0, false
	}
	for len(key) < sol.tab.width {
		key = append(key, 0)
	}
	return sol.tab.find(key)
}

// Player plays the best move of every position from a solution (see
// Best). It is safe for concurrent use.
type Player struct{ sol *Solution }

// Player returns a player that plays from the solution.
func (sol *Solution) Player() *Player { return &Player{sol: sol} }

// Choose returns the best move of s.
func (p *Player) Choose(ctx context.Context, s *host.State) (host.Move, error) {
	if err := ctx.Err(); err != nil {
		return host.Move{}, err
	}
	mv, err := p.sol.BestContext(ctx, s)
	return mv.Move, err
}
