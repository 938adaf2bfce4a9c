package host

// Rand is the source of random choices for playouts; *math/rand/v2.Rand
// satisfies it.
type Rand interface {
	IntN(n int) int
}

// Playout plays uniformly random legal moves on s until the game ends or
// maxPlies moves have been played (maxPlies <= 0: no limit), and returns
// the number of moves played. It keeps one script machine for the whole
// playout; a goroutine that plays many playouts keeps a Runner instead. On error s is left
// as it was before the failing move.
func Playout(s *State, rng Rand, maxPlies int) (int, error) {
	r := s.g.NewRunner()
	defer r.Close()
	return r.Playout(s, rng, maxPlies)
}

// PlayRandom plays one uniformly random legal move on s; it returns false
// when the game is over. (Playout plays random moves to the end.)
func PlayRandom(s *State, rng Rand) (bool, error) {
	if s.k.Result.Over || len(s.k.Moves) == 0 {
		return false, nil
	}
	return true, s.Apply(s.k.Moves[rng.IntN(len(s.k.Moves))])
}
