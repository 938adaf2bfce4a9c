package host

import "fmt"

// Resign ends the game of s without a move (its ply and position stay, no
// move is legal): player p resigns, and the other of two wins; the
// Outcome's Method is MethodResignation, its reason "player p resigned".
// It fails with ErrGameOver for a finished game, and for a player out of
// range or a game of more than two players.
func (s *State) Resign(p int) error {
	switch {
	case s.k.Result.Over:
		return ErrGameOver
	case p < 1 || p > s.g.players:
		return fmt.Errorf("player %d resigns in a game of %d players", p, s.g.players)
	case s.g.players != 2:
		return fmt.Errorf("resigning ends a game of two players; this one has %d", s.g.players)
	}
	s.k.EndBy(&s.g.def.Layout, MethodResignation, 3-p, fmt.Sprintf("player %d resigned", p))
	return nil
}

// AgreeDraw ends the game of s drawn by the players' agreement, as Resign
// ends it (MethodAgreement, "drawn by agreement"); ErrGameOver if over.
func (s *State) AgreeDraw() error {
	if s.k.Result.Over {
		return ErrGameOver
	}
	s.k.EndBy(&s.g.def.Layout, MethodAgreement, 0, "drawn by agreement")
	return nil
}
