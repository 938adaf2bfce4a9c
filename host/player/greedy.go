package player

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/matombo/matombo/host"
)

// greedyKind plays the move whose result evaluates best.
var greedyKind = kind{
	name:     "greedy",
	settings: []string{"eval"},
	about:    "one ply: the move whose resulting position evaluates best (ties broken at random)",
	build: func(g *host.Game, st settings, _ options) (Player, error) {
		return NewGreedy(g, GreedyConfig{Seed: st.seed, Eval: st.eval(g)}), nil
	},
}

// GreedyConfig configures NewGreedy.
type GreedyConfig struct {
	Seed uint64    // breaks ties between moves of equal value
	Eval Evaluator // nil: the script's evaluate when it has one, else Generic
}

// Greedy looks one decision ahead: it plays the move whose resulting
// position evaluates best for the mover, a win before anything else.
type Greedy struct {
	g    *host.Game
	cfg  GreedyConfig
	rng  *rand.Rand
	work *host.State
}

// NewGreedy returns a greedy player of g.
func NewGreedy(g *host.Game, cfg GreedyConfig) *Greedy {
	return &Greedy{g: g, cfg: cfg, rng: newRand(cfg.Seed, 1)}
}

// Choose implements Player.
func (gp *Greedy) Choose(ctx context.Context, s *host.State) (host.Move, error) {
	if s.Over() {
		return host.NoMove, ErrGameOver
	}
	if gp.work == nil {
		gp.work = s.Clone()
	}
	r := gp.g.NewRunner()
	r.SetContext(ctx)
	defer r.Close()
	eval := evaluatorFor(gp.g, r, gp.cfg.Eval)
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
