package host

// histChunk is the number of position keys in one chunk of history.
const histChunk = 64

// history is the list of position keys of a game, oldest first, for
// repetition rules. Full chunks are immutable and shared between copies of
// a state; the latest keys (the tail) belong to one state, so copying a
// history copies at most histChunk keys and appending never allocates
// except once per histChunk keys.
type history struct {
	tail  []uint64 // owned by this state; len <= histChunk
	older *keyChunk
}

// keyChunk is a full chunk of keys with a small Bloom filter of them, so
// that counting a key skips most chunks without reading their keys.
type keyChunk struct {
	keys  [histChunk]uint64
	bloom [8]uint64 // bit k>>55 of every key
	prev  *keyChunk
}

func bloomBit(k uint64) (word int, bit uint64) {
	b := k >> 55
	return int(b >> 6), 1 << (b & 63)
}

// copyFrom makes h a copy of src, reusing h's tail buffer; a new buffer is
// only as large as the keys it copies, so a copy that never moves on
// costs little.
func (h *history) copyFrom(src *history) {
	h.tail = append(h.tail[:0], src.tail...)
	h.older = src.older
}

func (h *history) push(k uint64) {
	if len(h.tail) == histChunk {
		c := &keyChunk{prev: h.older}
		copy(c.keys[:], h.tail)
		for _, x := range h.tail {
			w, b := bloomBit(x)
			c.bloom[w] |= b
		}
		h.older = c
		h.tail = h.tail[:0]
	}
	h.tail = append(h.tail, k)
}

// pop removes the latest key.
func (h *history) pop() {
	if len(h.tail) > 0 {
		h.tail = h.tail[:len(h.tail)-1]
		return
	}
	if h.older != nil {
		h.tail = append(h.tail[:0], h.older.keys[:histChunk-1]...)
		h.older = h.older.prev
	}
}

// reset empties the history.
func (h *history) reset() {
	h.tail = h.tail[:0]
	h.older = nil
}

// count returns how many times k occurs.
func (h *history) count(k uint64) int {
	n := 0
	for _, x := range h.tail {
		if x == k {
			n++
		}
	}
	w, b := bloomBit(k)
	for c := h.older; c != nil; c = c.prev {
		if c.bloom[w]&b == 0 {
			continue
		}
		for _, x := range &c.keys {
			if x == k {
				n++
			}
		}
	}
	return n
}

// len returns the number of keys.
func (h *history) len() int {
	n := len(h.tail)
	for c := h.older; c != nil; c = c.prev {
		n += histChunk
	}
	return n
}

// appendKeys appends the keys, oldest first, to dst.
func (h *history) appendKeys(dst []uint64) []uint64 {
	var chunks []*keyChunk
	for c := h.older; c != nil; c = c.prev {
		chunks = append(chunks, c)
	}
	for i := len(chunks) - 1; i >= 0; i-- {
		dst = append(dst, chunks[i].keys[:]...)
	}
	return append(dst, h.tail...)
}
