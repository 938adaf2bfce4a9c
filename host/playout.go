package host

// Rand is the source of random choices for playouts; *math/rand/v2.Rand
// satisfies it.
type Rand interface {
	IntN(n int) int
}

// Playout plays uniformly random legal moves on s until the game ends or
// maxPlies moves have been played (maxPlies <= 0: no limit), and returns
// the number of moves played. It keeps one script machine for the whole
// playout, so it is the fastest way to play many moves. On error s is left
// as it was before the failing move.
func Playout(s *State, rng Rand, maxPlies int) (int, error) {
	g := s.g
	vm, err := g.machine()
	if err != nil {
		return 0, err
	}
	defer g.release(vm)
	n := 0
	for !s.over && (maxPlies <= 0 || n < maxPlies) {
		m := s.moves[rng.IntN(len(s.moves))]
		if err := vm.apply(s, m); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// Step plays one uniformly random legal move on s; it returns false when
// the game is over.
func Step(s *State, rng Rand) (bool, error) {
	if s.over || len(s.moves) == 0 {
		return false, nil
	}
	return true, s.Apply(s.moves[rng.IntN(len(s.moves))])
}
