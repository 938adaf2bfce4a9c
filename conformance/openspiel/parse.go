// Package openspiel reads OpenSpiel's playthrough files (the text files of
// open_spiel/integration_tests/playthroughs) and converts those of Kalah
// (OpenSpiel's `mancala` and `kalah`) and Oware (`oware`) into conformance
// scenario files, so that `matombo conform` replays a peer's games move for
// move and checks every state the file prints. `matombo import openspiel`
// is its command; docs/scenarios.md describes the result.
package openspiel

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Playthrough is one OpenSpiel playthrough: a game's name and parameters,
// the states it went through and the actions between them.
type Playthrough struct {
	Game    string   // OpenSpiel's short name, from the "game:" line, e.g. "mancala"
	Params  []string // GetParameters(), e.g. "num_seeds_per_house=4", in order
	States  []State  // state k is reached after k actions
	Actions []Action // action k leads from state k to state k+1
}

// State is one state of a playthrough. Only some states are printed in
// full; the others are just a number between two actions.
type State struct {
	N    int // the state's number, counted from 0
	Line int // the file line of its "# State" header
	Full bool

	// Printed only for full states.
	Terminal    bool
	Player      int       // CurrentPlayer(): 0 or 1, negative when terminal
	Tensor      []float64 // ObservationTensor(0)
	Observation string    // ObservationString(0), unquoted
	Legal       []int     // LegalActions()
	Returns     []float64 // Returns()
}

// Action is one action of a playthrough: its label (StringLegalActions'
// text) and its number.
type Action struct {
	Label string
	ID    int
	Line  int
}

// ParseError is a malformed playthrough, with the line of the problem.
type ParseError struct {
	Line int
	Msg  string
}

func (e *ParseError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	}
	return e.Msg
}

// Limits on what Parse accepts.
const (
	maxLine   = 1 << 20 // bytes in one line
	maxStates = 100000  // states in one playthrough
	maxList   = 1000    // values in one printed list
)

// Parse reads a playthrough. It checks its structure (a "game:" line,
// states numbered from 0, one action between consecutive states) and the
// syntax of the lines it uses, not the game's rules, nor that the file is
// whole (CheckComplete).
func Parse(r io.Reader) (*Playthrough, error) {
	pt := &Playthrough{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), maxLine)
	ln := 0
	fail := func(format string, args ...any) error {
		return &ParseError{Line: ln, Msg: fmt.Sprintf(format, args...)}
	}
	var cur *State
	pendingLabel, labelLine := "", 0
	for sc.Scan() {
		ln++
		line := strings.TrimRight(sc.Text(), "\r")
		switch {
		case pt.Game == "" && strings.HasPrefix(line, "game: "):
			pt.Game = strings.TrimSpace(strings.TrimPrefix(line, "game: "))
			if i := strings.IndexByte(pt.Game, '('); i >= 0 {
				pt.Game = pt.Game[:i]
			}
			if pt.Game == "" {
				return nil, fail("the game line names no game")
			}
		case strings.HasPrefix(line, "GetParameters() = "):
			body := strings.TrimSpace(strings.TrimPrefix(line, "GetParameters() = "))
			if !strings.HasPrefix(body, "{") || !strings.HasSuffix(body, "}") {
				return nil, fail("GetParameters() = %q: want {name=value,...}", short(body))
			}
			for _, f := range strings.Split(body[1:len(body)-1], ",") {
				if f = strings.TrimSpace(f); f != "" {
					pt.Params = append(pt.Params, f)
				}
			}
		case strings.HasPrefix(line, "# State "):
			if pt.Game == "" {
				return nil, fail("a state before the \"game:\" line")
			}
			n, err := strconv.Atoi(strings.TrimPrefix(line, "# State "))
			if err != nil || n != len(pt.States) {
				return nil, fail("%q: want state %d", short(line), len(pt.States))
			}
			if n > 0 && len(pt.Actions) != n {
				return nil, fail("state %d follows state %d without an action", n, n-1)
			}
			if n >= maxStates {
				return nil, fail("more than %d states", maxStates)
			}
			pt.States = append(pt.States, State{N: n, Line: ln})
			cur = &pt.States[n]
		case strings.HasPrefix(line, "# Apply action "):
			if cur == nil {
				return nil, fail("an action before the first state")
			}
			l, err := strconv.Unquote(strings.TrimPrefix(line, "# Apply action "))
			if err != nil || l == "" {
				return nil, fail("%q: want the action's label in quotes", short(line))
			}
			pendingLabel, labelLine = l, ln
		case strings.HasPrefix(line, "action: "):
			if cur == nil || pendingLabel == "" {
				return nil, fail("\"action:\" without an \"# Apply action\" line before it")
			}
			if len(pt.Actions) != cur.N {
				return nil, fail("a second action after state %d", cur.N)
			}
			id, err := strconv.Atoi(strings.TrimPrefix(line, "action: "))
			if err != nil || id < 0 || id > 1<<20 {
				return nil, fail("%q: want a whole number", short(line))
			}
			pt.Actions = append(pt.Actions, Action{Label: pendingLabel, ID: id, Line: labelLine})
			pendingLabel = ""
		case cur == nil:
			// the header: game type and limits
		default:
			if err := cur.field(line); err != nil {
				return nil, fail("%v", err)
			}
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, &ParseError{Line: ln + 1, Msg: fmt.Sprintf("the line is longer than %d bytes, the most a line of a playthrough may hold", maxLine)}
		}
		return nil, &ParseError{Line: ln + 1, Msg: err.Error()}
	}
	if pt.Game == "" {
		return nil, &ParseError{Msg: "no \"game:\" line: this is not an OpenSpiel playthrough"}
	}
	if len(pt.States) == 0 {
		return nil, &ParseError{Msg: "no states (\"# State 0\" and so on)"}
	}
	if len(pt.Actions) >= len(pt.States) {
		return nil, &ParseError{Line: ln, Msg: fmt.Sprintf("the last action (after state %d) leads to no state", len(pt.States)-1)}
	}
	return pt, nil
}

// CheckComplete reports a playthrough cut short, as a *ParseError naming
// the line of its last state. OpenSpiel plays a playthrough to the end of
// the game and prints its last state in full, over (IsTerminal() = True)
// and with its Returns(); a file cut after another state (or within the
// last) still parses, as a shorter game that Convert would turn into a
// scenario of that shorter game without a word.
func (pt *Playthrough) CheckComplete() error {
	if len(pt.States) == 0 {
		return &ParseError{Msg: "no states (\"# State 0\" and so on)"}
	}
	last := pt.States[len(pt.States)-1]
	var why string
	switch {
	case !last.Full:
		why = "is not printed in full"
	case !last.Terminal:
		why = "is not over (IsTerminal() = False)"
	case last.Returns == nil:
		why = "has no Returns()"
	default:
		return nil
	}
	return &ParseError{Line: last.Line, Msg: fmt.Sprintf("the playthrough ends with state %d, which %s: the file is cut short (OpenSpiel plays a playthrough to the end of the game and prints its last state in full, IsTerminal() = True with its Returns())", last.N, why)}
}

// field reads one line of a state printed in full.
func (s *State) field(line string) error {
	key, val, ok := strings.Cut(line, " = ")
	if !ok {
		return nil
	}
	var err error
	switch key {
	case "IsTerminal()":
		s.Full = true
		switch val {
		case "True":
			s.Terminal = true
		case "False":
		default:
			return fmt.Errorf("IsTerminal() = %q: want True or False", short(val))
		}
	case "CurrentPlayer()":
		s.Player, err = strconv.Atoi(val)
		if err != nil || s.Player < -10 || s.Player > 10 {
			return fmt.Errorf("CurrentPlayer() = %q: want a player number", short(val))
		}
	case "ObservationString(0)":
		s.Observation, err = strconv.Unquote(val)
		if err != nil {
			return fmt.Errorf("ObservationString(0) = %q: want a quoted string", short(val))
		}
	case "ObservationTensor(0)":
		s.Tensor, err = numbers(val)
	case "LegalActions()":
		var f []float64
		f, err = numbers(val)
		for _, x := range f {
			if x != math.Trunc(x) || x < 0 || x > 1<<20 {
				return fmt.Errorf("LegalActions() = %s: want whole numbers", short(val))
			}
			s.Legal = append(s.Legal, int(x))
		}
		if s.Legal == nil {
			s.Legal = []int{}
		}
	case "Returns()":
		s.Returns, err = numbers(val)
	}
	if err != nil {
		return fmt.Errorf("%s: %v", key, err)
	}
	return nil
}

// numbers reads a printed list such as [0.0, 4.0, 1].
func numbers(val string) ([]float64, error) {
	if !strings.HasPrefix(val, "[") || !strings.HasSuffix(val, "]") {
		return nil, fmt.Errorf("%q: want a list in brackets", short(val))
	}
	body := strings.TrimSpace(val[1 : len(val)-1])
	out := []float64{}
	if body == "" {
		return out, nil
	}
	for _, f := range strings.Split(body, ",") {
		if len(out) == maxList {
			return nil, fmt.Errorf("more than %d values", maxList)
		}
		x, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("%q is not a number", short(strings.TrimSpace(f)))
		}
		out = append(out, x)
	}
	return out, nil
}

// short cuts a quoted piece of input for a message.
func short(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}
