package solve

import (
	"encoding/binary"
	"fmt"
	"sort"

	"github.com/matombo/matombo/host"
)

// codec turns a state's position into a compact byte string and back. A
// position is what the repetition rules compare: the counts and owners of
// the sites, the captured totals, the hands, the script's variables and the
// player to move; not the ply count, the history or the result.
//
// It is the one place that knows how positions are encoded, so that the
// host's own exact encoding can replace it without touching the solver.
type codec struct {
	g    *host.Game
	vars []string // the script's variables, sorted by name
}

// newCodec returns the codec of g; the variable names come from the
// opening's position.
func newCodec(g *host.Game) codec {
	pos := g.Start().Position()
	names := make([]string, 0, len(pos.Vars))
	for name := range pos.Vars {
		names = append(names, name)
	}
	sort.Strings(names)
	return codec{g: g, vars: names}
}

// encode appends the encoding of s's position to dst.
func (c codec) encode(dst []byte, s *host.State) []byte {
	pos := s.Position()
	for _, n := range pos.Counts {
		dst = binary.AppendVarint(dst, int64(n))
	}
	for _, n := range pos.Owners {
		dst = binary.AppendUvarint(dst, uint64(n))
	}
	for _, n := range pos.Captured {
		dst = binary.AppendVarint(dst, int64(n))
	}
	for _, n := range pos.Hand {
		dst = binary.AppendVarint(dst, int64(n))
	}
	for _, name := range c.vars {
		dst = binary.AppendVarint(dst, int64(pos.Vars[name]))
	}
	return binary.AppendUvarint(dst, uint64(pos.ToMove))
}

// decode returns a fresh state at the encoded position; its history holds
// only that position.
func (c codec) decode(enc []byte) (*host.State, error) {
	sites, players := c.g.Board().NumSites(), c.g.Players()
	pos := host.Position{
		Counts: make([]int, sites), Owners: make([]int, sites),
		Captured: make([]int, players), Hand: make([]int, players),
		Vars: make(map[string]int, len(c.vars)),
	}
	r := reader{b: enc}
	for i := range pos.Counts {
		pos.Counts[i] = int(r.varint())
	}
	for i := range pos.Owners {
		pos.Owners[i] = int(r.uvarint())
	}
	for i := range pos.Captured {
		pos.Captured[i] = int(r.varint())
	}
	for i := range pos.Hand {
		pos.Hand[i] = int(r.varint())
	}
	for _, name := range c.vars {
		pos.Vars[name] = int(r.varint())
	}
	pos.ToMove = int(r.uvarint())
	if r.bad || len(r.b) != 0 {
		return nil, fmt.Errorf("decode position: %d bytes do not encode a position of %s", len(enc), c.g.Name())
	}
	return c.g.NewState(pos)
}

// reader reads varints from a byte slice and remembers a failure.
type reader struct {
	b   []byte
	bad bool
}

func (r *reader) varint() int64 {
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.bad = true
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.bad = true
		return 0
	}
	r.b = r.b[n:]
	return v
}
