package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/matombo/matombo/host/match"
	"github.com/matombo/matombo/host/player"
)

const matchAbout = `
Plays games between two computer players and measures their strength. The
specs alternate seats: in game 1 (and every odd game) the first spec is
Player 1, in game 2 the second. A spec without a seed of its own gets one
from --seed, the game and the seat, so a run with iteration or depth
budgets is the same for the same seed. A game stopped at the ply cap counts
as a draw. A game that fails (a player's error) is reported after the
summary and counts in none of its figures; the match goes on. --opening N
starts every game with N uniformly random plies, the same for games 1 and
2, 3 and 4, ... (seats swapped): players with a depth or iteration budget
play few distinct games from the start, and paired openings make the
games differ while staying fair to both.

The summary gives wins, draws and losses per spec, the score of the first
spec (a draw is half a win), its Elo difference with a 95% confidence
interval (Wilson interval of the score; a score of 0 or 1 is taken as half
a game from it), the mean length of the games, the mean time per move and
the mean search per move (alpha-beta's nodes, MCTS's iterations).
--json writes one object instead:
  {"game":…,"players":[…],"seed":…,"failures":[…],"games":…,"failed":…,
   "wins":[…],"draws":…,"score":…,"score_low":…,"score_high":…,"elo":…,
   "elo_low":…,"elo_high":…,"plies_mean":…,"ms_per_move":[…],
   "search_per_move":[…]}

Players (options after a colon, separated by commas, e.g. mcts:time=500ms):
`

// maxOpening is the longest random opening --opening accepts.
const maxOpening = 1000

// matchResult is what --json writes.
type matchResult struct {
	Game     string    `json:"game"`
	Players  [2]string `json:"players"`
	Seed     uint64    `json:"seed"`
	Failures []string  `json:"failures"`          // the errors of the games that failed, which count nowhere else
	Stopped  string    `json:"stopped,omitempty"` // why the match stopped before its last game: "interrupted"
	match.Summary
}

// runMatch is `matombo match GAME --p1 SPEC --p2 SPEC`.
func runMatch(e *env, args []string) int {
	c := newCLI(e, "match", "GAME --p1 SPEC --p2 SPEC [--games N] [--seed S] [--parallel K] [--opening N] [--json] [--variant NAME] [--param key=value]", matchAbout+specHelp())
	var gf gameFlags
	gf.register(c.fs, false)
	count := 20
	c.fs.Var(countOrDirs{count: &count, max: maxListGames, dirs: &gf.dirs}, "games", "play `N` games, or add the games of the folder DIR")
	c.fs.Var(countOrDirs{count: &count, max: maxListGames}, "n", "play `N` games, as analyze and selfplay take it")
	p1 := c.fs.String("p1", "", "the first player's `SPEC`, e.g. mcts:iterations=1000")
	p2 := c.fs.String("p2", "random", "the second player's `SPEC`")
	seed := c.uint64Flag("seed", 1, "seed `S` of the players that name none")
	parallel := c.intFlag("parallel", 1, 1, maxParallel, "play `K` games at a time")
	opening := c.intFlag("opening", 0, 0, maxOpening, "start every game with `N` random plies, shared by games 1 and 2, 3 and 4, ...")
	asJSON := c.fs.Bool("json", false, "write the result as one JSON object")
	name, _, status, ok := c.parseGame(args, false)
	if !ok {
		return status
	}
	if *p1 == "" {
		return c.usageError("name the first player with --p1 SPEC (players: %s)", strings.Join(player.Names(), ", "))
	}
	g, err := gf.open(name)
	if err != nil {
		return c.fail(err)
	}
	if g.Players() != 2 {
		return c.fail(fmt.Errorf("match handles two-player games; %s has %d players", name, g.Players()))
	}
	var entrants [2]match.Entrant
	for i, sp := range []string{*p1, *p2} {
		if entrants[i], err = match.Spec(g, sp, player.WithSolutions(cliSolutions(e.stderr))); err != nil {
			return c.usageError("--p%d: %v", i+1, err)
		}
	}
	var bar io.Writer // the progress bar goes to a terminal only
	if isTerminal(e.stderr) {
		bar = e.stderr
	}
	prog := progress{w: bar, width: outputWidth(e.stderr), total: count, start: time.Now()}
	ctx, stop := e.interruptContext(context.Background())
	defer stop()
	res, err := match.Run(ctx, g, entrants[0], entrants[1],
		match.WithGames(count), match.WithSeed(*seed), match.WithParallel(*parallel), match.WithOpening(*opening),
		match.WithProgress(func(done, _ int) { prog.done = done; prog.draw() }))
	prog.finish()
	ie, interrupted := interruption(ctx)
	interrupted = interrupted && err != nil // not when the last game had ended
	if err != nil && !interrupted {
		return c.fail(err)
	}
	r := matchResult{Game: gameLabel(g), Players: res.Entrants, Seed: res.Seed, Failures: []string{}, Summary: res.Summary()}
	if interrupted {
		if r.Games == 0 {
			return c.fail(fmt.Errorf("stopped: %w before any game ended", ie))
		}
		r.Stopped = ie.Error()
	}
	for _, err := range res.Failures() {
		r.Failures = append(r.Failures, oneLine(err.Error()))
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		if err := enc.Encode(r); err != nil {
			return c.fail(err)
		}
	} else {
		writeMatch(e.stdout, r, count)
	}
	if interrupted {
		return c.fail(fmt.Errorf("stopped: %w after %d of %s", ie, r.Games+r.Failed, plural(count, "game")))
	}
	if r.Games == 0 {
		return c.fail(fmt.Errorf("every game failed; the first: %s", r.Failures[0]))
	}
	return exitOK
}

// writeMatch writes the summary of a match of count games; a match
// stopped before its last game says so on its last line.
func writeMatch(w io.Writer, r matchResult, count int) {
	fmt.Fprintf(w, "%s: %s, seats alternating, seed %d\n", r.Game, plural(r.Games+r.Failed, "game"), r.Seed)
	width := max(len(r.Players[0]), len(r.Players[1]), len("player"))
	fmt.Fprintf(w, "%-*s  %5s %6s %7s %7s %12s\n", width, "player", "wins", "draws", "losses", "score", "time/move")
	for i, sp := range r.Players {
		score := r.Score
		if i == 1 {
			score = 1 - score
		}
		fmt.Fprintf(w, "%-*s  %5d %6d %7d %6.1f%% %9.1f ms\n", width, sp, r.Wins[i], r.Draws, r.Wins[1-i], 100*score, r.MsPerMove[i])
	}
	fmt.Fprintf(w, "Elo difference of %s: %+.0f (95%% CI %+.0f to %+.0f)\n", r.Players[0], r.Elo, r.EloLow, r.EloHigh)
	fmt.Fprintf(w, "Mean length: %.1f plies\n", r.PliesMean)
	if r.SearchPerMove != [2]float64{} {
		fmt.Fprintf(w, "Search per move (alpha-beta nodes, MCTS iterations): %.1f and %.1f\n", r.SearchPerMove[0], r.SearchPerMove[1])
	}
	if r.Failed > 0 {
		fmt.Fprintf(w, "%s failed and count in none of the figures above:\n", plural(r.Failed, "game"))
		for _, f := range r.Failures {
			fmt.Fprintf(w, "  %s\n", f)
		}
	}
	if r.Stopped != "" {
		fmt.Fprintf(w, "stopped: %s after %d of %s\n", r.Stopped, r.Games+r.Failed, plural(count, "game"))
	}
}

// progress is a progress bar on a writer, shown once a run has taken a
// second.
type progress struct {
	w     io.Writer
	width int // of the terminal (outputWidth)
	total int
	done  int
	start time.Time
	shown bool
}

// draw redraws the bar once the run has taken a second.
func (p *progress) draw() {
	if p.w == nil {
		return
	}
	if !p.shown && time.Since(p.start) < time.Second {
		return
	}
	p.shown = true
	const width = 30
	filled := width * p.done / p.total
	fmt.Fprint(p.w, "\r"+progressLine(fmt.Sprintf("[%s%s] %d/%d games, %.0f s", strings.Repeat("#", filled), strings.Repeat(" ", width-filled), p.done, p.total, time.Since(p.start).Seconds()), p.width))
}

// finish ends the bar's line.
func (p *progress) finish() {
	if p.shown {
		fmt.Fprintln(p.w)
	}
}
