package solve

import (
	"fmt"
	"testing"
)

// TestRankUnrank: rank gives back the index unrank made the counts from,
// for every position of every layer of databases of a few sizes.
func TestRankUnrank(t *testing.T) {
	for _, c := range []struct{ n, k int }{{1, 5}, {2, 18}, {4, 7}, {6, 5}, {12, 8}} {
		t.Run(fmt.Sprintf("n=%d/k=%d", c.n, c.k), func(t *testing.T) {
			db := newEndgameDB(c.n, c.k, true)
			counts := make([]int, db.n)
			for j := 0; j <= db.k; j++ {
				for r := int64(0); r < db.layerSize(j); r++ {
					db.unrank(counts, r, j)
					if got := db.rank(counts, j); got != r {
						t.Fatalf("layer %d: counts %v are position %d, ranked %d", j, counts, r, got)
					}
				}
			}
		})
	}
}
