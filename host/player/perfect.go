package player

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/solve"
)

// perfectKind plays from the game's exact solution (package solve): the
// best result, then the largest margin, then the quickest win or the
// slowest loss (solve.Better). New builds it only
// with a solution source (WithSolutions); the solution is fetched at the
// first Choose, with that call's context.
var perfectKind = kind{
	name:  "perfect",
	about: "perfect play from the game's exact solution (matombo solve); small games only",
	build: func(g *host.Game, _ settings, o options) (Player, error) {
		if o.solutions == nil {
			return nil, ErrNoSolutions
		}
		return &lazyPerfect{g: g, src: o.solutions}, nil
	},
}

// ErrNoSolutions is the cause of New's refusal of "perfect" when it was
// given no solution source.
var ErrNoSolutions = errors.New("perfect play needs a solution source (player.WithSolutions); none was given")

// Solutions is a source of exact solutions: a solution it has at hand, or
// one it loads or computes within ctx. Its errors are passed on as the
// cause of the player's.
type Solutions func(ctx context.Context, g *host.Game) (*solve.Solution, error)

// Solver is the Solutions source that solves the game in memory with the
// given options (solve.WithMaxPositions bounds the work) and nothing else:
// it reads and writes no file.
func Solver(opts ...solve.Option) Solutions {
	return func(ctx context.Context, g *host.Game) (*solve.Solution, error) {
		return solve.Solve(ctx, g, opts...)
	}
}

// NewPerfect returns the perfect player of g, with the solution from src.
// An error of src is kept as the cause (errors.As finds it).
func NewPerfect(ctx context.Context, g *host.Game, src Solutions) (Player, error) {
	sol, err := src(ctx, g)
	if err != nil {
		return nil, &PerfectError{Game: g.Name(), Err: err}
	}
	return FromSolution(sol), nil
}

// PerfectError is a solution that could not be had for perfect play.
type PerfectError struct {
	Game string
	Err  error // the solution source's error
}

func (e *PerfectError) Error() string {
	return fmt.Sprintf("perfect play of %s needs its solution: %v", e.Game, e.Err)
}

// Unwrap returns the solution source's error.
func (e *PerfectError) Unwrap() error { return e.Err }

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

// lazyPerfect is the perfect player New builds: it fetches the solution
// at its first move, with that move's context.
type lazyPerfect struct {
	g   *host.Game
	src Solutions
	mu  sync.Mutex
	p   Player
}

// Choose implements Player.
func (lp *lazyPerfect) Choose(ctx context.Context, s *host.State) (host.Move, error) {
	lp.mu.Lock()
	if lp.p == nil {
		p, err := NewPerfect(ctx, lp.g, lp.src)
		if err != nil {
			lp.mu.Unlock()
			return host.NoMove, err
		}
		lp.p = p
	}
	p := lp.p
	lp.mu.Unlock()
	return p.Choose(ctx, s)
}
