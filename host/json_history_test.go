package host_test

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A state written as JSON and read back continues exactly as the original:
// the JSON carries the history that repetition rules count. Tsoro
// Yematatu's third repetition is a draw; random games reach it often.
// At every ply of every game the copy's repetitions, and the rest of the
// game played on the copy, must be the original's.
func TestJSONKeepsRepetitionHistory(t *testing.T) {
	g, err := games.Library().Load("yematatu")
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(3, 4))
	repetitionEnds := 0
	for game := 0; game < 40; game++ {
		s := g.Start()
		var record []host.Move
		for !s.Over() {
			moves := s.Moves()
			record = append(record, moves[rng.IntN(len(moves))])
			require.NoError(t, s.Apply(record[len(record)-1]))
		}
		if s.Outcome().Reason == "third repetition" {
			repetitionEnds++
		}
		// Replay the game; at a few plies copy through JSON and finish the
		// game on the copy.
		for _, cut := range []int{len(record) / 3, len(record) / 2, len(record) - 1} {
			orig := g.Start()
			for _, m := range record[:cut] {
				require.NoError(t, orig.Apply(m))
			}
			data, err := json.Marshal(orig)
			require.NoError(t, err)
			cp, err := g.StateFromJSON(data)
			require.NoError(t, err)
			for _, m := range record[cut:] {
				require.Equal(t, orig.Repetitions(), cp.Repetitions(), "game %d ply %d", game, orig.Ply())
				require.NoError(t, orig.Apply(m))
				tok := g.Token(m)
				require.NoError(t, cp.Play(tok), "game %d: the copy plays %s", game, tok)
			}
			assert.Equal(t, orig.Outcome(), cp.Outcome(), "game %d cut at %d", game, cut)
			assert.Equal(t, s.Outcome(), cp.Outcome())
		}
	}
	t.Logf("%d of 40 games ended by the third repetition", repetitionEnds)
	assert.Positive(t, repetitionEnds, "some games reach a third repetition")
}

// The history in the JSON is checked: its last key must be the position's,
// and it may not be longer than the game.
func TestJSONHistoryErrors(t *testing.T) {
	g, err := games.Library().Load("yematatu")
	require.NoError(t, err)
	s := g.Start()
	require.NoError(t, s.Play(s.Legal()[0]))
	data, err := json.Marshal(s)
	require.NoError(t, err)
	var j map[string]any
	require.NoError(t, json.Unmarshal(data, &j))
	for _, c := range []struct {
		history any
		msg     string
	}{
		{[]string{}, "history has 0 keys; it needs 1 to ply+1 = 2"},
		{[]string{"0000000000000001", "0000000000000002", "0000000000000003"}, "history has 3 keys; it needs 1 to ply+1 = 2"},
		{[]string{"xyz"}, `history key 1 is "xyz", not 16 hex digits`},
		{[]string{"0000000000000001"}, "the last history key 0000000000000001 is not the key of the position"},
	} {
		j["history"] = c.history
		bad, err := json.Marshal(j)
		require.NoError(t, err)
		_, err = g.StateFromJSON(bad)
		assert.ErrorContains(t, err, c.msg)
	}
	// Without a history (JSON of an older version) the history starts at
	// this position.
	delete(j, "history")
	old, err := json.Marshal(j)
	require.NoError(t, err)
	back, err := g.StateFromJSON(old)
	require.NoError(t, err)
	assert.Equal(t, 1, back.Repetitions())
}
