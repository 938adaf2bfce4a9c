package solve

import "testing"

// TestCountsKeySpreads: the table's keys of every way of putting up to 6
// counters on 12 sites, either player to move (37,128 positions), are
// all different, and their low 10 bits (a table's bucket) spread evenly:
// no bucket holds twice its share, none less than a third.
func TestCountsKeySpreads(t *testing.T) {
	const sites, most, buckets = 12, 6, 1024
	seen := map[uint64][]int{}
	var load [buckets]int
	counts := make([]int, sites)
	var walk func(i, left int)
	walk = func(i, left int) {
		if i == sites {
			for mover := 1; mover <= 2; mover++ {
				k := countsKey(counts, mover)
				if prev, ok := seen[k]; ok {
					t.Fatalf("counts %v (player %d to move) and %v share the key %016x", counts, mover, prev, k)
				}
				seen[k] = append(append([]int(nil), counts...), mover)
				load[k%buckets]++
			}
			return
		}
		for c := 0; c <= left; c++ {
			counts[i] = c
			walk(i+1, left-c)
		}
		counts[i] = 0
	}
	walk(0, most)
	if len(seen) != 37128 {
		t.Fatalf("%d keys, want 37,128", len(seen))
	}
	share := len(seen) / buckets
	for b, n := range load {
		if n > 2*share || n < share/3 {
			t.Errorf("bucket %d holds %d keys; a share is %d", b, n, share)
		}
	}
}
