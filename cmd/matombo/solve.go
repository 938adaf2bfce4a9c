package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"time"

	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/solve"
)

const solveAbout = `
Computes the exact value of every position reachable from the opening by
retrograde analysis, with the rule script as the only rules, and prints
the value of the opening for Player 1 (win, draw or loss), the number of
plies to the end under perfect play when it is decided (the winner
hurries, the loser delays), and how many positions are won, drawn and lost
for the player to move.

A position is what the repetition rules compare: where the pieces stand,
the hands, captured totals, the script's variables and who is to move. A
position from which either side can keep the game going for ever is a
draw, which is what a third-repetition rule gives under perfect play. The
game's ply cap is not applied.

Before starting, solve prints (on stderr) how much memory the allowed
number of positions would take; a game with more positions is refused.
The solution is cached under the user's cache directory, keyed by the
game's script, variants and parameters, so that a later solve, 'matombo
hint' and the perfect player load it. docs/analysis.md has the details.`

// solveReport is what --json writes.
type solveReport struct {
	Game        string         `json:"game"`
	Params      map[string]any `json:"params"`
	Positions   int            `json:"positions"`
	Terminal    int            `json:"terminal"`
	Value       string         `json:"value"`
	Plies       *int           `json:"plies,omitempty"`
	Counts      solve.Counts   `json:"counts"`
	Fingerprint string         `json:"fingerprint"`
}

// runSolve is `matombo solve GAME`.
func runSolve(e *env, args []string) int {
	c := newCLI(e, "solve", "GAME [--variant NAME] [--param key=value] [--max-positions N] [--fresh] [--json]", solveAbout)
	var gf gameFlags
	gf.register(c.fs, true)
	maxPos := c.intFlag("max-positions", solve.DefaultMaxPositions, 1, maxPositions, "refuse games with more than `N` positions")
	fresh := c.fs.Bool("fresh", false, "solve again even when a cached solution exists")
	asJSON := c.fs.Bool("json", false, "write the result as one JSON object")
	name, _, status, ok := c.parseGame(args, false)
	if !ok {
		return status
	}
	if *maxPos < 1 {
		return c.usageError("--max-positions %d: want a positive number", *maxPos)
	}
	g, err := gf.open(name)
	if err != nil {
		return c.fail(err)
	}
	sol, err := solution(e.stderr, g, *maxPos, *fresh)
	if err != nil {
		return c.fail(err)
	}
	open := sol.Opening()
	rep := solveReport{
		Game: g.Name(), Params: paramMap(g), Positions: sol.Positions(), Terminal: sol.Terminals(),
		Value: open.Value.For(1, open.ToMove).String(), Counts: sol.Counts(), Fingerprint: sol.Fingerprint(),
	}
	if open.Value != solve.Draw {
		rep.Plies = &open.Plies
	}
	if *asJSON {
		if err := json.NewEncoder(e.stdout).Encode(rep); err != nil {
			return c.fail(err)
		}
		return exitOK
	}
	writeSolveReport(e.stdout, g, rep)
	return exitOK
}

// writeSolveReport writes the result for people.
func writeSolveReport(w io.Writer, g *host.Game, rep solveReport) {
	fmt.Fprintf(w, "%s: solved\n", gameLabel(g))
	fmt.Fprintf(w, "  positions: %d reachable from the opening (%d of them over)\n", rep.Positions, rep.Terminal)
	switch rep.Value {
	case "win":
		fmt.Fprintf(w, "  opening: Player 1 wins in %d plies with perfect play\n", *rep.Plies)
	case "loss":
		fmt.Fprintf(w, "  opening: Player 2 wins in %d plies with perfect play\n", *rep.Plies)
	default:
		fmt.Fprintln(w, "  opening: a draw with perfect play")
	}
	fmt.Fprintf(w, "  for the player to move: %d won, %d drawn, %d lost\n", rep.Counts.Won, rep.Counts.Drawn, rep.Counts.Lost)
}

// solution returns g's solution: the cached one unless fresh is set,
// else a new one, which it caches. It reports on w what it does.
func solution(w io.Writer, g *host.Game, maxPositions int, fresh bool) (*solve.Solution, error) {
	if !fresh {
		sol, err := solve.LoadCached(g)
		if err == nil {
			return sol, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			fmt.Fprintf(w, "matombo: %v; solving again\n", oneLine(err.Error()))
		}
	}
	bpp := solve.BytesPerPosition(g)
	fmt.Fprintf(w, "solving %s: at most %d positions, about %d bytes each (at most %s)\n",
		gameLabel(g), maxPositions, bpp, solve.FormatBytes(int64(bpp)*int64(maxPositions)))
	start := time.Now()
	opts := []solve.Option{solve.WithMaxPositions(maxPositions)}
	shown, bucket := false, 0
	if isTerminal(w) {
		opts = append(opts, solve.WithProgress(func(found int) {
			if found/50000 > bucket {
				bucket = found / 50000
				fmt.Fprintf(w, "\r  %d positions found", found)
				shown = true
			}
		}))
	}
	sol, err := solve.Solve(context.Background(), g, opts...)
	if shown {
		fmt.Fprintln(w)
	}
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(w, "solved %d positions in %.2f s\n", sol.Positions(), time.Since(start).Seconds())
	if path, err := solve.SaveCached(sol, g); err != nil {
		fmt.Fprintf(w, "matombo: the solution is not cached: %v\n", oneLine(err.Error()))
	} else {
		fmt.Fprintf(w, "cached in %s\n", path)
	}
	return sol, nil
}
