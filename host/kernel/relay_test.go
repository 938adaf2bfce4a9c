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
			_, how, laps := relayInto(c, tags, &track, from, 1, maxLaps, false, &work, nil, nil)
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

// TestRelaySkippingOrigin: with skip, each lap of a relay drops into
// every site of the loop but the one it picked up from, however many
// times it goes round (as Ayoayo sows twelve and more); without, a lap
// of as many counters as sites drops into its origin too.
func TestRelaySkippingOrigin(t *testing.T) {
	loop := func(n int) *Track {
		track := &Track{Name: "t", Loop: true, pos: make([]int32, n), next: make([]int32, n)}
		for i := range n {
			track.Sites = append(track.Sites, i)
			track.pos[i] = int32(i)
			track.next[i] = int32((i + 1) % n)
		}
		return track
	}
	for _, c := range []struct {
		name   string
		counts []int32
		from   int
		skip   bool
		want   []int32
		last   int
		laps   int
	}{
		{"skipping: 5 on 4 sites, then a lap of 2 from site 2", []int32{5, 0, 0, 0}, 0, true, []int32{1, 2, 0, 2}, 0, 2},
		{"not skipping: the origin gets one", []int32{5, 0, 0, 0}, 0, false, []int32{2, 1, 2, 0}, 1, 3},
		{"skipping, 7 on 4 sites: two for each other site and one more, then a lap of 3 once round", []int32{0, 7, 0, 0}, 1, true, []int32{3, 1, 0, 3}, 1, 2},
		{"one counter: the next site", []int32{1, 0, 0, 0}, 0, true, []int32{0, 1, 0, 0}, 1, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			track := loop(len(c.counts))
			tags := make([]uint64, len(c.counts))
			counts := append([]int32(nil), c.counts...)
			work := SowWork(len(counts))
			last, how, laps := relayInto(counts, tags, track, c.from, 0, 100, c.skip, &work, nil, nil)
			if how != RelayEmpty || last != c.last || laps != c.laps {
				t.Fatalf("ended %v at %d after %d laps, want empty at %d after %d", how, last, laps, c.last, c.laps)
			}
			for i := range counts {
				if counts[i] != c.want[i] {
					t.Fatalf("counts %v, want %v", counts, c.want)
				}
			}
		})
	}
}
