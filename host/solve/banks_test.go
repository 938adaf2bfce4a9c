package solve_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/host/solve"
)

// TestBankedValuesMatchEncoding: the values an endgame database sets a
// position up from are those of the encoding it used to decode, on
// boards with and without empty captures, either banker and mover.
func TestBankedValuesMatchEncoding(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, c := range []struct{ m, n int }{{2, 2}, {3, 3}, {6, 4}} {
		t.Run(fmt.Sprintf("Kalah(%d,%d)", c.m, c.n), func(t *testing.T) {
			g := loadKalah(t, c.m, c.n, true)
			for range 50 {
				counts := make([]int, 2*c.m)
				left := 2 * c.m * c.n
				for i := range counts {
					counts[i] = rng.IntN(min(left, 4) + 1)
					left -= counts[i]
				}
				banker, toMove := 1+rng.IntN(2), 1+rng.IntN(2)
				vals, enc, err := solve.BankedPosition(g, counts, banker, toMove)
				require.NoError(t, err)
				s, err := g.StateFromPosition(enc)
				require.NoError(t, err)
				assert.Equal(t, s.AppendPositionValues(nil), vals, "counts %v banker %d to move %d", counts, banker, toMove)
			}
		})
	}
}
