package player

import (
	"context"
	"math/rand/v2"

	"github.com/matombo/matombo/host"
)

// randomKind plays uniformly random legal moves.
var randomKind = kind{
	name:  "random",
	about: "a uniformly random legal move",
	build: func(g *host.Game, st settings, _ options) (Player, error) {
		return NewRandom(st.seed), nil
	},
}

// Random chooses uniformly among the legal moves.
type Random struct {
	rng *rand.Rand
}

// NewRandom returns a player of uniformly random legal moves, drawn from
// seed.
func NewRandom(seed uint64) *Random {
	return &Random{rng: newRand(seed, 0)}
}

// NewRandomFrom returns a player of uniformly random legal moves drawn
// from rng, a source the caller keeps (for a stream of its own).
func NewRandomFrom(rng *rand.Rand) *Random { return &Random{rng: rng} }

// Choose implements Player.
func (r *Random) Choose(ctx context.Context, s *host.State) (host.Move, error) {
	if s.Over() {
		return host.NoMove, ErrGameOver
	}
	moves := s.Moves()
	return moves[r.rng.IntN(len(moves))], nil
}

// newRand returns the random source of a seed and a stream.
func newRand(seed, stream uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, 0x706c61796572^stream))
}
