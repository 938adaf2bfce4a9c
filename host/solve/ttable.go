package solve

import (
	"sync/atomic"
)

// ttable is a transposition table of fixed size shared by goroutines
// without locks: an entry is two words, the data and the key xor the data,
// so a torn entry does not match its key (Hyatt and Mann's lockless
// hashing). Entries hold bounds on Player 1's score, the best move and the
// depth searched (infDepth: exact); buckets of two keep the deeper entry
// and the newest.
type ttable struct {
	w    []atomic.Uint64
	mask uint64
}

// ttEntryBytes is the memory of one entry.
const ttEntryBytes = 16

// newTTable returns a table of entries (a power of two). Its memory is
// written once, so that the table holds what it will hold from the start
// (the estimate of a solve counts all of it).
func newTTable(entries int) *ttable {
	t := &ttable{w: make([]atomic.Uint64, 2*entries), mask: uint64(entries-1) &^ 1}
	for i := 0; i < len(t.w); i += 512 { // one word a page
		t.w[i].Store(0)
	}
	return t
}

type ttEntry struct {
	lo, hi score
	move   uint8
	depth  uint8
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

func (t *ttable) probe(key uint64) (ttEntry, bool) {
	i := key & t.mask
	for b := uint64(0); b < 2; b++ {
		j := 2 * ((i + b) & (t.mask | 1))
		data := t.w[j+1].Load()
		if t.w[j].Load()^data == key {
			return ttEntry{lo: unpack(uint16(data)), hi: unpack(uint16(data >> 16)), move: uint8(data >> 32), depth: uint8(data >> 40)}, true
		}
	}
	return ttEntry{}, false
}

// store records the result of a search of key with window (alpha, beta)
// that returned v: an upper bound when v <= alpha, a lower bound when
// v >= beta, exact otherwise. Bounds known for the same depth are kept.
func (t *ttable) store(key uint64, alpha, beta, v score, move, depth int) {
	lo, hi := minScore, maxScore
	switch {
	case v <= alpha:
		hi = v
	case v >= beta:
		lo = v
	default:
		lo, hi = v, v
	}
	if old, ok := t.probe(key); ok && int(old.depth) == depth {
		lo, hi = max(lo, old.lo), min(hi, old.hi)
		if lo > hi { // inconsistent: keep the newest
			lo, hi = v, v
			if v <= alpha {
				lo = minScore
			} else if v >= beta {
				hi = maxScore
			}
		}
		if move < 0 {
			move = int(old.move)
		}
	}
	if move < 0 {
		move = 255
	}
	data := uint64(pack(lo)) | uint64(pack(hi))<<16 | uint64(uint8(move))<<32 | uint64(uint8(depth))<<40
	i := key & t.mask
	// The slot of the same key, else the shallower of the bucket.
	j0, j1 := 2*(i&(t.mask|1)), 2*((i+1)&(t.mask|1))
	j := j0
	switch {
	case t.w[j0].Load()^t.w[j0+1].Load() == key:
	case t.w[j1].Load()^t.w[j1+1].Load() == key:
		j = j1
	case uint8(t.w[j1+1].Load()>>40) < uint8(t.w[j0+1].Load()>>40):
		j = j1
	}
	t.w[j+1].Store(data)
	t.w[j].Store(key ^ data)
}
