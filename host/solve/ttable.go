package solve

import (
	"math"
	"math/bits"
	"sync"
	"sync/atomic"
)

// ttable is a transposition table of bounded size shared by goroutines
// without locks. An entry takes 12 bytes, five to a 64-byte bucket (one
// cache line, so a probe costs one memory access): a 64-bit word of data
// (bounds on Player 1's score, the best move, the depth searched and the
// work the search took, and 11 bits of the key) and a 32-bit check, more
// of the key's bits xor a fold of the data. A reader that sees one
// writer's data and another's check, or another key's entry, rejects it
// unless 40 to 43 bits of the key match (Hyatt and Mann's lockless
// hashing): the check's 32, and the 11 of the data less one a doubling
// (below). The bucket's index is the low 32 bits of a mix of the key
// scaled to the buckets in use; the data's 11 bits are the next ones of
// that product, which the index does not decide.
//
// The table starts with an eighth of its buckets in use (the rest of its
// memory untouched, so neither written nor cached) and doubles them, at
// most three times, when the stores that replace another position's
// entry since the last doubling reach a thirty-second of the entries in use:
// a search that needs a small table pays for a small one (its memory
// written, its misses in the caches), one that needs it all gets it.
// Doubling moves each entry to the bucket its key now has, which its
// 11 bits say (index i goes to 2i or 2i+1); the bit they lose is not
// compared from then on. An entry that another goroutine writes while the
// table doubles may be lost or land in the wrong bucket, where the check
// rejects it: the table may forget, never mislead.
type ttable struct {
	b []ttBucket // all the buckets the table may use
	// use is the buckets in use (the low 48 bits) and the doublings done
	// (the bits from 56 up): one word, so that a reader sees a pair that
	// was in use.
	use     atomic.Uint64
	evicted atomic.Int64 // stores that replaced another key's entry since the last doubling (added a tick at a time)
	growing sync.Mutex   // held while doubling
	// shared says goroutines search at once: the entries are then written
	// with atomic stores, which wait for the entry's memory; one
	// goroutine alone writes them as any memory (an atomic load costs
	// nothing more than another, so entries are always read atomically).
	shared bool
}

// ttBucket is one cache line: five entries and 4 bytes of padding.
type ttBucket struct {
	data  [ttWays]uint64
	check [ttWays + 1]uint32
}

const (
	ttWays = 5
	// ttEntryBytes is the memory of one entry (a bucket of five is a
	// 64-byte cache line, with 4 bytes of padding).
	ttEntryBytes = 12
	ttBucketSize = 64
	// ttDoublings is the most times the buckets in use double.
	ttDoublings = 3
	// ttGrowAt: the buckets double when the stores that replaced another
	// key's entry reach 1/ttGrowAt of the entries in use.
	ttGrowAt = 32
	// ttMinStart is the fewest buckets in use at the start.
	ttMinStart = 1 << 14
	ttUseShift = 56
	ttUsedMask = 1<<48 - 1
	ttKeyBits  = 11
)

// newTTable returns a table of about the given number of entries (a
// whole number of buckets), for goroutines that search at once when
// shared. The memory of the buckets in use is written at once, and that
// of the others when they come in use.
func newTTable(entries int, shared bool) *ttable {
	n := ttBuckets(entries)
	t := &ttable{b: make([]ttBucket, n), shared: shared}
	adviseHugeSlice(t.b)
	start := n
	if n>>ttDoublings >= ttMinStart {
		start = n >> ttDoublings
	}
	t.use.Store(uint64(start))
	for i := 0; i < start; i += 4096 / ttBucketSize { // one word a page
		t.put32(&t.b[i].check[ttWays], 0)
	}
	return t
}

// ttBuckets is the number of buckets for a number of entries: at least
// 2^10, at most 2^32-1 (and the largest int on a 32-bit machine).
func ttBuckets(entries int) int {
	return int(min(max(int64(entries/ttWays), 1<<10), 1<<32-1, math.MaxInt))
}

// bytes is the table's memory.
func (t *ttable) bytes() int64 { return int64(len(t.b)) * ttBucketSize }

// entries is the number of entries the table holds.
func (t *ttable) entries() int { return len(t.b) * ttWays }

// inUse returns the buckets in use and the doublings done.
func (t *ttable) inUse() (int, int) {
	u := t.use.Load()
	return int(u & ttUsedMask), int(u >> ttUseShift)
}

// evictions adds n stores that replaced another key's entry and doubles
// the buckets in use when they are enough (see ttable).
func (t *ttable) evictions(n int64) {
	if n == 0 {
		return
	}
	used, _ := t.inUse()
	if t.evicted.Add(n) < int64(used)*ttWays/ttGrowAt || 2*used > len(t.b) {
		return
	}
	if !t.growing.TryLock() {
		return // another goroutine doubles it
	}
	defer t.growing.Unlock()
	used, g := t.inUse()
	if t.evicted.Load() < int64(used)*ttWays/ttGrowAt || 2*used > len(t.b) || g >= ttDoublings {
		return
	}
	// From the last bucket down: bucket i's entries go to 2i and 2i+1,
	// which hold nothing by then (buckets past the ones in use were never
	// written; those in use past i were emptied at their turn).
	const keyMask = (1<<ttKeyBits - 1) << ttKeyShift
	for i := used - 1; i >= 0; i-- {
		src := &t.b[i]
		var ds [ttWays]uint64
		var cs [ttWays]uint32
		for w := range ttWays {
			if ds[w] = atomic.LoadUint64(&src.data[w]); ds[w] != 0 { // a store costs: empty slots are left
				cs[w] = atomic.LoadUint32(&src.check[w])
				t.put64(&src.data[w], 0)
				t.put32(&src.check[w], 0)
			}
		}
		var next [2]int // each destination's next way
		for w, d := range ds {
			if d == 0 {
				continue
			}
			kb := d >> ttKeyShift
			half := int(kb >> (ttKeyBits - 1))
			nd := d&^keyMask | (kb<<1)&(1<<ttKeyBits-1)<<ttKeyShift
			dst := &t.b[2*i+half]
			t.put64(&dst.data[next[half]], nd)
			t.put32(&dst.check[next[half]], cs[w]^fold(d)^fold(nd))
			next[half]++
		}
	}
	t.evicted.Store(0)
	t.use.Store(uint64(2*used) | uint64(g+1)<<ttUseShift)
}

// put64 writes an entry's data word: atomically when the table is shared.
func (t *ttable) put64(p *uint64, v uint64) {
	if t.shared {
		atomic.StoreUint64(p, v)
	} else {
		*p = v
	}
}

// put32 writes an entry's check (put64).
func (t *ttable) put32(p *uint32, v uint32) {
	if t.shared {
		atomic.StoreUint32(p, v)
	} else {
		*p = v
	}
}

// ttEntry is what the table knows of a position.
type ttEntry struct {
	lo, hi score
	move   int // the best move's index; -1 when none is known
	depth  int // the depth searched; infDepth: exact
}

// Data layout: lo 16 bits, hi 16, move 8, depth 7, work 6, key 11.
const (
	ttMoveShift  = 32
	ttDepthShift = 40
	ttWorkShift  = 47
	ttKeyShift   = 53
	ttNoMove     = 255
)

// mix64 is a bijection of 64-bit keys that spreads them (the finalizer of
// MurmurHash3): distinct keys stay distinct.
func mix64(k uint64) uint64 {
	k ^= k >> 33
	k *= 0xff51afd7ed558ccd
	k ^= k >> 33
	k *= 0xc4ceb9fe1a85ec53
	k ^= k >> 33
	return k
}

func fold(d uint64) uint32 { return uint32(d) ^ uint32(d>>32) }

// place returns the bucket of a key, its 32-bit check, its 11 data bits
// and how many of their low bits are not compared (the doublings done).
func (t *ttable) place(key uint64) (*ttBucket, uint32, uint64, int) {
	m := mix64(key)
	u := t.use.Load()
	p := uint64(uint32(m)) * (u & ttUsedMask) // m's low half scaled to the buckets in use
	return &t.b[p>>32], uint32(m >> 32), uint64(uint32(p) >> (32 - ttKeyBits)), int(u >> ttUseShift)
}

// sameKey says whether the data d holds the key bits kb, but for the low
// g.
func sameKey(d, kb uint64, g int) bool { return (d>>ttKeyShift^kb)>>g == 0 }

// touch reads the bucket of key, so that a probe of it soon after finds
// it in the cache: touching the buckets of several keys first overlaps
// their misses. It returns the word it read (the caller keeps it, so that
// the read is not optimized away).
func (t *ttable) touch(key uint64) uint64 {
	p := uint64(uint32(mix64(key))) * (t.use.Load() & ttUsedMask) // as place
	return atomic.LoadUint64(&t.b[p>>32].data[0])
}

func (t *ttable) probe(key uint64) (ttEntry, bool) {
	b, c, kb, g := t.place(key)
	for w := range ttWays {
		d := atomic.LoadUint64(&b.data[w])
		if sameKey(d, kb, g) && atomic.LoadUint32(&b.check[w])^fold(d) == c {
			return unpackEntry(d), true
		}
	}
	return ttEntry{}, false
}

func unpackEntry(d uint64) ttEntry {
	e := ttEntry{lo: unpack(uint16(d)), hi: unpack(uint16(d >> 16)), move: int(uint8(d >> ttMoveShift)), depth: int(d>>ttDepthShift) & 0x7f}
	if e.move == ttNoMove {
		e.move = -1
	}
	return e
}

// store records the result of a search of key with window (alpha, beta)
// that returned v: an upper bound when v <= alpha, a lower bound when v >=
// beta, exact otherwise; move is the best move (-1: none), work the number
// of positions the search visited. Bounds known for the same depth are
// kept. The entry replaces the same key's, else the bucket's entry of
// least depth and work. It reports whether it replaced another key's.
func (t *ttable) store(key uint64, alpha, beta, v score, move, depth int, work int64) bool {
	lo, hi := minScore, maxScore
	switch {
	case v <= alpha:
		hi = v
	case v >= beta:
		lo = v
	default:
		lo, hi = v, v
	}
	return t.storeBounds(key, lo, hi, move, depth, work)
}

// storeBounds records bounds on key's score; it reports whether they
// replaced another key's entry.
func (t *ttable) storeBounds(key uint64, lo, hi score, move, depth int, work int64) bool {
	b, c, kb, g := t.place(key)
	victim, victimRank, same := 0, uint64(1<<63), false
	for w := range ttWays {
		d := atomic.LoadUint64(&b.data[w])
		if sameKey(d, kb, g) && atomic.LoadUint32(&b.check[w])^fold(d) == c {
			old := unpackEntry(d)
			if old.depth == depth {
				nlo, nhi := max(lo, old.lo), min(hi, old.hi)
				if nlo <= nhi {
					lo, hi = nlo, nhi
				}
				if move < 0 {
					move = old.move
				}
				work = max(work, 1<<((d>>ttWorkShift)&0x3f)-1)
			} else if old.depth > depth {
				return false // a deeper search's bounds are worth more
			}
			victim, same = w, true
			break
		}
		if r := ttRank(d); r < victimRank {
			victim, victimRank = w, r
		}
	}
	if move < 0 || move >= ttNoMove {
		move = ttNoMove
	}
	d := uint64(pack(lo)) | uint64(pack(hi))<<16 | uint64(move)<<ttMoveShift | uint64(depth)<<ttDepthShift |
		uint64(min(bits.Len64(uint64(work)), 63))<<ttWorkShift | kb<<ttKeyShift
	t.put64(&b.data[victim], d)
	t.put32(&b.check[victim], c^fold(d))
	return !same && victimRank != 0 // rank 0: an empty slot
}

// ttRank orders entries for replacement: empty slots first, then by the
// work their search took, exact ones (the only ones that stay useful
// after iterative deepening) last among equals.
func ttRank(d uint64) uint64 {
	if d == 0 {
		return 0
	}
	depth := (d >> ttDepthShift) & 0x7f
	r := (d>>ttWorkShift)&0x3f<<1 + 1
	if depth == infDepth {
		r++
	}
	return r
}

// Scores are packed in 16 bits: the result times 2^14 plus the margin,
// with the margin within +-8191; the packed extremes are the unbounded
// ends.
const (
	packUnit  = 1 << 14
	packLimit = packUnit/2 - 1
	packMin   = -32767
	packMax   = 32767
)

func pack(v score) uint16 {
	lowest, highest := int16(packMin), int16(packMax)
	switch {
	case v <= minScore:
		return uint16(lowest)
	case v >= maxScore:
		return uint16(highest)
	}
	m := min(max(v.margin(), -packLimit), packLimit)
	return uint16(int16(v.outcome()*packUnit + m))
}

func unpack(p uint16) score {
	v := int(int16(p))
	switch v {
	case packMin:
		return minScore
	case packMax:
		return maxScore
	}
	o := 0
	switch {
	case v > packUnit/2:
		o = 1
	case v < -packUnit/2:
		o = -1
	}
	return makeScore(o, v-o*packUnit)
}
