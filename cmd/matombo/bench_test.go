package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bench runs briefly here: the figures are not checked, only that they are
// there and consistent (speed is measured by the command, not tested).
func TestBenchJSON(t *testing.T) {
	r := matombo(t, "", "bench", "yematatu", "--seconds", "0.05", "--json", "--parallel", "2")
	require.Equal(t, exitOK, r.code, r.stderr)
	var rep map[string]any
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &rep))
	for _, key := range []string{"playouts", "plies", "seconds", "playouts_per_sec", "plies_per_sec", "allocs_per_ply", "bytes_per_ply", "mean_plies", "parallel", "speedup", "parallel_run", "script_calls_per_ply"} {
		assert.Contains(t, rep, key)
	}
	assert.Equal(t, "yematatu", rep["game"])
	assert.EqualValues(t, 2, rep["parallel"])
	assert.Greater(t, rep["playouts"].(float64), 0.0)
	assert.GreaterOrEqual(t, rep["plies"].(float64), rep["playouts"].(float64))
	assert.Greater(t, rep["seconds"].(float64), 0.0)
	par := rep["parallel_run"].(map[string]any)
	assert.EqualValues(t, 2, par["goroutines"])
	assert.Greater(t, par["plies"].(float64), 0.0)
}

func TestBenchText(t *testing.T) {
	r := matombo(t, "", "bench", "--games", kalahGames, "kalah", "--param", "seeds=3", "--seconds", "0.05")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Regexp(t, `^Kalah \(OpenSpiel rules\) \[kalah: seeds=3\], seed 1: random playouts for 0\.1 s after a 0\.00 s warm-up
1 goroutine:
  \d+ playouts, \d+ plies in \d+\.\d\d s
  [\d,]+ playouts/s, [\d,]+ plies/s, \d+\.\d plies per game
  \d+\.\d\d allocations and \d+\.\d bytes per ply
  \d+\.\d\d calls into the script's Lua per ply: a rule function \(play, legal, blocked...\) or a part's slot is Lua
$`, r.stdout)
	assert.NotContains(t, r.stdout, "speed-up")
}

// bench says whether the plies ran on native rule parts: Tic-tac-toe's
// do, and a game whose legal is a Lua function calls into Lua every ply.
func TestBenchScriptCalls(t *testing.T) {
	r := matombo(t, "", "bench", "tictactoe", "--seconds", "0.05")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, "  0 calls into the script's Lua per ply: every ply ran on native rule parts\n")

	dir := writeFiles(t, map[string]string{"luattt/luattt.lua": strings.Replace(tictactoeSource(t),
		`legal = x3_marks`, `legal = function(p) x3_marks(p) end`, 1)})
	r = matombo(t, "", "bench", "luattt", "--games", dir, "--seconds", "0.05", "--json")
	require.Equal(t, exitOK, r.code, r.stderr)
	var rep map[string]any
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &rep))
	assert.GreaterOrEqual(t, rep["script_calls_per_ply"].(float64), 0.8)
}

func TestBenchMCTS(t *testing.T) {
	r := matombo(t, "", "bench", "kalah", "--seconds", "0.05", "--mcts", "50", "--json")
	require.Equal(t, exitOK, r.code, r.stderr)
	var rep map[string]any
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &rep))
	assert.EqualValues(t, 50, rep["mcts_per_search"])
	assert.GreaterOrEqual(t, rep["mcts_searches"].(float64), 1.0)
	assert.Greater(t, rep["mcts_iterations"].(float64), 0.0)
	assert.Greater(t, rep["mcts_iterations_per_sec"].(float64), 0.0)

	r = matombo(t, "", "bench", "kalah", "--seconds", "0.05", "--mcts", "50")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Regexp(t, `MCTS from the opening \(mcts:iterations=50, 1 goroutine\):
  \d+ searches, \d+ iterations in \d+\.\d\d s: [\d,]+ iterations/s
$`, r.stdout)

	r = matombo(t, "", "bench", "kalah", "--mcts", "-1")
	assert.Equal(t, exitUsage, r.code)
	assert.Contains(t, r.stderr, "--mcts -1: want a whole number from 0 to 1000000")
}

// tictactoeSource is the shipped Tic-tac-toe's script as a game named
// luattt.
func tictactoeSource(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "games", "tictactoe", "tictactoe.lua"))
	require.NoError(t, err)
	return strings.Replace(string(b), `name = "tictactoe"`, `name = "luattt"`, 1)
}

func TestGrouped(t *testing.T) {
	for in, want := range map[float64]string{0: "0", 999.4: "999", 1000: "1,000", 1234567.8: "1,234,568"} {
		assert.Equal(t, want, grouped(in))
	}
}
