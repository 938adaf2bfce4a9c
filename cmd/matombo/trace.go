package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/matombo/matombo/host"
)

const traceAbout = `
Shows the opening state of a game and the state after each token: the board,
the captured totals, the hands (for a game that has pieces in hand in one of
these states), and whose decision is next with the legal tokens (or the
result). An argument may hold several tokens separated by spaces, so a
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
	hands := usesHands(g.Start(), tokens)
	write := func(s *host.State, tok string, mover int) error {
		if *asJSON {
			return writeJSONState(e.stdout, s)
		}
		writeTraceState(e.stdout, s, tok, mover, hands, e.color)
		return nil
	}
	s := g.Start()
	if err := write(s, "", 0); err != nil {
		return c.fail(err)
	}
	r := g.NewRunner()
	defer r.Close()
	r.Record(true)
	for i, tok := range tokens {
		mover := s.ToMove()
		if err := r.Play(s, tok); err != nil {
			return c.fail(fmt.Errorf("token %d: %w", i+1, err))
		}
		if err := write(s, tok, mover); err != nil {
			return c.fail(err)
		}
	}
	return exitOK
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

// usesHands tells whether a player has pieces in hand in the opening s or
// after one of the tokens (up to the first illegal one).
func usesHands(s *host.State, tokens []string) bool {
	n := s.Game().Players()
	for i := 0; ; i++ {
		if anyNonZero(n, s.Hand) {
			return true
		}
		if i == len(tokens) || s.Play(tokens[i]) != nil {
			return false
		}
	}
}

// writeTraceState writes one state of a trace for people; tok is the token
// that led to it, "" for the opening, and mover the player who played it.
// The hands are written when hands is true.
func writeTraceState(w io.Writer, s *host.State, tok string, mover int, hands, color bool) {
	if tok == "" {
		fmt.Fprintf(w, "== ply %d: opening of %s\n", s.Ply(), gameLabel(s.Game()))
	} else {
		fmt.Fprintf(w, "\n== ply %d: after %s by %s\n", s.Ply(), tok, playerName(mover))
	}
	fmt.Fprint(w, diagram(s, color))
	n := s.Game().Players()
	fmt.Fprintf(w, "Captured: %s\n", perPlayer(n, s.Captured))
	if hands {
		fmt.Fprintf(w, "In hand:  %s\n", perPlayer(n, s.Hand))
	}
	writeTurn(w, s)
}
