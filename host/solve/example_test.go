package solve_test

import (
	"context"
	"fmt"

	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/solve"
)

func ExampleSolve() {
	g, err := games.Library().Load("yematatu", host.WithVariant("square"))
	if err != nil {
		panic(err)
	}
	sol, err := solve.Solve(context.Background(), g)
	if err != nil {
		panic(err)
	}
	o := sol.Opening()
	fmt.Printf("%d positions; the opening is a %s for Player %d in %d plies\n", sol.Positions(), o.Value, o.ToMove, o.Plies)
	// Output: 5390 positions; the opening is a win for Player 1 in 9 plies
}

func ExampleSolution_Moves() {
	g, err := games.Library().Load("yematatu", host.WithVariant("square"))
	if err != nil {
		panic(err)
	}
	sol, err := solve.Solve(context.Background(), g)
	if err != nil {
		panic(err)
	}
	s := g.Start()
	for _, tok := range []string{"b2", "a1"} {
		if err := s.Play(tok); err != nil {
			panic(err)
		}
	}
	moves, err := sol.Moves(s)
	if err != nil {
		panic(err)
	}
	for _, mv := range moves {
		if mv.Value == solve.Win {
			fmt.Println(mv.Token, "wins in", mv.Plies, "plies")
		}
	}
	// Output:
	// b3 wins in 7 plies
	// c2 wins in 7 plies
}
