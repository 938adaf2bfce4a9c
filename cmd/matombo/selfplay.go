package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"time"

	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/match"
	"github.com/matombo/matombo/host/player"
)

const selfplayAbout = `
Plays games in which both players pick uniformly random legal tokens, and
summarizes them: wins per player, draws, games stopped unfinished at the
ply cap, how the games ended, their mean and longest length, and the speed.
Game i (from 0) plays with seed S+i, so a run is the same for the same seed;
with --json each game is written as one line:
  {"seed":…,"moves":[…],"plies":…,"over":…,"winner":…,"notes":[…],"reason":…}
winner is 0 for a draw or an unfinished game.

--games takes a number (how many games) or a folder (adds games, as for the
other commands); -n N is the same as --games N.`

// selfplayGame is one random game, as --json writes it.
type selfplayGame struct {
	Seed   uint64   `json:"seed"`
	Moves  []string `json:"moves"`
	Plies  int      `json:"plies"`
	Over   bool     `json:"over"`
	Winner int      `json:"winner"`
	Notes  []string `json:"notes"`
	Reason string   `json:"reason"`
}

// selfplaySummary counts what the games did.
type selfplaySummary struct {
	games, plies      int
	wins              []int // per player, index 0 for Player 1
	draws, unfinished int
	longest           int
	longestSeed       uint64
	reasons           map[string]int
	elapsed           time.Duration
}

// runSelfplay is `matombo selfplay GAME`.
func runSelfplay(e *env, args []string) int {
	c := newCLI(e, "selfplay", "GAME [--seed S] [--games N] [--max-plies M] [--json] [--games DIR] [--variant NAME] [--param key=value]", selfplayAbout)
	var gf gameFlags
	gf.register(c.fs, false)
	count := 100
	c.fs.Var(countOrDirs{count: &count, dirs: &gf.dirs}, "games", "play `N` games, or add the games of the folder DIR")
	c.fs.Var(countOrDirs{count: &count}, "n", "play `N` games")
	seed := c.fs.Uint64("seed", 1, "seed `S` of the first game; game i uses S+i")
	maxPlies := c.fs.Int("max-plies", 0, "stop a game unfinished after `M` plies (default: the game's own cap, else 100000)")
	asJSON := c.fs.Bool("json", false, "write one JSON line per game instead of the summary")
	name, _, status, ok := c.parseGame(args, false)
	if !ok {
		return status
	}
	if *maxPlies < 0 {
		return c.usageError("--max-plies %d: want a positive number", *maxPlies)
	}
	g, err := gf.open(name)
	if err != nil {
		return c.fail(err)
	}
	limit := match.PlyCap(g, *maxPlies)
	sum := selfplaySummary{wins: make([]int, g.Players()), reasons: map[string]int{}}
	start := time.Now()
	for i := 0; i < count; i++ {
		sg, err := randomGame(g, *seed+uint64(i), limit)
		if err != nil {
			return c.fail(err)
		}
		sum.add(sg)
		if *asJSON {
			if err := json.NewEncoder(e.stdout).Encode(sg); err != nil {
				return c.fail(err)
			}
		}
	}
	sum.elapsed = time.Since(start)
	if !*asJSON {
		sum.write(e.stdout, g, *seed, limit)
	}
	return exitOK
}

// randomGame plays one game of uniformly random legal tokens.
func randomGame(g *host.Game, seed uint64, maxPlies int) (selfplayGame, error) {
	random := player.NewRandomFrom(newRand(seed))
	s := g.Start()
	sg := selfplayGame{Seed: seed, Moves: []string{}}
	for !s.Over() && len(sg.Moves) < maxPlies {
		m, err := random.Choose(context.Background(), s)
		if err != nil {
			return sg, err
		}
		tok := g.Token(m)
		if err := s.Apply(m); err != nil {
			return sg, fmt.Errorf("seed %d, ply %d, token %q: %w", seed, len(sg.Moves)+1, tok, err)
		}
		sg.Moves = append(sg.Moves, tok)
	}
	out := s.Outcome()
	sg.Plies, sg.Over, sg.Winner, sg.Reason = len(sg.Moves), out.Over, out.Winner, out.Reason
	sg.Notes = append([]string{}, out.Notes...)
	return sg, nil
}

// add counts one game.
func (sum *selfplaySummary) add(sg selfplayGame) {
	sum.games++
	sum.plies += sg.Plies
	if sg.Plies > sum.longest {
		sum.longest, sum.longestSeed = sg.Plies, sg.Seed
	}
	switch {
	case !sg.Over:
		sum.unfinished++
		sum.reasons["unfinished at the cap"]++
		return
	case sg.Winner == 0:
		sum.draws++
	case sg.Winner <= len(sum.wins):
		sum.wins[sg.Winner-1]++
	}
	reason := sg.Reason
	if reason == "" {
		reason = "(no reason given)"
	}
	sum.reasons[reason]++
}

// write writes the summary for people.
func (sum *selfplaySummary) write(w io.Writer, g *host.Game, seed uint64, limit int) {
	fmt.Fprintf(w, "%s: %s, seeds %d to %d\n", gameLabel(g), plural(sum.games, "random game"), seed, seed+uint64(sum.games)-1)
	for p, n := range sum.wins {
		fmt.Fprintf(w, "  %-24s %6d  %s\n", playerName(p+1)+" wins", n, percent(n, sum.games))
	}
	fmt.Fprintf(w, "  %-24s %6d  %s\n", "draws", sum.draws, percent(sum.draws, sum.games))
	fmt.Fprintf(w, "  %-24s %6d  %s\n", fmt.Sprintf("unfinished (cap %d)", limit), sum.unfinished, percent(sum.unfinished, sum.games))
	fmt.Fprintln(w, "  endings:")
	reasons := make([]string, 0, len(sum.reasons))
	for r := range sum.reasons {
		reasons = append(reasons, r)
	}
	sort.Slice(reasons, func(i, j int) bool {
		a, b := reasons[i], reasons[j]
		return sum.reasons[a] > sum.reasons[b] || sum.reasons[a] == sum.reasons[b] && a < b
	})
	width := 22 // the counts line up with those above
	for _, r := range reasons {
		width = max(width, len(r))
	}
	for _, r := range reasons {
		fmt.Fprintf(w, "    %-*s %6d\n", width, r, sum.reasons[r])
	}
	mean := 0.0
	if sum.games > 0 {
		mean = float64(sum.plies) / float64(sum.games)
	}
	fmt.Fprintf(w, "  length: mean %.1f plies, longest %d (seed %d)\n", mean, sum.longest, sum.longestSeed)
	fmt.Fprintf(w, "  speed: %.0f plies/s (%d plies in %.2f s)\n", float64(sum.plies)/sum.elapsed.Seconds(), sum.plies, sum.elapsed.Seconds())
}

// percent writes n as a percentage of total.
func percent(n, total int) string {
	if total == 0 {
		return ""
	}
	return fmt.Sprintf("%5.1f%%", 100*float64(n)/float64(total))
}
