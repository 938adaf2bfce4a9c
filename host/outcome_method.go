package host

import (
	"errors"
	"fmt"
)

// Ends the players decide rather than the rules: a player resigns, or the
// players agree to a draw. The state ends at once, without a move: its ply
// and position stay, it has no legal moves, and its Outcome's Method says
// how it ended (the state JSON's "method").
const (
	MethodResignation Method = MethodPosition + 1 + iota // a player resigned (State.Resign)
	MethodAgreement                                      // the players agreed to a draw (State.AgreeDraw)
)

// ErrGameOver is returned by Resign and AgreeDraw for a state whose game
// has ended already.
var ErrGameOver = errors.New("the game is over")

// Resign ends the game of s: player p resigns, and in a game of two the
// other player wins. The reason is "player p resigned". It fails for a
// finished game, a player out of range, or a game of more than two
// players (whose outcome has a single winner).
func (s *State) Resign(p int) error {
	switch {
	case s.over:
		return ErrGameOver
	case p < 1 || p > s.g.players:
		return fmt.Errorf("player %d resigns in a game of %d players", p, s.g.players)
	case s.g.players != 2:
		return fmt.Errorf("resigning ends a game of two players; this one has %d", s.g.players)
	}
	s.endBy(MethodResignation, 3-p, fmt.Sprintf("player %d resigned", p))
	return nil
}

// AgreeDraw ends the game of s drawn, by the players' agreement. The
// reason is "drawn by agreement". It fails for a finished game.
func (s *State) AgreeDraw() error {
	if s.over {
		return ErrGameOver
	}
	s.endBy(MethodAgreement, 0, "drawn by agreement")
	return nil
}

// endBy ends s with a result the players decided.
func (s *State) endBy(m Method, winner int, reason string) {
	s.over, s.winner, s.reason, s.method = true, winner, reason, m
	s.notes, s.sites = nil, nil
	s.moves = s.moves[:0]
}
