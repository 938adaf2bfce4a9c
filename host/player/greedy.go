package player

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/matombo/matombo/host"
)

// greedyKind plays the move whose result evaluates best.
var greedyKind = kind{
	name:    "greedy",
	options: []string{"eval"},
	about:   "one ply: the move whose resulting position evaluates best (ties broken at random)",
	build: func(g *host.Game, st settings) (Player, error) {
		return &greedyPlayer{g: g, generic: st.generic, rng: newRand(st.seed, 1)}, nil
	},
}

// greedyPlayer looks one decision ahead.
type greedyPlayer struct {
	g       *host.Game
	generic bool
	rng     *rand.Rand
	work    *host.State
}

// Choose implements Player.
func (gp *greedyPlayer) Choose(ctx context.Context, s *host.State) (host.Move, error) {
	if s.Over() {
		return host.NoMove, ErrGameOver
	}
	if gp.work == nil {
		gp.work = s.Clone()
	}
	r := gp.g.NewRunner()
	r.SetContext(ctx)
	defer r.Close()
	eval := evaluatorFor(gp.g, r, gp.generic)
	p := s.ToMove()
	moves := s.AppendMoves(nil)
	best, ties := -2.0, 0
	var choice host.Move
	for _, m := range moves {
		if err := ctx.Err(); err != nil {
			return host.NoMove, err
		}
		gp.work.CopyFrom(s)
		if err := r.Apply(gp.work, m); err != nil {
			return host.NoMove, fmt.Errorf("greedy: %w", err)
		}
		var v float64
		if gp.work.Over() {
			v = 2 * result(gp.work.Outcome().Winner, p) // a win beats any evaluation
		} else {
			var err error
			if v, err = eval.Evaluate(gp.work, p); err != nil {
				return host.NoMove, fmt.Errorf("greedy: %w", err)
			}
		}
		switch {
		case v > best:
			best, ties, choice = v, 1, m
		case v == best:
			ties++
			if gp.rng.IntN(ties) == 0 {
				choice = m
			}
		}
	}
	return choice, nil
}
