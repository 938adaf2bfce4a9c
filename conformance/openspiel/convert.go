package openspiel

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Games lists the Matombo games a playthrough converts to.
var Games = []string{"kalah", "oware", "draughts"}

// GameFor returns the Matombo game that plays the rules of OpenSpiel's game
// short name: "kalah" for mancala and kalah, "oware" for oware, "draughts"
// for checkers.
func GameFor(openspiel string) (string, bool) {
	switch openspiel {
	case "mancala", "kalah":
		return "kalah", true
	case "oware":
		return "oware", true
	case "checkers":
		return "draughts", true
	}
	return "", false
}

// Options configure Convert.
type Options struct {
	// Game is the Matombo game to convert to, "kalah", "oware" or
	// "draughts"; empty:
	// the one GameFor names for the playthrough's game.
	Game string
	// Source is the playthrough's file name, written in the header comment
	// and the scenario's name.
	Source string
}

// ConvertError is a playthrough that cannot be converted: a state or action
// the game cannot express, at a line of the playthrough.
type ConvertError struct {
	Line int
	Msg  string
}

func (e *ConvertError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	}
	return e.Msg
}

// position is what a state printed in full shows, in Matombo's terms.
type position struct {
	board    string // a board diagram
	captured []int  // nil: not checked (Kalah keeps everything on the board)
	toMove   int    // 1 or 2; 0 when the game is over
	legal    []string
	over     bool
	winner   int
}

// rules maps a playthrough of one OpenSpiel game to a Matombo game.
type rules interface {
	// token is the token of action a, made from state s.
	token(a Action) (string, error)
	// position reads a state printed in full.
	position(s State) (position, error)
	// points are the rules page's points a whole game checks.
	points() []string
	// params are the scenario file's parameters, "name: value", or nil.
	params() []string
}

// Convert writes a playthrough as a scenario file (YAML): one scenario
// whose steps play the actions and check, at every state printed in full,
// the board, the scores, the player to move, the legal tokens, the ply and
// the result.
func Convert(pt *Playthrough, opt Options) ([]byte, error) {
	game := opt.Game
	if mapped, ok := GameFor(pt.Game); game == "" {
		if !ok {
			return nil, &ConvertError{Msg: fmt.Sprintf("OpenSpiel's game %q has no Matombo counterpart (convertible: mancala and kalah to kalah, oware to oware, checkers to draughts)", pt.Game)}
		}
		game = mapped
	} else if ok && mapped != game {
		return nil, &ConvertError{Msg: fmt.Sprintf("the playthrough is of OpenSpiel's %s, which converts to %s, not %s", pt.Game, mapped, game)}
	}
	var r rules
	var err error
	switch game {
	case "kalah":
		r, err = newKalah(pt.Params)
	case "oware":
		r, err = newOware(pt.Params)
	case "draughts":
		r, err = newCheckers(pt.Params)
	default:
		return nil, &ConvertError{Msg: fmt.Sprintf("unknown game %q (allowed: %s)", game, strings.Join(Games, ", "))}
	}
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	src := opt.Source
	if src == "" {
		src = "a playthrough"
	}
	fmt.Fprintf(&b, "# yaml-language-server: $schema=../scenario.schema.json\n")
	fmt.Fprintf(&b, "# OpenSpiel's playthrough %s (game %s), converted by `matombo import\n", src, pt.Game)
	fmt.Fprintf(&b, "# openspiel`: the game move for move, checking every state the file prints\n")
	fmt.Fprintf(&b, "# in full. Regenerate it rather than edit it.\n")
	fmt.Fprintf(&b, "game: %s\n", game)
	if ps := r.params(); len(ps) > 0 {
		fmt.Fprintf(&b, "params: {%s}\n", strings.Join(ps, ", "))
	}
	fmt.Fprintf(&b, "scenarios:\n")
	fmt.Fprintf(&b, "  - name: OpenSpiel's %s game of %s, %d moves\n", pt.Game, yamlSafe(src), len(pt.Actions))
	fmt.Fprintf(&b, "    rule: [%s]\n", strings.Join(r.points(), ", "))
	fmt.Fprintf(&b, "    steps:\n")
	var pending []string
	for i, s := range pt.States {
		if i > 0 {
			a := pt.Actions[i-1]
			tok, err := r.token(a)
			if err != nil {
				return nil, &ConvertError{Line: a.Line, Msg: fmt.Sprintf("action %q (%d): %v", a.Label, a.ID, err)}
			}
			pending = append(pending, tok)
		}
		last := i == len(pt.States)-1
		if !s.Full && !last {
			continue
		}
		if i == 0 && !s.Full {
			continue
		}
		fmt.Fprintf(&b, "      - name: state %d\n", s.N)
		if len(pending) > 0 {
			fmt.Fprintf(&b, "        play: [%s]\n", strings.Join(pending, ", "))
			pending = nil
		}
		if !s.Full {
			continue
		}
		p, err := r.position(s)
		if err != nil {
			return nil, &ConvertError{Line: s.Line, Msg: fmt.Sprintf("state %d: %v", s.N, err)}
		}
		writeExpect(&b, p, s.N)
	}
	if !slices.ContainsFunc(pt.States, func(s State) bool { return s.Full }) {
		return nil, &ConvertError{Msg: "the playthrough prints no state in full (no \"IsTerminal() = ...\" lines): a scenario made from it would check nothing"}
	}
	return []byte(b.String()), nil
}

// writeExpect writes a step's expect block.
func writeExpect(b *strings.Builder, p position, ply int) {
	b.WriteString("        expect:\n          board: |\n")
	for _, l := range strings.Split(strings.TrimRight(p.board, "\n"), "\n") {
		fmt.Fprintf(b, "            %s\n", l)
	}
	if p.captured != nil {
		fmt.Fprintf(b, "          captured: [%d, %d]\n", p.captured[0], p.captured[1])
	}
	fmt.Fprintf(b, "          ply: %d\n", ply)
	fmt.Fprintf(b, "          over: %t\n", p.over)
	if p.over {
		fmt.Fprintf(b, "          winner: %d\n", p.winner)
		return
	}
	fmt.Fprintf(b, "          to_move: %d\n", p.toMove)
	fmt.Fprintf(b, "          legal: [%s]\n", strings.Join(p.legal, ", "))
}

// yamlSafe keeps a file name usable in a plain YAML scalar.
func yamlSafe(s string) string {
	return strings.Map(func(c rune) rune {
		if c < ' ' || strings.ContainsRune(`:#{}[],&*!|>'"%@`+"`", c) {
			return '_'
		}
		return c
	}, s)
}

// result reads the players' result from a terminal state: 1 or 2 for the
// winner, 0 for a draw.
func result(s State) (int, error) {
	if len(s.Returns) != 2 {
		return 0, fmt.Errorf("Returns() has %d values, want 2", len(s.Returns))
	}
	switch {
	case s.Returns[0] > s.Returns[1]:
		return 1, nil
	case s.Returns[1] > s.Returns[0]:
		return 2, nil
	}
	return 0, nil
}

// turn reads the player to move of a state that is not over, as 1 or 2.
func turn(s State) (int, error) {
	if s.Player != 0 && s.Player != 1 {
		return 0, fmt.Errorf("CurrentPlayer() is %d in a state that is not over", s.Player)
	}
	return s.Player + 1, nil
}

// count reads a number of seeds.
func count(x float64) (int, error) {
	if x != math.Trunc(x) || x < 0 || x > 1<<20 {
		return 0, fmt.Errorf("%v is not a number of seeds", x)
	}
	return int(x), nil
}

// row writes one row of a diagram: its label and cells.
func row(label string, cells []int, width int) string {
	var sb strings.Builder
	sb.WriteString(label + "    ")
	for i, c := range cells {
		if i > 0 {
			sb.WriteByte(' ')
		}
		t := strconv.Itoa(c)
		sb.WriteString(t + strings.Repeat(" ", max(0, width-len(t))))
	}
	return strings.TrimRight(sb.String(), " ")
}

// widest is the width of the widest count.
func widest(rows ...[]int) int {
	w := 1
	for _, r := range rows {
		for _, c := range r {
			w = max(w, len(strconv.Itoa(c)))
		}
	}
	return w
}
