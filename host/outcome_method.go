package host

import (
	"errors"
	"fmt"
)

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
	s.k.EndBy(MethodResignation, 3-p, fmt.Sprintf("player %d resigned", p))
	return nil
}

// AgreeDraw ends the game of s drawn by the players' agreement, as Resign
// ends it (MethodAgreement, "drawn by agreement"); ErrGameOver if over.
func (s *State) AgreeDraw() error {
	if s.k.Result.Over {
		return ErrGameOver
	}
	s.k.EndBy(MethodAgreement, 0, "drawn by agreement")
	return nil
}

// WhyNot explains to the players why tok is not legal in s: the rule it
// breaks, from the why function of the move kind it is written in, then
// IllegalMoveError.Reason (what part is wrong, what is possible), joined
// by "; "; "" for a legal token. A why function that fails or says
// nothing leaves the host's reason alone. Error messages (and scenarios
// matching them) keep the host's reason only.
func (s *State) WhyNot(tok string) string {
	_, err := s.ParseMove(tok)
	var ill *IllegalMoveError
	if err == nil || !errors.As(err, &ill) {
		return ""
	}
	if s.k.Result.Over {
		return ill.Reason
	}
	vm, err := s.g.machine()
	if err != nil {
		return ill.Reason
	}
	defer s.g.release(vm)
	why, ok, err := vm.Why(&s.k, tok)
	if err != nil || !ok {
		return ill.Reason
	}
	return why + "; " + ill.Reason
}
