package main

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/verify"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A good game passes every step, named by its folder or its script.
func TestCheckOK(t *testing.T) {
	for _, target := range []string{kalahGames, filepath.Join(kalahGames, "kalah.lua")} {
		r := matombo(t, "", "check", target, "--games", "4", "--seed", "3")
		require.Equal(t, exitOK, r.code, r.stdout+r.stderr)
		for _, want := range []string{
			"checking kalah\n",
			"  ok    loads: Kalah (OpenSpiel rules) from " + filepath.Join(kalahGames, "kalah.lua"),
			"  ok    variants: 3 load (three, six, empty-capture)\n",
			"  ok    parameters: all 4 combinations of seeds load\n",
			"  ok    openings: 4 distinct configurations sane",
			"  ok    random games: 4 games (seeds 3-6) end within 1000 plies",
			"kalah: ok\n",
			"\ncheck: 1 game, all ok\n",
		} {
			assert.Contains(t, r.stdout, want)
		}
	}
}

// A shipped game passes. (The thorough checks of long games are slow
// under the race detector, so only the short game is checked here; package
// verify's own tests cover every shipped game.)
func TestCheckShipped(t *testing.T) {
	r := matombo(t, "", "check", filepath.Join("..", "..", "games", "yematatu"), "-n", "3")
	assert.Equal(t, exitOK, r.code, r.stdout+r.stderr)
	assert.Contains(t, r.stdout, "  ok    variants: 2 load (triangle, square)\n")
	// triangle is the defaults: its games are those of the defaults.
	assert.Contains(t, r.stdout, "and 1 each on 1 variant; 1 variant is the defaults\n")
	assert.Contains(t, r.stdout, "check: 1 game, all ok\n")
}

// Broken scripts and files are reported with file:line and exit status 1.
func TestCheckProblems(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"syntax/syntax.lua": "local m = matombo\nm.declare { name = 'syntax', title = 'S', players = 2 }\nlocal x = = 3\n",
		"global/global.lua": strings.Replace(kalahScript(t, "global"), "local m = matombo", "local m = matombo\nundeclared_thing = 1", 1),
		"boom/boom.lua": strings.Replace(kalahScript(t, "boom"), "local function play(p, kind, from)\n",
			"local function play(p, kind, from)\n  if m.count(STORE[1]) > 3 then error(\"boom\") end\n", 1),
		"vars/vars.lua":      kalahScript(t, "vars"),
		"vars/variants.yaml": "variants:\n  big:\n    description: more seeds\n    params: {seeds: 9}\n",
		"good/good.lua":      kalahScript(t, "good"),
	})
	r := matombo(t, "", "check", dir, "-n", "3")
	assert.Equal(t, exitFail, r.code)
	out := r.stdout
	assert.Contains(t, out, "checking syntax\n  FAIL  loads\n        "+filepath.Join(dir, "syntax", "syntax.lua")+":3:")
	assert.Contains(t, out, "  --    random games: skipped: the game does not load\nsyntax: PROBLEMS\n")
	assert.Regexp(t, `global\.lua:\d+: assignment to global "undeclared_thing"`, out)
	assert.Regexp(t, `checking boom\n(.*\n)*  FAIL  random games\n        defaults: seed \d+, ply \d+: the script failed in play, playing token "\w+": .*boom\.lua:\d+: boom\n`, out)
	assert.Contains(t, out, filepath.Join(dir, "vars", "variants.yaml")+":4:")
	assert.Contains(t, out, "9 is not allowed")
	assert.Contains(t, out, "good: ok\n")
	assert.Contains(t, out, "\ncheck: 4 of 5 games with problems\n")

	r = matombo(t, "", "check", filepath.Join(dir, "syntax", "syntax.lua"))
	assert.Equal(t, exitFail, r.code)
	assert.Contains(t, r.stdout, filepath.Join(dir, "syntax", "syntax.lua")+":3:")
	assert.Contains(t, r.stdout, "check: 1 of 1 game with problems\n")
}

// A variants.yaml or rules.md in a folder that is not the game's own is
// read by nothing: check says so, for the folder and for its script, and
// says nothing in the game's own folder.
func TestCheckStrayFiles(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"k/stray.lua":       kalahScript(t, "stray"),
		"k/variants.yaml":   "variants:\n  big:\n    params: {seeds: 9}\n",
		"k/rules.md":        "# Stray\n",
		"own/own.lua":       kalahScript(t, "own"),
		"own/variants.yaml": "variants:\n  five:\n    params: {seeds: 5}\n",
	})
	note := "note: " + filepath.Join(dir, "k", "variants.yaml") + " and " + filepath.Join(dir, "k", "rules.md") +
		" are not read: a game's variants.yaml and rules.md count only in its own folder, named after its script (stray/stray.lua)\n\nchecking stray\n"
	for _, target := range []string{filepath.Join(dir, "k"), filepath.Join(dir, "k", "stray.lua")} {
		r := matombo(t, "", "check", target, "-n", "2")
		assert.Equal(t, exitOK, r.code, r.stdout)
		assert.True(t, strings.HasPrefix(r.stdout, note), r.stdout)
	}
	r := matombo(t, "", "check", filepath.Join(dir, "own"), "-n", "2")
	assert.Equal(t, exitOK, r.code, r.stdout)
	assert.NotContains(t, r.stdout, "note:")
	assert.Contains(t, r.stdout, "variants: 1 load (five)")
}

// A script that fails is reported once per cause, with a command that
// runs into the same failure again.
func TestCheckReproduces(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		// play fails once Player 1's store holds more than 3.
		"inplay/inplay.lua": strings.Replace(kalahScript(t, "inplay"), "local function play(p, kind, from)\n",
			"local function play(p, kind, from)\n  if m.count(STORE[1]) > 3 then error(\"boom\") end\n", 1),
		// legal fails once Player 2's store holds more than 2.
		"inlegal/inlegal.lua": strings.Replace(kalahScript(t, "inlegal"), "local function legal(p)\n",
			"local function legal(p)\n  if m.count(STORE[2]) > 2 then error(\"bang\") end\n", 1),
	})
	for _, tt := range []struct{ game, call, cause string }{
		{"inplay", "play", "boom"},
		{"inlegal", "legal", "bang"},
	} {
		t.Run(tt.game, func(t *testing.T) {
			r := matombo(t, "", "check", filepath.Join(dir, tt.game), "-n", "10")
			require.Equal(t, exitFail, r.code, r.stdout)
			problem := regexp.MustCompile(`seed (\d+), ply (\d+): .*token "(\w+)"[^\n]*` + tt.cause + `\n`).FindStringSubmatch(r.stdout)
			require.NotNil(t, problem, r.stdout)
			assert.Equal(t, 1, strings.Count(r.stdout, tt.cause+"\n"), "the failure is written once:\n%s", r.stdout)
			assert.Contains(t, r.stdout, "failed in "+tt.call, "names the call")
			line := regexp.MustCompile(`reproduce: (.*)\n`).FindStringSubmatch(r.stdout)
			require.NotNil(t, line, r.stdout)
			args, err := shellWords(line[1])
			require.NoError(t, err)
			require.Equal(t, "matombo", args[0])
			again := matombo(t, "", args[1:]...)
			assert.Equal(t, exitFail, again.code)
			if args[1] == "selfplay" {
				assert.Contains(t, again.stderr, fmt.Sprintf("seed %s, ply %s, token %q", problem[1], problem[2], problem[3]))
			}
			assert.Contains(t, again.stderr, tt.cause+" (in "+tt.call+")")
		})
	}
}

// A loose script named on the command line is checked even when a game
// folder of the same name would come first; check says so.
func TestCheckShadowedScript(t *testing.T) {
	kalah := kalahScript(t, "kalah")
	dir := writeFiles(t, map[string]string{
		"kalah.lua":       kalah,
		"kalah/kalah.lua": kalah,
	})
	r := matombo(t, "", "check", filepath.Join(dir, "kalah.lua"), "-n", "1")
	assert.Equal(t, exitFail, r.code)
	assert.Contains(t, r.stdout, "is loaded from "+filepath.Join(dir, "kalah", "kalah.lua")+", not from this script")
}

// check finds the shipped game a script extends, whether the script is
// loose or in a game folder of its own, anywhere.
func TestCheckFindsShippedBases(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"loose.lua":            `return matombo.extends("oware", { title = "Loose" })`,
		"folder/folder.lua":    `return matombo.extends("yematatu", { title = "Folder" })`,
		"folder/variants.yaml": "variants:\n  sq:\n    params: {board: square}\n",
	})
	for _, path := range []string{dir + "/loose.lua", dir + "/folder/folder.lua", dir + "/folder"} {
		r := matombo(t, "", "check", path, "--games", "2")
		assert.Equal(t, exitOK, r.code, "%s: %s%s", path, r.stdout, r.stderr)
		assert.NotContains(t, r.stdout, "unknown game")
	}
}

// A rules page whose rules are numbered in another shape than the point
// headings scenarios cite gets a note, which does not fail the check; a
// page with points, a page that numbers nothing and no page get none.
func TestCheckRulesPageNote(t *testing.T) {
	tests := []struct {
		name, page, want string // want: the note after "rules page: PAGE ", "" for none
	}{
		{"bold list items", "# G\n\n- **G1 Board.** Two rows.\n- **G2 Sowing.** Sow.\n",
			`has no rule points for scenarios to cite, but 2 lines number rules in another shape, such as line 3: "- **G1 Board.** Two rows."; a point is a heading "### G1 Title" (docs/scenarios.md#rule-labels)`},
		{"one heading of another level", "# G\n\n## G1 Board\n",
			`has no rule points for scenarios to cite, but a line numbers a rule in another shape, such as line 3: "## G1 Board"; a point is a heading "### G1 Title" (docs/scenarios.md#rule-labels)`},
		{"points", "# G\n\n### G1 Board\n\n- **G2 Sowing.** Sow.\n", ""},
		{"no numbered rules", "# G\n\nSow and capture.\n", ""},
		{"no page", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{"g/g.lua": kalahScript(t, "g")}
			if tt.page != "" {
				files["g/rules.md"] = tt.page
			}
			dir := writeFiles(t, files)
			r := matombo(t, "", "check", filepath.Join(dir, "g"), "-n", "1")
			assert.Equal(t, exitOK, r.code, r.stdout)
			if tt.want == "" {
				assert.NotContains(t, r.stdout, "note")
				return
			}
			assert.Contains(t, r.stdout, "  note  rules page: "+filepath.Join(dir, "g", "rules.md")+" "+tt.want+"\ng: ok\n")
		})
	}
}

// openCounter is a file system that counts the opens of each file: every
// load of a game reads its script (opening it a few times: to see what it
// is, then to read it), so the opens of the script grow with its loads.
type openCounter struct {
	fs.FS
	mu    sync.Mutex
	opens map[string]int
}

func (c *openCounter) Open(name string) (fs.File, error) {
	c.mu.Lock()
	c.opens[name]++
	c.mu.Unlock()
	return c.FS.Open(name)
}

// count is how often name was opened.
func (c *openCounter) count(name string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.opens[name]
}

// The rules page note reads the game the check loaded, not a game loaded
// again: check loads a game as often as verify.Check does, note or not.
func TestCheckRulesNoteLoadsNoMore(t *testing.T) {
	files := fstest.MapFS{
		"g/g.lua":    {Data: []byte(kalahScript(t, "g"))},
		"g/rules.md": {Data: []byte("# G\n\n- **G1 Board.** Two rows.\n")},
	}
	loads := func(check func(*host.Library)) int {
		counter := &openCounter{FS: files, opens: map[string]int{}}
		lib := host.NewLibrary()
		require.NoError(t, lib.AddFS(counter, "games"))
		check(lib)
		return counter.count("g/g.lua")
	}
	opt := verify.CheckOptions{Games: 1, Seed: 1}
	byVerify := loads(func(lib *host.Library) { verify.Check(lib, "g", opt) })
	var out bytes.Buffer
	byCheck := loads(func(lib *host.Library) {
		gc := &gameChecker{lib: lib, name: "g", dir: "games", games: opt.Games, seed: opt.Seed}
		ok, stopped := gc.run(context.Background(), &out)
		require.True(t, ok && !stopped, out.String())
	})
	require.Contains(t, out.String(), "  note  rules page: ", "the note is written")
	require.Positive(t, byVerify)
	assert.Equal(t, byVerify, byCheck, "the loads of verify.Check and of check with its note")
}
