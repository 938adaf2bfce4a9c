package player_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/player"
	"github.com/matombo/matombo/host/solve"
)

// A computer player chooses the winning drop in Tsoro Yematatu: Player 1
// has c2 and b2, and a1 completes the line a1-b2-c2.
func ExampleNew() {
	g, err := games.Library().Load("yematatu")
	if err != nil {
		fmt.Println(err)
		return
	}
	s := g.Start()
	for _, tok := range []string{"c2", "b1", "b2", "c3"} {
		if err := s.Play(tok); err != nil {
			fmt.Println(err)
			return
		}
	}
	p, err := player.New(g, "mcts:iterations=500,seed=1")
	if err != nil {
		fmt.Println(err)
		return
	}
	m, err := p.Choose(context.Background(), s)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(g.Token(m))
	// Output: a1
}

// Unknown names and options are refused with the valid ones.
func ExampleNew_errors() {
	g, _ := games.Library().Load("yematatu")
	_, err := player.New(g, "mcts:depth=3")
	fmt.Println(err)
	// Output: player "mcts:depth=3": mcts has no option "depth" (valid: iterations, time, threads, nodes, c, playout, minimax, eval, seed)
}

// An MCTS player built from its configuration, with an evaluation written
// in Go: Player 1's pieces on the board minus Player 2's, as a share of
// the sites. Its playouts stop after 4 plies and are scored by it.
func ExampleNewMCTS() {
	g, err := games.Library().Load("yematatu", host.WithVariant("square"))
	if err != nil {
		fmt.Println(err)
		return
	}
	pieces := player.EvaluatorFunc(func(s *host.State, p int) (float64, error) {
		n := s.Game().Board().NumSites()
		v := 0
		for i := range n {
			switch s.Owner(i) {
			case p:
				v++
			case 0:
			default:
				v--
			}
		}
		return float64(v) / float64(n), nil
	})
	p, err := player.NewMCTS(g, player.MCTSConfig{Iterations: 1000, Playout: 4, Seed: 1, Eval: pieces})
	if err != nil {
		fmt.Println(err)
		return
	}
	s := g.Start()
	m, err := p.Choose(context.Background(), s)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(g.Token(m), p.Stats().Iterations, "iterations")
	// Output: b2 1000 iterations
}

// Perfect play needs a solution source: here the game is solved in memory
// within the caller's context, at most 100,000 positions.
func ExampleNewPerfect() {
	g, err := games.Library().Load("yematatu", host.WithVariant("triangle"))
	if err != nil {
		fmt.Println(err)
		return
	}
	p, err := player.NewPerfect(context.Background(), g, player.Solver(solve.WithMaxPositions(100_000)))
	if err != nil {
		fmt.Println(err)
		return
	}
	s := g.Start()
	m, err := p.Choose(context.Background(), s)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("perfect opens with", g.Token(m))

	// Too few positions: the solver's own error is the cause.
	_, err = player.NewPerfect(context.Background(), g, player.Solver(solve.WithMaxPositions(10)))
	var tooLarge *solve.TooLargeError
	fmt.Println(errors.As(err, &tooLarge))
	// Output:
	// perfect opens with a1
	// true
}
