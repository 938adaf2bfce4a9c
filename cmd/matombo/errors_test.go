package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// A small game for the error cases, with a variants file.
const errGame = `local m = matombo
local P = m.declare {
  name = "mini",
  params = { { name = "holes", default = 4, values = { 4, 6 } } },
}
m.board { rows = { "a", "b" }, columns = P.holes }
local SOW = m.move("sow", "{1}")
local F = m.filter { owner = "mover", min = 1 }
return {
  setup = function()
    for c = 1, P.holes do
      m.set_count("a" .. c, 1); m.set_owner("a" .. c, 1)
      m.set_count("b" .. c, 1); m.set_owner("b" .. c, 2)
    end
  end,
  legal = function(p) m.emit_each(SOW, F) end,
  play = function(p, kind, s) m.take(s) end,
  blocked = function(p) m.finish(3 - p, "no legal move") end,
}
`

const errVariants = "variants:\n  big:\n    params: {holes: 6}\n"

// TestErrorMessages checks one error of each class people meet, as the
// command line prints it: each names where the problem is (file and line,
// or the token, parameter or name at fault) and what would be accepted.
func TestErrorMessages(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string // a games folder; empty for none
		args  []string          // {dir} stands for the games folder
		code  int
		want  []string // substrings of stderr
	}{
		{name: "illegal token names it and the legal ones",
			args: []string{"trace", "yematatu", "b2", "b2"}, code: 1,
			want: []string{`illegal token "b2"`, "legal tokens: a1 b1 b3 c1 c2 c3"}},
		{name: "unknown game names the known ones",
			args: []string{"trace", "tsorro"}, code: 2,
			want: []string{`unknown game "tsorro"`, "allowed: achi, bao, baokiswahili, bawo, drafti, draughts, gore, kalah, nineholes, oware, shisima, tantfant, tapatan, tictactoe, tsoro, yematatu, yemutwelve"}},
		{name: "unknown variant names the known ones",
			args: []string{"trace", "gore", "--variant", "fast"}, code: 2,
			want: []string{`unknown variant "fast"`, "allowed: standard, no-trading"}},
		{name: "unknown parameter names the known ones",
			args: []string{"trace", "tsoro", "--param", "holez=8"}, code: 2,
			want: []string{"--param holez=8", "unknown parameter holez", "allowed: holes, bonus, heads"}},
		{name: "a value not allowed names the allowed ones",
			args: []string{"trace", "tsoro", "--param", "holes=9"}, code: 2,
			want: []string{"--param holes=9", "9 is not allowed", "allowed: 6, 8, 12, 15, 18, 21"}},
		{name: "a number too large for a parameter names the limit",
			args: []string{"trace", "tsoro", "--param", "holes=99999999999999999999"}, code: 2,
			want: []string{"--param holes=99999999999999999999", "out of range: the limit is -2147483648 to 2147483647", "allowed: 6, 8, 12, 15, 18, 21"}},
		{name: "a value of the wrong type",
			args: []string{"trace", "gore", "--param", "trading=maybe"}, code: 2,
			want: []string{"--param trading=maybe", "want true or false", "allowed: true, false"}},
		{name: "a bad value in a variants file names file, line and column",
			files: map[string]string{"mini/mini.lua": errGame, "mini/variants.yaml": "variants:\n  big:\n    params: {holes: 5}\n"},
			args:  []string{"trace", "mini", "--games", "{dir}"}, code: 1,
			want: []string{filepath.Join("mini", "variants.yaml") + ":3:21", "variant big: parameter holes: 5 is not allowed", "allowed: 4, 6"}},
		{name: "an unknown key in a variants file",
			files: map[string]string{"mini/mini.lua": errGame, "mini/variants.yaml": "variants:\n  big:\n    parms: {holes: 6}\n"},
			args:  []string{"trace", "mini", "--games", "{dir}"}, code: 1,
			want: []string{filepath.Join("mini", "variants.yaml") + ":3:5", `unknown key "parms"`, "allowed: title, description, params"}},
		{name: "YAML syntax in a variants file",
			files: map[string]string{"mini/mini.lua": errGame, "mini/variants.yaml": "variants: [\n"},
			args:  []string{"trace", "mini", "--games", "{dir}"}, code: 1,
			want: []string{filepath.Join("mini", "variants.yaml") + ":", "YAML syntax"}},
		{name: "a script syntax error names file and line",
			files: map[string]string{"mini/mini.lua": strings.Replace(errGame, "local SOW =", "local SOW ==", 1), "mini/variants.yaml": errVariants},
			args:  []string{"trace", "mini", "--games", "{dir}"}, code: 1,
			want: []string{filepath.Join("mini", "mini.lua") + ":7", "syntax error"}},
		{name: "an undeclared global names it, file and line",
			files: map[string]string{"mini/mini.lua": strings.Replace(errGame, "m.take(s)", "tkae(s)", 1), "mini/variants.yaml": errVariants},
			args:  []string{"trace", "mini", "--games", "{dir}"}, code: 1,
			want: []string{filepath.Join("mini", "mini.lua") + ":17", `undeclared global "tkae"`}},
		{name: "a runtime error names file, line and the rule function",
			files: map[string]string{"mini/mini.lua": strings.Replace(errGame, "m.take(s)", "m.take(s + 100)", 1), "mini/variants.yaml": errVariants},
			args:  []string{"trace", "mini", "--games", "{dir}", "a1"}, code: 1,
			want: []string{filepath.Join("mini", "mini.lua") + ":17", "site expected, got number 101, which is no site (sites are 1..8)", "(in play)"}},
		{name: "a budget says which, the limit, file and line",
			files: map[string]string{"mini/mini.lua": strings.Replace(errGame, "m.take(s)", "while true do end", 1), "mini/variants.yaml": errVariants},
			args:  []string{"trace", "mini", "--games", "{dir}", "a1"}, code: 1,
			want: []string{filepath.Join("mini", "mini.lua") + ":17", "step budget exceeded (limit 2000000 steps)", "(in play)"}},
		{name: "a board in data names the data's file and line",
			files: map[string]string{"yematatu/variants.yaml": "variants:\n  bad:\n    params: {board: bad}\ndata:\n  boards:\n    bad:\n      points: {a1: 1, a2: 2, a3: 3, b1: 1, b2: 2, b3: 3, c1: 2}\n      lines:\n        - [a1, a2, a3]\n        - [a1, b1, c9]\n"},
			args:  []string{"trace", "yematatu", "--games", "{dir}", "--variant", "bad"}, code: 1,
			want: []string{filepath.Join("yematatu", "variants.yaml") + ":10:11", `names "c9", which is not a site of the board`}},
		{name: "a missing games folder is named",
			args: []string{"trace", "tsoro", "--games", "/no/such/folder"}, code: 1,
			want: []string{"/no/such/folder", "no such folder"}},
		{name: "a malformed scenario names file, line and the keys accepted",
			files: map[string]string{"s.yaml": "game: yematatu\nscenarios:\n  - name: x\n    rule: Y3\n    plya: [b2]\n"},
			args:  []string{"conform", "{dir}/s.yaml"}, code: 1,
			want: []string{"s.yaml:5:5", `unknown key "plya" in a scenario`, "known: name, rule, quote"}},
		{name: "a scenario diagram with a wrong row names file and line",
			files: map[string]string{"s.yaml": "game: yematatu\nscenarios:\n  - name: x\n    rule: Y1\n    expect:\n      board: |\n        c  . . .\n        b  . .\n        a  .\n"},
			args:  []string{"conform", "{dir}/s.yaml"}, code: 1,
			want: []string{"s.yaml:8", "row b has 3 sites, the line gives 2"}},
		// Only check takes a game's folder; the others say how to name it.
		{name: "a game folder given as the game says how to name it",
			files: map[string]string{"mini/mini.lua": errGame, "mini/variants.yaml": errVariants},
			args:  []string{"bench", "{dir}/mini"}, code: 2,
			want: []string{`"{dir}/mini" is a path, not a game: name the game and add its folder with --games (mini --games {dir}/mini)`}},
		{name: "a script given as the game says how to name it",
			files: map[string]string{"mini/mini.lua": errGame, "mini/variants.yaml": errVariants},
			args:  []string{"trace", "{dir}/mini/mini.lua"}, code: 2,
			want: []string{`(mini --games {dir}/mini)`}},
		{name: "a folder of games given as the game",
			files: map[string]string{"mini/mini.lua": errGame, "mini/variants.yaml": errVariants},
			args:  []string{"selfplay", "{dir}"}, code: 2,
			want: []string{`is a folder, not a game: add it with --games {dir} and name one of its games`}},
		{name: "an unknown flag names it and the help",
			args: []string{"trace", "--frob", "tsoro"}, code: 2,
			want: []string{"unknown flag --frob", "matombo trace --help"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := ""
			if c.files != nil {
				dir = writeFiles(t, c.files)
			}
			args := make([]string, len(c.args))
			for i, a := range c.args {
				args[i] = strings.ReplaceAll(a, "{dir}", dir)
			}
			r := matombo(t, "", args...)
			assert.Equal(t, c.code, r.code, "exit status; stderr:\n%s", r.stderr)
			all := r.stderr + r.stdout
			for _, w := range c.want {
				assert.Contains(t, all, strings.ReplaceAll(w, "{dir}", dir))
			}
		})
	}
}

// A game named by its name that fails to load keeps its own error, even
// where a folder of that name is at hand (the hint of a path is for an
// unknown game only).
func TestPathHintOnlyForUnknownGames(t *testing.T) {
	dir := writeFiles(t, map[string]string{"mini/mini.lua": strings.Replace(errGame, "local SOW =", "local SOW ==", 1), "mini/variants.yaml": errVariants})
	t.Chdir(dir)
	r := matombo(t, "", "trace", "mini", "--games", ".")
	assert.Equal(t, exitFail, r.code, r.stderr)
	assert.Contains(t, r.stderr, "mini.lua:")
	assert.NotContains(t, r.stderr, "not a game")
	r = matombo(t, "", "trace", "mini")
	assert.Equal(t, exitUsage, r.code, r.stderr)
	assert.Contains(t, r.stderr, `"mini" is a path, not a game: name the game and add its folder with --games (mini --games mini)`)
}

// TestEveryProblemOnItsLine: a games folder whose variants file holds
// several bad variants gets every one of them reported, one a line, each
// naming its file and line, and the exit status of an error in a file.
func TestEveryProblemOnItsLine(t *testing.T) {
	variants := "variants:\n  big:\n    params: {holes: 9}\n  wide:\n    params: {rows: 2}\n"
	dir := writeFiles(t, map[string]string{"mini/mini.lua": errGame, "mini/variants.yaml": variants})
	r := matombo(t, "", "trace", "mini", "--games", dir)
	assert.Equal(t, exitFail, r.code, r.stderr)
	file := filepath.Join(dir, "mini", "variants.yaml")
	assert.Equal(t, "matombo trace: 2 problems:\n"+
		"  "+file+":3:21: variant big: parameter holes: 9 is not allowed (allowed: 4, 6)\n"+
		"  "+file+":5:20: variant wide sets unknown parameter rows (allowed: holes)\n", r.stderr)
}

// TestErrorsAreBounded checks the class, not cases: whatever an input
// puts in an error (a 100,000-digit number in a shard file, a token of
// 300 KB, a hundred thousand tokens, a name of 200 KB), the message is one
// line of at most maxLineText bytes (with the prefix and the note of what
// was cut), still naming the file or flag at fault.
func TestErrorsAreBounded(t *testing.T) {
	shard := `{"format":"matombo analyze shard 1","results":[{"game":"yematatu","played":1` + strings.Repeat("0", 100000) + `}]}`
	dir := writeFiles(t, map[string]string{"big.json": shard})
	big := strings.Repeat("x", 300000)
	many := strings.TrimSpace(strings.Repeat("a1 ", 100000))
	for _, c := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"a huge number in a shard file", []string{"analyze", "--merge", filepath.Join(dir, "big.json")}, exitFail, filepath.Join(dir, "big.json") + ": not a shard file"},
		{"a huge token", []string{"trace", "yematatu", big}, exitFail, `token 1: illegal token "xxx`},
		{"a hundred thousand tokens", []string{"move", "yematatu", many}, exitFail, `token 2: illegal token "a1"`},
		{"a huge variant name", []string{"trace", "yematatu", "--variant", big}, exitUsage, `unknown variant "xxx`},
		{"a huge flag value", []string{"selfplay", "yematatu", "--max-plies", big}, exitUsage, "--max-plies xxx"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := matombo(t, "", c.args...)
			assert.Equal(t, c.code, r.code)
			assert.Contains(t, r.stderr, c.want)
			assert.Equal(t, 1, strings.Count(r.stderr, "\n"), "one line")
			assert.LessOrEqual(t, len(r.stderr), maxLineText+200, "bounded")
		})
	}
}

// What the commands print of their input (a path, a game's name, a
// scenario file's texts) never reaches the terminal with its control
// characters: an escape sequence is shown escaped, wherever it came from.
func TestNoControlCharactersReachTheTerminal(t *testing.T) {
	esc := "e\x1b[2J\x1b]0;t\x07"
	game := `return matombo.extends("kalah", { title = "K", description = "d", replace = {} })`
	dir := writeFiles(t, map[string]string{
		filepath.Join(esc, "k", "k.lua"):    game,
		filepath.Join("bad", "b", "b.lua"):  `return matombo.extends("kalah", { title = "B", description = "d", replace = { nope = 1 } })`,
		esc + ".yaml":                       "game: kalah\nscenarios: [{name: x, rule: K1, expect: {over: true}}]\n",
		"quoted.yaml":                       "game: kalah\nscenarios: [{name: \"x\\e[2J\", rule: K1, expect: {over: true}}]\n",
		filepath.Join(esc, "empty.yaml"):    "",
		filepath.Join("bad", "b", "x.yaml"): "",
	})
	for _, c := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"check of a path with escapes", []string{"check", filepath.Join(dir, esc, "k"), "--games", "1"}, exitOK, `e\x1b[2J\x1b]0;t\x07`},
		{"check of a missing path", []string{"check", filepath.Join(dir, "no"+esc)}, exitFail, `no` + `e\x1b[2J`},
		{"list of a folder with escapes", []string{"list", "--games", filepath.Join(dir, esc)}, exitOK, `e\x1b[2J`},
		{"conform of a file with escapes", []string{"conform", filepath.Join(dir, esc+".yaml")}, exitFail, `e\x1b[2J`},
		{"conform of a folder with escapes", []string{"conform", filepath.Join(dir, esc)}, exitFail, `e\x1b[2J`},
		{"conform of an escape in a name", []string{"conform", filepath.Join(dir, "quoted.yaml")}, exitFail, "name contains the control character U+001B"},
		{"conform of a folder without scenarios", []string{"conform", filepath.Join(dir, esc, "k")}, exitFail, `no scenarios found in ` + filepath.Join(dir, `e\x1b[2J`)},
		{"rules of a game that extends another", []string{"rules", "k", "--games", filepath.Join(dir, esc)}, exitOK, `e\x1b[2J\x1b]0;t\x07/k/k.lua)`},
		{"trace of a game name with escapes", []string{"trace", "ka" + esc}, exitUsage, `ka` + `e\x1b[2J`},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := matombo(t, "", c.args...)
			assert.Equal(t, c.code, r.code, r.stdout+r.stderr)
			assert.Contains(t, r.stdout+r.stderr, c.want)
			for _, ch := range []string{"\x1b", "\x07"} {
				assert.NotContains(t, r.stdout, ch)
				assert.NotContains(t, r.stderr, ch)
			}
		})
	}
}

// TestEmptyPathArguments: a file argument given as "" (a shell variable
// that expanded to nothing) is shown as "" in the error, which used to
// read ": no such file or directory", naming nothing.
func TestEmptyPathArguments(t *testing.T) {
	for _, args := range [][]string{
		{"import", "openspiel", ""},
		{"analyze", "--merge", ""},
		{"solve", "kalah", "--shard-depth", "1", "--merge", ""},
	} {
		r := matombo(t, "", args...)
		assert.Equal(t, exitFail, r.code, "%q: %s", args, r.stderr)
		assert.Contains(t, r.stderr, `: "": no such file or directory`, "%q", args)
	}
}
