package solve

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/matombo/matombo/host"
)

// banks describes where a game's counters go for good: the sites tagged
// "store" (docs/lua-api.md, m.tag) and the captured totals. The other
// sites are in play. The search engine uses them in games whose counters
// are conserved: the margin at the end is the banks' difference now plus
// what the counters still in play bring, and positions with few counters
// in play are valued once in endgame databases, whatever the banks hold.
// Each property is checked while a database is built: the margin on
// every game a move of its positions ends, the independence from the
// banks on a sample of its positions valued again with other banks
// (every position of a small layer, see checkDue): a game whose moves
// read the banks in only a few positions can escape the sample.
type banks struct {
	play  []int // sites in play
	store []int // sites tagged "store"
	owner []int // the player owning each store site
	// bank[p-1] is Player p's bank in the positions a database sets up:
	// their first store, or -1 when they own none (their captured total).
	bank   [2]int
	total  int // counters in the game
	sites  int
	layout encodingLayout

	owners []int // the owner of each site in the opening
	// open reads the opening's values in place (its state is kept for
	// it): a database's positions keep its owners, hands and variables.
	open host.PositionView

	// own[p-1][i] reports whether play site i belongs to player p in the
	// opening (the share a database's values are stored around).
	own [2][]bool
	// mirror, when the board has one, maps play site i to the play site
	// that plays Player 2's part where i plays Player 1's, and back: a
	// position with Player 2 to move is worth, for the mover, what its
	// mirror image with Player 1 to move is worth. Databases hold one side
	// to move and derive the other; building them checks the mirror.
	mirror []int
}

// encodingLayout splits a position's encoding (State.AppendPosition: the
// counts and owners of the sites, the captured totals, the hands, the
// position variables and the player to move) into the part a database
// varies and the part it keeps from the opening.
type encodingLayout struct {
	fixedMid     []byte // owners, as in the opening
	fixedEnd     []byte // hands and variables, as in the opening
	fixedEndVals []int  // their values
	vars         int    // position variables
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
	bk := &banks{sites: b.NumSites(), open: s.PositionView()}
	for i := 0; i < b.NumSites(); i++ {
		bk.total += s.Count(i)
		bk.owners = append(bk.owners, s.Owner(i))
		if b.HasTag(i, StoreTag) {
			o := s.Owner(i)
			if o < 1 || o > 2 {
				return nil, fmt.Errorf("store %s belongs to no player", b.Site(i).Name)
			}
			bk.store, bk.owner = append(bk.store, i), append(bk.owner, o)
		} else {
			bk.play = append(bk.play, i)
			bk.own[0] = append(bk.own[0], s.Owner(i) == 1)
			bk.own[1] = append(bk.own[1], s.Owner(i) == 2)
		}
	}
	bk.bank = [2]int{-1, -1}
	for i := len(bk.store) - 1; i >= 0; i-- {
		bk.bank[bk.owner[i]-1] = bk.store[i]
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
	for _, v := range vals[2*ns+2 : len(vals)-1] {
		bk.layout.fixedEndVals = append(bk.layout.fixedEndVals, int(v))
	}
	bk.layout.vars = len(vals) - (2*ns + 2 + 2 + 1)
	bk.mirror = findMirror(g, bk)
	return bk, nil
}

// findMirror looks for a symmetry of the board that swaps the players: a
// permutation of the sites, its own inverse, that maps each player's sites
// to the other's, stores to stores, and the opening to itself, taken from
// the tracks (one track's sites onto another's of the same length, place
// by place, or a loop onto itself half way round). It returns the map of
// the sites in play, or nil. Whether the rules respect it is checked while
// a database is built. A game with position variables gets none (what a
// variable means for each player is the script's).
func findMirror(g *host.Game, bk *banks) []int {
	if bk.layout.vars != 0 {
		return nil
	}
	b := g.Board()
	s := g.Start()
	if s.Captured(1) != s.Captured(2) {
		return nil
	}
	n := b.NumSites()
	try := func(sigma []int) []int {
		// Complete it as an involution, then check it.
		for i, j := range sigma {
			if j >= 0 && sigma[j] < 0 {
				sigma[j] = i
			}
		}
		for i, j := range sigma {
			if j < 0 || sigma[j] != i {
				return nil
			}
			oi, oj := s.Owner(i), s.Owner(j)
			if (oi == 0) != (oj == 0) || (oi != 0 && oi == oj) || s.Count(i) != s.Count(j) || b.HasTag(i, StoreTag) != b.HasTag(j, StoreTag) {
				return nil
			}
		}
		idx := make([]int, n)
		for i := range idx {
			idx[i] = -1
		}
		for i, site := range bk.play {
			idx[site] = i
		}
		out := make([]int, len(bk.play))
		for i, site := range bk.play {
			if idx[sigma[site]] < 0 {
				return nil
			}
			out[i] = idx[sigma[site]]
		}
		return out
	}
	tracks := b.Tracks()
	fresh := func() []int {
		sigma := make([]int, n)
		for i := range sigma {
			sigma[i] = -1
		}
		return sigma
	}
	place := func(sigma []int, from, to int) bool {
		if sigma[from] >= 0 && sigma[from] != to {
			return false
		}
		sigma[from] = to
		return true
	}
	for ti, t := range tracks {
		for ui, u := range tracks {
			if ti == ui || len(t.Sites) != len(u.Sites) {
				continue
			}
			sigma, ok := fresh(), true
			for k := range t.Sites {
				ok = ok && place(sigma, t.Sites[k], u.Sites[k])
			}
			if ok {
				if m := try(sigma); m != nil {
					return m
				}
			}
		}
		if t.Loop && len(t.Sites)%2 == 0 {
			sigma, ok, h := fresh(), true, len(t.Sites)/2
			for k := range t.Sites {
				ok = ok && place(sigma, t.Sites[k], t.Sites[(k+h)%len(t.Sites)])
			}
			if ok {
				if m := try(sigma); m != nil {
					return m
				}
			}
		}
	}
	return nil
}

// bankDiff is Player 1's banked counters minus Player 2's, read from the
// view of a position's values.
func (bk *banks) bankDiff(v host.PositionView) int {
	d := v.Value(2*bk.sites) - v.Value(2*bk.sites+1)
	for i, site := range bk.store {
		if bk.owner[i] == 1 {
			d += v.Value(site)
		} else {
			d -= v.Value(site)
		}
	}
	return d
}

// fixedIn reports whether the position of the view keeps the opening's
// owners, hands and variables: its values after the captured totals, all
// but the player to move.
func (bk *banks) fixedIn(v host.PositionView) bool {
	n, open := bk.sites, bk.open
	return v.Len() == open.Len() && v.Same(open, n, 2*n) && v.Same(open, 2*n+2, v.Len()-1)
}

// readCounts sets counts to the counters on the sites in play of the
// view of a position's values and returns their sum.
func (bk *banks) readCounts(v host.PositionView, counts []int) int {
	j := 0
	for i, site := range bk.play {
		c := v.Value(site)
		counts[i] = c
		j += c
	}
	return j
}

// encode appends the encoding of the position with the given counts on
// the sites in play, the other counters banked by player banker, and
// player toMove to move; the rest as in the opening.
func (bk *banks) encode(dst []byte, counts []int, banker, toMove int) []byte {
	rest := bk.total
	for _, c := range counts {
		rest -= c
	}
	var site [256]int // a board has few sites
	sites := site[:0]
	if bk.sites <= len(site) {
		sites = site[:bk.sites]
	} else {
		sites = make([]int, bk.sites)
	}
	for i, p := range bk.play {
		sites[p] = counts[i]
	}
	var captured [2]int
	for p, a := range bankAmounts(rest, banker) {
		if s := bk.bank[p]; s >= 0 {
			sites[s] = a
		} else {
			captured[p] = a
		}
	}
	for _, c := range sites {
		dst = binary.AppendVarint(dst, int64(c))
	}
	dst = append(dst, bk.layout.fixedMid...)
	dst = binary.AppendVarint(dst, int64(captured[0]))
	dst = binary.AppendVarint(dst, int64(captured[1]))
	dst = append(dst, bk.layout.fixedEnd...)
	return binary.AppendVarint(dst, int64(toMove))
}

// values appends the values (State.AppendPositionValues) of the
// position encode encodes.
func (bk *banks) values(dst []int, counts []int, banker, toMove int) []int {
	rest := bk.total
	for _, c := range counts {
		rest -= c
	}
	start := len(dst)
	dst = slices.Grow(dst, 2*bk.sites+len(bk.layout.fixedEndVals)+3)
	dst = dst[:start+bk.sites]
	clear(dst[start:])
	for i, p := range bk.play {
		dst[start+p] = counts[i]
	}
	var captured [2]int
	for p, a := range bankAmounts(rest, banker) {
		if s := bk.bank[p]; s >= 0 {
			dst[start+s] = a
		} else {
			captured[p] = a
		}
	}
	dst = append(dst, bk.owners...)
	dst = append(dst, captured[0], captured[1])
	dst = append(dst, bk.layout.fixedEndVals...)
	return append(dst, toMove)
}

// setValues makes vals, values made by values, those of the position
// with the given counts, banker and toMove: it writes only the counts of
// the sites in play, the banks and the player to move.
func (bk *banks) setValues(vals []int, counts []int, banker, toMove int) {
	rest := bk.total
	for i, p := range bk.play {
		c := counts[i]
		vals[p] = c
		rest -= c
	}
	for _, s := range bk.store {
		vals[s] = 0
	}
	n := 2 * bk.sites
	for p, a := range bankAmounts(rest, banker) {
		vals[n+p] = 0
		if s := bk.bank[p]; s >= 0 {
			vals[s] = a
		} else {
			vals[n+p] = a
		}
	}
	vals[len(vals)-1] = toMove
}

// bankSplit is the banker of a position whose banked counters are all
// but one in Player 1's bank and one in Player 2's (see bankAmounts).
const bankSplit = 3

// bankAmounts is what each player's bank holds in a position whose rest
// counters out of play are banked by banker: all in Player 1's bank (1)
// or Player 2's (2), or, for bankSplit, one in Player 2's and the others
// in Player 1's, which makes the parity of both banks differ from the
// first. A player's bank is their first store, or their captured total
// when they own no store.
func bankAmounts(rest, banker int) [2]int {
	switch {
	case banker == 2:
		return [2]int{0, rest}
	case banker == bankSplit && rest > 0:
		return [2]int{rest - 1, 1}
	}
	return [2]int{rest, 0}
}
