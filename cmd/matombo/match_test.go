package main

import (
	"encoding/json"
	"regexp"
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

// The text summary has a line per spec, the Elo line and the mean length.
func TestMatchText(t *testing.T) {
	r := matombo(t, "", "match", "tsoro", "--variant", "4x6", "--p1", "greedy", "--p2", "random:seed=9", "--games", "4")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Regexp(t, regexp.MustCompile(`(?m)^Tsoro \[tsoro: holes=6 bonus=2 heads=2\]: 4 games, seats alternating, seed 1$`), r.stdout)
	assert.Regexp(t, regexp.MustCompile(`(?m)^greedy\s+\d+\s+\d+\s+\d+\s+[\d.]+%\s+[\d.]+ ms$`), r.stdout)
	assert.Regexp(t, regexp.MustCompile(`(?m)^random:seed=9\s+\d+\s+\d+\s+\d+\s+[\d.]+%\s+[\d.]+ ms$`), r.stdout)
	assert.Regexp(t, regexp.MustCompile(`(?m)^Elo difference of greedy: [+-]\d+ \(95% CI [+-]\d+ to [+-]\d+\)$`), r.stdout)
	assert.Regexp(t, regexp.MustCompile(`(?m)^Mean length: [\d.]+ plies$`), r.stdout)
}

// The Elo interval is finite and ordered for every score, and zero at an
// even score.
func TestEloInterval(t *testing.T) {
	for _, tc := range []struct{ score, n float64 }{{0, 10}, {0.5, 40}, {0.95, 40}, {1, 10}, {0.25, 4}} {
		elo, low, high := eloInterval(tc.score, tc.n)
		assert.LessOrEqual(t, low, elo, tc)
		assert.LessOrEqual(t, elo, high, tc)
		assert.Less(t, high-low, 5000.0, tc)
	}
	elo, low, high := eloInterval(0.5, 40)
	assert.Zero(t, elo)
	assert.InDelta(t, -low, high, 0.11)
	elo, _, _ = eloInterval(0.75, 100)
	assert.InDelta(t, 190.8, elo, 0.1) // 400 log10(3)
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
