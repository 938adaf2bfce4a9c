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

// alphabetaKind is iterative-deepening principal-variation search.
var alphabetaKind = kind{
	name:     "alphabeta",
	about:    "iterative-deepening alpha-beta (principal-variation search, transposition table, killer and history move ordering, optional quiescence over captures); default time=1s",
	settings: []string{"depth", "time", "nodes", "quiescence", "eval"},
	build: func(g *host.Game, st settings, _ options) (Player, error) {
		return NewAlphaBeta(g, AlphaBetaConfig{Depth: st.depth, Time: st.time, Nodes: st.nodes, Quiescence: st.quiescence, Seed: st.seed, Eval: st.eval(g)})
	},
}

const (
	maxDepth = 64
	ttSize   = 1 << 18 // transposition table entries (about 8 MB)
	winScore = 1e6     // a win; wins sooner score higher
	evalMax  = 1000    // evaluations are scaled to -evalMax..evalMax

	// DefaultQuiescence is how many plies of captures AlphaBeta searches
	// past its depth when the config asks for none in particular: none.
	// Measured at equal budgets of positions on four sowing games with
	// captures, a quiescence search of 4 plies lost to none in each
	// (docs/players.md, "Strength"): its positions are better spent a
	// ply deeper.
	DefaultQuiescence = -1
)

// AlphaBetaConfig configures NewAlphaBeta. A zero field takes its default.
type AlphaBetaConfig struct {
	Depth int           // decisions looked ahead (default and at most 64)
	Time  time.Duration // thinking time per decision; no Depth, Time or Nodes: 1 s
	// Nodes stops the deepening once a decision's search has searched
	// this many positions (as Stats counts them), keeping the last
	// completed depth, as Time does; unlike Time it repeats exactly on any
	// machine. 0: no such budget.
	Nodes int
	Seed  uint64 // orders equal root moves at first
	// Eval scores the positions at the search's horizon. nil: the
	// script's evaluate when it has one, else Generic.
	Eval Evaluator
	// Quiescence is how many plies of captures are searched past the
	// depth: 0 the default (DefaultQuiescence, none), -1 none, N > 0 up
	// to N plies. A capture is a move that changes a player's captured
	// total, or one after which the same player moves again.
	Quiescence int
}

// AlphaBeta is an iterative-deepening negamax player: principal-variation
// search with alpha-beta pruning, a transposition table, killer and
// history move ordering, and on request (AlphaBetaConfig.Quiescence) a
// quiescence search over captures at the horizon. Values are from the side of the player to move; the sign flips
// only when the mover changes, so a turn of several decisions by one
// player is searched as such. Depth counts decisions.
type AlphaBeta struct {
	g       *host.Game
	cfg     AlphaBetaConfig
	eval    Evaluator
	r       *host.Runner // the runner of the current search
	rng     *rand.Rand   // orders the root moves at first, so that equal moves vary with the seed
	tt      []ttEntry
	stack   []*host.State // a state per ply of the search
	moves   [][]host.Move // a move list per ply
	order   [][]int32     // move ordering scores per ply
	killers [][2]host.Move
	history map[host.Move]int32
	scored  bool // the game has a score (captures show in it)
	nodes   int  // searched positions, for the clock
	// positions counts every move the search applies, the quiet moves
	// that the quiescence search tries and drops included: its work.
	positions int
	stop      bool
	ctx       context.Context
	end       time.Time
	stats     Stats
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

// NewAlphaBeta returns an alpha-beta player of g, a game of two players.
func NewAlphaBeta(g *host.Game, cfg AlphaBetaConfig) (*AlphaBeta, error) {
	if g.Players() != 2 {
		return nil, fmt.Errorf("alphabeta plays two-player games; %s has %d players", g.Name(), g.Players())
	}
	switch {
	case cfg.Depth < 0 || cfg.Depth > maxDepth:
		return nil, fmt.Errorf("alphabeta: depth %d: want 1 to %d", cfg.Depth, maxDepth)
	case cfg.Time < 0:
		return nil, fmt.Errorf("alphabeta: negative time %v", cfg.Time)
	case cfg.Nodes < 0:
		return nil, fmt.Errorf("alphabeta: negative node budget %d", cfg.Nodes)
	case cfg.Quiescence < -1:
		return nil, fmt.Errorf("alphabeta: quiescence %d: want -1 (none), 0 (the default, none) or more", cfg.Quiescence)
	}
	if cfg.Depth == 0 && cfg.Time == 0 && cfg.Nodes == 0 {
		cfg.Time = time.Second
	}
	if cfg.Depth == 0 {
		cfg.Depth = maxDepth
	}
	if cfg.Quiescence == 0 {
		cfg.Quiescence = DefaultQuiescence
	}
	return &AlphaBeta{g: g, cfg: cfg, tt: make([]ttEntry, ttSize), rng: newRand(cfg.Seed, 2), history: map[host.Move]int32{}}, nil
}

// Config returns the player's configuration, defaults filled in.
func (a *AlphaBeta) Config() AlphaBetaConfig { return a.cfg }

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
	a.r.SetContext(ctx) // a script call stops when ctx ends
	defer a.r.Close()
	a.eval = evaluatorFor(a.g, a.r, a.cfg.Eval)
	a.scored = a.g.Conserves() // a game of counters: captures move material
	a.rng.Shuffle(len(root), func(i, j int) { root[i], root[j] = root[j], root[i] })
	a.ctx, a.stop, a.nodes, a.positions = ctx, false, 0, 0
	a.end = time.Time{}
	if a.cfg.Time > 0 {
		a.end = start.Add(a.cfg.Time)
	}
	a.killers = a.killers[:0]
	clear(a.history)
	scores := make([]float64, len(root))
	best := root[0]
	for depth := 1; depth <= a.cfg.Depth; depth++ {
		alpha := math.Inf(-1)
		var bestThis host.Move
		for i, m := range root {
			var v float64
			var err error
			if i == 0 {
				v, err = a.child(s, m, depth-1, alpha, math.Inf(1), 1)
			} else {
				// Principal-variation search: prove the move no better
				// with a null window, search it fully only if it is.
				v, err = a.child(s, m, depth-1, alpha, math.Nextafter(alpha, math.Inf(1)), 1)
				if err == nil && !a.stop && v > alpha {
					v, err = a.child(s, m, depth-1, alpha, math.Inf(1), 1)
				}
			}
			if canceled(ctx, err) {
				a.stop, err = true, nil // the end of the search, not a failure
			}
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
		// Order the next iteration by this one's scores, best first. A
		// move that failed low keeps its bound, which orders it well
		// enough.
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
	a.stats.Iterations = a.positions
	a.stats.Elapsed = time.Since(start)
	return best, nil
}

// grow makes room for the search's scratch at ply.
func (a *AlphaBeta) grow(s *host.State, ply int) {
	for len(a.stack) <= ply {
		a.stack = append(a.stack, s.Clone())
		a.moves = append(a.moves, nil)
		a.order = append(a.order, nil)
	}
	for len(a.killers) <= ply {
		a.killers = append(a.killers, [2]host.Move{})
	}
}

// child plays m on a copy of s and returns its value from the side of the
// player who plays it, searching depth decisions below it (a quiescence
// search when depth < 0).
func (a *AlphaBeta) child(s *host.State, m host.Move, depth int, alpha, beta float64, ply int) (float64, error) {
	a.grow(s, ply)
	c := a.stack[ply]
	c.CopyFrom(s)
	if err := a.r.Apply(c, m); err != nil {
		return 0, err
	}
	a.positions++
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

// material is the captured totals' sum, which a capture changes.
func material(s *host.State) int { return s.Captured(1) + s.Captured(2) }

// search returns the value of s, which is not over, from the side of the
// player to move. A depth below zero is the quiescence search: the
// evaluation stands unless a capture improves on it.
func (a *AlphaBeta) search(s *host.State, depth int, alpha, beta float64, ply int) (float64, error) {
	a.nodes++
	if a.cfg.Nodes > 0 && a.positions >= a.cfg.Nodes {
		a.stop = true
	}
	if a.nodes&15 == 0 && (a.ctx.Err() != nil || !a.end.IsZero() && !time.Now().Before(a.end)) {
		a.stop = true
	}
	if a.stop {
		return 0, nil
	}
	if depth <= 0 {
		return a.quiesce(s, depth, alpha, beta, ply)
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
	a.grow(s, ply)
	moves := a.orderMoves(s, ply, first, hasFirst)
	alpha0 := alpha
	best := math.Inf(-1)
	var bestMove host.Move
	for i, m := range moves {
		var v float64
		var err error
		if i == 0 || math.IsInf(alpha, -1) {
			v, err = a.child(s, m, depth-1, alpha, beta, ply+1)
		} else {
			v, err = a.child(s, m, depth-1, alpha, math.Nextafter(alpha, math.Inf(1)), ply+1)
			if err == nil && !a.stop && v > alpha && v < beta {
				v, err = a.child(s, m, depth-1, alpha, beta, ply+1)
			}
		}
		if err != nil || a.stop {
			return 0, err
		}
		if v > best {
			best, bestMove = v, m
		}
		alpha = max(alpha, v)
		if alpha >= beta {
			a.cutoff(m, ply, depth, hasFirst && m == first)
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

// quiesce is the search past the horizon: the evaluation, or better for
// the player to move the value of a capture (a move that changes the
// captured totals) or of a move after which the same player moves again,
// for Quiescence plies.
func (a *AlphaBeta) quiesce(s *host.State, depth int, alpha, beta float64, ply int) (float64, error) {
	v, err := a.eval.Evaluate(s, s.ToMove())
	if err != nil {
		return 0, err
	}
	stand := evalMax * v
	if !a.scored || a.cfg.Quiescence < 0 || -depth >= a.cfg.Quiescence || stand >= beta {
		return stand, nil
	}
	best := stand
	alpha = max(alpha, stand)
	a.grow(s, ply+1)
	moves := append(a.moves[ply][:0], s.Moves()...)
	a.moves[ply] = moves
	before, p := material(s), s.ToMove()
	for _, m := range moves {
		c := a.stack[ply+1]
		c.CopyFrom(s)
		if err := a.r.Apply(c, m); err != nil {
			return 0, err
		}
		a.positions++
		var v float64
		switch {
		case c.Over():
			v = result(c.Outcome().Winner, p) * (winScore - float64(ply+1))
		case material(c) == before && c.ToMove() != p:
			continue // a quiet move: the stand-pat covers it
		case c.ToMove() == p:
			v, err = a.search(c, depth-1, alpha, beta, ply+1)
		default:
			v, err = a.search(c, depth-1, -beta, -alpha, ply+1)
			v = -v
		}
		if err != nil || a.stop {
			return 0, err
		}
		best = max(best, v)
		alpha = max(alpha, v)
		if alpha >= beta {
			break
		}
	}
	return best, nil
}

// orderMoves lists s's moves best first: the table's move, the killers of
// the ply, then by history.
func (a *AlphaBeta) orderMoves(s *host.State, ply int, first host.Move, hasFirst bool) []host.Move {
	moves := append(a.moves[ply][:0], s.Moves()...)
	a.moves[ply] = moves
	order := a.order[ply][:0]
	k := a.killers[ply]
	for _, m := range moves {
		var o int32
		switch {
		case hasFirst && m == first:
			o = math.MaxInt32
		case m == k[0]:
			o = math.MaxInt32 - 1
		case m == k[1]:
			o = math.MaxInt32 - 2
		default:
			o = a.history[m]
		}
		order = append(order, o)
	}
	a.order[ply] = order
	// Insertion sort: lists are short.
	for i := 1; i < len(moves); i++ {
		for j := i; j > 0 && order[j] > order[j-1]; j-- {
			order[j], order[j-1] = order[j-1], order[j]
			moves[j], moves[j-1] = moves[j-1], moves[j]
		}
	}
	return moves
}

// cutoff remembers a move that refuted a position: as a killer of its ply
// and in the history, weighted by the depth left.
func (a *AlphaBeta) cutoff(m host.Move, ply, depth int, tableMove bool) {
	if tableMove {
		return
	}
	if k := &a.killers[ply]; k[0] != m {
		k[1], k[0] = k[0], m
	}
	a.history[m] = min(a.history[m]+int32(depth*depth), math.MaxInt32-3)
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
