package server

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/player"
)

// humanSeat is the seat spec of a person.
const humanSeat = "human"

// perfectSeat is the computer seat that plays from a game's solution;
// the server prepares it (see PerfectBudget) instead of its PlayerFactory.
const perfectSeat = "perfect"

// checkSeats makes each allowed computer seat, as a client that names
// only its player gets it, for g (the first game of the library that
// loads, nil for none), so that a seat its players do not understand
// fails when the server starts.
func checkSeats(g *host.Game, seats computerSeats, players PlayerFactory) error {
	if g == nil {
		return nil // no game: no seat to make
	}
	for _, cs := range seats {
		if cs.Name == perfectSeat {
			continue
		}
		spec, err := seats.allow(cs.Name)
		if err == nil {
			_, err = players(g, spec)
		}
		if err != nil {
			return &SeatError{Spec: cs.String(), Problem: err.Error()}
		}
	}
	return nil
}

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

// seatName is a seat as a player reads it: "a person", or the computer
// by what it plays like ("Computer (strong, 2 s a move)", "Computer
// (random)"), never its spec, which the page shows apart.
func seatName(spec string) string {
	if spec == humanSeat {
		return "a person"
	}
	sp, err := player.ParseSpec(spec)
	if err != nil {
		return "Computer"
	}
	setting := func(key string) string {
		for _, s := range sp.Settings {
			if s.Key == key {
				return s.Value
			}
		}
		return ""
	}
	var words []string
	switch sp.Name {
	case "random":
		words = append(words, "random moves")
	case "greedy":
		words = append(words, "easy")
	case "mcts":
		words = append(words, "strong")
	case "alphabeta":
		words = append(words, "strong, looks ahead")
		if d := setting("depth"); d != "" && setting("time") == "" {
			words = append(words, d+" moves ahead")
		}
	case perfectSeat:
		words = append(words, "perfect play")
	default:
		words = append(words, sp.Name)
	}
	if t := setting("time"); t != "" {
		if d, err := time.ParseDuration(t); err == nil && d > 0 {
			words = append(words, strconv.FormatFloat(d.Seconds(), 'f', -1, 64)+" s a move")
		}
	}
	return "Computer (" + strings.Join(words, ", ") + ")"
}
