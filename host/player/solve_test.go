package player

import "github.com/matombo/matombo/host"

// forcedWin reports whether player p can force a win within the given
// number of decisions from s, whoever is to move: exhaustive search, for
// checking the players' choices.
func forcedWin(s *host.State, p, plies int) bool {
	if s.Over() {
		return s.Outcome().Winner == p
	}
	if plies == 0 {
		return false
	}
	mine := s.ToMove() == p
	for _, m := range s.Moves() {
		c := s.Clone()
		if err := c.Apply(m); err != nil {
			panic(err)
		}
		w := forcedWin(c, p, plies-1)
		if mine && w {
			return true
		}
		if !mine && !w {
			return false
		}
	}
	return !mine
}
