package player

import (
	"fmt"

	"github.com/matombo/matombo/host"
)

// Evaluator scores a position that is not over from player p's side: a
// number from -1 (p is surely losing) to 1 (p is surely winning); values
// outside are clamped. An Evaluator given to a search of several threads
// is called from all of them at once and must be safe for that.
type Evaluator interface {
	Evaluate(s *host.State, p int) (float64, error)
}

// EvaluatorFunc is a function that is an Evaluator, for an evaluation
// written in Go.
type EvaluatorFunc func(s *host.State, p int) (float64, error)

// Evaluate implements Evaluator.
func (f EvaluatorFunc) Evaluate(s *host.State, p int) (float64, error) { return f(s, p) }

// evaluatorFor returns the evaluation a search goroutine uses for g: the
// configured one when there is one, else the script's evaluate function
// run on r when the script has one, else the generic evaluation.
func evaluatorFor(g *host.Game, r *host.Runner, configured Evaluator) Evaluator {
	switch {
	case configured != nil:
		return clamped{configured}
	case g.HasEvaluate():
		return &Script{r: r}
	}
	return NewGeneric(g)
}

// clamped keeps an evaluation's values within -1..1.
type clamped struct{ e Evaluator }

func (c clamped) Evaluate(s *host.State, p int) (float64, error) {
	v, err := c.e.Evaluate(s, p)
	if v != v { // NaN
		v = 0
	}
	return min(max(v, -1), 1), err
}

// Script is the evaluation of a rule script's evaluate function. Scores
// outside -1..1 are clamped.
type Script struct {
	r *host.Runner
}

// NewScript returns the evaluation of g's script, run on r (one goroutine's
// runner); nil when the script has no evaluate function.
func NewScript(g *host.Game, r *host.Runner) *Script {
	if !g.HasEvaluate() {
		return nil
	}
	return &Script{r: r}
}

// Evaluate implements Evaluator.
func (e *Script) Evaluate(s *host.State, p int) (float64, error) {
	v, ok, err := e.r.Evaluate(s, p)
	if err != nil {
		return 0, fmt.Errorf("the script's evaluate(%d): %w", p, err)
	}
	if !ok {
		return 0, fmt.Errorf("the script's evaluate(%d): the script has no evaluate function", p)
	}
	return min(max(v, -1), 1), nil
}

// Generic is the evaluation used when a script has none. In a game whose
// script declares that counters are conserved it is the material balance
// (captured totals, hands and counters on each player's own sites) with a
// little weight on mobility; otherwise it is mobility: the number of legal
// moves of the player to move, counted for that player.
type Generic struct {
	counters bool
}

// NewGeneric returns the generic evaluation for g.
func NewGeneric(g *host.Game) *Generic {
	return &Generic{counters: g.Conserves()}
}

// Evaluate implements Evaluator; it never fails.
func (e *Generic) Evaluate(s *host.State, p int) (float64, error) {
	n := float64(len(s.Moves()))
	mob := n / (n + 8)
	if s.ToMove() != p {
		mob = -mob
	}
	if !e.counters {
		return 0.9 * mob, nil
	}
	return 0.85*materialBalance(s, p) + 0.1*mob, nil
}

// materialBalance is p's material minus the best other player's, as a
// fraction of all material: from -1 to 1.
func materialBalance(s *host.State, p int) float64 {
	g := s.Game()
	sites := g.Board().NumSites()
	var mat [8]int
	players := min(g.Players(), len(mat)-1)
	total := 0
	for q := 1; q <= players; q++ {
		mat[q] = s.Captured(q) + s.Hand(q)
		total += mat[q]
	}
	for i := 0; i < sites; i++ {
		if o := s.Owner(i); o >= 1 && o <= players {
			mat[o] += s.Count(i)
			total += s.Count(i)
		}
	}
	if total == 0 || p < 1 || p > players {
		return 0
	}
	best := -1
	for q := 1; q <= players; q++ {
		if q != p && mat[q] > best {
			best = mat[q]
		}
	}
	return float64(mat[p]-best) / float64(total)
}

// result scores an ended game for player p: 1 for a win, -1 for a loss, 0
// for a draw.
func result(winner, p int) float64 {
	switch winner {
	case 0:
		return 0
	case p:
		return 1
	}
	return -1
}
