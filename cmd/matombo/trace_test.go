package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/matombo/matombo/games"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The readable trace of games, with their drawn boards.
func TestTraceGolden(t *testing.T) {
	for _, tc := range []struct {
		golden string
		args   []string
	}{
		{"trace-kalah", []string{"--games", kalahGames, "kalah", "a3", "a1", "b2"}},
		{"trace-kalah-seeds3", []string{"--games", kalahGames, "kalah", "--param", "seeds=3", "a6 b1"}},
		{"trace-kalah-score", []string{"kalah", "a3", "a6", "b1", "a1", "b2"}}, // the shipped Kalah: its seeds
		{"trace-tsoro", []string{"tsoro", "a1"}},
		{"trace-tsoro-4x8", []string{"tsoro", "--variant", "4x8", "a2", "stop", "d1", "a1", "stop", "d6", "a7", "d2", "a5", "xc3", "xd8"}},
		{"trace-gore", []string{"gore", "a2", "b4", "a1", "b4"}},
		{"trace-yematatu", []string{"yematatu", "b2", "c3", "c1", "c2", "b1", "a1", "b2-b3"}},
		{"trace-yematatu-square", []string{"yematatu", "--variant", "square", "a3", "c3", "c1", "a1", "b2"}},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			r := matombo(t, "", append([]string{"trace"}, tc.args...)...)
			require.Equal(t, exitOK, r.code, r.stderr)
			assert.Empty(t, r.stderr)
			golden(t, tc.golden, r.stdout)
		})
	}
}

// Each state after a token says what the token did, in the words play
// prints after it: a sowing, its captures, the pieces removed.
func TestTraceSaysWhatEachTokenDid(t *testing.T) {
	flat := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	for _, tc := range []struct {
		name   string
		game   []string // the game and its flags
		tokens string
	}{
		{"sowing", []string{"kalah"}, "a3 a1 b2"},
		{"relay", []string{"tsoro", "--variant", "4x8"}, "a2 stop d1"},
		{"capture", []string{"gore"}, "a2 b4 a1 b4"},
		{"removal", []string{"yemutwelve"}, "c4 g7 e5 a7 d5 d7 xe5"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			played := matombo(t, tc.tokens+"\nquit\n", append([]string{"play", "--p2", "human"}, tc.game...)...)
			require.Equal(t, exitOK, played.code, played.stderr)
			traced := matombo(t, "", append(append([]string{"trace"}, tc.game...), tc.tokens)...)
			require.Equal(t, exitOK, traced.code, traced.stderr)
			said := 0
			lines := strings.Split(played.stdout, "\n")
			for i := 0; i < len(lines); i++ {
				line := lines[i]
				for i+1 < len(lines) && strings.HasPrefix(lines[i+1], "  ") { // wrapped
					i++
					line += lines[i]
				}
				who, rest, plays := strings.Cut(flat(line), " plays ")
				tok, did, ok := strings.Cut(rest, ": ")
				if !plays || !ok || strings.Contains(who, "> ") {
					continue
				}
				assert.Contains(t, flat(traced.stdout), fmt.Sprintf("after %s by %s: %s", tok, who, did))
				said++
			}
			assert.NotZero(t, said, "play says what no token did:\n%s", played.stdout)
		})
	}
}

// --json writes one object per line, the opening first, each the state's
// own JSON.
func TestTraceJSON(t *testing.T) {
	r := matombo(t, "", "trace", "yematatu", "--json", "b2", "c3", "c1")
	require.Equal(t, exitOK, r.code, r.stderr)
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	require.Len(t, lines, 4)
	g, err := games.Library().Load("yematatu")
	require.NoError(t, err)
	opening, err := g.Start().MarshalJSON()
	require.NoError(t, err)
	assert.Equal(t, string(opening), lines[0])
	s := g.Start()
	for i, line := range lines {
		var obj map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &obj), line)
		for _, key := range []string{"game", "variant", "ply", "to_move", "sites", "captured", "hand", "legal", "over", "winner", "notes", "reason", "vars", "effects"} {
			assert.Contains(t, obj, key)
		}
		assert.EqualValues(t, i, obj["ply"])
		assert.NotNil(t, obj["effects"], "every state records its effects")
		if i > 0 {
			m, err := s.ParseMove([]string{"b2", "c3", "c1"}[i-1])
			require.NoError(t, err)
			require.NoError(t, s.ApplyRecorded(m))
			want, _ := s.MarshalJSON()
			assert.Equal(t, string(want), line)
		}
	}
}

// An illegal token: the states before it, then an error naming it and the
// legal tokens, exit status 1.
func TestTraceIllegalToken(t *testing.T) {
	for _, asJSON := range []bool{false, true} {
		args := []string{"trace", "--games", kalahGames, "kalah", "a3", "b1"}
		if asJSON {
			args = append(args, "--json")
		}
		r := matombo(t, "", args...)
		assert.Equal(t, exitFail, r.code)
		assert.Equal(t, `matombo trace: token 2: illegal token "b1": b1 is not possible for a sow now (possible: a1 a2 a4 a5 a6); legal tokens: a1 a2 a4 a5 a6; "b1" is not a legal token here`+"\n", r.stderr)
		if asJSON {
			// The opening, the state after a3, then the error with its code.
			lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
			require.Len(t, lines, 3, r.stdout)
			var last jsonError
			require.NoError(t, json.Unmarshal([]byte(lines[2]), &last))
			assert.Equal(t, "illegal-token", last.Error.Code)
			assert.Equal(t, "b1", last.Error.Token)
			assert.Equal(t, 2, last.Error.Index)
			assert.Contains(t, last.Error.Message, "not a legal token")
		} else {
			assert.Contains(t, r.stdout, "== ply 0: opening")
			assert.Contains(t, r.stdout, "== ply 1: after a3")
			assert.NotContains(t, r.stdout, "== ply 2")
		}
	}
	// A token after the end of the game is refused as well.
	r := matombo(t, "", "trace", "yematatu", "--variant", "square", "a3", "c3", "c1", "a1", "b2", "c2")
	assert.Equal(t, exitFail, r.code)
	assert.Equal(t, `matombo trace: token 6: illegal token "c2": the game is over; there are no legal tokens; "c2" is not a legal token here`+"\n", r.stderr)
	assert.Contains(t, r.stdout, "Game over after 5 decisions: Player 1 (South) wins (three on a line: a3 b2 c1)")
	r = matombo(t, "", "trace", "yematatu", "--json", "--variant", "square", "a3", "c3", "c1", "a1", "b2", "c2")
	assert.Contains(t, r.stdout, `{"error":{"code":"game-over",`)
}

// trace --json ends with the error's code when the game does not load or a
// script fails, naming the file and line.
func TestTraceJSONErrorCodes(t *testing.T) {
	dir := writeFiles(t, map[string]string{"loops/loops.lua": `local m = matombo
m.declare { name = "loops" }
m.board { rows = { "a" }, columns = 2 }
local K = m.move("k", "{1}")
return {
  setup = function() m.set_count("a1", 1) end,
  legal = function(p) m.emit(K, "a1") end,
  play = function() while true do end end,
}
`})
	for _, c := range []struct {
		args []string
		code string
		line int
	}{
		{[]string{"trace", "no-such-game", "--json"}, "config-error", 0},
		{[]string{"trace", "kalah", "--param", "pits=99", "--json"}, "config-error", 0},
		{[]string{"trace", "--games", dir, "loops", "a1", "--json"}, "budget-steps", 8},
	} {
		r := matombo(t, "", c.args...)
		assert.NotEqual(t, exitOK, r.code)
		lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
		var last jsonError
		require.NoError(t, json.Unmarshal([]byte(lines[len(lines)-1]), &last), r.stdout)
		assert.Equal(t, c.code, last.Error.Code, "%v: %s", c.args, r.stdout)
		assert.Contains(t, r.stderr, last.Error.Message)
		if c.line > 0 {
			assert.Contains(t, last.Error.File, "loops.lua")
			assert.Equal(t, c.line, last.Error.Line)
		}
	}
}

// --print shows what the script prints, on stderr, between the states; and
// check --print does the same while checking.
func TestPrintFlag(t *testing.T) {
	dir := writeFiles(t, map[string]string{"pk/pk.lua": `local m = matombo
return m.extends("kalah", { replace = { k2_sow = function(sow, p, from) print("sowing", m.name(from)) return sow(p, from) end } })
`})
	r := matombo(t, "", "trace", "pk", "--games", dir, "--print", "a3", "a1")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Equal(t, "pk: sowing\ta3\npk: sowing\ta1\n", r.stderr)
	r = matombo(t, "", "trace", "pk", "--games", dir, "a3", "a1")
	assert.Empty(t, r.stderr, "without --print nothing is shown")

	r = matombo(t, "", "check", dir+"/pk/pk.lua", "--games", "1", "--print")
	require.Equal(t, exitOK, r.code, r.stdout)
	assert.Contains(t, r.stderr, "pk: sowing\t")
	r = matombo(t, "", "check", dir+"/pk/pk.lua", "--games", "1")
	assert.Empty(t, r.stderr)
}

// trace, move and hint read their tokens alike: an argument may hold
// several separated by spaces (a pasted record), so the record given as
// one argument, as several, or mixed gives the same output; an illegal
// token in a pasted record is named by its number in the record, with the
// legal tokens.
func TestTokensSplitOnSpaces(t *testing.T) {
	isolateCache(t)
	for _, c := range []struct {
		command string
		flags   []string
	}{
		{"trace", nil},
		{"move", []string{"--player", "alphabeta:depth=4"}},
		{"hint", nil},
	} {
		t.Run(c.command, func(t *testing.T) {
			runWith := func(tokens ...string) result {
				args := append(append([]string{c.command, "yematatu"}, c.flags...), tokens...)
				return matombo(t, "", args...)
			}
			want := runWith("c2", "b1", "b2", "c3")
			require.Equal(t, exitOK, want.code, want.stderr)
			for _, tokens := range [][]string{
				{"c2 b1 b2 c3"},
				{"c2 b1", "b2 c3"},
				{" c2  b1\tb2 ", "c3"},
				{"c2", "", "b1 b2 c3"},
			} {
				r := runWith(tokens...)
				assert.Equal(t, exitOK, r.code, "%q: %s", tokens, r.stderr)
				assert.Equal(t, want.stdout, r.stdout, "%q", tokens)
			}

			r := runWith("c2 b1", "zz b2")
			assert.Equal(t, exitFail, r.code)
			assert.Contains(t, r.stderr, `matombo `+c.command+`: token 3: illegal token "zz"`)
			assert.Contains(t, r.stderr, "legal tokens: a1 b2 b3 c1 c3")
		})
	}
}
