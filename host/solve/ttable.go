package solve

import (
	"math/bits"
	"sync/atomic"
)

// ttable is a transposition table of fixed size shared by goroutines
// without locks. An entry takes 12 bytes, five to a 64-byte bucket (one
// cache line, so a probe costs one memory access): a 64-bit word of data
// (bounds on Player 1's score, the best move, the depth searched and the
// work the search took, and 11 bits of the key) and a 32-bit check, more
// of the key's bits xor a fold of the data. A reader that sees one
// writer's data and another's check, or another key's entry, rejects it
// unless 43 random bits match (Hyatt and Mann's lockless hashing). The
// bucket's index (from the low 32 bits of a mix of the key) and the two
// parts verify the key's 64 bits up to a chance of about 2^-43 divided by
// the buckets a probe.
type ttable struct {
	b []ttBucket
}

// ttBucket is one cache line: five entries and 4 bytes of padding.
type ttBucket struct {
	data  [ttWays]atomic.Uint64
	check [ttWays + 1]atomic.Uint32
}

const (
	ttWays = 5
	// ttEntryBytes is the memory of one entry (a bucket of five is a
	// 64-byte cache line, with 4 bytes of padding).
	ttEntryBytes = 12
	ttBucketSize = 64
)

// newTTable returns a table of about the given number of entries (a
// whole number of buckets). Its memory is written once, so that the table
// holds what it will hold from the start (the estimate of a solve counts
// all of it).
func newTTable(entries int) *ttable {
	n := ttBuckets(entries)
	t := &ttable{b: make([]ttBucket, n)}
	adviseHugeSlice(t.b)
	for i := 0; i < n; i += 4096 / ttBucketSize { // one word a page
		t.b[i].check[ttWays].Store(0)
	}
	return t
}

// ttBuckets is the number of buckets for a number of entries: at least
// 2^10, at most 2^32-1.
func ttBuckets(entries int) int {
	return min(max(entries/ttWays, 1<<10), 1<<32-1)
}

// bytes is the table's memory.
func (t *ttable) bytes() int64 { return int64(len(t.b)) * ttBucketSize }

// entries is the number of entries the table holds.
func (t *ttable) entries() int { return len(t.b) * ttWays }

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

// place returns the bucket of a key, its 32-bit check and its 11 data
// bits.
func (t *ttable) place(key uint64) (*ttBucket, uint32, uint64) {
	m := mix64(key)
	i := uint64(uint32(m)) * uint64(len(t.b)) >> 32 // m's low half scaled to the buckets
	return &t.b[i], uint32(m >> 32), (m >> 21) & 0x7ff
}

// touch reads the bucket of key, so that a probe of it soon after finds
// it in the cache: touching the buckets of several keys first overlaps
// their misses. It returns the word it read (the caller keeps it, so that
// the read is not optimized away).
func (t *ttable) touch(key uint64) uint64 {
	b, _, _ := t.place(key)
	return b.data[0].Load()
}

func (t *ttable) probe(key uint64) (ttEntry, bool) {
	b, c, kb := t.place(key)
	for w := range ttWays {
		d := b.data[w].Load()
		if d>>ttKeyShift == kb && b.check[w].Load()^fold(d) == c {
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
// least depth and work.
func (t *ttable) store(key uint64, alpha, beta, v score, move, depth int, work int64) {
	lo, hi := minScore, maxScore
	switch {
	case v <= alpha:
		hi = v
	case v >= beta:
		lo = v
	default:
		lo, hi = v, v
	}
	t.storeBounds(key, lo, hi, move, depth, work)
}

// storeBounds records bounds on key's score.
func (t *ttable) storeBounds(key uint64, lo, hi score, move, depth int, work int64) {
	b, c, kb := t.place(key)
	victim, victimRank := 0, uint64(1<<63)
	for w := range ttWays {
		d := b.data[w].Load()
		if d>>ttKeyShift == kb && b.check[w].Load()^fold(d) == c {
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
				return // a deeper search's bounds are worth more
			}
			victim = w
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
	b.data[victim].Store(d)
	b.check[victim].Store(c ^ fold(d))
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
