package solve

import (
	"math"

	"github.com/matombo/matombo/host"
)

// Estimation is what Estimate expects a solve to take.
type Estimation struct {
	Engine           Engine  // the engine that will solve
	Why              string  // why Auto chose it
	Bound            float64 // an upper bound of the positions, when one is known (conserving games); 0 otherwise
	Positions        int     // table engine: the positions it may store at most
	BytesPerPosition int     // table engine: the memory of one position
	Bytes            int64   // the memory the solve takes at most
}

// Estimate says which engine Solve will use and how much memory it will
// take, before it starts. For the table engine the number of positions is
// not known before they are found: Bytes is for the most it may store (the
// budget, or the bound on positions when it is lower), and it stops when
// it reaches it. The search engine's memory is its table and its
// databases, known in advance.
func Estimate(g *host.Game, opts ...Option) (Estimation, error) {
	cfg := newConfig(opts)
	bpp := BytesPerPosition(g)
	est := Estimation{Engine: cfg.engine, BytesPerPosition: bpp, Bound: positionBound(g)}
	if est.Engine == Auto {
		est.Engine, est.Why = Retrograde, "every position is kept"
		fits := est.Bound > 0 && est.Bound*float64(bpp) <= float64(cfg.maxBytes)
		if !fits && searchable(g) == nil {
			est.Engine, est.Why = Search, "the positions may not fit in memory, and the game's value is a score"
		}
	}
	switch est.Engine {
	case Search:
		if err := searchable(g); err != nil {
			return est, err
		}
		plan := planSearch(g, cfg)
		est.Bytes = plan.bytes()
	default:
		n := min(cfg.maxPositions, int(cfg.maxBytes/int64(bpp)))
		if est.Bound > 0 && est.Bound < float64(n) {
			n = int(est.Bound)
		}
		est.Positions = n
		est.Bytes = int64(n) * int64(bpp)
	}
	return est, nil
}

// positionBound is an upper bound of the number of positions of a game
// that conserves its counters: the ways to spread them over the sites, the
// captured totals and the hands, times the players who may be to move. It
// is 0 when the game does not conserve them.
func positionBound(g *host.Game) float64 {
	if !g.Conserves() {
		return 0
	}
	s := g.Start()
	total, cells := 0, g.Board().NumSites()+2*g.Players()
	for i := 0; i < g.Board().NumSites(); i++ {
		total += s.Count(i)
	}
	for p := 1; p <= g.Players(); p++ {
		total += s.Captured(p) + s.Hand(p)
	}
	// C(total+cells-1, cells-1), in floating point.
	lg, _ := math.Lgamma(float64(total + cells))
	a, _ := math.Lgamma(float64(total + 1))
	b, _ := math.Lgamma(float64(cells))
	return math.Exp(lg-a-b) * float64(g.Players())
}
