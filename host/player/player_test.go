package player

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host"
)

// testSpecs are the players the tests run, with small budgets.
var testSpecs = []string{"random:seed=1", "greedy:seed=1", "mcts:iterations=16,seed=1", "mcts:iterations=16,threads=2,seed=1", "alphabeta:depth=2"}

// shippedGames loads every shipped game in every named variant.
func shippedGames(t *testing.T) map[string]*host.Game {
	t.Helper()
	lib := games.Library()
	out := map[string]*host.Game{}
	for _, name := range lib.Games() {
		g, err := lib.Load(name)
		require.NoError(t, err)
		for _, v := range g.Variants() {
			gv, err := lib.Load(name, host.WithVariant(v.Name))
			require.NoError(t, err, v.Name)
			out[name+"/"+v.Name] = gv
		}
	}
	require.NotEmpty(t, out)
	return out
}

// samplePositions returns states of g to test players on: the opening,
// states after random plies, and for every kind of move one state where
// that kind is legal (so players are tried at every decision kind, such as
// a continue/stop choice or a bonus capture).
func samplePositions(t *testing.T, g *host.Game, seed uint64) []*host.State {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	out := []*host.State{g.Start()}
	kinds := map[uint8]bool{}
	// Up to 400 games: a kind may be rare (Achi's pass comes in about one random game of 80).
	for game := 0; game < 400 && (len(out) < 6 || len(kinds) < len(g.MoveKinds())); game++ {
		s := g.Start()
		stop := 3 + rng.IntN(40)
		for !s.Over() && s.Ply() < 2000 {
			for _, m := range s.Moves() {
				if !kinds[m.Kind] && s.Ply() > 0 {
					kinds[m.Kind] = true
					out = append(out, s.Clone())
				}
			}
			if s.Ply() == stop && len(out) < 6 {
				out = append(out, s.Clone())
			}
			ok, err := host.PlayRandom(s, rng)
			require.NoError(t, err)
			if !ok {
				break
			}
		}
	}
	return out
}

// No player returns an illegal move, in any shipped game, from the opening,
// from random positions and at every kind of decision; and no player
// changes the state it is given.
func TestLegalMoves(t *testing.T) {
	for name, g := range shippedGames(t) {
		positions := samplePositions(t, g, 1)
		if strings.HasSuffix(name, "/standard") || strings.HasPrefix(name, "yematatu/") {
			seen := map[uint8]bool{}
			for _, s := range positions {
				for _, m := range s.Moves() {
					seen[m.Kind] = true
				}
			}
			require.Len(t, seen, len(g.MoveKinds()), "%s: a position for every kind of decision", name)
		}
		for _, spec := range testSpecs {
			t.Run(name+"/"+spec, func(t *testing.T) {
				p, err := New(g, spec)
				require.NoError(t, err)
				for _, s := range positions {
					if s.Over() {
						continue
					}
					key, ply, legal := s.Key(), s.Ply(), slices.Clone(s.Moves())
					m, err := p.Choose(context.Background(), s)
					require.NoError(t, err)
					assert.Contains(t, legal, m, "ply %d", s.Ply())
					assert.Equal(t, key, s.Key(), "the state was changed")
					assert.Equal(t, ply, s.Ply(), "the state was changed")
					assert.Equal(t, legal, s.Moves(), "the state was changed")
				}
			})
		}
	}
}

// Whole games between the players end with legal moves only (Apply
// refuses illegal ones), in the quick games.
func TestWholeGames(t *testing.T) {
	lib := games.Library()
	for _, tc := range []struct{ game, variant string }{{"yematatu", "triangle"}, {"yematatu", "square"}, {"tsoro", "4x6"}} {
		g, err := lib.Load(tc.game, host.WithVariant(tc.variant))
		require.NoError(t, err)
		for i, a := range testSpecs {
			b := testSpecs[(i+2)%len(testSpecs)]
			t.Run(fmt.Sprintf("%s-%s/%s-%s", tc.game, tc.variant, a, b), func(t *testing.T) {
				pa, err := New(g, a)
				require.NoError(t, err)
				pb, err := New(g, b)
				require.NoError(t, err)
				s := g.Start()
				for !s.Over() && s.Ply() < 300 {
					p := pa
					if s.ToMove() == 2 {
						p = pb
					}
					m, err := p.Choose(context.Background(), s)
					require.NoError(t, err)
					require.NoError(t, s.Apply(m), "ply %d", s.Ply())
				}
			})
		}
	}
}

// With a seed and an iteration or depth budget, a player's choices are
// the same every time (with one thread: threads share one tree in the
// order the machine runs them).
func TestDeterministic(t *testing.T) {
	for name, g := range map[string]*host.Game{"tsoro-4x8": load(t, "tsoro", "4x8"), "gore": load(t, "gore", "standard"), "yematatu-square": load(t, "yematatu", "square")} {
		positions := samplePositions(t, g, 3)[:4]
		for _, spec := range []string{"random:seed=5", "greedy:seed=5", "mcts:iterations=24,seed=5", "mcts:iterations=24,playout=end,seed=5", "alphabeta:depth=3", "alphabeta:nodes=300"} {
			t.Run(name+"/"+spec, func(t *testing.T) {
				choices := func() []host.Move {
					p, err := New(g, spec)
					require.NoError(t, err)
					var out []host.Move
					for _, s := range positions {
						if s.Over() {
							continue
						}
						m, err := p.Choose(context.Background(), s)
						require.NoError(t, err)
						out = append(out, m)
					}
					return out
				}
				assert.Equal(t, choices(), choices())
			})
		}
	}
}

// alphabeta's node budget stops the deepening once a search has searched
// that many positions, keeping the last completed depth: a larger budget
// searches deeper, and neither goes far past its budget.
func TestAlphaBetaNodeBudget(t *testing.T) {
	g := load(t, "kalah", "standard")
	s := g.Start()
	var depths []int
	for _, budget := range []int{200, 5000} {
		p, err := NewAlphaBeta(g, AlphaBetaConfig{Nodes: budget, Seed: 1})
		require.NoError(t, err)
		_, err = p.Choose(context.Background(), s)
		require.NoError(t, err)
		st := p.Stats()
		assert.LessOrEqual(t, st.Iterations, budget+64, "budget %d", budget)
		assert.GreaterOrEqual(t, st.Depth, 1, "budget %d", budget)
		depths = append(depths, st.Depth)
	}
	assert.Less(t, depths[0], depths[1])
	_, err := NewAlphaBeta(g, AlphaBetaConfig{Nodes: -1})
	assert.ErrorContains(t, err, "negative node budget")
}

// A finished game has no move to choose.
func TestGameOver(t *testing.T) {
	g := load(t, "yematatu", "triangle")
	s := replay(t, g, "c2", "b1", "b2", "c3", "a1")
	require.True(t, s.Over())
	for _, n := range Names() {
		p, err := New(g, n+":seed=1", WithSolutions(Solver()))
		require.NoError(t, err)
		_, err = p.Choose(context.Background(), s)
		assert.ErrorIs(t, err, ErrGameOver, n)
	}
}

// A cancelled context ends a search at once with a legal move.
func TestCancelled(t *testing.T) {
	g := load(t, "tsoro", "standard")
	s := g.Start()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, spec := range []string{"mcts:time=1h", "alphabeta:time=1h"} {
		p, err := New(g, spec)
		require.NoError(t, err)
		m, err := p.Choose(ctx, s)
		require.NoError(t, err)
		assert.Contains(t, s.Moves(), m, spec)
	}
}

// A context that ends in the middle of a search (inside a script call,
// too) ends it with a legal move, not an error.
func TestContextEndsSearch(t *testing.T) {
	g := load(t, "gore", "standard")
	s := g.Start()
	for _, spec := range []string{"mcts:time=1h", "mcts:time=1h,threads=2", "alphabeta:time=1h"} {
		p, err := New(g, spec)
		require.NoError(t, err)
		for range 2 { // and again after a search cut short
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
			m, err := p.Choose(ctx, s)
			cancel()
			require.NoError(t, err, spec)
			assert.Contains(t, s.Moves(), m, spec)
		}
	}
}

// The node cap bounds a tree; a kept player reuses the subtree of the
// position it is asked about next.
func TestMCTSNodesAndReuse(t *testing.T) {
	g := load(t, "tsoro", "4x8")
	p, err := New(g, "mcts:iterations=500,nodes=100,seed=1")
	require.NoError(t, err)
	s := g.Start()
	_, err = p.Choose(context.Background(), s)
	require.NoError(t, err)
	assert.LessOrEqual(t, p.(*MCTS).Stats().Nodes, 100)

	p, err = New(g, "mcts:iterations=2000,seed=1")
	require.NoError(t, err)
	s = g.Start()
	m, err := p.Choose(context.Background(), s)
	require.NoError(t, err)
	require.NoError(t, s.Apply(m))
	for s.ToMove() == 1 && !s.Over() { // finish Player 1's turn
		m, err = p.Choose(context.Background(), s)
		require.NoError(t, err)
		require.NoError(t, s.Apply(m))
	}
	require.NoError(t, s.Apply(s.Moves()[0])) // Player 2's first decision
	_, err = p.Choose(context.Background(), s)
	require.NoError(t, err)
	st := p.(*MCTS).Stats()
	assert.Positive(t, st.Reused, "the tree below the position was kept")
	assert.Equal(t, 2000, st.Iterations)
}

// Threads share one tree: together they run the iteration budget exactly
// and keep the node cap, and every virtual loss is taken back (a node's
// visits are the iterations that went through it, so the root's children
// add up to the iterations that left the root).
func TestMCTSThreadsShareOneTree(t *testing.T) {
	for _, name := range []string{"kalah", "oware", "tsoro"} {
		g, err := games.Library().Load(name)
		require.NoError(t, err)
		p, err := NewMCTS(g, MCTSConfig{Iterations: 600, Threads: 4, Nodes: 300, Seed: 1})
		require.NoError(t, err)
		s := g.Start()
		_, err = p.Choose(context.Background(), s)
		require.NoError(t, err, name)
		st := StatsOf(p)
		assert.Equal(t, 600, st.Iterations, name)
		assert.LessOrEqual(t, st.Nodes, 300, name)
		assert.Equal(t, 600.0, p.root.visits, name)
		children := 0.0
		for _, e := range p.root.edges {
			children += e.child.visits
		}
		assert.LessOrEqual(t, children, 600.0, name)
		assert.Greater(t, children, 500.0, "%s: most iterations expand or visit a child", name)
	}
}

// The implicit minimax value of a node is the best of its children's for
// the player to move, seen from the player who moved into it.
func TestBackupMinimax(t *testing.T) {
	n := &node{mover: 1, toMove: 2, edges: []edge{
		{child: &node{mover: 2, mm: 0.3, hasMM: true}},
		{child: &node{mover: 2, mm: 0.8, hasMM: true}},
		{child: &node{mover: 2}},
	}}
	n.backupMinimax()
	assert.True(t, n.hasMM)
	assert.InDelta(t, 0.2, n.mm, 1e-9, "Player 2 picks 0.8, worth 0.2 to Player 1")
	same := &node{mover: 1, toMove: 1, edges: []edge{{child: &node{mover: 1, mm: 0.6, hasMM: true}}}}
	same.backupMinimax()
	assert.InDelta(t, 0.6, same.mm, 1e-9, "a turn that goes on keeps the side")
	won := &node{mover: 2, solved: true, winner: 2}
	won.backupMinimax()
	assert.Equal(t, 1.0, won.mm)
}

func load(t *testing.T, name, variant string) *host.Game {
	t.Helper()
	g, err := games.Library().Load(name, host.WithVariant(variant))
	require.NoError(t, err)
	return g
}

func replay(t *testing.T, g *host.Game, tokens ...string) *host.State {
	t.Helper()
	s := g.Start()
	for _, tok := range tokens {
		require.NoError(t, s.Play(tok), tok)
	}
	return s
}
