package games_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host"
)

// Goré's evaluation (games/gore/gore.lua): the material lead (captured
// totals plus the counters in the holes each player owns, what G8 counts
// at the end) plus all of the best sowing's gain for the player to move
// and less three quarters of the other's, out of 48, within ±0.95. Each row gives
// the lead in counters from Player 1's side, worked out by hand.
func TestGoreEvaluate(t *testing.T) {
	for _, tc := range []struct {
		name     string
		diagram  string // rows b and a, as the rules page draws them
		captured []int
		toMove   int
		lead     float64
	}{
		// The opening: each side's best sowing (a1, b4) leaves 3 counters
		// in the other's holes, and no one can offer yet: 0 - 3 + 2.25.
		{"opening", "b 6 6 6 6\na 6 6 6 6\n", []int{0, 0}, 1, -0.75},
		// The rules page's capture chain: material 25 to 23; a3 gains
		// Player 1 10 (16 captured, 2 sown away, 4 of its own taken);
		// Player 2's best, b1, would capture a4 and a3 (6) for the 4 it
		// sows: 2 + 10 - 0.75 × 2.
		{"the rules page's capture chain", "b 4 2 3 1\na 2 7 3 1\n", []int{12, 13}, 1, 10.5},
		// The same with Player 2 to move: b1 gains 2; Player 1's a3 10:
		// 2 - 2 + 0.75 × 10.
		{"the capture chain, Player 2 to move", "b 4 2 3 1\na 2 7 3 1\n", []int{12, 13}, 2, 7.5},
		// A sowing of 12 passes every hole and four twice (G3): it ends in
		// b4 with 2, captured, and the chain back takes a4, a3, a2 (2
		// each, Player 1's own); 5 counters stay in Player 2's holes, so
		// it gains -5 + 2. Player 2 holds 5 captured, too few for an offer
		// (G6): Player 1 must sow. 42 - 6 - 3.
		{"a sowing of 12", "b 1 0 0 0\na 12 0 0 0\n", []int{30, 5}, 1, 33},
		// 46 ahead: the value stops at 0.95.
		{"clamped", "b 1 0 0 0\na 0 0 0 0\n", []int{47, 0}, 1, 0.95 * 48},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := games.Library().Load("gore")
			require.NoError(t, err)
			counts, owners, err := g.ParseDiagram(tc.diagram)
			require.NoError(t, err)
			s, err := g.NewState(host.Position{Counts: counts, Owners: owners, Captured: tc.captured, Hand: []int{0, 0}, ToMove: tc.toMove})
			require.NoError(t, err)
			r := g.NewRunner()
			defer r.Close()
			v1, ok, err := r.Evaluate(s, 1)
			require.NoError(t, err)
			require.True(t, ok)
			v2, _, err := r.Evaluate(s, 2)
			require.NoError(t, err)
			assert.InDelta(t, tc.lead/48, v1, 1e-9, "Player 1")
			assert.InDelta(t, -tc.lead/48, v2, 1e-9, "Player 2")
		})
	}
}
