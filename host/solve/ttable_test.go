package solve

import (
	"fmt"
	"maps"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// TestTTableDoubling fills a table that starts with an eighth of its
// buckets in use and doubles them: every key found before a doubling is
// found after it with its own bounds, and no key is found with another's.
func TestTTableDoubling(t *testing.T) {
	tests := []struct {
		name   string
		keys   int  // stored before the first doubling
		shared bool // written with atomic stores
	}{
		{"sparse", 1000, false},
		{"half full", ttMinStart * ttWays / 2, false},
		{"overfull", ttMinStart * ttWays * 2, false},
		{"sparse, shared", 1000, true},
		{"overfull, shared", ttMinStart * ttWays * 2, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tt := newTTable(ttMinStart<<ttDoublings*ttWays, tc.shared)
			if used, g := tt.inUse(); used != ttMinStart || g != 0 {
				t.Fatalf("in use at the start: %d buckets, %d doublings; want %d, 0", used, g, ttMinStart)
			}
			key := func(i int) uint64 { return uint64(i)*0x9e3779b97f4a7c15 + 12345 }
			bound := func(i int) score { return makeScore(0, i%4000-2000) }
			for i := range tc.keys {
				tt.storeBounds(key(i), bound(i), bound(i), i%7, 3, int64(i))
			}
			found := func() map[int]bool {
				f := map[int]bool{}
				for i := range tc.keys {
					e, ok := tt.probe(key(i))
					if !ok {
						continue
					}
					if e.lo != bound(i) || e.hi != bound(i) || e.move != i%7 || e.depth != 3 {
						t.Fatalf("key %d: found %+v, want its own bounds %v, move %d, depth 3", i, e, bound(i), i%7)
					}
					f[i] = true
				}
				return f
			}
			before := found()
			if tc.keys <= ttMinStart && len(before) != tc.keys {
				t.Fatalf("found %d of %d keys before doubling", len(before), tc.keys)
			}
			for d := 1; d <= ttDoublings+1; d++ {
				tt.evictions(int64(tt.entries())) // enough to double
				used, g := tt.inUse()
				want := min(d, ttDoublings)
				if g != want || used != ttMinStart<<want {
					t.Fatalf("after %d calls: %d buckets, %d doublings; want %d, %d", d, used, g, ttMinStart<<want, want)
				}
				if after := found(); !maps.Equal(after, before) {
					t.Fatalf("after doubling %d: %d keys found, %d before", d, len(after), len(before))
				}
			}
			// Keys stored after the doublings are found too.
			for i := tc.keys; i < tc.keys+1000; i++ {
				tt.storeBounds(key(i), bound(i), bound(i), i%7, 3, int64(i))
				if e, ok := tt.probe(key(i)); !ok || e.lo != bound(i) {
					t.Fatalf("key %d stored after the doublings: found %v, %+v", i, ok, e)
				}
			}
		})
	}
}

// TestTTableSmallStartsFull checks that a table too small to double has
// every bucket in use from the start.
func TestTTableSmallStartsFull(t *testing.T) {
	for _, entries := range []int{0, 5000, ttMinStart * ttWays} {
		tt := newTTable(entries, false)
		used, g := tt.inUse()
		if used != len(tt.b) || g != 0 {
			t.Errorf("%d entries: %d of %d buckets in use, %d doublings", entries, used, len(tt.b), g)
		}
		tt.evictions(int64(tt.entries()))
		if used2, _ := tt.inUse(); used2 != used {
			t.Errorf("%d entries: grew from %d to %d buckets", entries, used, used2)
		}
	}
}

// TestTTableDoublesWhileInUse doubles a table while goroutines store and
// probe it (run with -race): an entry may be lost, never found with
// another key's bounds.
func TestTTableDoublesWhileInUse(t *testing.T) {
	tt := newTTable(ttMinStart<<ttDoublings*ttWays, true)
	key := func(i int) uint64 { return uint64(i)*0x9e3779b97f4a7c15 + 777 }
	bound := func(i int) score { return makeScore(0, i%4000-2000) }
	const keys = ttMinStart * ttWays / 4
	var wg sync.WaitGroup
	var stored atomic.Int64
	errs := make(chan string, 2)
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := range 2 {
				for i := w; i < keys; i += 2 {
					tt.storeBounds(key(i), bound(i), bound(i), i%7, 3, int64(round))
					stored.Add(1)
					if e, ok := tt.probe(key(i ^ 1)); ok && (e.lo != bound(i^1) || e.move != (i^1)%7) {
						select { // the first two are kept; it goes on (the doubling waits for its stores)
						case errs <- fmt.Sprintf("key %d found with %+v", i^1, e):
						default:
						}
					}
				}
			}
		}()
	}
	for d := range ttDoublings { // while the goroutines work
		for stored.Load() < int64(d+1)*keys/2 {
			runtime.Gosched()
		}
		tt.evictions(int64(tt.entries()))
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if _, g := tt.inUse(); g != ttDoublings {
		t.Errorf("%d doublings, want %d", g, ttDoublings)
	}
}
