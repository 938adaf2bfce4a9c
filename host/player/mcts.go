package player

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/matombo/matombo/host"
)

// mctsKind is Monte Carlo tree search.
var mctsKind = kind{
	name:    "mcts",
	about:   "Monte Carlo tree search (UCT over random playouts, MCTS-Solver, tree reuse, root parallelism); default time=1s",
	options: []string{"iterations", "time", "threads", "nodes", "c", "eval"},
	build: func(g *host.Game, st settings) (Player, error) {
		if st.iterations == 0 && st.time == 0 {
			st.time = time.Second
		}
		return newMCTS(g, st), nil
	},
}

// MCTS is a Monte Carlo tree search player: UCT over uniformly random
// playouts. Proven wins and losses propagate up the tree (MCTS-Solver, for
// two-player games), so a forced win is played as soon as it is proven.
// With threads > 1 every goroutine grows its own tree from the same root
// and the trees' visit counts are added (root parallelism). Kept across
// moves, the player reuses the part of its trees below the new position.
//
// Values in a node are from the side of the player who moved into it, so
// a turn of several decisions by one player needs nothing special.
type MCTS struct {
	g     *host.Game
	st    settings
	trees []*tree
	stats Stats
}

// Stats describes the last search of a player.
type Stats struct {
	Iterations int           // playouts, or visits of solved leaves
	Nodes      int           // nodes in the trees after the search
	Reused     int           // nodes kept from the previous search
	Elapsed    time.Duration // time the search took
	Depth      int           // alpha-beta: the deepest iteration completed
}

// newMCTS returns an MCTS player with the settings of a spec.
func newMCTS(g *host.Game, st settings) *MCTS {
	m := &MCTS{g: g, st: st}
	for i := range st.threads {
		m.trees = append(m.trees, &tree{rng: newRand(st.seed, 100+uint64(i))})
	}
	return m
}

// Stats returns figures about the last search.
func (m *MCTS) Stats() Stats { return m.stats }

// node is a position of the tree, reached by move from its parent.
type node struct {
	move     host.Move
	mover    int     // who played move
	toMove   int     // whose decision it is here
	visits   float64 // iterations through this node
	wins     float64 // their rewards, from mover's side (win 1, draw 0.5)
	solved   bool    // the result with best play is known
	winner   int     // when solved: the winner, 0 for a draw
	children []*node
	untried  []host.Move
}

// tree is one goroutine's search tree with its random source and scratch
// state.
type tree struct {
	rng       *rand.Rand
	r         *host.Runner // the runner of the current search
	eval      Evaluator
	root      *node
	rootState *host.State
	work      *host.State
	find      []*host.State
	nodes     int
	path      []*node
	iters     int
}

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
	if m.st.time > 0 {
		deadline = start.Add(m.st.time)
	}
	reused := 0
	for _, t := range m.trees {
		reused += t.prepare(s)
	}
	errs := make([]error, len(m.trees))
	var wg sync.WaitGroup
	for i, t := range m.trees {
		budget := 0
		if m.st.iterations > 0 {
			budget = m.st.iterations / len(m.trees)
			if i < m.st.iterations%len(m.trees) {
				budget++
			}
			budget = max(budget, 1)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = t.search(ctx, m, budget, deadline)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		for _, t := range m.trees {
			t.root = nil // a failed iteration may have left its path half updated
		}
		return host.NoMove, fmt.Errorf("mcts: %w", err)
	}
	m.stats = Stats{Reused: reused, Elapsed: time.Since(start)}
	for _, t := range m.trees {
		m.stats.Iterations += t.iters
		m.stats.Nodes += t.nodes
	}
	return m.best(s), nil
}

// best picks the move to play from the trees: a move proven to win, else
// the most visited move not proven to lose.
func (m *MCTS) best(s *host.State) host.Move {
	p := s.ToMove()
	type tally struct {
		visits      float64
		win, losing bool
	}
	var order []host.Move
	tallies := map[host.Move]*tally{}
	for _, t := range m.trees {
		for _, c := range t.root.children {
			tl := tallies[c.move]
			if tl == nil {
				tl = &tally{}
				tallies[c.move] = tl
				order = append(order, c.move)
			}
			tl.visits += c.visits
			if c.solved {
				tl.win = tl.win || c.winner == p
				tl.losing = tl.losing || (c.winner != p && c.winner != 0)
			}
		}
	}
	if len(order) == 0 {
		return s.Moves()[0]
	}
	pick := func(ok func(*tally) bool) (host.Move, bool) {
		var best host.Move
		found, most := false, -1.0
		for _, mv := range order {
			if tl := tallies[mv]; ok(tl) && tl.visits > most {
				best, most, found = mv, tl.visits, true
			}
		}
		return best, found
	}
	if mv, ok := pick(func(tl *tally) bool { return tl.win }); ok {
		return mv
	}
	if mv, ok := pick(func(tl *tally) bool { return !tl.losing }); ok {
		return mv
	}
	mv, _ := pick(func(*tally) bool { return true })
	return mv
}

// prepare makes the tree's root the position s: the subtree of the
// previous search that reaches s when there is one, a new root otherwise.
// It returns the number of nodes kept.
func (t *tree) prepare(s *host.State) int {
	if t.work == nil {
		t.work = s.Clone()
	}
	if t.root != nil {
		if n := t.follow(s); n != nil {
			t.root = n
			t.rootState.CopyFrom(s)
			t.nodes = count(n)
			return t.nodes
		}
	}
	if t.rootState == nil {
		t.rootState = s.Clone()
	} else {
		t.rootState.CopyFrom(s)
	}
	t.root = newNode(host.NoMove, 0, s)
	t.nodes = 1
	return 0
}

// maxFollow bounds the moves replayed to find the new root in the old tree.
const maxFollow = 4096

// follow finds the node of the old tree whose position is s, replaying the
// tree's moves from the old root down to s's ply; nil when there is none.
func (t *tree) follow(s *host.State) *node {
	depth := s.Ply() - t.rootState.Ply()
	if depth < 0 || depth > 16 {
		return nil
	}
	for len(t.find) <= depth {
		t.find = append(t.find, s.Clone())
	}
	t.find[0].CopyFrom(t.rootState)
	budget := maxFollow
	key, reps := s.Key(), s.Repetitions()
	var walk func(n *node, d int) *node
	walk = func(n *node, d int) *node {
		st := t.find[d]
		if d == depth {
			if st.Key() == key && st.Repetitions() == reps {
				return n
			}
			return nil
		}
		for _, c := range n.children {
			if budget--; budget < 0 {
				return nil
			}
			t.find[d+1].CopyFrom(st)
			if t.find[d+1].Apply(c.move) != nil {
				continue
			}
			if found := walk(c, d+1); found != nil {
				return found
			}
		}
		return nil
	}
	return walk(t.root, 0)
}

// count is the number of nodes in a subtree.
func count(n *node) int {
	k := 1
	for _, c := range n.children {
		k += count(c)
	}
	return k
}

// newNode makes the node of position s, reached by move played by mover.
func newNode(move host.Move, mover int, s *host.State) *node {
	n := &node{move: move, mover: mover, toMove: s.ToMove()}
	if s.Over() {
		n.solved, n.winner = true, s.Outcome().Winner
		return n
	}
	n.untried = s.AppendMoves(nil)
	return n
}

// search runs iterations until the budget, the deadline or ctx ends them,
// or the root is solved.
func (t *tree) search(ctx context.Context, m *MCTS, budget int, deadline time.Time) error {
	t.iters = 0
	t.r = m.g.NewRunner()
	defer t.r.Close()
	t.eval = evaluatorFor(m.g, t.r, m.st.generic)
	solver := m.g.Players() == 2
	start := time.Now()
	for !t.root.solved {
		if budget > 0 && t.iters >= budget {
			return nil
		}
		if t.iters&15 == 0 && ctx.Err() != nil {
			return nil
		}
		// Stop when half a mean iteration would end past the deadline, so
		// that the budget is kept on average within a fraction of one
		// iteration, the first being always run.
		if !deadline.IsZero() && t.iters > 0 {
			now := time.Now()
			mean := now.Sub(start) / time.Duration(t.iters)
			if !now.Add(mean / 2).Before(deadline) {
				return nil
			}
		}
		if err := t.iterate(m, solver); err != nil {
			return err
		}
		t.iters++
	}
	return nil
}

// iterate runs one iteration: select, expand, play out, back up.
func (t *tree) iterate(m *MCTS, solver bool) error {
	s := t.work
	s.CopyFrom(t.rootState)
	n := t.root
	t.path = append(t.path[:0], n)
	for !n.solved && len(n.untried) == 0 {
		c := n.selectChild(m.st.c)
		if c == nil {
			break
		}
		if err := t.r.Apply(s, c.move); err != nil {
			return err
		}
		n = c
		t.path = append(t.path, n)
	}
	if !n.solved && len(n.untried) > 0 && t.nodes < m.st.nodes {
		i := t.rng.IntN(len(n.untried))
		mv := n.untried[i]
		n.untried[i] = n.untried[len(n.untried)-1]
		n.untried = n.untried[:len(n.untried)-1]
		mover := s.ToMove()
		if err := t.r.Apply(s, mv); err != nil {
			return err
		}
		c := newNode(mv, mover, s)
		n.children = append(n.children, c)
		t.nodes++
		n = c
		t.path = append(t.path, n)
	}
	// The result: exact for a solved node, else a random playout's.
	var winner int
	var score1 float64 // Player 1's reward when the playout was cut short
	cut := false
	switch {
	case n.solved:
		winner = n.winner
	default:
		if _, err := t.r.Playout(s, t.rng, 0); err != nil {
			return err
		}
		if s.Over() {
			winner = s.Outcome().Winner
		} else {
			cut = true
			v, err := t.eval.Evaluate(s, 1)
			if err != nil {
				return err
			}
			score1 = (v + 1) / 2
		}
	}
	for i := len(t.path) - 1; i >= 0; i-- {
		x := t.path[i]
		x.visits++
		switch {
		case cut && x.mover == 1:
			x.wins += score1
		case cut:
			x.wins += 1 - score1
		default:
			x.wins += (result(winner, x.mover) + 1) / 2
		}
		if solver && !x.solved && i < len(t.path)-1 && t.path[i+1].solved {
			x.updateSolved()
		}
	}
	return nil
}

// selectChild picks the child with the best UCT value among those not
// solved; nil when every child is solved.
func (n *node) selectChild(c float64) *node {
	logN := math.Log(max(n.visits, 1))
	var best *node
	bestV := math.Inf(-1)
	for _, ch := range n.children {
		if ch.solved {
			if ch.winner == n.toMove && ch.winner != 0 {
				return ch
			}
			continue
		}
		v := ch.wins/ch.visits + c*math.Sqrt(logN/ch.visits)
		if v > bestV {
			best, bestV = ch, v
		}
	}
	return best
}

// updateSolved marks n solved when a child wins for the player to move,
// or when every move is expanded and solved (the best of them: a draw if
// there is one, else a loss).
func (n *node) updateSolved() {
	for _, ch := range n.children {
		if ch.solved && ch.winner == n.toMove {
			n.solved, n.winner = true, n.toMove
			return
		}
	}
	if len(n.untried) > 0 || len(n.children) == 0 {
		return
	}
	draw := false
	for _, ch := range n.children {
		if !ch.solved {
			return
		}
		draw = draw || ch.winner == 0
	}
	n.solved = true
	if draw {
		n.winner = 0
	} else {
		n.winner = n.children[0].winner
	}
}
