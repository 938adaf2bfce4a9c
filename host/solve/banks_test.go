package solve_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/solve"
)

// TestBankedValuesMatchEncoding: the values an endgame database sets a
// position up from are those of the encoding it used to decode, on
// boards with and without empty captures, either banker and mover.
func TestBankedValuesMatchEncoding(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	cases := []struct {
		name  string
		g     func(t *testing.T) *host.Game
		sites int // in play
		seeds int // in the game
	}{
		{"Kalah(2,2)", func(t *testing.T) *host.Game { return loadKalah(t, 2, 2, true) }, 4, 8},
		{"Kalah(3,3)", func(t *testing.T) *host.Game { return loadKalah(t, 3, 3, true) }, 6, 18},
		{"Kalah(6,4)", func(t *testing.T) *host.Game { return loadKalah(t, 6, 4, true) }, 12, 48},
		{"Oware (banks: the captured totals)", func(t *testing.T) *host.Game { return load(t, "oware") }, 12, 48},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := c.g(t)
			for range 50 {
				counts := make([]int, c.sites)
				left := c.seeds
				for i := range counts {
					counts[i] = rng.IntN(min(left, 4) + 1)
					left -= counts[i]
				}
				// Every counter banked by Player 1, by Player 2, or all but
				// one by Player 1 and one by Player 2.
				banker, toMove := []int{1, 2, solve.BankSplit}[rng.IntN(3)], 1+rng.IntN(2)
				vals, enc, err := solve.BankedPosition(g, counts, banker, toMove)
				require.NoError(t, err)
				s, err := g.StateFromPosition(enc)
				require.NoError(t, err)
				assert.Equal(t, s.AppendPositionValues(nil), vals, "counts %v banker %d to move %d", counts, banker, toMove)
			}
		})
	}
}
