package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/player"
)

const matchAbout = `
Plays games between two computer players and measures their strength. The
specs alternate seats: in game 1 (and every odd game) the first spec is
Player 1, in game 2 the second. A spec without a seed of its own gets one
from --seed, the game and the seat, so a run with iteration or depth
budgets is the same for the same seed. A game stopped at the ply cap counts
as a draw.

The summary gives wins, draws and losses per spec, the score of the first
spec (a draw is half a win), its Elo difference with a 95% confidence
interval (Wilson interval of the score; a score of 0 or 1 is taken as half
a game from it), the mean length of the games and the mean time per move.
--json writes one object instead:
  {"game":…,"games":…,"players":[…],"wins":[…],"draws":…,"score":…,
   "elo":…,"elo_low":…,"elo_high":…,"plies_mean":…,"ms_per_move":[…]}

Players (options after a colon, separated by commas, e.g. mcts:time=500ms):
`

// matchGame is the result of one game of a match.
type matchGame struct {
	winner int // index of the winning spec, -1 for a draw
	plies  int
	think  [2]time.Duration // per spec
	moves  [2]int           // per spec
}

// matchResult is what --json writes.
type matchResult struct {
	Game      string     `json:"game"`
	Games     int        `json:"games"`
	Players   [2]string  `json:"players"`
	Wins      [2]int     `json:"wins"`
	Draws     int        `json:"draws"`
	Score     float64    `json:"score"`
	Elo       float64    `json:"elo"`
	EloLow    float64    `json:"elo_low"`
	EloHigh   float64    `json:"elo_high"`
	PliesMean float64    `json:"plies_mean"`
	MsPerMove [2]float64 `json:"ms_per_move"`
	Seed      uint64     `json:"seed"`
}

// runMatch is `matombo match GAME --p1 SPEC --p2 SPEC`.
func runMatch(e *env, args []string) int {
	c := newCLI(e, "match", "GAME --p1 SPEC --p2 SPEC [--games N] [--seed S] [--parallel K] [--json] [--variant NAME] [--param key=value]", matchAbout+specHelp())
	var gf gameFlags
	gf.register(c.fs, false)
	count := 20
	c.fs.Var(countOrDirs{count: &count, max: maxListGames, dirs: &gf.dirs}, "games", "play `N` games, or add the games of the folder DIR")
	p1 := c.fs.String("p1", "", "the first player's `SPEC`, e.g. mcts:iterations=1000")
	p2 := c.fs.String("p2", "random", "the second player's `SPEC`")
	seed := c.uint64Flag("seed", 1, "seed `S` of the players that name none")
	parallel := c.intFlag("parallel", 1, 1, maxParallel, "play `K` games at a time")
	asJSON := c.fs.Bool("json", false, "write the result as one JSON object")
	name, _, status, ok := c.parseGame(args, false)
	if !ok {
		return status
	}
	if *p1 == "" {
		return c.usageError("name the first player with --p1 SPEC (players: %s)", strings.Join(player.Names(), ", "))
	}
	if *parallel < 1 {
		return c.usageError("--parallel %d: want at least 1", *parallel)
	}
	g, err := gf.open(name)
	if err != nil {
		return c.fail(err)
	}
	if g.Players() != 2 {
		return c.fail(fmt.Errorf("match handles two-player games; %s has %d players", name, g.Players()))
	}
	specs := [2]string{*p1, *p2}
	for i, sp := range specs {
		if err := checkSpec(g, sp); err != nil {
			return c.usageError("--p%d: %v", i+1, err)
		}
	}
	var bar io.Writer // the progress bar goes to a terminal only
	if isTerminal(e.stderr) {
		bar = e.stderr
	}
	results, err := playMatch(g, specs, count, *seed, *parallel, bar)
	if err != nil {
		return c.fail(err)
	}
	r := summarize(g, specs, *seed, results)
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		if err := enc.Encode(r); err != nil {
			return c.fail(err)
		}
		return exitOK
	}
	writeMatch(e.stdout, r)
	return exitOK
}

// playMatch plays the games, k at a time, with a progress bar on w (when
// not nil) once the run has taken a second.
func playMatch(g *host.Game, specs [2]string, n int, seed uint64, k int, w io.Writer) ([]matchGame, error) {
	results := make([]matchGame, n)
	errs := make([]error, n)
	next := make(chan int)
	done := make(chan int)
	var wg sync.WaitGroup
	for range k {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i], errs[i] = playMatchGame(g, specs, i, seed)
				done <- i
			}
		}()
	}
	go func() {
		for i := range n {
			next <- i
		}
		close(next)
		wg.Wait()
		close(done)
	}()
	bar := progress{w: w, total: n, start: time.Now()}
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for open := true; open; {
		select {
		case _, open = <-done:
			if open {
				bar.done++
				bar.draw()
			}
		case <-tick.C:
			bar.draw()
		}
	}
	bar.finish()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("game %d: %w", i+1, err)
		}
	}
	return results, nil
}

// playMatchGame plays game i (from 0): the specs alternate seats.
func playMatchGame(g *host.Game, specs [2]string, i int, seed uint64) (matchGame, error) {
	var mg matchGame
	first := i % 2 // the spec that is Player 1
	var players [3]player.Player
	var specOf [3]int
	for seat := 1; seat <= 2; seat++ {
		si := (first + seat - 1) % 2
		p, err := player.New(g, seeded(specs[si], seed*1_000_003+uint64(2*i+seat)))
		if err != nil {
			return mg, err
		}
		players[seat], specOf[seat] = p, si
	}
	s := g.Start()
	limit := plyCap(g, 0)
	ctx := context.Background()
	for !s.Over() && s.Ply() < limit {
		p := s.ToMove()
		start := time.Now()
		m, err := players[p].Choose(ctx, s)
		if err != nil {
			return mg, fmt.Errorf("%s at ply %d: %w", specs[specOf[p]], s.Ply(), err)
		}
		mg.think[specOf[p]] += time.Since(start)
		mg.moves[specOf[p]]++
		if err := s.Apply(m); err != nil {
			return mg, fmt.Errorf("%s at ply %d chose an illegal move: %w", specs[specOf[p]], s.Ply(), err)
		}
	}
	mg.plies = s.Ply()
	mg.winner = -1
	if w := s.Outcome().Winner; s.Over() && w != 0 {
		mg.winner = specOf[w]
	}
	return mg, nil
}

// summarize adds up the games.
func summarize(g *host.Game, specs [2]string, seed uint64, games []matchGame) matchResult {
	r := matchResult{Game: gameLabel(g), Games: len(games), Players: specs, Seed: seed}
	var think [2]time.Duration
	var moves [2]int
	plies := 0
	for _, mg := range games {
		if mg.winner < 0 {
			r.Draws++
		} else {
			r.Wins[mg.winner]++
		}
		plies += mg.plies
		for i := range 2 {
			think[i] += mg.think[i]
			moves[i] += mg.moves[i]
		}
	}
	n := float64(len(games))
	r.Score = (float64(r.Wins[0]) + float64(r.Draws)/2) / n
	r.Elo, r.EloLow, r.EloHigh = eloInterval(r.Score, n)
	r.Score = math.Round(r.Score*1e4) / 1e4
	r.PliesMean = float64(plies) / n
	for i := range 2 {
		if moves[i] > 0 {
			r.MsPerMove[i] = math.Round(float64(think[i].Microseconds())/10/float64(moves[i])) / 100
		}
	}
	return r
}

// eloInterval returns the Elo difference of a score over n games and its
// 95% confidence interval (the Wilson interval of the score). A score of 0
// or 1 is taken as half a game from it, so every figure is finite.
func eloInterval(score, n float64) (elo, low, high float64) {
	const z = 1.96
	centre := (score + z*z/(2*n)) / (1 + z*z/n)
	half := z / (1 + z*z/n) * math.Sqrt(score*(1-score)/n+z*z/(4*n*n))
	clamped := min(max(score, 0.5/n), 1-0.5/n)
	return eloOf(clamped), eloOf(centre - half), eloOf(centre + half)
}

// eloOf is the Elo difference that gives an expected score s.
func eloOf(s float64) float64 {
	s = min(max(s, 1e-4), 1-1e-4)
	return math.Round(-400*math.Log10(1/s-1)*10)/10 + 0 // + 0: no negative zero
}

// writeMatch writes the summary of a match.
func writeMatch(w io.Writer, r matchResult) {
	fmt.Fprintf(w, "%s: %s, seats alternating, seed %d\n", r.Game, plural(r.Games, "game"), r.Seed)
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
}

// progress is a progress bar on a writer, shown once a run has taken a
// second.
type progress struct {
	w     io.Writer
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
	fmt.Fprintf(p.w, "\r[%s%s] %d/%d games, %.0f s", strings.Repeat("#", filled), strings.Repeat(" ", width-filled), p.done, p.total, time.Since(p.start).Seconds())
}

// finish ends the bar's line.
func (p *progress) finish() {
	if p.shown {
		fmt.Fprintln(p.w)
	}
}
