package games_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/matombo/matombo/games"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestKalahMoveLimit checks Kalah's K5 move limit, which no scenario can
// reach (scenarios count plies from their start): as OpenSpiel's mancala,
// whose game is over once its move count exceeds 1000, the 1001st move ends
// the game whatever the board, and the 1000th does not. The states start
// from JSON that says how many moves were made.
func TestKalahMoveLimit(t *testing.T) {
	g, err := games.Library().Load("kalah")
	require.NoError(t, err)
	for _, c := range []struct {
		before int
		over   bool
	}{{999, false}, {1000, true}} {
		b, err := json.Marshal(g.Start())
		require.NoError(t, err)
		text := strings.Replace(string(b), `"ply":0,`, `"ply":`+strconv.Itoa(c.before)+`,`, 1)
		require.NotEqual(t, string(b), text)
		s, err := g.StateFromJSON([]byte(text))
		require.NoError(t, err)
		require.NoError(t, s.Play("a1"))
		assert.Equal(t, c.before+1, s.Ply())
		assert.Equal(t, c.over, s.Over(), "after move %d", c.before+1)
		if c.over {
			o := s.Outcome()
			assert.Equal(t, "move limit", o.Reason)
			assert.Equal(t, 0, o.Winner, "24 seeds each side after a1 from the opening")
		}
	}
}
