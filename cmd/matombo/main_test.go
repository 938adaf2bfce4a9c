package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// kalahGames is the game folder of the host's test game, Kalah: a folder
// for --games that holds this one game.
var kalahGames = filepath.Join("..", "..", "host", "testdata", "games", "kalah")

// result is what one run of matombo did.
type result struct {
	code           int
	stdout, stderr string
}

// matombo runs the command line with the given standard input.
func matombo(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errOut)
	return result{code: code, stdout: out.String(), stderr: errOut.String()}
}

// golden compares got with testdata/NAME.golden, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "missing golden file; run go test ./cmd/matombo -update")
	assert.Equal(t, string(want), got, "output differs from %s (run go test ./cmd/matombo -update to accept)", path)
}

// writeFiles writes files (relative path -> content) under a new temporary
// folder and returns it.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for rel, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
	return dir
}

// kalahScript is the text of the Kalah test game, declaring the given name.
func kalahScript(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(kalahGames, "kalah.lua"))
	require.NoError(t, err)
	return strings.Replace(string(b), `name = "kalah"`, fmt.Sprintf("name = %q", name), 1)
}

func TestHelp(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"help"}, "commands:"},
		{[]string{"--help"}, "commands:"},
		{[]string{"-h"}, "commands:"},
		{[]string{"help", "trace"}, "usage: matombo trace GAME"},
		{[]string{"trace", "--help"}, "usage: matombo trace GAME"},
		{[]string{"play", "-h"}, "--p1 SPEC"},
		{[]string{"check", "--help"}, "usage: matombo check SCRIPT|DIR"},
		{[]string{"bench", "--help"}, "--parallel P"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			r := matombo(t, "", tc.args...)
			assert.Equal(t, exitOK, r.code)
			assert.Contains(t, r.stdout, tc.want)
			assert.Empty(t, r.stderr)
		})
	}
	for _, c := range commands() {
		r := matombo(t, "", c.name, "--help")
		assert.Equal(t, exitOK, r.code, c.name)
		assert.True(t, strings.HasPrefix(r.stdout, "usage: matombo "+c.name), c.name)
		assert.Contains(t, r.stdout, "-h, --help", c.name)
		// A command that takes --games says so in its usage line, where
		// an author with a game of their own looks first.
		usage, _, _ := strings.Cut(r.stdout, "\n\n")
		if strings.Contains(r.stdout, "  --games DIR") {
			assert.Contains(t, usage, "--games DIR", "%s: the usage line", c.name)
		}
		// A flag's value is named for what it is (E, N, SIZE), as in the
		// usage line, never by its Go type.
		assert.NotRegexp(t, `(?m)^\s+--?\S+ (string|int|int64|uint|uint64|float|float64|value|duration)\s`, r.stdout, c.name)
	}
}

// Every error is one line on stderr with the right exit status.
func TestErrors(t *testing.T) {
	notDir := writeFiles(t, map[string]string{"file.txt": "x"})
	for _, tc := range []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"no command", nil, exitUsage, []string{"usage: matombo"}},
		{"unknown command", []string{"frob"}, exitUsage, []string{`unknown command "frob"`, "list, rules, play"}},
		{"flag before command", []string{"--json", "list"}, exitUsage, []string{"a command comes first"}},
		{"unknown flag", []string{"trace", "--frob", "tsoro"}, exitUsage, []string{"matombo trace: unknown flag --frob", "matombo trace --help"}},
		{"unknown flag with value", []string{"trace", "tsoro", "-x=3"}, exitUsage, []string{"unknown flag -x"}},
		{"flag without value", []string{"selfplay", "tsoro", "--seed"}, exitUsage, []string{"flag needs an argument: -seed"}},
		{"bad flag value", []string{"selfplay", "tsoro", "--seed", "x"}, exitUsage, []string{`--seed x: want a whole number from 0 to 18446744073709551615`}},
		{"no game", []string{"trace"}, exitUsage, []string{"name a game"}},
		{"extra argument", []string{"play", "tsoro", "a1"}, exitUsage, []string{`unexpected argument "a1"`}},
		{"list takes no argument", []string{"list", "tsoro"}, exitUsage, []string{`unexpected argument "tsoro"`}},
		{"help for unknown command", []string{"help", "frob"}, exitUsage, []string{`unknown command "frob"`}},
		{"unknown game", []string{"play", "nope"}, exitUsage, []string{`matombo play: unknown game "nope"`, "achi, bao, baokiswahili, bawo, drafti, draughts, gore, kalah, nineholes, oware, shisima, tantfant, tapatan, tictactoe, tsoro, yematatu, yemutwelve"}},
		{"unknown game in folder", []string{"trace", "--games", kalahGames, "kalha"}, exitUsage, []string{`unknown game "kalha"`, "kalah"}},
		{"unknown variant", []string{"trace", "tsoro", "--variant", "4x9"}, exitUsage, []string{`unknown variant "4x9"`, "4x8"}},
		{"unknown parameter", []string{"trace", "tsoro", "--param", "hole=9"}, exitUsage, []string{"--param hole=9: unknown parameter hole", "allowed: holes, bonus, heads"}},
		{"value not allowed", []string{"selfplay", "tsoro", "--param", "holes=9"}, exitUsage, []string{"--param holes=9: 9 is not allowed", "6, 8, 12"}},
		{"value of the wrong type", []string{"bench", "tsoro", "--param", "holes=many"}, exitUsage, []string{"--param holes=many", "want an integer"}},
		{"param without value", []string{"play", "tsoro", "--param", "holes"}, exitUsage, []string{"--param holes: want key=value"}},
		{"variants that conflict", []string{"trace", "tsoro", "--variant", "4x6", "--variant", "4x8"}, exitUsage, []string{"variants 4x6 and 4x8 set parameter holes"}},
		{"bad player", []string{"play", "tsoro", "--p2", "robot"}, exitUsage, []string{`--p2: player "robot": unknown player "robot" (valid: random, greedy, mcts, alphabeta, perfect) (or human)`}},
		{"bad player option", []string{"match", "tsoro", "--p1", "mcts:depth=3"}, exitUsage, []string{`mcts has no option "depth" (valid: iterations, time, threads, nodes, c, playout, minimax, eval, seed)`}},
		{"bad player value", []string{"move", "tsoro", "--player", "alphabeta:depth=x"}, exitUsage, []string{"depth=x: want a whole number from 1 to 64"}},
		{"match without p1", []string{"match", "tsoro"}, exitUsage, []string{"name the first player with --p1 SPEC"}},
		{"match opening too long", []string{"match", "tsoro", "--p1", "random", "--opening", "1001"}, exitUsage, []string{"--opening 1001: too large: the limit is 1000"}},
		{"bad max plies", []string{"selfplay", "tsoro", "--max-plies", "-1"}, exitUsage, []string{"--max-plies -1"}},
		{"bad game count", []string{"selfplay", "tsoro", "-n", "0"}, exitUsage, []string{"-n 0: want a whole number from 1 to"}},
		{"bad seconds", []string{"bench", "tsoro", "--seconds", "0"}, exitUsage, []string{"--seconds 0"}},
		{"bad parallel", []string{"bench", "tsoro", "--parallel", "0"}, exitUsage, []string{"--parallel 0"}},
		{"missing games folder", []string{"trace", "--games", filepath.Join(notDir, "nope"), "tsoro"}, exitFail, []string{"games folder", "nope: no such folder"}},
		{"games folder is a file", []string{"list", "--games", filepath.Join(notDir, "file.txt")}, exitFail, []string{"file.txt: not a folder"}},
		{"missing script folder", []string{"check", filepath.Join(notDir, "nope")}, exitFail, []string{"nope: no such script or folder"}},
		{"check of a file that is no script", []string{"check", filepath.Join(notDir, "file.txt")}, exitUsage, []string{"neither a rule script"}},
		{"check of an empty folder", []string{"check", t.TempDir()}, exitFail, []string{"no games in it"}},
		{"check takes a number of games", []string{"check", kalahGames, "--games", "somewhere"}, exitUsage, []string{"want a number of games", "the games to check are the argument"}},
		// A count written in another notation is a count refused, not a
		// folder that does not exist; an empty folder name is no folder.
		{"games as an exponent", []string{"selfplay", "tsoro", "--games", "1e3"}, exitUsage, []string{"--games 1e3: want a whole number of games from 1 to 1000000000, or a folder"}},
		{"games in hex", []string{"analyze", "tsoro", "--games", "0x10"}, exitUsage, []string{"--games 0x10: want a whole number of games from 1 to 1000000000, or a folder"}},
		{"games past 64 bits as a fraction", []string{"match", "tsoro", "--p1", "random", "--games", "1e309"}, exitUsage, []string{"--games 1e309: want a whole number of games from 1 to 1000000, or a folder"}},
		{"games folder named empty", []string{"list", "--games", ""}, exitUsage, []string{`--games "": name a folder of games`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := matombo(t, "", tc.args...)
			assert.Equal(t, tc.code, r.code, "stderr: %s", r.stderr)
			for _, w := range tc.want {
				assert.Contains(t, r.stderr, w)
			}
			if len(tc.args) > 0 {
				assert.Equal(t, 1, strings.Count(r.stderr, "\n"), "one line on stderr: %q", r.stderr)
			}
		})
	}
}

// A folder that cannot be read is reported (not testable as root, who
// reads everything).
func TestUnreadableFolder(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root can read a folder without permissions")
	}
	dir := t.TempDir()
	locked := filepath.Join(dir, "locked")
	require.NoError(t, os.Mkdir(locked, 0o000))
	t.Cleanup(func() { os.Chmod(locked, 0o755) })
	for _, args := range [][]string{{"check", locked}, {"list", "--games", locked}} {
		r := matombo(t, "", args...)
		assert.Equal(t, exitFail, r.code)
		assert.Contains(t, r.stderr, "permission denied")
	}
}

// Every command that takes --games DIR reports a bad folder alike: a
// folder that is missing or is a file is a failure (exit status 1) naming
// it, serve's included; only an empty name is a usage error (2).
func TestGamesFolderErrorsAlike(t *testing.T) {
	dir := writeFiles(t, map[string]string{"file.txt": "x"})
	missing, file := filepath.Join(dir, "nope"), filepath.Join(dir, "file.txt")
	for _, command := range [][]string{
		{"list"},
		{"rules", "yematatu"},
		{"play", "yematatu"},
		{"trace", "yematatu"},
		{"selfplay", "yematatu"},
		{"conform"},
		{"bench", "yematatu"},
		{"match", "yematatu", "--p1", "random"},
		{"move", "yematatu"},
		{"analyze", "yematatu"},
		{"solve", "yematatu"},
		{"hint", "yematatu"},
		{"serve", "--db", ":memory:"},
	} {
		for _, c := range []struct {
			folder string
			code   int
			want   string
		}{
			{missing, exitFail, "games folder " + missing + ": no such folder"},
			{file, exitFail, file + ": not a folder"},
			{"", exitUsage, `--games "": name a folder of games`},
		} {
			t.Run(command[0]+" "+c.folder, func(t *testing.T) {
				r := matombo(t, "", append(slices.Clone(command), "--games", c.folder)...)
				assert.Equal(t, c.code, r.code, r.stderr)
				assert.Contains(t, r.stderr, "matombo "+command[0]+": ")
				assert.Contains(t, r.stderr, c.want)
				assert.Equal(t, 1, strings.Count(r.stderr, "\n"), "one line: %q", r.stderr)
			})
		}
	}
}

// Flags may come before, between or after the positional arguments, and
// "--" ends them.
func TestFlagsAnywhere(t *testing.T) {
	forms := [][]string{
		{"trace", "kalah", "--json", "a3", "--games", kalahGames},
		{"trace", "--json", "--games", kalahGames, "kalah", "a3"},
		{"trace", "--games=" + kalahGames, "kalah", "a3", "-json"},
		{"trace", "--games", kalahGames, "--json", "--", "kalah", "a3"},
	}
	first := matombo(t, "", forms[0]...)
	require.Equal(t, exitOK, first.code, first.stderr)
	require.Equal(t, 2, strings.Count(first.stdout, "\n"))
	for _, args := range forms[1:] {
		r := matombo(t, "", args...)
		assert.Equal(t, exitOK, r.code, r.stderr)
		assert.Equal(t, first.stdout, r.stdout, "%v", args)
	}
}

func TestParseInterspersed(t *testing.T) {
	for _, tc := range []struct {
		args []string
		pos  []string
		json bool
	}{
		{[]string{"a", "b"}, []string{"a", "b"}, false},
		{[]string{"a", "--json", "b"}, []string{"a", "b"}, true},
		{[]string{"--json", "a"}, []string{"a"}, true},
		{[]string{"a", "--", "--json", "b"}, []string{"a", "--json", "b"}, false},
		{[]string{"-", "a"}, []string{"-", "a"}, false},
		{nil, nil, false},
	} {
		c := newCLI(&env{}, "test", "", "")
		asJSON := c.fs.Bool("json", false, "")
		pos, err := parseInterspersed(c.fs, tc.args)
		require.NoError(t, err)
		assert.Equal(t, tc.pos, pos, "%v", tc.args)
		assert.Equal(t, tc.json, *asJSON, "%v", tc.args)
	}
}

// Colours are used only on a terminal, never with NO_COLOR, never in a
// buffer.
func TestNoColorOutsideTerminals(t *testing.T) {
	assert.False(t, colorOutput(&bytes.Buffer{}))
	t.Setenv("NO_COLOR", "1")
	assert.False(t, colorOutput(os.Stdout))
	r := matombo(t, "", "trace", "tsoro", "a1")
	assert.NotContains(t, r.stdout, "\x1b[")
}

// NO_COLOR asks for no colours when it is set to any value but the
// empty string (no-color.org).
func TestNoColor(t *testing.T) {
	for value, want := range map[string]bool{"1": true, "0": true, "no": true, "": false} {
		t.Setenv("NO_COLOR", value)
		assert.Equal(t, want, noColor(), "NO_COLOR=%q", value)
	}
	require.NoError(t, os.Unsetenv("NO_COLOR"))
	assert.False(t, noColor(), "NO_COLOR unset")
}
