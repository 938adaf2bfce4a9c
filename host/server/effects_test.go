package server

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A Kalah game as the page sees it: the stores drawn at the ends of the
// board, the score in seeds, and each state with the effects of the move
// that led to it (the person's and the computer's, and at an earlier ply).
func TestKalahStoresScoreAndEffects(t *testing.T) {
	ts := newTestServer(t, newMemStore())
	g := ts.create(`{"game": "kalah", "seats": ["human", "human"]}`)
	require.NotNil(t, g.Board)
	ends := map[string]string{}
	for _, s := range g.Board.Sites {
		if s.End != "" {
			ends[s.Name] = s.End
		}
	}
	assert.Equal(t, map[string]string{"a7": "east", "b7": "west"}, ends)

	type state struct {
		Score   []int            `json:"score"`
		Effects []map[string]any `json:"effects"`
	}
	var st state
	require.NoError(t, json.Unmarshal(g.State, &st))
	assert.Equal(t, []int{0, 0}, st.Score)
	assert.NotNil(t, st.Effects)
	assert.Empty(t, st.Effects, "the opening has no effects")

	status, b := ts.move(g.ID, "a3", 0, secret(t, g.Seats[0].URL))
	require.Equal(t, http.StatusOK, status, "%s", b)
	var after testGame
	require.NoError(t, json.Unmarshal(b, &after))
	require.NoError(t, json.Unmarshal(after.State, &st))
	assert.Equal(t, []int{1, 0}, st.Score)
	require.Len(t, st.Effects, 6)
	assert.Equal(t, map[string]any{"kind": "take", "site": "a3", "count": 4.0}, st.Effects[0])
	assert.Equal(t, map[string]any{"kind": "drop", "site": "a7", "count": 1.0}, st.Effects[4])
	assert.Equal(t, map[string]any{"kind": "turn", "player": 1.0}, st.Effects[5])

	require.Equal(t, http.StatusOK, func() int { s, _ := ts.move(g.ID, "a6", 1, secret(t, g.Seats[0].URL)); return s }())
	status, b = ts.do("GET", "/api/games/"+g.ID+"?ply=1", "")
	require.Equal(t, http.StatusOK, status)
	var early testGame
	require.NoError(t, json.Unmarshal(b, &early))
	require.NoError(t, json.Unmarshal(early.State, &st))
	assert.Len(t, st.Effects, 6, "an earlier ply carries its own move's effects")
	assert.Equal(t, "a3", st.Effects[0]["site"])
}
