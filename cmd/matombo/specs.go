package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/player"
	"github.com/matombo/matombo/host/solve"
)

// checkSpec checks a player spec against game g without keeping the
// player; the error names the bad part and the valid names or options.
func checkSpec(g *host.Game, spec string) error {
	_, err := player.New(g, spec, player.WithSolutions(cliSolutions(io.Discard)))
	return err
}

// newPlayer builds the player of a spec for game g, seeded with seed when
// the spec names no seed of its own; "perfect" plays from the cached
// solution, solving the game (and caching it) when there is none, with
// what that does told on w.
func newPlayer(g *host.Game, spec string, seed uint64, w io.Writer) (player.Player, error) {
	return player.New(g, seeded(spec, seed), player.WithSolutions(cliSolutions(w)))
}

// cliSolutions is the command line's source of solutions: see
// perfectSolution.
func cliSolutions(w io.Writer) player.Solutions {
	return func(ctx context.Context, g *host.Game) (*solve.Solution, error) {
		return perfectSolution(ctx, w, g)
	}
}

// perfectSolution is the solution a perfect player of the command line
// plays from: the cache of 'matombo solve' (of either engine), else a new
// solve by the retrograde engine of at most perfectMaxPositions positions,
// cached for the next time (a larger game is solved first with 'matombo
// solve', which has the search engine). What it does is told on w.
func perfectSolution(ctx context.Context, w io.Writer, g *host.Game) (*solve.Solution, error) {
	sf := defaultSolveFlags()
	sf.engine, sf.maxPos, sf.anyCached = "retrograde", perfectMaxPositions, true
	sol, err := solution(ctx, w, g, sf, false)
	var tl *solve.TooLargeError
	if errors.As(err, &tl) && tl.Why == "" {
		// The solve flags the message names are not this command's.
		return nil, &flagError{err: err, msg: fmt.Sprintf("%s is too large to solve as a game starts (more than %d positions, or %s); "+
			"solve it first with matombo solve, with the same game, variants and parameters: its solution is then read from the cache",
			tl.Game, perfectMaxPositions, solve.FormatBytes(tl.MaxBytes))}
	}
	return sol, err
}

// perfectMaxPositions caps the solve that a perfect player makes itself.
const perfectMaxPositions = 2_000_000

// seeded returns spec with seed=seed added when it names no seed of its
// own, so that players built for different games and seats differ.
func seeded(spec string, seed uint64) string {
	sp, err := player.ParseSpec(spec)
	if err != nil {
		return spec
	}
	if _, ok := sp.Get("seed"); ok {
		return spec
	}
	return sp.With("seed", strconv.FormatUint(seed, 10)).String()
}

// specHelp lists the players for help texts.
func specHelp() string {
	var b strings.Builder
	for _, line := range player.Describe() {
		fmt.Fprintf(&b, "  %s\n", line)
	}
	return b.String()
}
