package player

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/matombo/matombo/host"
)

// alphabetaKind is iterative-deepening negamax.
var alphabetaKind = kind{
	name:    "alphabeta",
	about:   "iterative-deepening alpha-beta with a transposition table; default time=1s",
	options: []string{"depth", "time", "eval"},
	build: func(g *host.Game, st settings) (Player, error) {
		if g.Players() != 2 {
			return nil, fmt.Errorf("alphabeta plays two-player games; %s has %d players", g.Name(), g.Players())
		}
		if st.depth == 0 && st.time == 0 {
			st.time = time.Second
		}
		if st.depth == 0 {
			st.depth = maxDepth
		}
		return &AlphaBeta{g: g, st: st, tt: make([]ttEntry, ttSize), rng: newRand(st.seed, 2)}, nil
	},
}

const (
	maxDepth = 64
	ttSize   = 1 << 18 // transposition table entries (about 8 MB)
	winScore = 1e6     // a win; wins sooner score higher
	evalMax  = 1000    // evaluations are scaled to -evalMax..evalMax
)

// AlphaBeta is an iterative-deepening negamax player with alpha-beta
// pruning, a transposition table and move ordering from the previous
// iteration (the first in an order drawn from the seed, so that moves of
// equal value vary with it). Values are from the side of the player to move; the sign
// flips only when the mover changes, so a turn of several decisions by one
// player is searched as such. Depth counts decisions.
type AlphaBeta struct {
	g     *host.Game
	st    settings
	eval  Evaluator
	r     *host.Runner // the runner of the current search
	rng   *rand.Rand   // orders the root moves at first, so that equal moves vary with the seed
	tt    []ttEntry
	stack []*host.State // a state per ply of the search
	moves [][]host.Move // a move list per ply
	nodes int
	stop  bool
	ctx   context.Context
	end   time.Time
	stats Stats
}

// ttEntry is what the table knows about a position.
type ttEntry struct {
	key   uint64
	value float64
	best  host.Move
	depth int8
	bound int8 // exact, lower or upper
	used  bool
}

const (
	exact int8 = iota
	lower
	upper
)

// Stats returns figures about the last search.
func (a *AlphaBeta) Stats() Stats { return a.stats }

// Choose implements Player.
func (a *AlphaBeta) Choose(ctx context.Context, s *host.State) (host.Move, error) {
	if s.Over() {
		return host.NoMove, ErrGameOver
	}
	start := time.Now()
	root := s.AppendMoves(nil)
	a.stats = Stats{}
	if len(root) == 1 {
		return root[0], nil
	}
	a.r = a.g.NewRunner()
	defer a.r.Close()
	a.eval = evaluatorFor(a.g, a.r, a.st.generic)
	a.rng.Shuffle(len(root), func(i, j int) { root[i], root[j] = root[j], root[i] })
	a.ctx, a.stop, a.nodes = ctx, false, 0
	a.end = time.Time{}
	if a.st.time > 0 {
		a.end = start.Add(a.st.time)
	}
	scores := make([]float64, len(root))
	best := root[0]
	for depth := 1; depth <= a.st.depth; depth++ {
		alpha := math.Inf(-1)
		var bestThis host.Move
		for i, m := range root {
			v, err := a.child(s, m, depth-1, alpha, math.Inf(1), 1)
			if err != nil {
				return host.NoMove, fmt.Errorf("alphabeta: %w", err)
			}
			if a.stop {
				break
			}
			scores[i] = v
			if v > alpha {
				alpha, bestThis = v, m
			}
		}
		if a.stop {
			break
		}
		best = bestThis
		a.stats.Depth = depth
		// Order the next iteration by this one's scores, best first.
		idx := make([]int, len(root))
		for i := range idx {
			idx[i] = i
		}
		slices.SortStableFunc(idx, func(x, y int) int { return cmpDesc(scores[x], scores[y]) })
		root = permute(root, idx)
		scores = permuteF(scores, idx)
		if math.Abs(alpha) >= winScore-1000 {
			break // a forced result is proven
		}
	}
	a.stats.Iterations = a.nodes
	a.stats.Elapsed = time.Since(start)
	return best, nil
}

// child plays m on a copy of s and returns its value from the side of the
// player who plays it.
func (a *AlphaBeta) child(s *host.State, m host.Move, depth int, alpha, beta float64, ply int) (float64, error) {
	for len(a.stack) <= ply {
		a.stack = append(a.stack, s.Clone())
		a.moves = append(a.moves, nil)
	}
	c := a.stack[ply]
	c.CopyFrom(s)
	if err := a.r.Apply(c, m); err != nil {
		return 0, err
	}
	p := s.ToMove()
	if c.Over() {
		return result(c.Outcome().Winner, p) * (winScore - float64(ply)), nil
	}
	if c.ToMove() == p {
		return a.search(c, depth, alpha, beta, ply)
	}
	v, err := a.search(c, depth, -beta, -alpha, ply)
	return -v, err
}

// search returns the value of s, which is not over, from the side of the
// player to move.
func (a *AlphaBeta) search(s *host.State, depth int, alpha, beta float64, ply int) (float64, error) {
	a.nodes++
	if a.nodes&15 == 0 && (a.ctx.Err() != nil || !a.end.IsZero() && !time.Now().Before(a.end)) {
		a.stop = true
	}
	if a.stop {
		return 0, nil
	}
	if depth <= 0 {
		v, err := a.eval.Evaluate(s, s.ToMove())
		return evalMax * v, err
	}
	// The key includes the number of occurrences, so a position is not
	// judged the same before and after it repeats.
	key := s.Key() ^ uint64(s.Repetitions())*0x9E3779B97F4A7C15
	e := &a.tt[key&(ttSize-1)]
	var first host.Move
	hasFirst := false
	if e.used && e.key == key {
		first, hasFirst = e.best, true
		if int(e.depth) >= depth {
			switch {
			case e.bound == exact,
				e.bound == lower && e.value >= beta,
				e.bound == upper && e.value <= alpha:
				return e.value, nil
			}
		}
	}
	moves := append(a.moves[ply][:0], s.Moves()...)
	a.moves[ply] = moves
	if hasFirst {
		if i := slices.Index(moves, first); i > 0 {
			moves[0], moves[i] = moves[i], moves[0]
		}
	}
	alpha0 := alpha
	best := math.Inf(-1)
	var bestMove host.Move
	for _, m := range moves {
		v, err := a.child(s, m, depth-1, alpha, beta, ply+1)
		if err != nil || a.stop {
			return 0, err
		}
		if v > best {
			best, bestMove = v, m
		}
		alpha = max(alpha, v)
		if alpha >= beta {
			break
		}
	}
	bound := exact
	switch {
	case best <= alpha0:
		bound = upper
	case best >= beta:
		bound = lower
	}
	*e = ttEntry{key: key, value: best, best: bestMove, depth: int8(depth), bound: bound, used: true}
	return best, nil
}

// cmpDesc orders numbers from the largest.
func cmpDesc(x, y float64) int {
	switch {
	case x > y:
		return -1
	case x < y:
		return 1
	}
	return 0
}

func permute(ms []host.Move, idx []int) []host.Move {
	out := make([]host.Move, len(idx))
	for i, j := range idx {
		out[i] = ms[j]
	}
	return out
}

func permuteF(fs []float64, idx []int) []float64 {
	out := make([]float64, len(idx))
	for i, j := range idx {
		out[i] = fs[j]
	}
	return out
}
