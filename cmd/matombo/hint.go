package main

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/matombo/matombo/host/solve"
)

const hintAbout = `
Plays the TOKENS from the opening and lists every legal token of the next
decision with its value under perfect play for the player to move (win,
draw or loss) and the plies to the end counting the token itself (the
winner hurries, the loser delays), best first. It uses the solution that
'matombo solve' cached, or solves the game first (see 'matombo solve
--help').`

// hintMove is one token as --json writes it.
type hintMove struct {
	Token string `json:"token"`
	Value string `json:"value"`
	Plies *int   `json:"plies,omitempty"`
}

// runHint is `matombo hint GAME TOKENS...`.
func runHint(e *env, args []string) int {
	c := newCLI(e, "hint", "GAME [TOKEN ...] [--variant NAME] [--param key=value] [--max-positions N] [--json]", hintAbout)
	var gf gameFlags
	gf.register(c.fs, true)
	maxPos := c.intFlag("max-positions", solve.DefaultMaxPositions, 1, maxPositions, "refuse to solve games with more than `N` positions")
	asJSON := c.fs.Bool("json", false, "write one JSON object per token, one a line")
	name, tokens, status, ok := c.parseGame(args, true)
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
	s := g.Start()
	for i, tok := range tokens {
		if s.Over() {
			return c.fail(fmt.Errorf("token %d (%s): the game is already over after %s", i+1, tok, strings.Join(tokens[:i], " ")))
		}
		if err := s.Play(tok); err != nil {
			return c.fail(fmt.Errorf("token %d: %w", i+1, err))
		}
	}
	if s.Over() {
		out := s.Outcome()
		return c.fail(fmt.Errorf("the game is over after these tokens (%s): there is nothing to hint", describeOutcome(out.Winner, out.Reason)))
	}
	sol, err := solution(e.stderr, g, *maxPos, false)
	if err != nil {
		return c.fail(err)
	}
	mvs, err := sol.Moves(s)
	if err != nil {
		return c.fail(err)
	}
	sort.SliceStable(mvs, func(i, j int) bool { return solve.Better(mvs[i], mvs[j]) })
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		for _, mv := range mvs {
			hm := hintMove{Token: mv.Token, Value: mv.Value.String()}
			if mv.Value != solve.Draw {
				hm.Plies = &mv.Plies
			}
			if err := enc.Encode(hm); err != nil {
				return c.fail(err)
			}
		}
		return exitOK
	}
	fmt.Fprintf(e.stdout, "%s, %s to move after %d tokens:\n", gameLabel(g), playerName(s.ToMove()), len(tokens))
	width := len("token")
	for _, mv := range mvs {
		width = max(width, len(mv.Token))
	}
	fmt.Fprintf(e.stdout, "  %-*s  %-5s  %s\n", width, "token", "value", "plies to the end")
	for _, mv := range mvs {
		plies := "-"
		if mv.Value != solve.Draw {
			plies = fmt.Sprint(mv.Plies)
		}
		fmt.Fprintf(e.stdout, "  %-*s  %-5s  %s\n", width, mv.Token, mv.Value, plies)
	}
	return exitOK
}

// describeOutcome says who won and how.
func describeOutcome(winner int, reason string) string {
	who := "a draw"
	if winner > 0 {
		who = playerName(winner) + " won"
	}
	if reason != "" {
		who += " by " + reason
	}
	return who
}
