package solve

import (
	"hash/maphash"
)

// posTable is a set of positions with dense ids 0, 1, 2...: their keys,
// all of one width, stored back to back (no pointer, no header per key),
// and an open-addressing index of ids. It takes the key's width plus about
// 5 bytes a position, where a Go map of strings takes about 60.
type posTable struct {
	width int      // bytes a key
	keys  []byte   // key of id i at [i*width, (i+1)*width)
	slots []uint32 // id+1 of the key hashed there; 0: empty
	n     int
	seed  maphash.Seed
}

// maxLoad is the share of slots that may be full before the index grows.
const maxLoad = 0.8

// newPosTable returns an empty table for keys of the given width, sized
// for about hint positions.
func newPosTable(width, hint int) *posTable {
	t := &posTable{width: width, seed: maphash.MakeSeed()}
	t.keys = make([]byte, 0, max(hint, 16)*width)
	t.slots = make([]uint32, slotsFor(hint))
	return t
}

func slotsFor(n int) int { return max(16, int(float64(n)/maxLoad)+1) }

// Len is the number of positions.
func (t *posTable) Len() int { return t.n }

// key returns the key of id; it is valid until the next insertion.
func (t *posTable) key(id int32) []byte {
	i := int(id) * t.width
	return t.keys[i : i+t.width : i+t.width]
}

// home is the first slot a key of hash h probes.
func (t *posTable) home(h uint64) int {
	return int((h >> 32) * uint64(len(t.slots)) >> 32)
}

func (t *posTable) hash(key []byte) uint64 { return maphash.Bytes(t.seed, key) }

// find returns the id of key (of the table's width).
func (t *posTable) find(key []byte) (int32, bool) {
	i := t.home(t.hash(key))
	for {
		s := t.slots[i]
		if s == 0 {
			return 0, false
		}
		if string(t.key(int32(s-1))) == string(key) {
			return int32(s - 1), true
		}
		if i++; i == len(t.slots) {
			i = 0
		}
	}
}

// insert returns the id of key (of the table's width), adding it when it
// is new.
func (t *posTable) insert(key []byte) (id int32, added bool) {
	h := t.hash(key)
	i := t.home(h)
	for {
		s := t.slots[i]
		if s == 0 {
			break
		}
		if string(t.key(int32(s-1))) == string(key) {
			return int32(s - 1), false
		}
		if i++; i == len(t.slots) {
			i = 0
		}
	}
	id = int32(t.n)
	t.keys = append(t.keys, key...)
	t.n++
	t.slots[i] = uint32(id) + 1
	if float64(t.n) > maxLoad*float64(len(t.slots)) {
		t.rehash(len(t.slots) + len(t.slots)/2)
	}
	return id, true
}

// rehash rebuilds the index with n slots.
func (t *posTable) rehash(n int) {
	t.slots = make([]uint32, n)
	for id := 0; id < t.n; id++ {
		i := t.home(t.hash(t.key(int32(id))))
		for t.slots[i] != 0 {
			if i++; i == len(t.slots) {
				i = 0
			}
		}
		t.slots[i] = uint32(id) + 1
	}
}

// widen pads every key with zero bytes to width w (> t.width).
func (t *posTable) widen(w int) {
	keys := make([]byte, t.n*w, max(cap(t.keys)/t.width, t.n)*w)
	for id := 0; id < t.n; id++ {
		copy(keys[id*w:], t.keys[id*t.width:(id+1)*t.width])
	}
	t.keys, t.width = keys, w
	t.rehash(len(t.slots))
}

// bytes is the memory the table holds.
func (t *posTable) bytes() int64 { return int64(cap(t.keys)) + 4*int64(len(t.slots)) }
