package solve

import (
	"context"
	"errors"
	"fmt"

	"github.com/matombo/matombo/host"
)

// PositionResult is the value of one position found by SolvePosition:
// exact, or with WithAbove and WithBelow a bound.
type PositionResult struct {
	Entry             // the position's value for the player to move (Plies is -1 unless it is over)
	Bound Bound       // Exact, or how Entry bounds the value for the player to move
	Stats SearchStats // what the search did (zero for a finished position)
}

// SolvePosition proves the exact value of s with the search engine, as
// Solve does for the opening, with the same options (its table, its
// endgame databases read from or written to the cache, its threads and
// budgets; WithEngine is ignored). It is what a piece of a solve split
// over machines runs: each machine values some positions and their values
// are combined by minimax. A finished position is valued by the script's
// result without searching. With WithAbove or WithBelow, the result may be
// a bound (PositionResult.Bound): the alpha-beta window of such a split.
func SolvePosition(ctx context.Context, s *host.State, opts ...Option) (PositionResult, error) {
	g := s.Game()
	opts = append(opts[:len(opts):len(opts)], WithEngine(Search))
	cfg := newConfig(opts)
	if err := searchable(g); err != nil {
		return PositionResult{}, err
	}
	sol := &Solution{game: g.Name(), fingerprint: g.Fingerprint(), engine: Search, hasScore: true, g: g}
	wlo, whi := cfg.window.limits()
	if wlo >= whi {
		return PositionResult{}, fmt.Errorf("WithAbove(%v) and WithBelow(%v): no value lies between them", cfg.window.lo.threshold(), cfg.window.hi.threshold())
	}
	if s.Over() {
		v, err := newScorer(g).final(nil, s)
		if err != nil {
			return PositionResult{}, err
		}
		return PositionResult{Entry: sol.makeEntry(v, 0, s.ToMove(), true)}, nil
	}
	est, err := Estimate(g, opts...)
	if err != nil {
		return PositionResult{}, err
	}
	if est.Bytes > cfg.maxBytes {
		return PositionResult{}, &TooLargeError{Game: g.Name(), Engine: Search, MaxBytes: cfg.maxBytes, EstimateBytes: est.Bytes}
	}
	eng, err := newEngine(ctx, g, cfg)
	if err != nil {
		return PositionResult{}, positionError(ctx, g, err)
	}
	b, err := eng.solveWithin(ctx, s, cfg.window)
	if err != nil {
		return PositionResult{}, positionError(ctx, g, err)
	}
	v, bound := b.lo, Exact
	if !b.exact() {
		if b.hi <= wlo {
			v, bound = b.hi, AtMost
		} else {
			bound = AtLeast
		}
	}
	if s.ToMove() != 1 {
		bound = bound.Flip()
	}
	return PositionResult{Entry: sol.makeEntry(v, -1, s.ToMove(), false), Bound: bound, Stats: eng.statistics()}, nil
}

// positionError wraps a search stopped by ctx as Solve does.
func positionError(ctx context.Context, g *host.Game, err error) error {
	var ce *host.CanceledError
	if ctx.Err() != nil && !errors.As(err, &ce) {
		return fmt.Errorf("solving a position of %s: %w", g.Name(), canceled(ctx))
	}
	return err
}
