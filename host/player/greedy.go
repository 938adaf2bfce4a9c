package player

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/matombo/matombo/host"
)

// greedyKind plays the move whose result evaluates best.
var greedyKind = kind{
	name:  "greedy",
	about: "one ply: the move whose resulting position evaluates best (ties broken at random)",
	build: func(g *host.Game, st settings) (Player, error) {
		return &greedyPlayer{eval: evaluatorFor(g), rng: newRand(st.seed, 1)}, nil
	},
}

// greedyPlayer looks one decision ahead.
type greedyPlayer struct {
	eval Evaluator
	rng  *rand.Rand
	work *host.State
}

// Choose implements Player.
func (gp *greedyPlayer) Choose(ctx context.Context, s *host.State) (host.Move, error) {
	if s.Over() {
		return host.Move{}, ErrGameOver
	}
	if gp.work == nil {
		gp.work = s.Clone()
	}
	p := s.ToMove()
	moves := append([]host.Move(nil), s.Moves()...)
	best, ties := -2.0, 0
	var choice host.Move
	for _, m := range moves {
		if err := ctx.Err(); err != nil {
			return host.Move{}, err
		}
		gp.work.CopyFrom(s)
		if err := gp.work.Apply(m); err != nil {
			return host.Move{}, fmt.Errorf("greedy: %w", err)
		}
		var v float64
		if gp.work.Over() {
			v = 1.5 * result(gp.work.Outcome().Winner, p) // a win beats any evaluation
		} else {
			v = gp.eval.Evaluate(gp.work, p)
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

// evaluatorFor returns the evaluation players use for g.
func evaluatorFor(g *host.Game) Evaluator { return NewGeneric(g) }
