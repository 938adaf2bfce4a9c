package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/matombo/matombo/host/solve"
)

const hintAbout = `
Plays the TOKENS from the opening and lists every legal token of the next
decision with its value under perfect play for the player to move (win,
draw or loss), in games with a score its margin (the mover's score minus
the other's at the end), and the plies to the end counting the token
itself (the winner hurries, the loser delays) when they are known, best
first: the best result, then the largest margin, then the quickest win or
the slowest loss. It uses the solution that 'matombo solve' cached, or
solves the game first (see 'matombo solve --help'). An argument may hold
several tokens separated by spaces, so a game record can be pasted as one
argument.`

// hintMove is one token as --json writes it.
type hintMove struct {
	Token  string `json:"token"`
	Value  string `json:"value"`
	Margin *int   `json:"margin,omitempty"`
	Plies  *int   `json:"plies,omitempty"`
	// Bound is "at most" or "at least" when Value and Margin bound the
	// move's worth instead of being it (a merge of jobs with thresholds).
	Bound string `json:"bound,omitempty"`
}

// makeHintMove is a move as hint and solve show it.
func makeHintMove(sol *solve.Solution, mv solve.MoveValue) hintMove {
	hm := hintMove{Token: mv.Token, Value: mv.Value.String()}
	if sol.HasScore() {
		m := mv.Margin
		hm.Margin = &m
	}
	if mv.Plies >= 0 {
		p := mv.Plies
		hm.Plies = &p
	}
	return hm
}

// writeHintTable writes moves as a table, one a line.
func writeHintTable(w io.Writer, moves []hintMove, indent string) {
	width, vw, mw := len("token"), len("value"), len("margin")
	value := func(hm hintMove) string {
		if hm.Bound != "" {
			return hm.Bound + " " + hm.Value
		}
		return hm.Value
	}
	margin := func(hm hintMove) string {
		if hm.Bound != "" {
			return hm.Bound + " " + signedInt(*hm.Margin)
		}
		return signedInt(*hm.Margin)
	}
	withMargin := len(moves) > 0 && moves[0].Margin != nil
	for _, hm := range moves {
		width, vw = max(width, len(hm.Token)), max(vw, len(value(hm)))
		if withMargin {
			mw = max(mw, len(margin(hm)))
		}
	}
	if withMargin {
		fmt.Fprintf(w, "%s%-*s  %-*s  %-*s  %s\n", indent, width, "token", vw, "value", mw, "margin", "plies to the end")
	} else {
		fmt.Fprintf(w, "%s%-*s  %-*s  %s\n", indent, width, "token", vw, "value", "plies to the end")
	}
	for _, hm := range moves {
		plies := "-"
		if hm.Plies != nil {
			plies = fmt.Sprint(*hm.Plies)
		}
		if withMargin {
			fmt.Fprintf(w, "%s%-*s  %-*s  %-*s  %s\n", indent, width, hm.Token, vw, value(hm), mw, margin(hm), plies)
		} else {
			fmt.Fprintf(w, "%s%-*s  %-*s  %s\n", indent, width, hm.Token, vw, value(hm), plies)
		}
	}
}

// signedInt writes +8, 0 or -3.
func signedInt(n int) string {
	if n > 0 {
		return fmt.Sprintf("+%d", n)
	}
	return fmt.Sprint(n)
}

// runHint is `matombo hint GAME TOKENS...`.
func runHint(e *env, args []string) int {
	c := newCLI(e, "hint", "GAME [TOKEN ...] [--games DIR] [--variant NAME] [--param key=value] [--engine E] [--max-memory SIZE] [--max-time D] [--json]", hintAbout)
	var gf gameFlags
	gf.register(c.fs, true)
	var sf solveFlags
	sf.register(c.fs)
	asJSON := c.fs.Bool("json", false, "write one JSON object per token, one a line")
	name, rest, status, ok := c.parseGame(args, true)
	if !ok {
		return status
	}
	tokens := splitTokens(rest)
	if _, _, err := sf.options(); err != nil {
		return c.fail(err)
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
	ctx, stop := e.interruptContext(context.Background())
	defer stop()
	sol, err := solution(ctx, e.stderr, g, &sf, false)
	if err != nil {
		return c.fail(err)
	}
	if sf.maxTime > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, sf.maxTime)
		defer cancel()
	}
	if sol.Engine() == solve.Search && len(tokens) > 0 {
		// The search may take as long as the solve, with no progress line.
		fmt.Fprintf(e.stderr, "searching the positions after these tokens: the search engine's solution values the opening's moves only (--max-time bounds the search)\n")
	}
	mvs, err := sol.MovesContext(ctx, s)
	if ie, ok := interruption(ctx); ok && err != nil {
		return c.fail(fmt.Errorf("stopped: %w", ie))
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return c.fail(&flagError{err: err, msg: fmt.Sprintf("stopped after --max-time %v searching the positions after these tokens (the search engine's solution values the opening's moves only): raise --max-time (0 for no limit)", sf.maxTime)})
	}
	if err != nil {
		return c.fail(err)
	}
	sort.SliceStable(mvs, func(i, j int) bool { return solve.Better(mvs[i], mvs[j]) })
	hms := make([]hintMove, len(mvs))
	for i, mv := range mvs {
		hms[i] = makeHintMove(sol, mv)
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		for _, hm := range hms {
			if err := enc.Encode(hm); err != nil {
				return c.fail(err)
			}
		}
		return exitOK
	}
	fmt.Fprint(e.stdout, wrapText(e.width, fmt.Sprintf("%s, %s to move after %s:", gameLabel(g), playerName(s.ToMove()), plural(len(tokens), "token")), ""))
	writeHintTable(e.stdout, hms, "  ")
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
