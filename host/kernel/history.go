package kernel

// histChunk is the number of position keys in one chunk of history.
const histChunk = 64

// History is the list of position keys of a game, oldest first, for
// repetition rules. Full chunks are immutable and shared between copies of
// a state; the latest keys (the tail) belong to one state, so copying a
// history copies at most histChunk keys and appending never allocates
// except once per histChunk keys.
//
// Counting a key, which the host does after every decision of a game with
// a repetition rule, reads few keys: that decision's key is the latest, so
// a small filter of the tail's other keys says when the key cannot be
// among them, a Bloom filter per chunk skips most chunks, and a chunk that
// may hold the key finds it by a hash index.
type History struct {
	tail     []uint64  // owned by this state; len <= histChunk
	tailBits [4]uint64 // bit k>>56 of every key in the tail but the latest
	older    *keyChunk
}

// keyChunk is a full chunk of keys with a small Bloom filter of them and
// an index by their low bits.
type keyChunk struct {
	keys  [histChunk]uint64
	bloom [8]uint64            // bit k>>55 of every key
	index [2 * histChunk]uint8 // open addressing from slot k&127: 1 + the key's place in keys, 0 for none
	prev  *keyChunk
}

func bloomBit(k uint64) (word int, bit uint64) {
	b := k >> 55
	return int(b >> 6), 1 << (b & 63)
}

func tailBit(k uint64) (word int, bit uint64) {
	b := k >> 56
	return int(b >> 6), 1 << (b & 63)
}

const indexMask = 2*histChunk - 1

// seal makes a chunk of the keys: its Bloom filter and its index.
func seal(keys []uint64, prev *keyChunk) *keyChunk {
	c := &keyChunk{prev: prev}
	copy(c.keys[:], keys)
	for i, x := range c.keys {
		w, b := bloomBit(x)
		c.bloom[w] |= b
		j := x & indexMask
		for c.index[j] != 0 {
			j = (j + 1) & indexMask
		}
		c.index[j] = uint8(i + 1)
	}
	return c
}

// count returns how many times k occurs in the chunk.
func (c *keyChunk) count(k uint64) int {
	n := 0
	for j := k & indexMask; ; j = (j + 1) & indexMask {
		x := c.index[j]
		if x == 0 {
			return n
		}
		if c.keys[x-1] == k {
			n++
		}
	}
}

// CopyFrom makes h a copy of src, reusing h's tail buffer; a new buffer is
// only as large as the keys it copies, so a copy that never moves on
// costs little.
func (h *History) CopyFrom(src *History) {
	h.tail = append(h.tail[:0], src.tail...)
	h.tailBits = src.tailBits
	h.older = src.older
}

// Push appends key k.
func (h *History) Push(k uint64) {
	if len(h.tail) == histChunk {
		h.older = seal(h.tail, h.older)
		h.tail = h.tail[:0]
		h.tailBits = [4]uint64{}
	} else if len(h.tail) > 0 {
		w, b := tailBit(h.tail[len(h.tail)-1])
		h.tailBits[w] |= b
	}
	h.tail = append(h.tail, k)
}

// Pop removes the latest key.
func (h *History) Pop() {
	if len(h.tail) > 0 {
		h.tail = h.tail[:len(h.tail)-1]
	} else if h.older != nil {
		h.tail = append(h.tail[:0], h.older.keys[:histChunk-1]...)
		h.older = h.older.prev
	}
	h.tailBits = [4]uint64{}
	for i := 0; i < len(h.tail)-1; i++ {
		w, b := tailBit(h.tail[i])
		h.tailBits[w] |= b
	}
}

// Reset empties the history.
func (h *History) Reset() {
	h.tail = h.tail[:0]
	h.tailBits = [4]uint64{}
	h.older = nil
}

// Count returns how many times k occurs.
func (h *History) Count(k uint64) int {
	n := 0
	if last := len(h.tail) - 1; last >= 0 {
		if h.tail[last] == k {
			n++
		}
		if w, b := tailBit(k); h.tailBits[w]&b != 0 {
			for _, x := range h.tail[:last] {
				if x == k {
					n++
				}
			}
		}
	}
	w, b := bloomBit(k)
	for c := h.older; c != nil; c = c.prev {
		if c.bloom[w]&b != 0 {
			n += c.count(k)
		}
	}
	return n
}

// Len returns the number of keys.
func (h *History) Len() int {
	n := len(h.tail)
	for c := h.older; c != nil; c = c.prev {
		n += histChunk
	}
	return n
}

// AppendKeys appends the keys, oldest first, to dst.
func (h *History) AppendKeys(dst []uint64) []uint64 {
	var chunks []*keyChunk
	for c := h.older; c != nil; c = c.prev {
		chunks = append(chunks, c)
	}
	for i := len(chunks) - 1; i >= 0; i-- {
		dst = append(dst, chunks[i].keys[:]...)
	}
	return append(dst, h.tail...)
}
