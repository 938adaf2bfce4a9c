package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// isolateCache points the solution cache at a fresh folder.
func isolateCache(t *testing.T) {
	t.Helper()
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
}

func TestSolveGolden(t *testing.T) {
	isolateCache(t)
	for _, tc := range []struct {
		golden string
		args   []string
	}{
		{"solve-yematatu", []string{"yematatu"}},
		{"solve-yematatu-square", []string{"yematatu", "--variant", "square"}},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			r := matombo(t, "", append([]string{"solve"}, tc.args...)...)
			require.Equal(t, exitOK, r.code, r.stderr)
			assert.Contains(t, r.stderr, "bytes a position")
			assert.Contains(t, r.stderr, "cached in ")
			golden(t, tc.golden, r.stdout)
			// The second time the cached solution answers, the same.
			again := matombo(t, "", append([]string{"solve"}, tc.args...)...)
			require.Equal(t, exitOK, again.code, again.stderr)
			assert.Equal(t, r.stdout, again.stdout)
			assert.Empty(t, again.stderr)
		})
	}
}

func TestSolveJSON(t *testing.T) {
	isolateCache(t)
	r := matombo(t, "", "solve", "yematatu", "--param", "board=square", "--json", "--fresh")
	require.Equal(t, exitOK, r.code, r.stderr)
	var rep struct {
		Positions int            `json:"positions"`
		Value     string         `json:"value"`
		Plies     *int           `json:"plies"`
		Counts    map[string]int `json:"counts"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &rep))
	assert.Equal(t, rep.Positions, rep.Counts["won"]+rep.Counts["drawn"]+rep.Counts["lost"])
	assert.Contains(t, []string{"win", "draw", "loss"}, rep.Value)
	assert.Equal(t, rep.Value != "draw", rep.Plies != nil)
}

func TestSolveRefusesLargeGames(t *testing.T) {
	isolateCache(t)
	r := matombo(t, "", "solve", "yematatu", "--variant", "square", "--max-positions", "50")
	assert.Equal(t, exitFail, r.code)
	assert.Contains(t, r.stderr, "at most 50 positions")
	assert.Contains(t, r.stderr, "more than 50 positions")
	assert.Contains(t, r.stderr, "--max-positions")

	r = matombo(t, "", "solve", "yematatu", "--max-positions", "0")
	assert.Equal(t, exitUsage, r.code)
	assert.Contains(t, r.stderr, "--max-positions 0: want a whole number from 1 to")
}

// TestSolveSearchMaxPositions: --max-positions bounds the search engine
// too, and the message names the flag (the library's names its option).
func TestSolveSearchMaxPositions(t *testing.T) {
	isolateCache(t)
	r := matombo(t, "", "solve", "kalah", "--param", "pits=4", "--param", "seeds=4", "--engine", "search",
		"--endgame", "0", "--threads", "1", "--max-positions", "5000")
	assert.Equal(t, exitFail, r.code)
	assert.Contains(t, r.stderr, "more than the 5000 allowed (--max-positions)")
	assert.Contains(t, r.stderr, "raise --max-positions")
	assert.NotContains(t, r.stderr, "solve.With")
}

// TestSolveRefusalAsJSON: with --json a refused solve writes its refusal
// on stdout as JSON, before anything is explored when the estimate is over
// the budget.
func TestSolveRefusalAsJSON(t *testing.T) {
	isolateCache(t)
	r := matombo(t, "", "solve", "kalah", "--engine", "search", "--max-memory", "1KiB", "--json")
	assert.Equal(t, exitFail, r.code)
	var rep refusalReport
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &rep), r.stdout)
	assert.Equal(t, "kalah", rep.Game)
	assert.Equal(t, int64(1024), rep.MaxBytes)
	assert.Greater(t, rep.EstimateBytes, rep.MaxBytes)
	assert.Contains(t, rep.Error, "--max-memory")
	assert.Zero(t, rep.Positions, "refused before exploring")

	r = matombo(t, "", "solve", "yematatu", "--variant", "square", "--max-positions", "50", "--json")
	assert.Equal(t, exitFail, r.code)
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &rep), r.stdout)
	assert.Equal(t, 50, rep.Positions)

	for _, bad := range []string{"0", "2TiB", "12XB", "-5MiB"} {
		r = matombo(t, "", "solve", "yematatu", "--max-memory", bad)
		assert.Equal(t, exitUsage, r.code, bad)
		assert.Contains(t, r.stderr, "--max-memory", bad)
	}
}

// TestSolveKalahMargin: Kalah(3,3) with empty captures is a win by 2 for
// Player 1 (+2 in --json), and hint ranks by margin.
func TestSolveKalahMargin(t *testing.T) {
	isolateCache(t)
	args := []string{"kalah", "--param", "pits=3", "--param", "seeds=3", "--variant", "empty-capture", "--engine", "retrograde"}
	r := matombo(t, "", append([]string{"solve", "--json"}, args...)...)
	require.Equal(t, exitOK, r.code, r.stderr)
	var rep solveReport
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &rep))
	require.NotNil(t, rep.Margin)
	assert.Equal(t, 2, *rep.Margin)
	assert.Equal(t, "win", rep.Value)
	r = matombo(t, "", append([]string{"hint"}, args...)...)
	require.Equal(t, exitOK, r.code, r.stderr)
	golden(t, "hint-kalah-3-3", r.stdout)
}

func TestHint(t *testing.T) {
	isolateCache(t)
	r := matombo(t, "", "hint", "yematatu", "--variant", "square")
	require.Equal(t, exitOK, r.code, r.stderr)
	golden(t, "hint-yematatu-square", r.stdout)

	// After a winning line is one move away, the winning token comes first.
	r = matombo(t, "", "hint", "yematatu", "b2", "c1", "a1", "b3", "--json")
	require.Equal(t, exitOK, r.code, r.stderr)
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	var first hintMove
	require.NoError(t, json.Unmarshal([]byte(lines[0]), &first))
	assert.Equal(t, hintMove{Token: "c2", Value: "win", Plies: ptr(1)}, first)
	assert.Len(t, lines, 3) // three empty points

	// The heading counts the tokens in words: one token, not "1 tokens".
	r = matombo(t, "", "hint", "yematatu", "b2")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.True(t, strings.HasPrefix(r.stdout, "Tsoro Yematatu [yematatu: board=triangle], Player 2 (North) to move after 1\ntoken:\n"), r.stdout)

	r = matombo(t, "", "hint", "yematatu", "b2", "c1", "a1", "b3", "c2")
	assert.Equal(t, exitFail, r.code)
	assert.Contains(t, r.stderr, "the game is over after these tokens (Player 1 (South) won by three on a line)")

	r = matombo(t, "", "hint", "yematatu", "b2", "zz")
	assert.Equal(t, exitFail, r.code)
	assert.Contains(t, r.stderr, "token 2")
	assert.Contains(t, r.stderr, "zz")
}

func ptr(n int) *int { return &n }

// TestSolveSearchNothingToSearch: when the endgame database values every
// opening move (Kalah(3,3): 18 counters, a database of 17), the search
// engine searches no position, and the report says why rather than "0
// searched", also when the solution comes from the cache; --json carries
// the search's statistics.
func TestSolveSearchNothingToSearch(t *testing.T) {
	isolateCache(t)
	args := []string{"solve", "kalah", "--param", "pits=3", "--param", "seeds=3", "--engine", "search", "--fresh"}
	r := matombo(t, "", args...)
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, "positions: none searched; every opening move's value is known without search (the endgame database holds up to 17 counters in play)")
	assert.Contains(t, r.stdout, "opening: Player 1 wins by 2")

	r = matombo(t, "", append(args, "--json")...)
	require.Equal(t, exitOK, r.code, r.stderr)
	var rep solveReport
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &rep))
	assert.Equal(t, 0, rep.Positions)
	require.NotNil(t, rep.Search, "the search ran: its statistics are reported")
	assert.Equal(t, 17, rep.Search.EndgameCounters)
	assert.Positive(t, rep.Search.EndgameHits)

	// The cached solution keeps no statistics, but says the same.
	r = matombo(t, "", args[:len(args)-1]...)
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Empty(t, r.stderr, "the cached solution answers")
	assert.Contains(t, r.stdout, "positions: none searched; every opening move's value is known without search\n")
}

// TestSolveMaxTimeSaysHowFar: a solve stopped by --max-time says what to
// do, in the command's words, not the script runner's ("context deadline
// exceeded"), and how far it got once the engine has reported progress
// (a slow machine may stop it before); hint's solve too.
func TestSolveMaxTimeSaysHowFar(t *testing.T) {
	isolateCache(t)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"retrograde", []string{"solve", "tsoro", "--variant", "4x6", "--engine", "retrograde"},
			`matombo solve: stopped after --max-time 1s(, \d+ positions stored \(at most \d+\))?; nothing is cached: raise --max-time \(0 for no limit\)`},
		{"search", []string{"solve", "oware", "--variant", "short", "--engine", "search", "--endgame", "0"},
			`matombo solve: stopped after --max-time 1s(, \d+ positions searched)?; nothing is cached: raise --max-time \(0 for no limit\)`},
		{"hint", []string{"hint", "oware", "--variant", "short", "--engine", "search", "--endgame", "0"},
			`matombo hint: stopped after --max-time 1s(, \d+ positions searched)?; nothing is cached: raise --max-time \(0 for no limit\)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := matombo(t, "", append(tc.args, "--max-time", "1s")...)
			assert.Equal(t, exitFail, r.code)
			assert.Regexp(t, tc.want, r.stderr)
			assert.NotContains(t, r.stderr, "deadline")
			assert.NotContains(t, r.stderr, "canceled")
		})
	}
}

// TestSolveEngineFlagAndCache: --engine asks for an engine, and a cached
// solution of the other one does not answer for it: the game is solved
// again with the engine asked for, saying why; auto takes either. A
// search's solution does not replace a cached retrograde one, which
// values every position (hint and the perfect player answer from it).
func TestSolveEngineFlagAndCache(t *testing.T) {
	isolateCache(t)
	kalah := []string{"solve", "kalah", "--param", "pits=3", "--param", "seeds=2"}
	for _, tc := range []struct {
		engine, want, says string
	}{
		{"search", "solved (search engine)", ""},
		{"retrograde", "solved (retrograde engine)", "matombo: the cached solution is the search engine's; solving with the retrograde engine (--engine)"},
		{"auto", "solved (retrograde engine)", ""},
		{"search", "solved (search engine)", "matombo: the cached solution is the retrograde engine's; solving with the search engine (--engine)"},
		{"auto", "solved (retrograde engine)", ""},
	} {
		r := matombo(t, "", append(kalah, "--engine", tc.engine)...)
		require.Equal(t, exitOK, r.code, r.stderr)
		assert.Contains(t, r.stdout, tc.want, tc.engine)
		if tc.says == "" {
			assert.NotContains(t, r.stderr, "the cached solution is", tc.engine)
		} else {
			assert.Contains(t, r.stderr, tc.says, tc.engine)
		}
	}
	r := matombo(t, "", append(kalah, "--engine", "search")...)
	assert.Contains(t, r.stderr, "not cached: the cache keeps the retrograde engine's solution, which values every position")
	r = matombo(t, "", append(kalah, "--engine", "auto")...)
	assert.Contains(t, r.stdout, "solved (retrograde engine)", "the retrograde solution is still cached")
}

// TestSolveSearchFlagsNeedTheSearchEngine: --endgame and --table-memory
// with --engine retrograde would be ignored; they are refused.
func TestSolveSearchFlagsNeedTheSearchEngine(t *testing.T) {
	isolateCache(t)
	for _, flags := range [][]string{{"--endgame", "4"}, {"--table-memory", "64MiB"}} {
		r := matombo(t, "", append([]string{"solve", "tictactoe", "--engine", "retrograde"}, flags...)...)
		assert.Equal(t, exitUsage, r.code, flags)
		assert.Contains(t, r.stderr, "--endgame and --table-memory set the search engine: they do nothing with --engine retrograde", flags)
	}
}

// TestSolveCycleSaysWhyTheSearchEngine: a game with cycles that --engine
// auto gave to the search engine says why it was chosen, and what the
// retrograde engine needs; asked for by name, the search engine's refusal
// says only what to use; a sharded solve's, to solve the game whole.
func TestSolveCycleSaysWhyTheSearchEngine(t *testing.T) {
	isolateCache(t)
	r := matombo(t, "", "solve", "tsoro", "--variant", "4x6")
	assert.Equal(t, exitFail, r.code)
	assert.Contains(t, r.stderr, "matombo solve: tsoro: a position repeats on a line of play, which the search engine does not handle (--engine auto chose it: the game keeps a score and its positions may not fit in --max-memory): use --engine retrograde, which stores every position reachable from the opening, with a --max-memory they fit in\n")

	r = matombo(t, "", "solve", "tsoro", "--variant", "4x6", "--engine", "search")
	assert.Equal(t, exitFail, r.code)
	assert.Contains(t, r.stderr, "matombo solve: tsoro: a position repeats on a line of play, which the search engine does not handle: use --engine retrograde\n")

	// A job of a sharded solve is the search engine's whatever --engine:
	// the game is solved whole by the retrograde engine, not sharded.
	r = matombo(t, "", "solve", "tsoro", "--variant", "4x6", "--shard-depth", "1", "--job", "0")
	assert.Equal(t, exitFail, r.code)
	assert.Contains(t, r.stderr, "which the search engine, the one a sharded solve runs, does not handle: solve the game whole with --engine retrograde (without --shard-depth)\n")
}

// TestSolveMaxTimeAsJSON: with --json a solve stopped by --max-time
// writes its refusal with the engine and the positions its message
// counts.
func TestSolveMaxTimeAsJSON(t *testing.T) {
	isolateCache(t)
	r := matombo(t, "", "solve", "tsoro", "--variant", "4x6", "--engine", "retrograde", "--max-time", "1s", "--json")
	assert.Equal(t, exitFail, r.code)
	var rep refusalReport
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &rep), r.stdout)
	assert.Equal(t, "tsoro", rep.Game)
	assert.Equal(t, "retrograde", rep.Engine)
	assert.Contains(t, rep.Error, "stopped after --max-time 1s")
	if rep.Positions > 0 { // the engine reported its progress before it stopped
		assert.Contains(t, rep.Error, fmt.Sprintf(", %d positions stored", rep.Positions))
	}
}

// TestHintSaysItSearches: after tokens, hint from a search engine's
// solution searches again, which may be long and shows no progress: it
// says so on stderr first; from the opening it does not.
func TestHintSaysItSearches(t *testing.T) {
	isolateCache(t)
	kalah := []string{"hint", "kalah", "--param", "pits=3", "--param", "seeds=3", "--engine", "search"}
	const says = "searching the positions after these tokens: the search engine's solution values the opening's moves only (--max-time bounds the search)\n"
	r := matombo(t, "", kalah...)
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.NotContains(t, r.stderr, says)
	r = matombo(t, "", append(kalah, "a1")...)
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stderr, says)
	assert.Contains(t, r.stdout, "to move\nafter 1 token:\n")
}
