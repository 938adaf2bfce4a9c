package main

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// speedLine is the one line of a selfplay summary that depends on time.
var speedLine = regexp.MustCompile(`(?m)^  speed: .*$`)

// The readable summaries, without the speed.
func TestSelfplayGolden(t *testing.T) {
	for _, tc := range []struct {
		golden string
		args   []string
	}{
		{"selfplay-kalah", []string{"kalah", "--games", kalahGames, "--games", "50"}},
		{"selfplay-kalah-capped", []string{"--games", kalahGames, "-n", "5", "kalah", "--max-plies", "30", "--seed", "7"}},
		{"selfplay-yematatu", []string{"yematatu", "-n", "100"}},
		{"selfplay-tsoro-4x6", []string{"tsoro", "--variant", "4x6", "-n", "20", "--seed", "100"}},
		{"selfplay-gore", []string{"gore", "-n", "10"}},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			r := matombo(t, "", append([]string{"selfplay"}, tc.args...)...)
			require.Equal(t, exitOK, r.code, r.stderr)
			assert.Regexp(t, `(?m)^  speed: \d+ plies/s \(\d+ plies in \d+\.\d\d s\)$`, r.stdout)
			golden(t, tc.golden, speedLine.ReplaceAllString(r.stdout, "  speed: (varies)"))
		})
	}
}

// --json: one line per game, game i with seed S+i, the same for the same
// seed.
func TestSelfplayJSON(t *testing.T) {
	r := matombo(t, "", "selfplay", "yematatu", "--json", "--games", "3", "--seed", "5")
	require.Equal(t, exitOK, r.code, r.stderr)
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	require.Len(t, lines, 3)
	for i, line := range lines {
		var g struct {
			Seed   uint64   `json:"seed"`
			Moves  []string `json:"moves"`
			Plies  int      `json:"plies"`
			Over   bool     `json:"over"`
			Winner int      `json:"winner"`
			Notes  []string `json:"notes"`
			Reason string   `json:"reason"`
		}
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		require.NoError(t, dec.Decode(&g), line)
		assert.EqualValues(t, 5+i, g.Seed)
		assert.Len(t, g.Moves, g.Plies)
		assert.True(t, g.Over)
		assert.NotNil(t, g.Notes)
		assert.Contains(t, line, `"notes":[]`)
		// The game replays to the same end.
		tr := matombo(t, "", append([]string{"trace", "yematatu", "--json"}, g.Moves...)...)
		require.Equal(t, exitOK, tr.code, tr.stderr)
		assert.Contains(t, tr.stdout[strings.LastIndex(tr.stdout[:len(tr.stdout)-1], "\n")+1:], `"over":true`)
	}
	again := matombo(t, "", "selfplay", "--seed", "6", "yematatu", "--json", "-n", "1")
	assert.Equal(t, lines[1]+"\n", again.stdout)
}

// A game stopped at the cap is unfinished, with no winner.
func TestSelfplayCap(t *testing.T) {
	r := matombo(t, "", "selfplay", "kalah", "--games", kalahGames, "--json", "-n", "2", "--max-plies", "5")
	require.Equal(t, exitOK, r.code, r.stderr)
	for _, line := range strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n") {
		assert.Contains(t, line, `"plies":5,"over":false,"winner":0,"notes":[],"reason":""`)
	}
}

// A script that fails in play stops selfplay with the error's file:line.
func TestSelfplayScriptError(t *testing.T) {
	dir := writeFiles(t, map[string]string{"boom/boom.lua": strings.Replace(kalahScript(t, "boom"),
		"local function play(p, kind, from)\n", "local function play(p, kind, from)\n  if m.count(STORE[1]) > 3 then error(\"boom\") end\n", 1)})
	r := matombo(t, "", "selfplay", "boom", "--games", dir)
	assert.Equal(t, exitFail, r.code)
	assert.Regexp(t, `^matombo selfplay: seed 1, ply \d+, token "[ab]\d": .*boom\.lua:\d+: boom \(in play\)\n$`, r.stderr)
}

// The counts of the endings stay in one column, whatever the reasons' length.
func TestSelfplayEndingsAligned(t *testing.T) {
	long := "the side to move has more seeds in its pits and its store together"
	src := strings.ReplaceAll(kalahScript(t, "long"), `"more seeds"`, fmt.Sprintf("%q", long))
	dir := writeFiles(t, map[string]string{"long/long.lua": src})
	r := matombo(t, "", "selfplay", "long", "--games", dir, "-n", "50")
	require.Equal(t, exitOK, r.code, r.stderr)
	lines := strings.Split(r.stdout, "\n")
	var ends []int
	for i, l := range lines {
		if strings.TrimSpace(l) == "endings:" {
			for _, e := range lines[i+1:] {
				if !strings.HasPrefix(e, "    ") {
					break
				}
				ends = append(ends, len(e))
			}
		}
	}
	require.Len(t, ends, 2, r.stdout)
	assert.Equal(t, ends[0], ends[1], "the counts end in one column:\n%s", r.stdout)
	assert.Contains(t, r.stdout, "    "+long+" ")
}
