package server

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/matombo/matombo/host"
)

// humanSeat is the seat spec of a person.
const humanSeat = "human"

// RandomPlayers is the default PlayerFactory: it knows only "random", a
// player that picks a legal move uniformly at random.
func RandomPlayers(g *host.Game, spec string) (Player, error) {
	if strings.TrimSpace(spec) != "random" {
		return nil, fmt.Errorf("unknown player %q (allowed: human, random)", spec)
	}
	return randomPlayer{}, nil
}

type randomPlayer struct{}

// Choose picks a legal move of s uniformly at random.
func (randomPlayer) Choose(ctx context.Context, s *host.State) (host.Move, error) {
	return randomMove(s)
}

// randomMove picks a legal move of s uniformly at random.
func randomMove(s *host.State) (host.Move, error) {
	moves := s.Moves()
	if len(moves) == 0 {
		return host.Move{}, fmt.Errorf("no legal move: the game is over")
	}
	return moves[rand.IntN(len(moves))], nil
}
