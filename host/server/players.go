package server

import (
	"fmt"
	"math/rand/v2"

	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/player"
)

// humanSeat is the seat spec of a person.
const humanSeat = "human"

// defaultComputers are the computer players the new-game form offers, the
// first one by default.
var defaultComputers = []string{"mcts:time=1s", "alphabeta:time=500ms", "greedy", "random"}

// ProjectPlayers is the default PlayerFactory: the computer players of
// package player, from specs such as "random", "greedy", "mcts:time=1s" or
// "alphabeta:depth=4" (see docs/players.md).
func ProjectPlayers(g *host.Game, spec string) (Player, error) {
	p, err := player.New(g, spec)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// randomMove picks a legal move of s uniformly at random: what a computer
// seat plays when its player fails or does not answer in time.
func randomMove(s *host.State) (host.Move, error) {
	moves := s.Moves()
	if len(moves) == 0 {
		return host.Move{}, fmt.Errorf("no legal move: the game is over")
	}
	return moves[rand.IntN(len(moves))], nil
}
