package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/matombo/matombo/host"
)

const traceAbout = `
Shows the opening state of a game and the state after each token: the board,
the score as the script names it (for a game without a score, the captured
totals when there are captures), the hands (for a game that has pieces in
hand in one of these states), and whose decision is next with the legal
tokens (or the result). An argument may hold several tokens separated by spaces, so a
game record can be pasted as one argument.

With --json, writes exactly one JSON object per line per state, the opening
first (the state format of docs/state-json.md: game, variant, ply, to_move,
sites, captured, hand, legal, over, winner, notes, reason, vars, history,
effects: what each token did, in order).

An illegal token stops the trace after the states before it, with an error
naming the token and the legal ones, and exit status 1.`

// runTrace is `matombo trace GAME [TOKEN ...]`.
func runTrace(e *env, args []string) int {
	c := newCLI(e, "trace", "GAME [TOKEN ...] [--json] [--games DIR] [--variant NAME] [--param key=value]", traceAbout)
	var gf gameFlags
	gf.register(c.fs, true)
	asJSON := c.fs.Bool("json", false, "write one JSON object per state, one per line")
	name, rest, status, ok := c.parseGame(args, true)
	if !ok {
		return status
	}
	g, err := gf.open(name)
	if err != nil {
		return c.fail(err)
	}
	var tokens []string
	for _, a := range rest {
		tokens = append(tokens, strings.Fields(a)...)
	}
	// The tokens are played once: a script that fails (perhaps only when
	// its budget runs out) is not run twice.
	states, playErr := playTokens(g, tokens)
	hands, captures := usesTotals(states)
	write := func(s *host.State, tok string, mover int) error {
		if *asJSON {
			return writeJSONState(e.stdout, s)
		}
		writeTraceState(e.stdout, s, tok, mover, captures, hands, e.color)
		return nil
	}
	if err := write(states[0], "", 0); err != nil {
		return c.fail(err)
	}
	for i, s := range states[1:] {
		if err := write(s, tokens[i], states[i].ToMove()); err != nil {
			return c.fail(err)
		}
	}
	if playErr != nil {
		return c.fail(fmt.Errorf("token %d: %w", len(states), playErr))
	}
	return exitOK
}

// playTokens plays the tokens from the opening of g, recording their
// effects, and returns the states from the opening on, one after each
// token played, and the error of the first token that fails.
func playTokens(g *host.Game, tokens []string) ([]*host.State, error) {
	r := g.NewRunner()
	defer r.Close()
	r.Record(true)
	s := g.Start()
	states := []*host.State{s.Clone()}
	for _, tok := range tokens {
		if err := r.Play(s, tok); err != nil {
			return states, err
		}
		states = append(states, s.Clone())
	}
	return states, nil
}

// writeJSONState writes a state as one line of JSON.
func writeJSONState(w io.Writer, s *host.State) error {
	b, err := s.MarshalJSON()
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

// usesTotals tells whether a player has pieces in hand, and whether a
// player has captured counters, in one of the states.
func usesTotals(states []*host.State) (hands, captures bool) {
	for _, s := range states {
		n := s.Game().Players()
		hands = hands || anyNonZero(n, s.Hand)
		captures = captures || anyNonZero(n, s.Captured)
	}
	return hands, captures
}

// writeTraceState writes one state of a trace for people; tok is the token
// that led to it, "" for the opening, and mover the player who played it.
// The score is written for a game that has one, the captured totals for a
// game without one when captures is true, the hands when hands is true.
func writeTraceState(w io.Writer, s *host.State, tok string, mover int, captures, hands, color bool) {
	if tok == "" {
		fmt.Fprintf(w, "== ply %d: opening of %s\n", s.Ply(), gameLabel(s.Game()))
	} else {
		fmt.Fprintf(w, "\n== ply %d: after %s by %s\n", s.Ply(), tok, playerName(mover))
	}
	fmt.Fprint(w, diagram(s, color))
	writeTotals(w, s, captures, hands)
	writeTurn(w, s)
}
