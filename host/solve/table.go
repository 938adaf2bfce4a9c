package solve

import (
	"hash/maphash"
)

// posTable is a set of positions with dense ids 0, 1, 2...: their keys,
// all of one width, stored back to back in chunks (no pointer or header
// per key, no copy when it grows), and an open-addressing index of ids
// split in shards, so that growing one shard briefly holds two copies of
// a 256th of the index, not of all of it. It takes the key's width plus
// about 6 bytes a position, where a Go map of strings takes about 60.
type posTable struct {
	width  int
	chunks [][]byte // chunk c holds the keys of ids [c<<chunkBits, (c+1)<<chunkBits)
	shards [shardCount]shard
	n      int
	seed   maphash.Seed
}

type shard struct {
	slots []uint32 // id+1 of the key hashed there; 0: empty
	n     int
}

const (
	chunkBits  = 16
	chunkLen   = 1 << chunkBits
	shardBits  = 8
	shardCount = 1 << shardBits
	// maxLoad is the share of a shard's slots that may be full before it
	// grows.
	maxLoad = 0.8
)

// newPosTable returns an empty table for keys of the given width.
func newPosTable(width, hint int) *posTable {
	t := &posTable{width: width, seed: maphash.MakeSeed()}
	for i := range t.shards {
		t.shards[i].slots = make([]uint32, slotsFor(hint/shardCount))
	}
	return t
}

func slotsFor(n int) int { return max(8, int(float64(n)/maxLoad)+1) }

// Len is the number of positions.
func (t *posTable) Len() int { return t.n }

// key returns the key of id.
func (t *posTable) key(id int32) []byte {
	c := t.chunks[id>>chunkBits]
	i := int(id&(chunkLen-1)) * t.width
	return c[i : i+t.width : i+t.width]
}

// place returns the shard and the first slot a key of hash h probes.
func (t *posTable) place(h uint64) (*shard, int) {
	sh := &t.shards[h>>(64-shardBits)]
	return sh, int(uint64(uint32(h)) * uint64(len(sh.slots)) >> 32)
}

func (t *posTable) hash(key []byte) uint64 { return maphash.Bytes(t.seed, key) }

// find returns the id of key (of the table's width).
func (t *posTable) find(key []byte) (int32, bool) {
	sh, i := t.place(t.hash(key))
	for {
		s := sh.slots[i]
		if s == 0 {
			return 0, false
		}
		if string(t.key(int32(s-1))) == string(key) {
			return int32(s - 1), true
		}
		if i++; i == len(sh.slots) {
			i = 0
		}
	}
}

// insert returns the id of key (of the table's width), adding it when it
// is new.
func (t *posTable) insert(key []byte) (id int32, added bool) {
	sh, i := t.place(t.hash(key))
	for {
		s := sh.slots[i]
		if s == 0 {
			break
		}
		if string(t.key(int32(s-1))) == string(key) {
			return int32(s - 1), false
		}
		if i++; i == len(sh.slots) {
			i = 0
		}
	}
	id = int32(t.n)
	if int(id)>>chunkBits == len(t.chunks) {
		t.chunks = append(t.chunks, make([]byte, 0, min(chunkLen, max(1024, t.n))*t.width))
	}
	c := &t.chunks[id>>chunkBits]
	*c = append(*c, key...)
	t.n++
	sh.slots[i] = uint32(id) + 1
	if sh.n++; float64(sh.n) > maxLoad*float64(len(sh.slots)) {
		t.rehash(sh, len(sh.slots)+len(sh.slots)/2)
	}
	return id, true
}

// rehash rebuilds a shard's index with n slots.
func (t *posTable) rehash(sh *shard, n int) {
	old := sh.slots
	sh.slots = make([]uint32, n)
	for _, s := range old {
		if s == 0 {
			continue
		}
		_, i := t.place(t.hash(t.key(int32(s - 1))))
		for sh.slots[i] != 0 {
			if i++; i == len(sh.slots) {
				i = 0
			}
		}
		sh.slots[i] = s
	}
}

// widen pads every key with zero bytes to width w (> t.width).
func (t *posTable) widen(w int) {
	old, ow := t.chunks, t.width
	t.chunks, t.width = nil, w
	for c, chunk := range old {
		nc := make([]byte, 0, chunkLen*w)
		for i := 0; i < len(chunk); i += ow {
			nc = append(nc, chunk[i:i+ow]...)
			for range w - ow {
				nc = append(nc, 0)
			}
		}
		t.chunks = append(t.chunks, nc)
		old[c] = nil
	}
	for i := range t.shards {
		clear(t.shards[i].slots)
		t.shards[i].n = 0
	}
	// The hashes changed: every key goes to its new shard.
	for id := 0; id < t.n; id++ {
		k := t.key(int32(id))
		sh, i := t.place(t.hash(k))
		for sh.slots[i] != 0 {
			if i++; i == len(sh.slots) {
				i = 0
			}
		}
		sh.slots[i] = uint32(id) + 1
		if sh.n++; float64(sh.n) > maxLoad*float64(len(sh.slots)) {
			t.rehash(sh, len(sh.slots)+len(sh.slots)/2)
		}
	}
}

// bytes is the memory the table holds.
func (t *posTable) bytes() int64 {
	var b int64
	for _, c := range t.chunks {
		b += int64(cap(c))
	}
	for i := range t.shards {
		b += 4 * int64(len(t.shards[i].slots))
	}
	return b
}

// chunked is a growable array in chunks that are never copied.
type chunked[T any] struct{ c [][]T }

func (a *chunked[T]) append(v T) {
	if n := len(a.c); n == 0 || len(a.c[n-1]) == chunkLen {
		a.c = append(a.c, make([]T, 0, chunkLen))
	}
	last := &a.c[len(a.c)-1]
	*last = append(*last, v)
}

func (a *chunked[T]) at(i int32) *T { return &a.c[i>>chunkBits][i&(chunkLen-1)] }

func (a *chunked[T]) get(i int32) T { return a.c[i>>chunkBits][i&(chunkLen-1)] }

func (a *chunked[T]) len() int {
	if len(a.c) == 0 {
		return 0
	}
	return (len(a.c)-1)*chunkLen + len(a.c[len(a.c)-1])
}

func (a *chunked[T]) capBytes(size int) int64 { return int64(len(a.c)) * chunkLen * int64(size) }
