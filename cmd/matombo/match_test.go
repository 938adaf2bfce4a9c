package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A match alternates seats, adds up to the number of games, and is the
// same for the same seed with iteration budgets.
func TestMatchJSON(t *testing.T) {
	args := []string{"match", "yematatu", "--p1", "mcts:iterations=300", "--p2", "random", "--games", "6", "--seed", "4", "--json"}
	r := matombo(t, "", args...)
	require.Equal(t, exitOK, r.code, r.stderr)
	var got matchResult
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &got))
	assert.Equal(t, 6, got.Games)
	assert.Zero(t, got.Failed)
	assert.Empty(t, got.Failures)
	assert.Equal(t, [2]string{"mcts:iterations=300", "random"}, got.Players)
	assert.Equal(t, 6, got.Wins[0]+got.Wins[1]+got.Draws)
	assert.InDelta(t, (float64(got.Wins[0])+float64(got.Draws)/2)/6, got.Score, 1e-4)
	assert.LessOrEqual(t, got.EloLow, got.Elo)
	assert.LessOrEqual(t, got.Elo, got.EloHigh)
	assert.GreaterOrEqual(t, got.PliesMean, 5.0) // three drops each at least
	assert.Greater(t, got.Wins[0], got.Wins[1], "300 iterations of MCTS beat random play")

	again := matombo(t, "", args...)
	var second matchResult
	require.NoError(t, json.Unmarshal([]byte(again.stdout), &second))
	got.MsPerMove, second.MsPerMove = [2]float64{}, [2]float64{}
	assert.Equal(t, got, second)
}

// TestMatchGamesCount: -n counts the games as --games N does, with the same
// limit, as in analyze and selfplay.
func TestMatchGamesCount(t *testing.T) {
	r := matombo(t, "", "match", "yematatu", "--p1", "random", "-n", "3", "--json")
	require.Equal(t, exitOK, r.code, r.stderr)
	var got matchResult
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &got))
	assert.Equal(t, 3, got.Games)
	r = matombo(t, "", "match", "yematatu", "--p1", "random", "-n", "10000000000")
	assert.Equal(t, exitUsage, r.code)
	assert.Contains(t, r.stderr, "-n 10000000000: too large: the limit is 1000000")
}

// The text summary has a line per spec, the Elo line and the mean length.
func TestMatchText(t *testing.T) {
	r := matombo(t, "", "match", "tsoro", "--variant", "4x6", "--p1", "greedy", "--p2", "random:seed=9", "--games", "4")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Regexp(t, regexp.MustCompile(`(?m)^Tsoro \[tsoro: holes=6 bonus=2 heads=2\]: 4 games, seats alternating, seed 1$`), r.stdout)
	assert.Regexp(t, regexp.MustCompile(`(?m)^greedy\s+\d+\s+\d+\s+\d+\s+[\d.]+%\s+[\d.]+ ms$`), r.stdout)
	assert.Regexp(t, regexp.MustCompile(`(?m)^random:seed=9\s+\d+\s+\d+\s+\d+\s+[\d.]+%\s+[\d.]+ ms$`), r.stdout)
	assert.Regexp(t, regexp.MustCompile(`(?m)^Elo difference of greedy: [+-]\d+ \(95% CI [+-]\d+ to [+-]\d+\)$`), r.stdout)
	assert.Regexp(t, regexp.MustCompile(`(?m)^Mean length: [\d.]+ plies$`), r.stdout)
	assert.NotContains(t, r.stdout, "Search per move", "neither player searches")
}

// move prints the chosen token alone; every search player finds the win
// in one (a1 makes a1-b2-c2 for Player 1).
func TestMoveWinInOne(t *testing.T) {
	for _, spec := range []string{"greedy", "mcts:iterations=200", "alphabeta:depth=3"} {
		r := matombo(t, "", "move", "yematatu", "--player", spec, "c2", "b1", "b2", "c3")
		require.Equal(t, exitOK, r.code, r.stderr)
		assert.Equal(t, "a1\n", r.stdout, spec)
	}
}

// move refuses a bad token, a finished game and a bad spec clearly.
func TestMoveErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"yematatu", "--player", "random", "c2", "zz"}, exitFail, `token 2: illegal token "zz"`},
		{[]string{"yematatu", "--player", "random", "c2", "b1", "b2", "c3", "a1"}, exitFail, "the game is over after the tokens (Player 1 (South) wins (three on a line: a1 b2 c2))"},
		{[]string{"yematatu", "--player", "minimax"}, exitUsage, `unknown player "minimax" (valid: random, greedy, mcts, alphabeta, perfect)`},
		{[]string{"yematatu", "--player", "mcts:time"}, exitUsage, `option "time" is not key=value`},
	} {
		r := matombo(t, "", append([]string{"move"}, tc.args...)...)
		assert.Equal(t, tc.code, r.code, tc.args)
		assert.Contains(t, r.stderr, tc.want, tc.args)
	}
}

// A game that fails does not stop the match: it is listed after the
// summary and counts nowhere else.
func TestMatchGoesOnAfterAFailedGame(t *testing.T) {
	src, err := os.ReadFile("../../games/yematatu/yematatu.lua")
	require.NoError(t, err)
	variants, err := os.ReadFile("../../games/yematatu/variants.yaml")
	require.NoError(t, err)
	// greedy evaluates the positions after its moves: with this script it
	// fails as Player 1 (Player 2 is then to move) and plays as Player 2.
	failing := `function(p) if m.to_move() == 2 then error("evaluate refuses Player 2 to move") end return 0 end`
	script := strings.Replace(string(src), "evaluate = evaluate,", "evaluate = "+failing+",", 1)
	require.NotEqual(t, string(src), script)
	dir := filepath.Join(t.TempDir(), "yematatu")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "yematatu.lua"), []byte(script), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "variants.yaml"), variants, 0o644))

	r := matombo(t, "", "match", "yematatu", "--games", filepath.Dir(dir), "--p1", "greedy", "--p2", "random", "--games", "4")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, "4 games, seats alternating")
	assert.Regexp(t, regexp.MustCompile(`(?m)^2 games failed and count in none of the figures above:$`), r.stdout)
	assert.Regexp(t, regexp.MustCompile(`(?m)^  game 1 \(seed 1\): greedy as Player 1 at ply 1: greedy: .*evaluate refuses Player 2 to move`), r.stdout)
	assert.Contains(t, r.stdout, "  game 3 (seed 1): greedy as Player 1")

	r = matombo(t, "", "match", "yematatu", "--games", filepath.Dir(dir), "--p1", "greedy", "--p2", "random", "--games", "4", "--json")
	require.Equal(t, exitOK, r.code, r.stderr)
	var got matchResult
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &got))
	assert.Equal(t, 2, got.Games)
	assert.Equal(t, 2, got.Failed)
	assert.Len(t, got.Failures, 2)
	assert.Equal(t, 2, got.Wins[0]+got.Wins[1]+got.Draws)
}
