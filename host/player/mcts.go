package player

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/matombo/matombo/host"
)

// Defaults of MCTSConfig, chosen by matches (docs/players.md, Tuning).
const (
	DefaultNodes   = 500_000 // node cap of a search tree
	DefaultC       = 1.0     // UCT exploration constant (rewards are 0 to 1)
	DefaultPlayout = 4       // plies of a playout before the evaluation scores it
	DefaultMinimax = 0.7     // weight of the implicit minimax value in a node's value
	MaxThreads     = 1024    // the most threads a search may have

	noExploration = 1e-9 // c=0 in a spec: a tiny constant, as zero means the default
)

// mctsKind is Monte Carlo tree search.
var mctsKind = kind{
	name:     "mcts",
	about:    "Monte Carlo tree search (UCT over random playouts cut off and scored by the evaluation, MCTS-Solver, one tree shared by the threads with virtual loss, transpositions, tree reuse); default time=1s",
	settings: []string{"iterations", "time", "threads", "nodes", "c", "playout", "minimax", "eval"},
	build: func(g *host.Game, st settings, _ options) (Player, error) {
		return NewMCTS(g, MCTSConfig{
			Iterations: st.iterations, Time: st.time, Threads: st.threads, Nodes: st.nodes,
			C: st.c, Playout: st.playout, Minimax: st.minimax, Seed: st.seed, Eval: st.eval(g),
		})
	},
}

// MCTSConfig configures NewMCTS. A zero field takes its default.
type MCTSConfig struct {
	Iterations int           // iterations per decision; 0: no iteration budget
	Time       time.Duration // thinking time per decision; with Iterations, whichever ends first; neither: 1 s
	Threads    int           // goroutines growing the one tree (default 1, at most MaxThreads)
	Nodes      int           // node cap of the tree (default DefaultNodes)
	C          float64       // UCT exploration constant (default DefaultC)
	Playout    int           // plies of a playout before the evaluation scores it (default DefaultPlayout; -1: to the end)
	// Minimax is the weight, from 0 to 1, of a node's implicit minimax
	// value (the evaluation of the nodes below it, backed up by minimax)
	// beside its mean reward, in two-player games (default
	// DefaultMinimax; -1: none).
	Minimax float64
	Seed    uint64 // the seed of every random choice
	// Eval scores the positions where a playout is cut off. nil: the
	// script's evaluate when it has one, else Generic. With Threads > 1 it
	// is called from several goroutines at once.
	Eval Evaluator
	// NoTranspositions keeps a node per path: positions reached by
	// different orders of moves are not shared.
	NoTranspositions bool
}

// MCTS is a Monte Carlo tree search player: UCT over uniformly random
// playouts, cut off after Playout plies and scored by the evaluation.
// Proven wins and losses propagate up the tree (MCTS-Solver, for
// two-player games), so a forced win is played as soon as it is proven.
// Positions reached by different orders of moves share one node
// (transpositions). With Threads > 1 the goroutines grow one tree, each
// adding a virtual loss to the nodes it is working below so that the
// others look elsewhere. Kept across moves, the player reuses the part of
// its tree below the new position.
//
// Values in a node are from the side of the player who moved into it, so
// a turn of several decisions by one player needs nothing special.
type MCTS struct {
	g       *host.Game
	cfg     MCTSConfig
	workers []*worker

	mu        sync.Mutex // guards the tree below
	root      *node
	rootState *host.State
	table     map[posKey]*node // transpositions: the node of each position
	nodes     int
	cut       bool // an iteration was stopped by the context
	find      []*host.State
	stats     Stats
}

// posKey identifies a node's position: the state's key, its repetition
// count, its ply (a rule may end a game by its length) and the player who
// moved into it (node values are from that player's side).
type posKey struct {
	key   uint64
	reps  int32
	mover int32
	ply   int32
}

// node is a position of the tree.
type node struct {
	key      posKey
	mover    int     // who moved into this position
	toMove   int     // whose decision it is here
	visits   float64 // iterations through this node, including those still running
	wins     float64 // their rewards, from mover's side (win 1, draw 0.5)
	mm       float64 // implicit minimax value, from mover's side (0 to 1)
	hasMM    bool    // mm is known
	solved   bool    // the result with best play is known
	winner   int     // when solved: the winner, 0 for a draw
	edges    []edge
	untried  []host.Move
	expanded bool // every move has an edge (none untried, none on its way)
	pending  int  // expansions on their way
}

// edge is a move from a node to the node of its position.
type edge struct {
	move  host.Move
	child *node
}

// worker is one goroutine's runner, random source and scratch state.
type worker struct {
	rng   *rand.Rand
	r     *host.Runner
	eval  Evaluator
	work  *host.State
	path  []*node
	moves []host.Move
	iter  int
}

// maxPath bounds the nodes an iteration walks down: shared positions of a
// game with repetitions can join into a cycle.
const maxPath = 4096

// NewMCTS returns an MCTS player of g.
func NewMCTS(g *host.Game, cfg MCTSConfig) (*MCTS, error) {
	switch {
	case cfg.Iterations < 0, cfg.Time < 0, cfg.Threads < 0, cfg.Nodes < 0, cfg.C < 0, cfg.Playout < -1, cfg.Minimax < -1 || cfg.Minimax > 1:
		return nil, fmt.Errorf("mcts: negative setting in %+v", cfg)
	case cfg.Threads > MaxThreads:
		return nil, fmt.Errorf("mcts: %d threads: at most %d", cfg.Threads, MaxThreads)
	}
	if cfg.Iterations == 0 && cfg.Time == 0 {
		cfg.Time = time.Second
	}
	cfg.Threads = max(cfg.Threads, 1)
	if cfg.Nodes == 0 {
		cfg.Nodes = DefaultNodes
	}
	if cfg.C == 0 {
		cfg.C = DefaultC
	}
	if cfg.Playout == 0 {
		cfg.Playout = DefaultPlayout
	}
	if cfg.Minimax == 0 {
		cfg.Minimax = DefaultMinimax
	}
	if g.Players() != 2 {
		cfg.Minimax = -1 // minimax values need a zero-sum game of two
	}
	m := &MCTS{g: g, cfg: cfg}
	for i := range cfg.Threads {
		m.workers = append(m.workers, &worker{rng: newRand(cfg.Seed, 100+uint64(i))})
	}
	return m, nil
}

// Config returns the player's configuration, defaults filled in.
func (m *MCTS) Config() MCTSConfig { return m.cfg }

// Stats returns figures about the last search.
func (m *MCTS) Stats() Stats { return m.stats }

// Choose implements Player.
func (m *MCTS) Choose(ctx context.Context, s *host.State) (host.Move, error) {
	if s.Over() {
		return host.NoMove, ErrGameOver
	}
	start := time.Now()
	moves := s.Moves()
	if len(moves) == 1 {
		m.stats = Stats{Elapsed: time.Since(start)}
		return moves[0], nil
	}
	var deadline time.Time
	if m.cfg.Time > 0 {
		deadline = start.Add(m.cfg.Time)
	}
	reused := m.prepare(s)
	var done int64 // iterations finished, under m.mu
	budget := int64(m.cfg.Iterations)
	errs := make([]error, len(m.workers))
	var wg sync.WaitGroup
	for i, w := range m.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = w.search(ctx, m, &done, budget, start, deadline)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		m.root = nil // a failed iteration may have left its path half updated
		return host.NoMove, fmt.Errorf("mcts: %w", err)
	}
	m.stats = Stats{Reused: reused, Elapsed: time.Since(start), Iterations: int(done), Nodes: m.nodes}
	best := m.best(s)
	if m.cut {
		m.root, m.cut = nil, false // an iteration stopped by ctx left its path half updated
	}
	return best, nil
}

// best picks the move to play: a move proven to win, else the most
// visited move not proven to lose.
func (m *MCTS) best(s *host.State) host.Move {
	p := s.ToMove()
	pick := func(ok func(*node) bool) (host.Move, bool) {
		var best host.Move
		found, most := false, -1.0
		for _, e := range m.root.edges {
			if ok(e.child) && e.child.visits > most {
				best, most, found = e.move, e.child.visits, true
			}
		}
		return best, found
	}
	if mv, ok := pick(func(c *node) bool { return c.solved && c.winner == p }); ok {
		return mv
	}
	if mv, ok := pick(func(c *node) bool { return !c.solved || c.winner == p || c.winner == 0 }); ok {
		return mv
	}
	if mv, ok := pick(func(*node) bool { return true }); ok {
		return mv
	}
	return s.Moves()[0]
}

// prepare makes the tree's root the position s: the subtree of the
// previous search that reaches s when there is one, a new root otherwise.
// It returns the number of nodes kept.
func (m *MCTS) prepare(s *host.State) int {
	if m.root != nil {
		if n := m.follow(s); n != nil {
			m.root = n
			m.rootState.CopyFrom(s)
			m.reindex()
			return m.nodes
		}
	}
	if m.rootState == nil {
		m.rootState = s.Clone()
	} else {
		m.rootState.CopyFrom(s)
	}
	m.table = map[posKey]*node{}
	m.root = m.newNode(0, s)
	m.table[m.root.key] = m.root
	m.nodes = 1
	return 0
}

// reindex rebuilds the transposition table and the node count from the
// nodes below the root, dropping the rest of the old tree.
func (m *MCTS) reindex() {
	m.table = map[posKey]*node{}
	var walk func(n *node)
	walk = func(n *node) {
		if _, seen := m.table[n.key]; seen {
			return
		}
		m.table[n.key] = n
		for _, e := range n.edges {
			walk(e.child)
		}
	}
	walk(m.root)
	m.nodes = len(m.table)
}

// maxFollow bounds the moves replayed to find the new root in the old tree.
const maxFollow = 4096

// follow finds the node of the old tree whose position is s, replaying the
// tree's moves from the old root down to s's ply; nil when there is none.
func (m *MCTS) follow(s *host.State) *node {
	depth := s.Ply() - m.rootState.Ply()
	if depth < 0 || depth > 16 {
		return nil
	}
	for len(m.find) <= depth {
		m.find = append(m.find, s.Clone())
	}
	m.find[0].CopyFrom(m.rootState)
	budget := maxFollow
	key, reps := s.Key(), s.Repetitions()
	var walk func(n *node, d int) *node
	walk = func(n *node, d int) *node {
		st := m.find[d]
		if d == depth {
			if st.Key() == key && st.Repetitions() == reps {
				return n
			}
			return nil
		}
		for _, e := range n.edges {
			if budget--; budget < 0 {
				return nil
			}
			m.find[d+1].CopyFrom(st)
			if m.find[d+1].Apply(e.move) != nil {
				continue
			}
			if found := walk(e.child, d+1); found != nil {
				return found
			}
		}
		return nil
	}
	return walk(m.root, 0)
}

// newNode makes the node of position s, reached by a move of mover.
func (m *MCTS) newNode(mover int, s *host.State) *node {
	n := &node{mover: mover, toMove: s.ToMove()}
	n.key = posKey{key: s.Key(), reps: int32(s.Repetitions()), mover: int32(mover), ply: int32(s.Ply())}
	if s.Over() {
		n.solved, n.winner, n.expanded = true, s.Outcome().Winner, true
		n.mm, n.hasMM = (result(n.winner, mover)+1)/2, true
		return n
	}
	n.untried = s.AppendMoves(nil)
	return n
}

// search runs iterations until the budget, the deadline or ctx ends them,
// or the root is solved.
func (w *worker) search(ctx context.Context, m *MCTS, done *int64, budget int64, start, deadline time.Time) error {
	w.r = m.g.NewRunner()
	w.r.SetContext(ctx) // a script call stops when ctx ends
	defer w.r.Close()
	w.eval = evaluatorFor(m.g, w.r, m.cfg.Eval)
	if w.work == nil {
		w.work = m.rootState.Clone()
	}
	solver := m.g.Players() == 2
	for w.iter = 0; ; w.iter++ {
		if w.iter&15 == 0 && ctx.Err() != nil {
			return nil
		}
		m.mu.Lock()
		stop := m.root.solved || budget > 0 && *done >= budget
		n := *done
		m.mu.Unlock()
		if stop {
			return nil
		}
		// Stop when half a mean iteration would end past the deadline, so
		// that the budget is kept on average within a fraction of one
		// iteration, the first being always run.
		if !deadline.IsZero() && n > 0 {
			now := time.Now()
			mean := now.Sub(start) * time.Duration(len(m.workers)) / time.Duration(n)
			if !now.Add(mean / 2).Before(deadline) {
				return nil
			}
		}
		if err := w.iterate(m, solver, done, budget); err != nil {
			if canceled(ctx, err) {
				m.mu.Lock()
				m.cut = true // the iteration stopped half-way
				m.mu.Unlock()
				return nil
			}
			return err
		}
	}
}

// iterate runs one iteration: select (adding a virtual loss to the path),
// expand, play out, back up.
func (w *worker) iterate(m *MCTS, solver bool, done *int64, budget int64) error {
	s := w.work
	m.mu.Lock()
	if budget > 0 && *done >= budget || m.root.solved {
		m.mu.Unlock()
		return nil
	}
	*done++ // claimed now, so that threads together keep the budget
	n := m.root
	w.path = append(w.path[:0], n)
	n.visits++ // the virtual loss: a visit whose reward comes at the end
	moves := w.moves[:0]
	for !n.solved && len(n.untried) == 0 && len(moves) < maxPath {
		c, mv := n.selectChild(m.cfg.C, m.cfg.Minimax)
		if c == nil {
			break
		}
		moves = append(moves, mv)
		n = c
		n.visits++
		w.path = append(w.path, n)
	}
	expand := !n.solved && len(n.untried) > 0 && m.nodes < m.cfg.Nodes
	var mv host.Move
	parent := n
	if expand {
		i := w.rng.IntN(len(n.untried))
		mv = n.untried[i]
		n.untried[i] = n.untried[len(n.untried)-1]
		n.untried = n.untried[:len(n.untried)-1]
		n.pending++
		m.nodes++ // reserved, so that threads together keep the cap
	}
	w.moves = moves
	// What the iteration needs of the shared node later is read now,
	// under the lock: another thread may solve it meanwhile.
	nSolved, nWinner := n.solved, n.winner
	m.mu.Unlock()

	s.CopyFrom(m.rootState)
	// A shared position's node can be reached by a history in which a
	// move of its tree is not legal (a rule that looks at the history):
	// the iteration then ends at the last node it could reach.
	reached := len(moves)
	var err error
	for i, x := range moves {
		if !slices.Contains(s.Moves(), x) {
			reached = i
			break
		}
		if err = w.r.Apply(s, x); err != nil {
			break
		}
	}
	if expand && err == nil && reached == len(moves) && (s.Over() || !slices.Contains(s.Moves(), mv)) {
		// The node's position differs here: expand nothing.
		m.mu.Lock()
		parent.pending--
		parent.untried = append(parent.untried, mv)
		m.nodes--
		parent.expanded = false
		m.mu.Unlock()
		expand = false
	}
	if reached < len(moves) {
		m.mu.Lock()
		for _, x := range w.path[reached+1:] {
			x.visits-- // no virtual loss where the iteration did not go
		}
		if expand {
			parent.pending--
			parent.untried = append(parent.untried, mv)
			m.nodes--
			parent.expanded = false
		}
		n, expand = w.path[reached], false
		nSolved, nWinner = n.solved, n.winner
		m.mu.Unlock()
		w.path = w.path[:reached+1]
	}
	var leaf *node
	if err == nil && expand {
		mover := s.ToMove()
		if err = w.r.Apply(s, mv); err == nil {
			leaf = m.newNode(mover, s)
			if m.cfg.Minimax > 0 && !leaf.solved {
				var v float64
				v, err = w.eval.Evaluate(s, mover)
				leaf.mm, leaf.hasMM = (v+1)/2, true
			}
		}
	}
	// The result: exact for a solved node, else a playout's, cut off and
	// scored by the evaluation.
	var reward rewards
	if err == nil {
		if leaf != nil {
			nSolved, nWinner = leaf.solved, leaf.winner // not yet shared
		}
		switch {
		case nSolved:
			reward.exact(nWinner)
		case s.Over():
			reward.exact(s.Outcome().Winner)
		default:
			err = w.playout(m, s, &reward)
		}
	}

	m.mu.Lock()
	defer m.mu.Unlock()
	if expand {
		parent.pending--
		if leaf != nil {
			if old, ok := m.table[leaf.key]; ok && !m.cfg.NoTranspositions {
				leaf = old
				m.nodes--
			} else if !m.cfg.NoTranspositions {
				m.table[leaf.key] = leaf
			}
			parent.edges = append(parent.edges, edge{move: mv, child: leaf})
			leaf.visits++
			w.path = append(w.path, leaf)
		} else {
			m.nodes--
		}
		parent.expanded = len(parent.untried) == 0 && parent.pending == 0
	}
	if err != nil {
		return err
	}
	last := len(w.path) - 1
	for i := last; i >= 0; i-- {
		x := w.path[i]
		x.wins += reward.of(x.mover)
		if solver && !x.solved && i < last && w.path[i+1].solved {
			x.updateSolved()
		}
		if m.cfg.Minimax > 0 {
			x.backupMinimax()
		}
	}
	return nil
}

// playout plays s out at random for the configured plies and scores the
// end: the result when the game is over, the evaluation otherwise.
func (w *worker) playout(m *MCTS, s *host.State, r *rewards) error {
	limit := m.cfg.Playout
	if limit < 0 {
		limit = 0 // no limit
	}
	if _, err := w.r.Playout(s, w.rng, limit); err != nil {
		return err
	}
	if s.Over() {
		r.exact(s.Outcome().Winner)
		return nil
	}
	players := m.g.Players()
	r.cut = true
	for p := 1; p <= min(players, len(r.score)-1); p++ {
		if players == 2 && p == 2 {
			r.score[2] = 1 - r.score[1] // zero-sum: one evaluation serves both
			break
		}
		v, err := w.eval.Evaluate(s, p)
		if err != nil {
			return err
		}
		r.score[p] = (v + 1) / 2
	}
	return nil
}

// rewards is the outcome of an iteration for each player, from 0 to 1.
type rewards struct {
	cut    bool
	winner int
	score  [9]float64 // when cut: by player
}

func (r *rewards) exact(winner int) { r.cut, r.winner = false, winner }

// of is the reward of player p.
func (r *rewards) of(p int) float64 {
	if !r.cut {
		return (result(r.winner, p) + 1) / 2
	}
	if p >= 1 && p < len(r.score) {
		return r.score[p]
	}
	return 0.5
}

// selectChild picks the child with the best UCT value among those not
// solved; nil when every child is solved.
func (n *node) selectChild(c, alpha float64) (*node, host.Move) {
	logN := math.Log(max(n.visits, 1))
	var best *node
	var bestMove host.Move
	bestV := math.Inf(-1)
	for _, e := range n.edges {
		ch := e.child
		if ch.solved {
			if ch.winner == n.toMove && ch.winner != 0 {
				return ch, e.move
			}
			continue
		}
		v := math.Inf(1)
		if ch.visits > 0 {
			q := ch.wins / ch.visits
			if alpha > 0 && ch.hasMM {
				q = (1-alpha)*q + alpha*ch.mm
			}
			v = q + c*math.Sqrt(logN/ch.visits)
		}
		if v > bestV {
			best, bestMove, bestV = ch, e.move, v
		}
	}
	return best, bestMove
}

// backupMinimax sets n's implicit minimax value from its children's: the
// best of them for the player to move, from the side of the player who
// moved into n; the exact value once n is solved.
func (n *node) backupMinimax() {
	if n.solved {
		n.mm, n.hasMM = (result(n.winner, n.mover)+1)/2, true
		return
	}
	best, found := 0.0, false
	for _, e := range n.edges {
		if e.child.hasMM && (!found || e.child.mm > best) {
			best, found = e.child.mm, true
		}
	}
	if !found {
		return
	}
	if n.toMove != n.mover {
		best = 1 - best
	}
	n.mm, n.hasMM = best, true
}

// updateSolved marks n solved when a child wins for the player to move,
// or when every move has its child and all are solved (the best of them:
// a draw if there is one, else a loss).
func (n *node) updateSolved() {
	for _, e := range n.edges {
		if e.child.solved && e.child.winner == n.toMove {
			n.solved, n.winner = true, n.toMove
			return
		}
	}
	if !n.expanded || len(n.edges) == 0 {
		return
	}
	draw := false
	for _, e := range n.edges {
		if !e.child.solved {
			return
		}
		draw = draw || e.child.winner == 0
	}
	n.solved = true
	if draw {
		n.winner = 0
	} else {
		n.winner = n.edges[0].child.winner
	}
}
