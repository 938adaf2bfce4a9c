package rules

import (
	"math/rand/v2"
	"testing"

	"github.com/matombo/matombo/host/kernel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSomeEmptyAgreesWithSums: end_rule's `empty` holds when some
// player's filter sums to no counter, whether its sites are tested
// directly (filters whose emptiness is their sites') or through the
// filters (a filter with a minimum of 2 is empty while its sites hold ones).
func TestSomeEmptyAgreesWithSums(t *testing.T) {
	f := newRingFixture(t)
	b := f.b
	plain := []*kernel.Filter{
		kernel.NewFilter(b, kernel.FilterSpec{Owner: -1, Min: 1, Max: -1, Row: 0}),
		kernel.NewFilter(b, kernel.FilterSpec{Owner: -1, Max: -1, Row: 1}),
	}
	mixed := []*kernel.Filter{
		plain[0],
		kernel.NewFilter(b, kernel.FilterSpec{Owner: -1, Min: 2, Max: -1, Row: 1}),
	}
	for _, c := range []struct {
		name    string
		filters []*kernel.Filter
		direct  bool
	}{
		{"sites tested directly", plain, true},
		{"through the filters", mixed, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newSomeEmpty(c.filters)
			assert.Equal(t, c.direct, r.sites != nil)
			rng := rand.New(rand.NewPCG(1, 2))
			held := 0
			for range 2000 {
				for i := 0; i < f.def.Layout.Sites; i++ {
					f.s.Cells[i] = int32(max(rng.IntN(6)-3, 0)) // half of the sites empty
				}
				want := false
				for _, fl := range c.filters {
					want = want || fl.Sum(f.s.Cells, &f.def.Layout, 1) == 0
				}
				got, err := r.Holds(f.c, 1)
				require.NoError(t, err)
				require.Equal(t, want, got, "counts %v", f.s.Cells[:f.def.Layout.Sites])
				if got {
					held++
				}
			}
			assert.Greater(t, held, 100, "both answers are tested")
			assert.Less(t, held, 1900, "both answers are tested")
		})
	}
}

// TestComparisons: each word of a comparison compares as it reads.
func TestComparisons(t *testing.T) {
	want := map[string]func(x, y int) bool{
		"<":  func(x, y int) bool { return x < y },
		"<=": func(x, y int) bool { return x <= y },
		"==": func(x, y int) bool { return x == y },
		"~=": func(x, y int) bool { return x != y },
		">=": func(x, y int) bool { return x >= y },
		">":  func(x, y int) bool { return x > y },
	}
	require.Len(t, cmpOps, len(want))
	for _, w := range cmpOps {
		op := opOf(w)
		assert.Equal(t, w, cmpOps[op], "the word names its own comparison")
		for x := -2; x <= 2; x++ {
			for y := -2; y <= 2; y++ {
				assert.Equal(t, want[w](x, y), op.holds(x, y), "%d %s %d", x, w, y)
			}
		}
	}
}
