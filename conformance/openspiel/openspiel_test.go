package openspiel

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// playthroughs are OpenSpiel's files in the host's test data and the
// scenario files the project ships for them.
var playthroughs = []struct{ source, scenario string }{
	{"mancala.txt", "kalah/openspiel-mancala.yaml"},
	{"mancala-2955027f.txt", "kalah/openspiel-mancala-2955027f.yaml"},
	{"kalah.txt", "kalah/openspiel-kalah.yaml"},
	{"kalah-6cbf7691.txt", "kalah/openspiel-kalah-6cbf7691.yaml"},
	{"oware.txt", "oware/openspiel-oware.yaml"},
	{"oware-0cb05f61.txt", "oware/openspiel-oware-0cb05f61.yaml"},
	{"checkers.txt", "draughts/openspiel-checkers.yaml"},
}

var update = flag.Bool("update", false, "rewrite the shipped scenario files from the playthroughs")

var (
	sourceDir   = filepath.Join("..", "..", "host", "testdata", "openspiel")
	scenarioDir = ".."
)

// TestShippedScenariosAreConverted converts OpenSpiel's playthroughs again
// and compares the result with the scenario files under conformance/: the
// shipped files are exactly what the converter makes of them;
// go test ./openspiel -update rewrites them.
func TestShippedScenariosAreConverted(t *testing.T) {
	for _, p := range playthroughs {
		t.Run(p.source, func(t *testing.T) {
			f, err := os.Open(filepath.Join(sourceDir, p.source))
			require.NoError(t, err)
			defer f.Close()
			pt, err := Parse(f)
			require.NoError(t, err)
			require.NoError(t, pt.CheckComplete(), "OpenSpiel's own file is whole")
			got, err := Convert(pt, Options{Source: p.source})
			require.NoError(t, err)
			path := filepath.Join(scenarioDir, filepath.FromSlash(p.scenario))
			if *update {
				require.NoError(t, os.WriteFile(path, got, 0o644))
			}
			want, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.Equal(t, string(want), string(got), "regenerate with go test ./openspiel -update")
		})
	}
}

// TestParseReadsEveryState checks what Parse finds in a playthrough whose
// every state is printed: all actions, the states in full and the result.
func TestParseReadsEveryState(t *testing.T) {
	f, err := os.Open(filepath.Join(sourceDir, "oware-0cb05f61.txt"))
	require.NoError(t, err)
	defer f.Close()
	pt, err := Parse(f)
	require.NoError(t, err)
	assert.Equal(t, "oware", pt.Game)
	assert.Equal(t, []string{"num_houses_per_player=6", "num_seeds_per_house=4"}, pt.Params)
	require.Len(t, pt.States, len(pt.Actions)+1)
	for _, s := range pt.States {
		assert.True(t, s.Full, "state %d", s.N)
	}
	assert.Equal(t, Action{Label: "C", ID: 2, Line: pt.Actions[0].Line}, pt.Actions[0])
	last := pt.States[len(pt.States)-1]
	assert.True(t, last.Terminal)
	assert.Equal(t, -4, last.Player)
	assert.Equal(t, []float64{-1, 1}, last.Returns)
	assert.Equal(t, "0 | 0 0 | 4 4 4 4 4 4 4 4 4 4 4 4", pt.States[0].Observation)
}

const tiny = `game: mancala

# State 0
IsTerminal() = False
CurrentPlayer() = 0
ObservationTensor(0) = [0.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 0.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 0.0, 0.0]
LegalActions() = [1, 2, 3, 4, 5, 6]

# Apply action "3"
action: 3

# State 1
# Apply action "1"
action: 1

# State 2
IsTerminal() = False
CurrentPlayer() = 1
ObservationTensor(0) = [0.0, 0.0, 5.0, 1.0, 6.0, 6.0, 6.0, 2.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 1.0, 2.0]
LegalActions() = [8, 9, 10, 11, 12, 13]
`

const tinyScenario = `# yaml-language-server: $schema=../scenario.schema.json
# OpenSpiel's playthrough tiny.txt (game mancala), converted by ` + "`matombo import\n# openspiel`" + `: the game move for move, checking every state the file prints
# in full. Regenerate it rather than edit it.
game: kalah
scenarios:
  - name: OpenSpiel's mancala game of tiny.txt, 2 moves
    rule: [K1, K2, K3, K4, K5, K6]
    steps:
      - name: state 0
        expect:
          board: |
            b    4  4  4  4  4  4  0
            a    4  4  4  4  4  4  0
                 1  2  3  4  5  6  7
          ply: 0
          over: false
          to_move: 1
          legal: [a1, a2, a3, a4, a5, a6]
      - name: state 2
        play: [a3, a1]
        expect:
          board: |
            b    4  4  4  4  4  4  0
            a    0  5  1  6  6  6  2
                 1  2  3  4  5  6  7
          ply: 2
          over: false
          to_move: 2
          legal: [b6, b5, b4, b3, b2, b1]
`

// TestConvertSkipsStatesNotPrinted converts a small playthrough: the
// actions between two printed states are played in one step.
func TestConvertSkipsStatesNotPrinted(t *testing.T) {
	pt, err := Parse(strings.NewReader(tiny))
	require.NoError(t, err)
	got, err := Convert(pt, Options{Source: "tiny.txt"})
	require.NoError(t, err)
	assert.Equal(t, tinyScenario, string(got))
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct {
		name, text, want string
		line             int
	}{
		{"empty", "", `no "game:" line`, 0},
		{"no states", "game: oware\n", "no states", 0},
		{"state before game", "# State 0\n", `a state before the "game:" line`, 1},
		{"states out of order", "game: oware\n# State 1\n", `"# State 1": want state 0`, 2},
		{"state without action", "game: oware\n# State 0\n# State 1\n", "state 1 follows state 0 without an action", 3},
		{"two actions", "game: oware\n# State 0\n# Apply action \"A\"\naction: 0\n# Apply action \"B\"\naction: 1\n", "a second action after state 0", 6},
		{"action without label", "game: oware\n# State 0\naction: 0\n", `"action:" without an "# Apply action" line`, 3},
		{"label not quoted", "game: oware\n# State 0\n# Apply action A\n", "want the action's label in quotes", 3},
		{"bad action number", "game: oware\n# State 0\n# Apply action \"A\"\naction: x\n", `"action: x": want a whole number`, 4},
		{"dangling action", "game: oware\n# State 0\n# Apply action \"A\"\naction: 0\n", "the last action (after state 0) leads to no state", 4},
		{"bad terminal", "game: oware\n# State 0\nIsTerminal() = Maybe\n", `IsTerminal() = "Maybe": want True or False`, 3},
		{"bad player", "game: oware\n# State 0\nCurrentPlayer() = one\n", "want a player number", 3},
		{"bad tensor", "game: oware\n# State 0\nObservationTensor(0) = [1.0, x]\n", `ObservationTensor(0): "x" is not a number`, 3},
		{"tensor not a list", "game: oware\n# State 0\nObservationTensor(0) = 1.0\n", "want a list in brackets", 3},
		{"bad legal", "game: oware\n# State 0\nLegalActions() = [1.5]\n", "want whole numbers", 3},
		{"bad observation", "game: oware\n# State 0\nObservationString(0) = 0 | 0\n", "want a quoted string", 3},
		{"bad parameters", "game: oware\nGetParameters() = x\n", "want {name=value,...}", 2},
		{"empty game", "game: \n", "names no game", 1},
		{"a line too long", "game: oware\n" + strings.Repeat("x", maxLine+1) + "\n", "the line is longer than 1048576 bytes", 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse(strings.NewReader(c.text))
			require.Error(t, err)
			var pe *ParseError
			require.True(t, errors.As(err, &pe), "a ParseError: %v", err)
			assert.Contains(t, err.Error(), c.want)
			assert.Equal(t, c.line, pe.Line)
		})
	}
}

// TestCheckComplete: OpenSpiel writes a playthrough to the end of the
// game, its last state printed in full and over, so a file cut short at a
// state (or within the last one) is refused, naming the line of that
// state, where Parse alone reads it as a shorter game.
func TestCheckComplete(t *testing.T) {
	whole, err := os.ReadFile(filepath.Join(sourceDir, "mancala.txt"))
	require.NoError(t, err)
	for _, c := range []struct {
		name, end string // the file is cut just after end
		want      string
		line      int
	}{
		{"whole", "", "", 0},
		{"at a state not printed", "# State 54\n", "ends with state 54, which is not printed in full", 449},
		{"after a state printed in full", "StringLegalActions() = [\"2\", \"3\"]\n", "ends with state 59, which is not over (IsTerminal() = False)", 469},
		{"at the last state's header", "# State 61\n", "ends with state 61, which is not printed in full", 497},
		{"within the last state", "IsTerminal() = True\n", "ends with state 61, which has no Returns()", 497},
	} {
		t.Run(c.name, func(t *testing.T) {
			text := string(whole)
			if c.end != "" {
				before, _, ok := strings.Cut(text, c.end)
				require.True(t, ok, "no %q", c.end)
				text = before + c.end
			}
			pt, err := Parse(strings.NewReader(text))
			require.NoError(t, err, "Parse reads a file cut at a state")
			err = pt.CheckComplete()
			if c.want == "" {
				require.NoError(t, err)
				return
			}
			var pe *ParseError
			require.True(t, errors.As(err, &pe), "a ParseError: %v", err)
			assert.Contains(t, err.Error(), c.want)
			assert.Contains(t, err.Error(), "the file is cut short")
			assert.Equal(t, c.line, pe.Line)
		})
	}
}

// checkersOpening is the opening of OpenSpiel's checkers as a playthrough prints it.
const checkersOpening = "game: checkers\n# State 0\nIsTerminal() = False\nCurrentPlayer() = 0\n" +
	`ObservationString(0) = "8.+.+.+.+\n7+.+.+.+.\n6.+.+.+.+\n5........\n4........\n3o.o.o.o.\n2.o.o.o.o\n1o.o.o.o.\n abcdefgh\n"` + "\n" +
	"LegalActions() = [322, 336, 338, 352, 354, 368, 370]\n"

func TestConvertErrors(t *testing.T) {
	oware := "game: oware\nGetParameters() = {num_houses_per_player=6,num_seeds_per_house=4}\n# State 0\nIsTerminal() = False\nCurrentPlayer() = 0\nObservationString(0) = \"0 | 0 0 | 4 4 4 4 4 4 4 4 4 4 4 4\"\nLegalActions() = [0, 1, 2, 3, 4, 5]\n"
	for _, c := range []struct {
		name, text string
		opt        Options
		want       string
	}{
		{"unknown game", "game: chess\n# State 0\n", Options{}, `OpenSpiel's game "chess" has no Matombo counterpart`},
		{"wrong game", oware, Options{Game: "kalah"}, "the playthrough is of OpenSpiel's oware, which converts to oware, not kalah"},
		{"unknown target", "game: chess\n# State 0\n", Options{Game: "chess"}, `unknown game "chess" (allowed: kalah, oware, draughts)`},
		{"too many houses", strings.Replace(oware, "num_houses_per_player=6", "num_houses_per_player=7", 1), Options{}, "Matombo's Oware plays 4 to 6 houses a row"},
		{"too many seeds", strings.Replace(oware, "num_seeds_per_house=4", "num_seeds_per_house=9", 1), Options{}, "Matombo's Oware plays 3 to 6 seeds a house"},
		{"unknown parameter", strings.Replace(oware, "num_seeds_per_house=4", "rows=3", 1), Options{}, "unknown parameter rows=3"},
		{"kalah parameter", "game: mancala\nGetParameters() = {seeds=3}\n# State 0\n", Options{}, "OpenSpiel's Kalah has no parameters"},
		{"short observation", strings.Replace(oware, "4 4 4 4 4 4 4 4 4 4 4 4", "4 4", 1), Options{}, "line 3: state 0: ObservationString(0)"},
		{"house off the row", strings.Replace(oware, "[0, 1, 2, 3, 4, 5]", "[0, 6]", 1), Options{}, "house 6 is not in a row of 6"},
		{"oware action label", oware + "# Apply action \"C\"\naction: 3\n# State 1\n", Options{}, `line 8: action "C" (3): label "C" is not house 3 of a row`},
		{"kalah store", "game: mancala\n# State 0\n# Apply action \"7\"\naction: 7\n# State 1\n", Options{}, "a store is not a pit to sow from"},
		{"kalah off the board", "game: mancala\n# State 0\n# Apply action \"14\"\naction: 14\n# State 1\n", Options{}, "board index 14 is not on the board"},
		{"kalah short tensor", "game: mancala\n# State 0\nIsTerminal() = False\nObservationTensor(0) = [1.0]\n", Options{}, "ObservationTensor(0) has 1 values"},
		{"kalah seeds", "game: mancala\n# State 0\nIsTerminal() = False\nObservationTensor(0) = [0.5, 4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4]\n", Options{}, "board[0]: 0.5 is not a number of seeds"},
		{"player of a state not over", "game: mancala\n# State 0\nIsTerminal() = False\nCurrentPlayer() = -4\nObservationTensor(0) = [0, 4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4]\n", Options{}, "CurrentPlayer() is -4 in a state that is not over"},
		{"returns", "game: mancala\n# State 0\nIsTerminal() = True\nObservationTensor(0) = [0, 4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4]\nReturns() = [1]\n", Options{}, "Returns() has 1 values, want 2"},
		{"checkers size", "game: checkers\nGetParameters() = {columns=10,egocentric=False,rows=10}\n# State 0\n", Options{}, "Matombo's English draughts is played on 8x8"},
		{"checkers parameter", "game: checkers\nGetParameters() = {kings=3}\n# State 0\n", Options{}, "unknown parameter kings=3"},
		{"checkers label", checkersOpening + "# Apply action \"c3b4\"\naction: 338\n# State 1\n", Options{}, `action "c3b4" (338): label "c3b4" does not match the action number`},
		{"checkers action", checkersOpening + "# Apply action \"x\"\naction: 600\n# State 1\n", Options{}, "action 600 is not one of checkers' 512"},
		{"checkers off the board", checkersOpening + "# Apply action \"a3\"\naction: 326\n# State 1\n", Options{}, "is not a dark square of the board"},
		{"checkers piece", strings.Replace(checkersOpening, "3o.o.o.o.", "3o.o.x.o.", 1), Options{}, `e3 holds 'x', not a piece of checkers`},
		{"checkers light square", strings.Replace(checkersOpening, "3o.o.o.o.", "3oo..o.o.", 1), Options{}, "b3, a light square, holds 'o'"},
		{"checkers ranks", strings.Replace(checkersOpening, "\\n3o.o.o.o.", "", 1), Options{}, "want 8 ranks and the files"},
		{"checkers rank", strings.Replace(checkersOpening, "3o.o.o.o.", "3o.o.o.o", 1), Options{}, "want the rank and 8 squares"},
	} {
		t.Run(c.name, func(t *testing.T) {
			pt, err := Parse(strings.NewReader(c.text))
			require.NoError(t, err)
			_, err = Convert(pt, c.opt)
			require.Error(t, err)
			var ce *ConvertError
			require.True(t, errors.As(err, &ce), "a ConvertError: %v", err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}

// FuzzParse feeds Parse, CheckComplete and Convert arbitrary text: they
// return a result or an error, never panic, a playthrough found complete
// ends in a state that is over, and what Convert writes names the game.
func FuzzParse(f *testing.F) {
	for _, p := range playthroughs {
		b, err := os.ReadFile(filepath.Join(sourceDir, p.source))
		if err != nil {
			f.Fatal(err)
		}
		if len(b) > 4000 {
			b = b[:4000]
		}
		f.Add(b)
	}
	f.Add([]byte(tiny))
	f.Fuzz(func(t *testing.T, data []byte) {
		pt, err := Parse(bytes.NewReader(data))
		if err != nil {
			return
		}
		if len(pt.States) != len(pt.Actions)+1 {
			t.Fatalf("%d states, %d actions", len(pt.States), len(pt.Actions))
		}
		if err := pt.CheckComplete(); err == nil && !pt.States[len(pt.States)-1].Terminal {
			t.Fatalf("complete, but the last state is not over")
		}
		for _, g := range append([]string{""}, Games...) {
			out, err := Convert(pt, Options{Game: g, Source: "fuzz.txt"})
			if err == nil && !bytes.Contains(out, []byte("\ngame: ")) {
				t.Fatalf("converted without a game line:\n%s", out)
			}
		}
	})
}
