package server

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/host"
)

// stuckScript is a game whose script cannot play Player 2's moves: play
// fails (an error, or a loop the step budget stops) for player 2.
func stuckScript(failure string) string {
	return `local m = matombo
m.declare { name = "stuck" }
m.board { rows = { "a" }, columns = 2 }
local K = m.move("k", "{1}")
local function fail() ` + failure + ` end
return {
  setup = function() m.set_count("a1", 1) end,
  legal = function(p) m.emit(K, "a1") end,
  play = function(p) if p == 2 then fail() end end,
}
`
}

// A computer whose moves the game's script cannot play (its own choice,
// then a random move) ends the game, with no winner and no score: before,
// the game stayed due, was claimed again every poll for ever (each time
// spending the script's budget twice and logging two errors) and its
// person waited for a move that never came.
func TestComputerMoveTheScriptCannotPlayEndsTheGame(t *testing.T) {
	for _, tc := range []struct{ name, failure, reason string }{
		{"an error", `error("player 2 cannot move")`, "player 2 cannot move"},
		{"a runaway loop", `while true do end`, "step budget exceeded"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := host.NewLibrary()
			require.NoError(t, l.AddSource("stuck", stuckScript(tc.failure), ""))
			ts := newTestServerOf(t, l, newMemStore())
			g := ts.create(`{"game": "stuck", "seats": ["human", "random"]}`)
			status, body := ts.move(g.ID, "a1", 0, secret(t, g.Seats[0].URL))
			require.Equal(t, http.StatusOK, status, "%s", body)

			done := ts.waitGame(g.ID, func(g testGame) bool { return g.Result != nil })
			assert.Equal(t, []string{"a1"}, done.Record)
			assert.Equal(t, methodFailed, done.Result.Method)
			assert.Equal(t, 2, done.Result.Seat)
			assert.Zero(t, done.Result.Winner)
			assert.Equal(t, []float64{0, 0}, done.Result.Scores)
			assert.Contains(t, done.Result.Reason, "the game's script failed when player 2 was to move: ")
			assert.Contains(t, done.Result.Reason, tc.reason)
			sg, err := ts.store.Get(t.Context(), g.ID)
			require.NoError(t, err)
			assert.False(t, sg.ComputerDue, "no computer is due in the ended game")
		})
	}
}

// A game whose script hangs while loading (only the time budget stops
// it) is listed with its error, and the server refuses to start a game of
// it at once with that error: each attempt would otherwise take the whole
// time budget (30 s by default) of a core. WithGameOptions gives the
// server's games their limits.
func TestGameThatHungLoadingIsRefusedAtOnce(t *testing.T) {
	l := host.NewLibrary()
	require.NoError(t, l.AddSource("hangs", `local m = matombo
m.declare { name = "hangs" }
m.board { rows = { "a" }, columns = 2 }
local K = m.move("k", "{1}")
return {
  setup = function() print("setup called") while true do end end,
  legal = function(p) m.emit(K, "a1") end,
  play = function(p) end,
}
`, ""))
	require.NoError(t, l.AddSource("stuck", stuckScript(`error("unused")`), ""))
	var log syncBuffer
	ts := newTestServerOf(t, l, newMemStore(), WithGameOptions(host.WithLog(&log), host.WithLimits(host.Limits{Steps: 1 << 50, Time: 200 * time.Millisecond})))
	require.Contains(t, ts.srv.catalog.hung, "hangs")
	for _, body := range []string{`{"game": "hangs"}`, `{"game": "hangs", "seats": ["human", "random"]}`} {
		status, b := ts.do("POST", "/api/games", body)
		assert.Equal(t, http.StatusUnprocessableEntity, status, "%s", b)
		assert.Contains(t, string(b), "game hangs does not load: ")
		assert.Contains(t, string(b), "time budget exceeded (limit 200ms)")
		assert.Contains(t, string(b), `"code":"budget-time"`)
	}
	assert.Equal(t, 1, strings.Count(log.String(), "setup called"), "loaded once, for the catalog: %s", log.String())
	status, b := ts.do("GET", "/api/catalog", "")
	require.Equal(t, http.StatusOK, status)
	assert.Contains(t, string(b), `"name":"hangs","title":"hangs"`)
	g := ts.create(`{"game": "stuck"}`)
	assert.Equal(t, "stuck", g.Game, "the other games play")
}
