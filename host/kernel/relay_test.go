package kernel

import (
	"math/rand/v2"
	"testing"
)

// TestRelayBoundHolds checks the bound relayBounded relies on against real
// relay sowings: whenever it says a sowing surely ends within the lap
// limit, the sowing does, from every start. Small limits make the bound
// bite often.
func TestRelayBoundHolds(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	checked, bounded := 0, 0
	for trial := 0; trial < 20000; trial++ {
		n := 2 + rng.IntN(30)
		track := Track{Name: "t", Loop: true, pos: make([]int32, n), next: make([]int32, n)}
		for i := 0; i < n; i++ {
			track.Sites = append(track.Sites, i)
			track.pos[i] = int32(i)
			track.next[i] = int32((i + 1) % n)
		}
		tags := make([]uint64, n)
		for h := 1 + rng.IntN(3); h > 0; h-- {
			tags[rng.IntN(n)] = 1
		}
		counts := make([]int32, n)
		for i := range counts {
			counts[i] = int32(rng.IntN(4))
		}
		maxLaps := 1 + rng.IntN(60)
		if !relayBounded(counts, tags, &track, 1, maxLaps) {
			continue
		}
		bounded++
		for from := 0; from < n; from++ {
			if counts[from] == 0 {
				continue
			}
			c := append([]int32(nil), counts...)
			work := SowWork(n)
			_, how, laps := relayInto(c, tags, &track, from, 1, maxLaps, &work, nil, nil)
			checked++
			if how == RelayLaps {
				t.Fatalf("bound says a sowing ends within %d laps, but from %d it did not (counts %v, stops %v)", maxLaps, from, counts, tags)
			}
			if laps > maxLaps {
				t.Fatalf("%d laps > %d", laps, maxLaps)
			}
		}
	}
	if bounded < 1000 {
		t.Fatalf("only %d positions were bounded: the test does not exercise the bound", bounded)
	}
	t.Logf("%d bounded positions, %d sowings checked", bounded, checked)
}
