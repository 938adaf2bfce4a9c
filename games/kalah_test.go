package games_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host"
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

// TestKalahPitsAndEmptyCapture plays K8 (another number of pits) and K9
// (the empty capture): on Kalah(3,1), Player 1 sows a1 into their own empty
// pit a2 facing the empty b2. OpenSpiel's K4 leaves the seed there; with
// empty captures it goes to the store a4, Player 1's pits are then empty
// and the game ends (K5) with 2 seeds to Player 2's 4.
func TestKalahPitsAndEmptyCapture(t *testing.T) {
	for _, c := range []struct {
		empty     bool
		a2, store int
		over      bool
	}{{false, 1, 1, false}, {true, 0, 2, true}} {
		g, err := games.Library().Load("kalah", host.WithParam("pits", 3), host.WithParam("seeds", 1), host.WithParam("empty_capture", c.empty))
		require.NoError(t, err)
		require.Equal(t, 8, g.Board().NumSites(), "two rows of 3 pits and a store")
		pos := g.Start().Position()
		set := func(site string, n int) {
			i, ok := g.Board().Index(site)
			require.True(t, ok, site)
			pos.Counts[i] = n
		}
		for site, n := range map[string]int{"a1": 1, "a2": 0, "a3": 0, "a4": 1, "b1": 1, "b2": 0, "b3": 1, "b4": 2} {
			set(site, n)
		}
		s, err := g.NewState(pos)
		require.NoError(t, err)
		require.NoError(t, s.Play("a1"))
		a2, _ := g.Board().Index("a2")
		a4, _ := g.Board().Index("a4")
		assert.Equal(t, c.a2, s.Count(a2), "empty_capture=%v", c.empty)
		assert.Equal(t, c.store, s.Count(a4), "empty_capture=%v", c.empty)
		assert.Equal(t, c.over, s.Over(), "empty_capture=%v", c.empty)
		if c.over {
			assert.Equal(t, 2, s.Outcome().Winner)
		}
	}
}
