package player_test

import (
	"context"
	"fmt"

	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host/player"
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
	// Output: player "mcts:depth=3": mcts has no option "depth" (valid: iterations, time, threads, nodes, c, playout, eval, seed)
}
