package player

import (
	"context"
	"fmt"

	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/solve"
)

// perfectKind plays from the game's exact solution (package solve): the
// best result, then the largest margin, then the quickest win or the
// slowest loss. It loads the solution that `matombo solve` cached, or
// solves the game first with the retrograde engine and caches it; games of
// more than perfectMaxPositions positions are refused (solve them first
// with `matombo solve`, which has the search engine).
var perfectKind = kind{
	name:  "perfect",
	about: "perfect play from the game's exact solution (matombo solve); small games only",
	build: func(g *host.Game, _ settings) (Player, error) { return NewPerfect(g) },
}

// perfectMaxPositions caps the solve that a perfect player makes itself.
const perfectMaxPositions = 2_000_000

// NewPerfect returns the perfect player of g, from its cached solution or
// a new one.
func NewPerfect(g *host.Game) (Player, error) {
	sol, err := solve.LoadCached(g)
	if err != nil {
		if sol, err = solve.Solve(context.Background(), g, solve.WithEngine(solve.Retrograde), solve.WithMaxPositions(perfectMaxPositions)); err != nil {
			return nil, fmt.Errorf("perfect play needs the game solved: %w", err)
		}
		_, _ = solve.SaveCached(sol, g) // a cache that cannot be written only costs time
	}
	return FromSolution(sol), nil
}

// FromSolution returns the perfect player of a solution at hand. It is
// safe for concurrent use.
func FromSolution(sol *solve.Solution) Player { return perfectPlayer{p: sol.Player()} }

// perfectPlayer plays the best move of every position.
type perfectPlayer struct{ p *solve.Player }

// Choose implements Player.
func (pp perfectPlayer) Choose(ctx context.Context, s *host.State) (host.Move, error) {
	if s.Over() {
		return host.NoMove, ErrGameOver
	}
	return pp.p.Choose(ctx, s)
}
