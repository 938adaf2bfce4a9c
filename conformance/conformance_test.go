package conformance

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/diag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func kalahLibrary(t *testing.T) *host.Library {
	t.Helper()
	lib := host.NewLibrary()
	require.NoError(t, lib.AddDir(filepath.Join("..", "host", "testdata", "games")))
	return lib
}

func runText(t *testing.T, lib *host.Library, src string) (*Report, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "case.yaml")
	require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
	files, errs := LoadFiles(path)
	rep := NewSuite(lib).Run(files, errs)
	var out bytes.Buffer
	rep.WriteText(&out, false)
	return rep, strings.ReplaceAll(out.String(), path, "case.yaml")
}

// kalahNote is the note of a run of the scenarios of the test game kalah,
// whose folder has no rules page.
const kalahNote = "note: game kalah has no rules page: the rule labels of its scenarios are not checked (a game's page is rules.md in its folder; see docs/scenarios.md#rule-labels)\n"

const kalahOK = `game: kalah
scenarios:
  - name: a sowing that ends in the store gives another turn
    rule: K1
    play: [a3]
    expect:
      board: |
        b    4  4  4  4  4  4  0
        a    4  4  0  5  5  5  1
             1  2  3  4  5  6  7
      to_move: 1
      legal: [a1, a2, a4, a5, a6]
`

func TestPassingScenario(t *testing.T) {
	rep, out := runText(t, kalahLibrary(t), kalahOK)
	assert.True(t, rep.OK(), out)
	assert.Equal(t, kalahNote+"1 passed, 0 failed, 0 errored\n", out)
}

// A wrong expectation fails with the step, the field and both boards.
func TestWrongExpectationShowsDiff(t *testing.T) {
	wrong := strings.Replace(kalahOK, "a    4  4  0  5  5  5  1", "a    4  4  0  5  6  5  1", 1)
	rep, out := runText(t, kalahLibrary(t), wrong)
	require.Equal(t, 1, rep.Failed, out)
	want := `FAIL  case.yaml:8: a sowing that ends in the store gives another turn [K1]
    step 1: board differs: a5: want 6, got 5
    expected                    actual
    b    4  4  4  4  4  4  0    b    4  4  4  4  4  4  0
    a    4  4  0  5  6  5  1    a    4  4  0  5  5  5  1
         1  2  3  4  5  6  7         1  2  3  4  5  6  7
` + kalahNote + `0 passed, 1 failed, 0 errored
`
	assert.Equal(t, want, out)
}

func TestFailures(t *testing.T) {
	cases := []struct {
		name, edit, want string
	}{
		{"legal", "legal: [a1, a2, a4, a5, a6]", "legal differs"},
		{"to_move", "to_move: 1", "to_move differs"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := strings.Replace(kalahOK, c.edit, strings.Replace(c.edit, "1", "2", 1), 1)
			rep, out := runText(t, kalahLibrary(t), src)
			require.Equal(t, 1, rep.Failed, out)
			assert.Contains(t, out, c.want)
		})
	}
}

func TestRejectAndSteps(t *testing.T) {
	src := `game: kalah
scenarios:
  - name: steps check the middle of a game
    rule: K2
    steps:
      - name: sow into the store
        play: [a3]
        expect: {to_move: 1, ply: 1}
      - name: an empty pit cannot be sown
        reject: a3
        error: illegal token "a3"
      - play: [a6]
        expect: {to_move: 2, captured: [0, 0], sites: {a7: 2, b3: 5}}
`
	rep, out := runText(t, kalahLibrary(t), src)
	assert.True(t, rep.OK(), out)

	accepted := strings.Replace(src, "reject: a3", "reject: a4", 1)
	rep, out = runText(t, kalahLibrary(t), accepted)
	require.Equal(t, 1, rep.Failed, out)
	assert.Contains(t, out, "reject differs")
}

// Malformed files are errors at their file and line, never passes.
func TestMalformedFiles(t *testing.T) {
	cases := []struct {
		name, src, want string
	}{
		{"unknown key", "game: kalah\nscenarios:\n  - name: x\n    rule: K\n    plya: [a1]\n", "case.yaml:5:5: unknown key \"plya\" in a scenario"},
		{"token list not a list", "game: kalah\nscenarios:\n  - name: x\n    rule: K\n    play: a1\n", "case.yaml:5:11: play must be a list"},
		{"wrong type", "game: kalah\nscenarios:\n  - name: x\n    rule: K\n    play: [a1]\n    expect: {to_move: one}\n", "case.yaml:6:23: to_move must be a whole number"},
		{"no rule", "game: kalah\nscenarios:\n  - name: x\n    play: [a1]\n", "case.yaml:3:5: scenario \"x\" needs a rule"},
		{"yaml syntax", "game: kalah\nscenarios: [\n", "case.yaml:2: YAML syntax"},
		{"a tab indents", "game: kalah\nscenarios:\n  - name: x\n\t  rule: K\n", "case.yaml:4:1: YAML syntax: a tab indents this line; YAML indents with spaces only"},
		{"board with wrong number of holes", "game: kalah\nscenarios:\n  - name: x\n    rule: K\n    expect:\n      board: |\n        b 4 4 4 4 4 4 0\n        a 4 4 4 4 4 4\n", "case.yaml:8: start"},
		{"unknown game", "game: chess\nscenarios:\n  - name: x\n    rule: K\n    play: [e4]\n", "unknown game \"chess\""},
		// yaml.v3 reports these without a line; the parser finds it.
		{"a NUL byte", "game: kalah\nscenarios:\n  - name: x\n    rule: K\n    play: [a\x001]\n", "case.yaml:5:13: YAML: the character U+0000, which a YAML file may not hold"},
		{"an escape character", "game: kalah\nscenarios:\n  - name: \x1b[2Jx\n    rule: K\n", "case.yaml:3:11: YAML: the character U+001B"},
		{"invalid UTF-8", "game: kalah\nscenarios:\n  - name: caf\xe9\n    rule: K\n", "case.yaml:3:14: YAML: the byte 0xE9, which is not UTF-8"},
		// Text a report prints reaches the terminal: YAML's escapes ("\e",
		// "\u202e") cannot smuggle a control character into it.
		{"an escape in a quoted name", "game: kalah\nscenarios:\n  - name: \"x\\e[2J\"\n    rule: K\n    play: [a1]\n", "case.yaml:3:11: name contains the control character U+001B at byte 2"},
		{"a bidi override in a rule", "game: kalah\nscenarios:\n  - name: x\n    rule: [\"K\\u202e1\"]\n    play: [a1]\n", "case.yaml:4:12: rule entry contains the control character U+202E"},
		{"a carriage return in a quote", "game: kalah\nscenarios:\n  - name: x\n    rule: K\n    quote: \"a\\rb\"\n    play: [a1]\n", "case.yaml:5:12: quote contains the control character U+000D"},
		{"an escape in a step name", "game: kalah\nscenarios:\n  - name: x\n    rule: K\n    steps:\n      - name: \"\\e]0;t\\a\"\n        play: [a1]\n", "case.yaml:6:15: name contains the control character U+001B"},
		{"an escape in the game", "game: \"kal\\eah\"\nscenarios:\n  - name: x\n    rule: K\n    play: [a1]\n", "case.yaml:1:7: game contains the control character U+001B"},
		{"an escape in a site name", "game: kalah\nscenarios:\n  - name: x\n    rule: K\n    expect: {sites: {\"a\\e1\": 4}}\n", "case.yaml:5:22: a name in sites contains the control character U+001B"},
		{"an escape in an expected note", "game: kalah\nscenarios:\n  - name: x\n    rule: K\n    expect: {notes: [\"\\e\"]}\n", "case.yaml:5:22: notes entry contains the control character U+001B"},
		{"an alias for a scenario", "game: kalah\nscenarios:\n  - &s {name: x, rule: K, play: [a1]}\n  - *s\n", "case.yaml:4:5: a scenario must be a mapping"},
		{"a list as a key", "game: kalah\nscenarios:\n  - name: x\n    rule: K\n    expect: {vars: {[a]: 1}}\n", "case.yaml:5:21: a key in vars must be a name"},
		// A scenario that checks nothing is an error, not a pass.
		{"no steps", "game: kalah\nscenarios: [{name: x, rule: K, steps: []}]\n", "case.yaml:2:39: scenario \"x\": steps is empty"},
		{"an empty rule", "game: kalah\nscenarios: [{name: x, rule: \"\", play: [a1]}]\n", "case.yaml:2:13: scenario \"x\" needs a rule"},
		{"an empty rule in a list", "game: kalah\nscenarios: [{name: x, rule: [K, \"\"], play: [a1]}]\n", "case.yaml:2:13: scenario \"x\" needs a rule"},
		{"nothing played, nothing checked", "game: kalah\nscenarios: [{name: x, rule: K, play: []}]\n", "case.yaml:2:13: a step needs a token to play, a reject or an expectation"},
		{"an empty expectation", "game: kalah\nscenarios: [{name: x, rule: K, steps: [{expect: {}}]}]\n", "case.yaml:2:49: expect: {} checks nothing: name what to check, or leave it out"},
		{"an empty expectation beside a token", "game: kalah\nscenarios: [{name: x, rule: K, steps: [{play: [a3], expect: {}}]}]\n", "case.yaml:2:61: expect: {} checks nothing"},
		{"play: [] alone", "game: kalah\nscenarios: [{name: x, rule: K, steps: [{play: []}]}]\n", "case.yaml:2:40: a step needs a token to play, a reject or an expectation"},
		{"a syntax error on the first line", "game: a: b\nscenarios: []\n", "case.yaml:1: YAML syntax: mapping values are not allowed in this context"},
		{"a broken second document", "game: kalah\nscenarios: [{name: x, rule: K, play: [a1]}]\n---\n: [ bad\n", "case.yaml:4: YAML syntax: did not find expected key"},
		// yaml.v3 gives the line the sequence began on, counted from 0 (2).
		{"a key indented wrongly", "game: kalah\nscenarios:\n  - name: x\n    rule: K\n    play: [a1]\n   expect: {to_move: 2}\n", "case.yaml:6: YAML syntax: did not find expected '-' indicator"},
		{"an alias of no anchor", "game: kalah\nscenarios:\n  - name: x\n    rule: K\n    play: *p\n", "case.yaml:5:11: YAML: the alias *p names no anchor (&p) before it"},
		{"more parameters than a game has", "game: kalah\nparams: {" + strings.Repeat("p: 1, ", 64) + "q: 1}\nscenarios: [{name: x, rule: K, play: [a1]}]\n", "case.yaml:2:9: params: at most 64 parameters, got 65"},
		{"more variants than the bound", "game: kalah\nscenarios: [{name: x, rule: K, play: [a1], variant: [" + strings.Repeat("three, ", 64) + "six]}]\n", "case.yaml:2:53: variant: at most 64 variants, got 65"},
		{"a site key twice", "game: kalah\nscenarios:\n  - name: x\n    rule: K\n    expect: {sites: {a1: 4, a1: 4}}\n", "case.yaml:5:29: key \"a1\" appears twice in sites"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rep, out := runText(t, kalahLibrary(t), c.src)
			assert.False(t, rep.OK())
			assert.Equal(t, 0, rep.Passed, out)
			assert.Contains(t, out, strings.TrimSuffix(c.want, ": start"), out)
		})
	}
}

// Start positions are checked as host.NewState checks them: a count past
// the int32 range is refused (never wrapped to a small one), and a game
// that conserves its counters refuses another total unless the scenario
// says any_total.
func TestStartPositionChecks(t *testing.T) {
	start := `game: kalah
scenarios:
  - name: a start
    rule: K1
    start:
      board: |
        b    4  4  4  4  4  4  0
        a    4  4  4  4  4  4  0
             1  2  3  4  5  6  7
      captured: CAPTURED
    play: [a3]
`
	for captured, want := range map[string]string{
		"[2147483648, 4294967297]":            "captured total is 2147483648",
		"[0, 0]\n      hand: [4294967303, 0]": "hand is 4294967303",
	} {
		_, out := runText(t, kalahLibrary(t), strings.Replace(start, "CAPTURED", captured, 1))
		assert.Contains(t, out, "ERROR", captured)
		assert.Contains(t, out, want, captured)
	}
	conserving := strings.Replace(start, "CAPTURED", "[5, 0]", 1)
	g, err := kalahLibrary(t).Load("kalah")
	require.NoError(t, err)
	require.True(t, g.Conserves(), "the test game conserves its counters")
	_, out := runText(t, kalahLibrary(t), conserving)
	assert.Contains(t, out, "the game conserves its counters", out)
	rep, out := runText(t, kalahLibrary(t), strings.Replace(conserving, "    start:\n", "    start:\n      any_total: true\n", 1))
	assert.Equal(t, 1, rep.Passed, out)
}

// A scenario is cited at its name line, whatever key comes first.
func TestScenarioCitedAtItsName(t *testing.T) {
	src := `game: kalah
scenarios:
  - reject: a7
    error: a7 is not possible for a sow now
    rule: K1
    name: the store is not a pit to sow from
`
	path := filepath.Join(t.TempDir(), "case.yaml")
	require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
	files, errs := LoadFiles(path)
	require.Empty(t, errs)
	rep := NewSuite(kalahLibrary(t)).Run(files, errs)
	var out bytes.Buffer
	rep.WriteText(&out, true)
	assert.Equal(t, "PASS  case.yaml:6: the store is not a pit to sow from [K1]\n"+kalahNote+"1 passed, 0 failed, 0 errored\n",
		strings.ReplaceAll(out.String(), path, "case.yaml"))
}

// TestReportIsBounded: the text report quotes what a scenario gave (a
// token, a list of counts) in at most diag.MaxMessageText bytes a line, so
// a 300 KB token or 100,000 counts are not written back in full.
func TestReportIsBounded(t *testing.T) {
	for _, c := range []struct{ name, src string }{
		{"a huge token", "game: kalah\nscenarios:\n  - name: x\n    rule: K\n    play: [" + strings.Repeat("x", 300000) + "]\n"},
		{"a huge name and rule list", "game: kalah\nscenarios:\n  - name: " + strings.Repeat("n", 300000) + "\n    rule: [" + strings.Repeat("K1, ", 50000) + "K2]\n    expect: {over: true}\n"},
		{"a huge step name", "game: kalah\nscenarios:\n  - name: x\n    rule: K\n    steps: [{name: " + strings.Repeat("s", 300000) + ", expect: {over: true}}]\n"},
		{"a huge list", "game: kalah\nscenarios:\n  - name: x\n    rule: K\n    expect:\n      captured: [" + strings.TrimSuffix(strings.Repeat("0, ", 100000), ", ") + "]\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep, out := runText(t, kalahLibrary(t), c.src)
			assert.False(t, rep.OK())
			for _, line := range strings.Split(out, "\n") {
				assert.LessOrEqual(t, len(line), diag.MaxMessageText+100, "line %.80q...", line)
			}
			assert.Contains(t, out, "more bytes cut")
		})
	}
}

// The maps whose keys are names (sites, vars) take linear time in their
// number of keys: a 1 MB file of 60,000 expected sites once took 19 s.
// Measured by how the time grows, not against a clock: eight times the
// keys take about eight times as long (64, were it quadratic), the
// fastest of five parses of each, so that a busy machine slows both
// alike. (Four times, against a bound of ten, failed once beside two busy
// cores: 11.9 times, the larger maps out of the caches.)
func TestLargeMappingsParseInLinearTime(t *testing.T) {
	const n = 48000
	keys := func(format string, n int) string {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = fmt.Sprintf(format, i)
		}
		return strings.Join(parts, ", ")
	}
	for _, c := range []struct {
		name string
		src  func(n int) string
	}{
		{"sites", func(n int) string {
			return "game: kalah\nscenarios: [{name: x, rule: K, expect: {sites: {" + keys("s%d: 1", n) + "}}}]\n"
		}},
		{"vars", func(n int) string {
			return "game: kalah\nscenarios: [{name: x, rule: K, start: {vars: {" + keys("v%d: 1", n) + "}}, play: [a1]}]\n"
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			parse := func(src []byte) time.Duration {
				start := time.Now()
				f, err := Parse("big.yaml", src)
				took := time.Since(start)
				require.NoError(t, err)
				require.Len(t, f.Scenarios, 1)
				return took
			}
			// The quickest of five parses of each size, the two sizes
			// alternating, so that a load on the machine weighs on both
			// alike: eight times the keys take about eight times as long,
			// 64 times if the parse were quadratic.
			smallSrc, largeSrc := []byte(c.src(n/8)), []byte(c.src(n))
			small, large := time.Duration(1<<63-1), time.Duration(1<<63-1)
			for range 5 {
				small = min(small, parse(smallSrc))
				large = min(large, parse(largeSrc))
			}
			assert.Less(t, large, 32*small, "%d keys took %v, %d keys %v", n/8, small, n, large)
		})
	}
}

// A report escapes the control characters of what it did not check: a
// file's path (a file may be named with an escape sequence), a game's
// message.
func TestReportEscapesControlCharacters(t *testing.T) {
	rep := &Report{}
	rep.add(Result{File: "x\x1b[2J.yaml", Line: 1, Status: Errored, Error: "the file is empty"})
	rep.add(Result{File: "y.yaml", Line: 2, Name: "n", Rules: []string{"K"}, Status: Errored, Error: "loading the game: bad \u202e \x07"})
	var b strings.Builder
	rep.WriteText(&b, true)
	out := b.String()
	assert.NotContains(t, out, "\x1b")
	assert.NotContains(t, out, "\u202e")
	assert.NotContains(t, out, "\x07")
	assert.Contains(t, out, `x\x1b[2J.yaml:1: the file is empty`)
	assert.Contains(t, out, `bad \u202e \x07`)
}

// A suite keeps at most maxGames games loaded, whatever number of
// combinations of variants and parameters its scenarios ask for, and
// loads an evicted one again when a later scenario asks for it.
func TestSuiteKeepsFewGames(t *testing.T) {
	var src strings.Builder
	src.WriteString("game: kalah\nscenarios:\n")
	for round := range 2 {
		for _, v := range []string{"[]", "[three]", "[six]", "[empty-capture]"} {
			for seeds := 3; seeds <= 6; seeds++ {
				fmt.Fprintf(&src, "  - {name: \"r%d %s %d\", rule: K, variant: %s, params: {seeds: %d}, expect: {over: false}}\n", round, v, seeds, v, seeds)
			}
		}
		fmt.Fprintf(&src, "  - {name: unknown %d, rule: K, params: {nope%d: 1}, expect: {over: false}}\n", round, round)
	}
	f, err := Parse("many.yaml", []byte(src.String()))
	require.NoError(t, err)
	suite := NewSuite(kalahLibrary(t))
	rep := suite.Run([]*File{f}, nil)
	assert.Equal(t, 32, rep.Passed)
	assert.Equal(t, 2, rep.Errored)
	assert.LessOrEqual(t, len(suite.games), maxGames)
	assert.Len(t, suite.order, len(suite.games))
	suite.Close()
	assert.Empty(t, suite.games)
	assert.Equal(t, 34, len(suite.Run([]*File{f}, nil).Results), "a closed suite runs again")
}

// A rejection's why checks the reason players read (the script's why
// first, then the host's), which the rejection's error leaves out.
func TestRejectWhy(t *testing.T) {
	src := func(why string) string {
		return "game: kalah\nscenarios:\n  - name: x\n    rule: K2\n    reject: b1\n    why: " + why + "\n"
	}
	cases := []struct {
		name, why, want string
		ok              bool
	}{
		{"the script's reason", "b1 is not one of your pits", "", true},
		{"the host's reason after it", "b1 is not possible for a sow now", "", true},
		{"a reason not given", "b1 is empty", "why differs\n      want: a reason containing \"b1 is empty\"\n      got:  b1 is not one of your pits;", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rep, out := runText(t, games.Library(), src(c.why))
			assert.Equal(t, c.ok, rep.OK(), out)
			assert.Contains(t, out, c.want)
		})
	}
	// The error keeps the host's reason alone.
	rep, out := runText(t, games.Library(), strings.Replace(src("x"), "why: x", "error: b1 is not one of your pits", 1))
	assert.False(t, rep.OK(), out)
	rep, out = runText(t, games.Library(), "game: kalah\nscenarios: [{name: x, rule: K, play: [a1], why: a}]\n")
	assert.False(t, rep.OK(), out)
	assert.Contains(t, out, "why goes with reject")
}

// A start position refused for one of its keys is cited at that key's
// line (the unknown variable's vars:, the hand: of too many players), not
// at the start's first key.
func TestStartErrorCitedAtItsKey(t *testing.T) {
	start := `game: kalah
scenarios:
  - name: a start
    rule: K1
    start:
      board: |
        b    4  4  4  4  4  4  0
        a    4  4  4  4  4  4  0
             1  2  3  4  5  6  7
      to_move: 1
      KEY
    play: [a3]
`
	for key, want := range map[string]string{
		"vars: {pendin: 1}": "the script declares no variable",
		"hand: [0, 0, 0]":   "want 2 captured totals and hands",
		"captured: [0]":     "want 2 captured totals and hands",
		"captured: [-1, 0]": "captured total is -1",
	} {
		rep, out := runText(t, kalahLibrary(t), strings.Replace(start, "KEY", key, 1))
		require.Len(t, rep.Results, 1, out)
		assert.Equal(t, Errored, rep.Results[0].Status, out)
		assert.Contains(t, out, want, key)
		assert.Equal(t, 11, rep.Results[0].Line, "%s: %s", key, out)
	}
}

// A variable that holds a site may be written as the site's name, in a
// start and in an expectation; a name that is no site is an error at the
// vars: line, and a difference shows the sites too.
func TestVarsBySiteName(t *testing.T) {
	file := `game: tsoro
variant: 4x8
scenarios:
  - name: a sowing waits on the occupied head
    rule: T7
    start:
      vars: {pending: START}
    play: [a6]
    expect:
      vars: {pending: WANT}
`
	lib := games.Library()
	for _, c := range []struct {
		name, start, want string
		status            Status
		out               string
	}{
		{"by name", "0", "a8", Passed, ""},
		{"by number", "0", "8", Passed, ""},
		{"a difference", "0", "a7", Failed, "want: pending = 7 (a7)\n      got:  pending = 8 (a8)"},
		{"no such site in the expectation", "0", "z9", Errored, `ERROR case.yaml:10: a sowing waits on the occupied head [T7]
    step 1: vars: variable pending: "z9" is no site of the board`},
		{"no such site in the start", "z9", "a8", Errored, `ERROR case.yaml:7: a sowing waits on the occupied head [T7]
    start: variable pending: "z9" is no site of the board`},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := strings.NewReplacer("START", c.start, "WANT", c.want).Replace(file)
			rep, out := runText(t, lib, src)
			require.Len(t, rep.Results, 1, out)
			assert.Equal(t, c.status, rep.Results[0].Status, out)
			assert.Contains(t, out, c.out)
		})
	}
}
