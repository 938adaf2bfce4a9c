package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/matombo/matombo/host"
)

const traceAbout = `
Shows the opening state of a game and the state after each token, headed by
what the token did (as play says it: sowed, captured, removed): the board,
the score as the script names it (for a game without a score, the captured
totals when there are captures), the hands (for a game that has pieces in
hand in one of these states), and whose decision is next with the legal
tokens (or the result). An argument may hold several tokens separated by spaces, so a
game record can be pasted as one argument.

With --json, writes exactly one JSON object per line per state, the opening
first (the state format of docs/state-json.md: game, variant, ply, to_move,
sites, captured, hand, legal, over, winner, notes, reason, vars, history,
effects: what each token did, in order).

With --print, what the script prints (Lua's print) goes to stderr, each
line after the game's name, before the state it led to.

An illegal token stops the trace after the states before it, with an error
naming the token and the legal ones, and exit status 1. With --json the
last line is then {"error": {...}}: the error's stable code (illegal-token,
game-over, script-error, budget-steps, ...: see docs/scenarios.md), its
message and the token and its number.`

// runTrace is `matombo trace GAME [TOKEN ...]`.
func runTrace(e *env, args []string) int {
	c := newCLI(e, "trace", "GAME [TOKEN ...] [--json] [--print] [--games DIR] [--variant NAME] [--param key=value]", traceAbout)
	var gf gameFlags
	gf.register(c.fs, true)
	asJSON := c.fs.Bool("json", false, "write one JSON object per state, one per line")
	printed := c.fs.Bool("print", false, "show what the script prints (Lua's print), on stderr")
	name, rest, status, ok := c.parseGame(args, true)
	if !ok {
		return status
	}
	var logs *lockedWriter
	if *printed {
		logs = &lockedWriter{w: &bytes.Buffer{}}
		gf.extra = append(gf.extra, host.WithLog(logs))
	}
	g, err := gf.open(name)
	if err != nil {
		if *asJSON {
			writeJSONError(e.stdout, err, "", 0)
		}
		return c.fail(err)
	}
	tokens := splitTokens(rest)
	// The tokens are played once: a script that fails (perhaps only when
	// its budget runs out) is not run twice.
	states, printedText, playErr := playTokens(g, tokens, logs)
	hands, captures := usesTotals(states)
	write := func(s *host.State, tok string, mover int) error {
		if *asJSON {
			return writeJSONState(e.stdout, s)
		}
		writeTraceState(e.stdout, s, tok, mover, captures, hands, e.color, e.width)
		return nil
	}
	for i, s := range states {
		fmt.Fprint(e.stderr, printedText[i]) // what the script printed on the way to s
		tok, mover := "", 0
		if i > 0 {
			tok, mover = tokens[i-1], states[i-1].ToMove()
		}
		if err := write(s, tok, mover); err != nil {
			return c.fail(err)
		}
	}
	if playErr != nil {
		fmt.Fprint(e.stderr, printedText[len(states)]) // and while the failing token ran
		if *asJSON {
			writeJSONError(e.stdout, playErr, tokens[len(states)-1], len(states))
		}
		return c.fail(fmt.Errorf("token %d: %w", len(states), playErr))
	}
	return exitOK
}

// playTokens plays the tokens from the opening of g, recording their
// effects, and returns the states from the opening on, one after each
// token played, and the error of the first token that fails. printed[i]
// is what the script printed (into logs, when it is not nil) on the way
// to states[i]; printed has one more entry, for the failing token.
func playTokens(g *host.Game, tokens []string, logs *lockedWriter) (states []*host.State, printed []string, err error) {
	take := func() string {
		if logs == nil {
			return ""
		}
		logs.mu.Lock()
		defer logs.mu.Unlock()
		b := logs.w.(*bytes.Buffer)
		out := b.String()
		b.Reset()
		return out
	}
	r := g.NewRunner()
	defer r.Close()
	r.Record(true)
	s := g.Start()
	states = []*host.State{s.Clone()}
	printed = []string{take()}
	for _, tok := range tokens {
		err = r.Play(s, tok)
		printed = append(printed, take())
		if err != nil {
			return states, printed, err
		}
		states = append(states, s.Clone())
	}
	return states, append(printed, ""), nil
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

// jsonError is the last line of trace --json when a token (or loading the
// game) fails.
type jsonError struct {
	Error struct {
		Code    string `json:"code"`            // the stable code (host.ErrorCode), "error" for an error without one
		Message string `json:"message"`         // the message, as on standard error
		Token   string `json:"token,omitempty"` // the failing token
		Index   int    `json:"index,omitempty"` // its number, from 1
		File    string `json:"file,omitempty"`  // where, for an error in a script or a variants file
		Line    int    `json:"line,omitempty"`  // the line there
	} `json:"error"`
}

// writeJSONError writes err as one line of JSON: its code, message and,
// for a token, the token and its number (from 1).
func writeJSONError(w io.Writer, err error, tok string, index int) {
	var out jsonError
	out.Error.Code = host.ErrorCode(err)
	if out.Error.Code == "" {
		out.Error.Code = "error"
	}
	out.Error.Message = oneLine(err.Error())
	out.Error.Token, out.Error.Index = tok, index
	if pos, ok := errorPos(err); ok {
		out.Error.File, out.Error.Line = pos.File, pos.Line
	}
	b, _ := json.Marshal(out)
	fmt.Fprintf(w, "%s\n", b)
}

// errorPos is the place a host error names, when it names one.
func errorPos(err error) (host.Pos, bool) {
	var se *host.ScriptError
	var be *host.BudgetError
	var ce *host.ConfigError
	var cn *host.CanceledError
	switch {
	case errors.As(err, &se):
		return se.Pos, se.Pos.File != ""
	case errors.As(err, &be):
		return be.Pos, be.Pos.File != ""
	case errors.As(err, &ce):
		return ce.Pos, ce.Pos.File != ""
	case errors.As(err, &cn):
		return cn.Pos, cn.Pos.File != ""
	}
	return host.Pos{}, false
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
// that led to it, "" for the opening, and mover the player who played it,
// followed by what it did (moveWords) as play says it.
// The score is written for a game that has one, the captured totals for a
// game without one when captures is true, the hands when hands is true.
func writeTraceState(w io.Writer, s *host.State, tok string, mover int, captures, hands, color bool, width int) {
	if tok == "" {
		fmt.Fprint(w, wrapHanging(width, fmt.Sprintf("== ply %d: opening of %s", s.Ply(), gameLabel(s.Game()))))
	} else {
		head := fmt.Sprintf("== ply %d: after %s by %s", s.Ply(), tok, playerName(mover))
		if did := moveWords(s); did != "" {
			head += ": " + did + "."
		}
		fmt.Fprint(w, "\n"+wrapHanging(width, head))
	}
	fmt.Fprint(w, diagram(s, color, width))
	writeTotals(w, s, captures, hands, false)
	writeTurn(w, s, width)
}

// lockedWriter serializes writes: the machines of a game's pool may print
// from several goroutines.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
