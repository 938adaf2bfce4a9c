package solve

import (
	"encoding/binary"
	"fmt"

	"github.com/matombo/matombo/host"
)

// banks describes where a game's counters go for good: the sites tagged
// "store" (docs/lua-api.md, m.tag) and the captured totals. The other
// sites are in play. The search engine uses them in games whose counters
// are conserved: the margin at the end is the banks' difference now plus
// what the counters still in play bring, and positions with few counters
// in play are valued once in endgame databases, whatever the banks hold.
// Each property is checked while a database is built, on every position
// it holds.
type banks struct {
	play   []int // sites in play
	store  []int // sites tagged "store"
	owner  []int // the player owning each store site
	total  int   // counters in the game
	sites  int
	layout encodingLayout
}

// encodingLayout splits a position's encoding (State.AppendPosition: the
// counts and owners of the sites, the captured totals, the hands, the
// position variables and the player to move) into the part a database
// varies and the part it keeps from the opening.
type encodingLayout struct {
	fixedMid []byte // owners, as in the opening
	fixedEnd []byte // hands and variables, as in the opening
}

// StoreTag is the tag of the sites that bank counters for good.
const StoreTag = "store"

// findBanks returns g's banks, or why the game has none the solver can
// use.
func findBanks(g *host.Game) (*banks, error) {
	if !g.Conserves() {
		return nil, fmt.Errorf("%s does not declare that it conserves its counters", g.Name())
	}
	if g.Players() != 2 {
		return nil, fmt.Errorf("%s has %d players", g.Name(), g.Players())
	}
	b := g.Board()
	s := g.Start()
	bk := &banks{sites: b.NumSites()}
	for i := 0; i < b.NumSites(); i++ {
		bk.total += s.Count(i)
		if b.HasTag(i, StoreTag) {
			o := s.Owner(i)
			if o < 1 || o > 2 {
				return nil, fmt.Errorf("store %s belongs to no player", b.Site(i).Name)
			}
			bk.store, bk.owner = append(bk.store, i), append(bk.owner, o)
		} else {
			bk.play = append(bk.play, i)
		}
	}
	for p := 1; p <= 2; p++ {
		bk.total += s.Captured(p) + s.Hand(p)
		if s.Hand(p) != 0 {
			return nil, fmt.Errorf("%s has counters in hand", g.Name())
		}
	}
	if len(bk.play) == 0 {
		return nil, fmt.Errorf("%s has no site in play", g.Name())
	}
	// Split the opening's encoding by the documented layout, and check it.
	enc := s.AppendPosition(nil)
	var vals []int64
	var ends []int
	for i := 0; i < len(enc); {
		v, n := binary.Varint(enc[i:])
		if n <= 0 {
			return nil, fmt.Errorf("the position encoding does not decode")
		}
		vals, i = append(vals, v), i+n
		ends = append(ends, i)
	}
	ns := bk.sites
	if len(vals) < 2*ns+4+1 {
		return nil, fmt.Errorf("the position encoding has %d values, fewer than the layout's", len(vals))
	}
	for i := 0; i < ns; i++ {
		if vals[i] != int64(s.Count(i)) || vals[ns+i] != int64(s.Owner(i)) {
			return nil, fmt.Errorf("the position encoding is not laid out as documented")
		}
	}
	if vals[2*ns] != int64(s.Captured(1)) || vals[2*ns+1] != int64(s.Captured(2)) || vals[len(vals)-1] != int64(s.ToMove()) {
		return nil, fmt.Errorf("the position encoding is not laid out as documented")
	}
	bk.layout.fixedMid = append([]byte(nil), enc[ends[ns-1]:ends[2*ns-1]]...)
	bk.layout.fixedEnd = append([]byte(nil), enc[ends[2*ns+1]:ends[len(ends)-2]]...)
	return bk, nil
}

// bankDiff is Player 1's banked counters minus Player 2's.
func (bk *banks) bankDiff(s *host.State) int {
	d := s.Captured(1) - s.Captured(2)
	for i, site := range bk.store {
		if bk.owner[i] == 1 {
			d += s.Count(site)
		} else {
			d -= s.Count(site)
		}
	}
	return d
}

// inPlay is the number of counters on the sites in play.
func (bk *banks) inPlay(s *host.State) int {
	n := 0
	for _, site := range bk.play {
		n += s.Count(site)
	}
	return n
}

// encode appends the encoding of the position with the given counts on
// the sites in play, the other counters banked by player banker, and
// player toMove to move; the rest as in the opening.
func (bk *banks) encode(dst []byte, counts []int, banker, toMove int) []byte {
	rest := bk.total
	for _, c := range counts {
		rest -= c
	}
	site := make([]int, bk.sites) // small: sites of a board
	for i, p := range bk.play {
		site[p] = counts[i]
	}
	captured := [2]int{}
	placed := false
	for i, s := range bk.store {
		if bk.owner[i] == banker {
			site[s], placed = rest, true
			break
		}
	}
	if !placed {
		captured[banker-1] = rest
	}
	for _, c := range site {
		dst = binary.AppendVarint(dst, int64(c))
	}
	dst = append(dst, bk.layout.fixedMid...)
	dst = binary.AppendVarint(dst, int64(captured[0]))
	dst = binary.AppendVarint(dst, int64(captured[1]))
	dst = append(dst, bk.layout.fixedEnd...)
	return binary.AppendVarint(dst, int64(toMove))
}

// fixedAsOpening reports whether s keeps the opening's owners, hands and
// variables, as the positions of a database do.
func (bk *banks) fixedAsOpening(s *host.State, buf []byte) bool {
	enc := s.AppendPosition(buf[:0])
	i := 0
	for n := 0; n < bk.sites; n++ { // skip the counts
		_, k := binary.Varint(enc[i:])
		if k <= 0 {
			return false
		}
		i += k
	}
	if len(enc) < i+len(bk.layout.fixedMid) || string(enc[i:i+len(bk.layout.fixedMid)]) != string(bk.layout.fixedMid) {
		return false
	}
	i += len(bk.layout.fixedMid)
	for n := 0; n < 2; n++ { // skip the captured totals
		_, k := binary.Varint(enc[i:])
		if k <= 0 {
			return false
		}
		i += k
	}
	return len(enc) >= i+len(bk.layout.fixedEnd) && string(enc[i:i+len(bk.layout.fixedEnd)]) == string(bk.layout.fixedEnd)
}
