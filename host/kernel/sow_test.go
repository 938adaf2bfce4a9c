package kernel

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// naiveSowSkipping is sowSkipping one counter at a time.
func naiveSowSkipping(counts []int32, t *Track, from, n int) (int, bool) {
	pos := from
	for ; n > 0; n-- {
		pos = t.Step(pos, 1)
		if pos < 0 {
			return -1, false
		}
		if pos == from {
			pos = t.Step(pos, 1)
		}
		counts[pos]++
	}
	return pos, counts[pos] == 1
}

// TestSowSkippingMatchesOneByOne checks the lap arithmetic of sowSkipping
// against dropping the counters one by one.
func TestSowSkippingMatchesOneByOne(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for trial := 0; trial < 5000; trial++ {
		n := 2 + rng.IntN(14)
		track := Track{Name: "t", Loop: true, pos: make([]int32, n), next: make([]int32, n)}
		for i := 0; i < n; i++ {
			track.Sites = append(track.Sites, i)
			track.pos[i] = int32(i)
			track.next[i] = int32((i + 1) % n)
		}
		counts := make([]int32, n)
		for i := range counts {
			counts[i] = int32(rng.IntN(3))
		}
		from, k := rng.IntN(n), 1+rng.IntN(4*n)
		counts[from] = 0
		a, b := append([]int32(nil), counts...), append([]int32(nil), counts...)
		l1, e1 := sowSkipping(a, &track, from, k)
		l2, e2 := naiveSowSkipping(b, &track, from, k)
		require.Equal(t, b, a, "counts after sowing %d from %d on %d sites", k, from, n)
		require.Equal(t, l2, l1, "last site")
		require.Equal(t, e2, e1, "was empty")
		require.Zero(t, a[from], "the start is never sown")
	}
}
