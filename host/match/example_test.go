package match_test

import (
	"context"
	"fmt"

	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/match"
	"github.com/matombo/matombo/host/player"
)

// A seeded MCTS with an evaluation written in Go plays 40 games against
// random moves, two games at a time, through the library's runner.
func ExampleRun() {
	g, err := games.Library().Load("yematatu", host.WithVariant("square"))
	if err != nil {
		fmt.Println(err)
		return
	}
	// Mobility: the more moves the player to move has, the better for them.
	mobility := player.EvaluatorFunc(func(s *host.State, p int) (float64, error) {
		v := float64(len(s.Moves())) / 10
		if s.ToMove() != p {
			v = -v
		}
		return v, nil
	})
	mcts := match.Entrant{Name: "mcts", New: func(seed uint64) (player.Player, error) {
		return player.NewMCTS(g, player.MCTSConfig{Iterations: 200, Playout: 6, Seed: seed, Eval: mobility})
	}}
	random := match.Entrant{Name: "random", New: func(seed uint64) (player.Player, error) {
		return player.NewRandom(seed), nil
	}}
	res, err := match.Run(context.Background(), g, mcts, random, match.WithGames(40), match.WithParallel(2))
	if err != nil {
		fmt.Println(err)
		return
	}
	sum := res.Summary()
	fmt.Printf("%d games: mcts %d wins, %d draws, %d losses\n", sum.Games, sum.Wins[0], sum.Draws, sum.Wins[1])
	fmt.Printf("score %.2f, Wilson interval %.2f to %.2f\n", sum.Score, sum.ScoreLow, sum.ScoreHigh)
	// Output:
	// 40 games: mcts 40 wins, 0 draws, 0 losses
	// score 1.00, Wilson interval 0.91 to 1.00
}
