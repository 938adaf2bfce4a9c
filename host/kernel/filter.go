package kernel

import (
	"math"
	"math/bits"
	"slices"
)

// Filter selects sites by fixed properties (tag, row, track), decided when
// it is made, and by properties of the state (owner, count, an empty next
// site, a site below that holds counters, a run along a line), decided
// when it is used. A filter is made
// once, while a game loads, and shared by every state.
type Filter struct {
	cand      []int32 // sites passing the fixed tests, in board order
	owner     int     // -1 for any owner
	rel       Relation
	min, max  int32   // count bounds; max < 0 for none
	nextEmpty *Track  // the next site on this track must be empty
	below     []int32 // per site, the site below it that must hold counters (-1: none, the bottom row); nil for no test
	run       lineRun
	tests     int // which state tests apply: testsNone, testsCount or testsAll

	steps, jumps int  // the most steps and jumps from the candidates (see EmitSteps)
	jumpsTwice   bool // some candidate can jump to one site over two neighbours
	jumpSteps    bool // some candidate can jump to one of its neighbours
	all          bool // the candidates are every site of the board, in order
}

// Relation is how a filter's owner relates to the player to move.
type Relation uint8

// The relations of a filter's owner.
const (
	OwnerFixed    Relation = iota // the owner given (or any)
	OwnerMover                    // the player to move
	OwnerOpponent                 // anyone but the player to move (not nobody)
)

// FilterSpec describes a filter.
type FilterSpec struct {
	Owner     int      // the owner required (0 for nobody), -1 for any; with OwnerFixed
	Rel       Relation // the owner relative to the player to move
	Min       int      // the least count
	Max       int      // the largest count, -1 for none
	Tag       uint64   // tags a site must have (a mask), 0 for none
	NotTag    uint64   // tags a site must not have
	Row       int      // the row a site must be in, -1 for any
	Track     *Track   // the track a site must be on, nil for any
	NextEmpty *Track   // the next site along this track must be empty
	// Supported: the site is in the bottom row (row 0), or the site of
	// its column in the row below holds counters; a site of another row
	// with no site below it never matches (where a dropped piece comes
	// to rest).
	Supported bool
	InRow     int // the site's owner holds InRow consecutive sites of a line through it (0: no test)
	NotInRow  int // ... does not hold NotInRow such sites (0: no test)
}

// lineRun is the filter test of InRow and NotInRow: whether the site's
// owner owns k or more consecutive sites of a line through the site, the
// site among them. An empty site (owner 0) is in no run.
type lineRun struct {
	k     int // 0: no test
	in    bool
	board *Board
}

func (r *lineRun) through(owners []int32, i int32) bool {
	p := owners[i]
	if p == 0 {
		return false
	}
	return r.board.RunThrough(owners, i, p, r.k)
}

// What a filter tests of the state, so that the hot loops can skip the
// tests that cannot fail.
const (
	testsNone  = iota // every candidate matches
	testsCount        // only the count bounds
	testsAll          // owners or the next site too
)

// NewFilter makes the filter spec describes on board b.
func NewFilter(b *Board, spec FilterSpec) *Filter {
	f := &Filter{owner: spec.Owner, rel: spec.Rel, min: clamp32(spec.Min), max: clamp32(spec.Max), nextEmpty: spec.NextEmpty}
	if spec.Rel != OwnerFixed {
		f.owner = -1
	}
	switch {
	case spec.InRow > 0:
		f.run = lineRun{k: spec.InRow, in: true, board: b}
	case spec.NotInRow > 0:
		f.run = lineRun{k: spec.NotInRow, board: b}
	}
	for i, s := range b.sites {
		m := b.tagMask[i]
		if spec.Tag != 0 && m&spec.Tag == 0 || m&spec.NotTag != 0 || spec.Row >= 0 && s.Row != spec.Row || spec.Track != nil && spec.Track.pos[i] < 0 {
			continue
		}
		if f.nextEmpty != nil && f.nextEmpty.next[i] < 0 {
			continue
		}
		if spec.Supported && s.Row > 0 && b.At(s.Row-1, s.Col) < 0 {
			continue
		}
		f.cand = append(f.cand, int32(i))
		f.steps += len(b.adj[i])
		f.jumps += len(b.jumps[i])
		for k, j := range b.jumps[i] {
			f.jumpsTwice = f.jumpsTwice || k > 0 && b.jumps[i][k-1].To == j.To // sorted by landing site
			if !f.jumpSteps {
				// b.adj[i] is sorted: a search, not a scan, as a site on
				// thousands of lines has thousands of jumps and neighbours.
				_, f.jumpSteps = slices.BinarySearch(b.adj[i], j.To)
			}
		}
	}
	if spec.Supported {
		f.below = supports(b)
	}
	f.all = len(f.cand) == len(b.sites)
	switch {
	case f.rel != OwnerFixed || f.owner >= 0 || f.nextEmpty != nil || f.below != nil || f.run.k > 0:
		f.tests = testsAll
	case f.min > 0 || f.max >= 0:
		f.tests = testsCount
	default:
		f.tests = testsNone
	}
	return f
}

// supports returns, per site of b, the site of its column in the row
// below, or -1 in the bottom row (or where there is none).
func supports(b *Board) []int32 {
	below := make([]int32, len(b.sites))
	for i, s := range b.sites {
		below[i] = int32(b.At(s.Row-1, s.Col))
	}
	return below
}

// clamp32 is n as an int32, a bound beyond the range its nearest end.
func clamp32(n int) int32 {
	return int32(min(max(n, math.MinInt32), math.MaxInt32))
}

// Cand returns the sites passing the fixed tests, in board order (shared,
// read only): the sites the state tests are asked about.
func (f *Filter) Cand() []int32 { return f.cand }

// BuildCost is the steps making f is charged (NewFilter's work): a step
// for about four sites of the board and four jumps of its candidates.
func (f *Filter) BuildCost(b *Board) int { return (len(b.sites)+f.jumps)/4 + 1 }

// Cost is the steps a call that visits the filter's sites is charged:
// about four sites a step.
func (f *Filter) Cost() int { return len(f.cand)/4 + 1 }

// Matches reports whether site i passes the filter's state tests, with
// mover to move; c is the state's cells.
func (f *Filter) Matches(c []int32, l *Layout, mover int, i int32) bool {
	n := c[i]
	if n < f.min || f.max >= 0 && n > f.max {
		return false
	}
	return f.tests != testsAll || f.MatchesOwner(c, l, mover, i)
}

// Sum adds the counts of the matching sites.
func (f *Filter) Sum(c []int32, l *Layout, mover int) int {
	n := 0
	if f.tests == testsNone || f.tests == testsCount && f.min <= 1 && f.max < 0 {
		for _, i := range f.cand { // sites below the minimum hold 0 or nothing
			n += int(c[i])
		}
		return n
	}
	t, owners := f.Tester(mover), l.OwnersOf(c)
	switch {
	case t.Rare:
		for _, i := range f.cand {
			if t.OK(c, owners, i) && f.MatchesOwner(c, l, mover, i) {
				n += int(c[i])
			}
		}
	case len(f.cand) <= MaskSites:
		for set := t.mask(c, owners, f.cand, f.all); set != 0; set &= set - 1 {
			n += int(c[f.cand[bits.TrailingZeros64(set)]])
		}
	default:
		for _, i := range f.cand {
			if t.OK(c, owners, i) {
				n += int(c[i])
			}
		}
	}
	return n
}

// Empty reports whether the matching sites hold no counter (Sum is 0),
// stopping at the first that holds one.
func (f *Filter) Empty(c []int32, l *Layout, mover int) bool {
	if f.EmptyAsSites() {
		for _, i := range f.cand { // sites below the minimum hold 0 or nothing
			if c[i] != 0 {
				return false
			}
		}
		return true
	}
	return f.Sum(c, l, mover) == 0
}

// EmptyAsSites reports whether Empty is whether every site of Cand holds
// no counter, whoever moves and whatever the owners: a caller that tests
// emptiness often may then test those sites itself.
func (f *Filter) EmptyAsSites() bool {
	return f.tests == testsNone || f.tests == testsCount && f.min <= 1 && f.max < 0
}

// Count is the number of matching sites.
func (f *Filter) Count(c []int32, l *Layout, mover int) int {
	if set, ok := f.Mask(c, l, mover); ok {
		return bits.OnesCount64(set)
	}
	n := 0
	t, owners := f.Tester(mover), l.OwnersOf(c)
	for _, i := range f.cand {
		if t.OK(c, owners, i) && (!t.Rare || f.MatchesOwner(c, l, mover, i)) {
			n++
		}
	}
	return n
}

// First returns the first matching site in board order, -1 for none.
func (f *Filter) First(c []int32, l *Layout, mover int) int {
	t, owners := f.Tester(mover), l.OwnersOf(c)
	if !t.Rare {
		for _, i := range f.cand {
			if t.OK(c, owners, i) {
				return int(i)
			}
		}
		return -1
	}
	for _, i := range f.cand {
		if t.OK(c, owners, i) && (!t.Rare || f.MatchesOwner(c, l, mover, i)) {
			return int(i)
		}
	}
	return -1
}

// AppendSites appends the matching sites, in board order, to dst.
func (f *Filter) AppendSites(dst []int32, c []int32, l *Layout, mover int) []int32 {
	if set, ok := f.Mask(c, l, mover); ok {
		for ; set != 0; set &= set - 1 {
			dst = append(dst, f.cand[bits.TrailingZeros64(set)])
		}
		return dst
	}
	t, owners := f.Tester(mover), l.OwnersOf(c)
	for _, i := range f.cand {
		if t.OK(c, owners, i) && (!t.Rare || f.MatchesOwner(c, l, mover, i)) {
			dst = append(dst, i)
		}
	}
	return dst
}

// MaskSites is the most candidates a filter may have for Mask.
const MaskSites = 64

// Mask returns the set of f's candidates that match, with mover to move:
// bit k for Cand()[k]. ok is false, and the set empty, for a filter of
// more than MaskSites candidates or with the rarer tests (an opponent's
// sites, an empty next site, runs along lines): ask Matches of those.
func (f *Filter) Mask(c []int32, l *Layout, mover int) (set uint64, ok bool) {
	t := f.Tester(mover)
	if t.Rare || len(f.cand) > MaskSites {
		return 0, false
	}
	return t.mask(c, l.OwnersOf(c), f.cand, f.all), true
}

// mask is Mask of the candidates cand (all: the sites 0 to len(cand)-1,
// read without bounds checks). A count x passes lo <= x <= hi when
// uint32(x-lo) <= uint32(hi-lo), one comparison.
func (t *Tester) mask(cells, owners, cand []int32, all bool) uint64 {
	if t.hi < t.lo {
		return 0
	}
	lo, span, owner := uint32(t.lo), uint32(t.hi)-uint32(t.lo), t.owner
	var set uint64
	switch {
	case all && owner < 0:
		for i, x := range cells[:len(cand)] {
			if uint32(x)-lo <= span {
				set |= 1 << (uint(i) & 63)
			}
		}
	case all:
		cs := cells[:len(cand)]
		os := owners[:len(cs)]
		for i, x := range cs {
			if os[i] == owner && uint32(x)-lo <= span {
				set |= 1 << (uint(i) & 63)
			}
		}
	default:
		for k, i := range cand {
			if uint32(cells[i])-lo <= span && (owner < 0 || owners[i] == owner) {
				set |= 1 << (uint(k) & 63)
			}
		}
	}
	return set
}

// maskEmpty returns, for the first n sites (n at most 64), the set of
// those that pass the tests and the set of those that hold nothing (count
// 0), in one pass.
func (t *Tester) maskEmpty(cells, owners []int32, n int) (set, empty uint64) {
	if t.hi < t.lo {
		return 0, emptySet(cells[:n])
	}
	lo, span, owner := uint32(t.lo), uint32(t.hi)-uint32(t.lo), t.owner
	cs := cells[:n]
	os := owners[:len(cs)]
	if owner < 0 {
		for i, x := range cs {
			if x == 0 {
				empty |= 1 << (uint(i) & 63)
			}
			if uint32(x)-lo <= span {
				set |= 1 << (uint(i) & 63)
			}
		}
		return set, empty
	}
	for i, x := range cs {
		if x == 0 {
			empty |= 1 << (uint(i) & 63)
		}
		if os[i] == owner && uint32(x)-lo <= span {
			set |= 1 << (uint(i) & 63)
		}
	}
	return set, empty
}

// Tester is a filter's state tests made ready for one mover, for the hot
// loops of parts and primitives. The count bounds and an owner are
// tested by OK, small enough for the compiler to inline (and the struct
// small enough to live in registers); the rarer tests (an empty next site,
// an opponent's sites, runs along lines) are the filter's MatchesOwner,
// asked only when Rare is set:
//
//	t.OK(c, l.OwnersOf(c), i) && (!t.Rare || f.MatchesOwner(c, l, mover, i))
//
// is f.Matches(c, l, mover, i).
type Tester struct {
	lo, hi int32 // count bounds
	owner  int32 // the owner required, -1 for any
	Rare   bool  // MatchesOwner must be asked too
}

// Tester returns f's tests with mover to move.
func (f *Filter) Tester(mover int) Tester {
	t := Tester{lo: f.min, hi: f.max, owner: int32(f.owner)}
	if t.hi < 0 {
		t.hi = math.MaxInt32
	}
	switch f.rel {
	case OwnerMover:
		t.owner = int32(mover)
	case OwnerOpponent:
		t.Rare = true
	}
	t.Rare = t.Rare || f.nextEmpty != nil || f.below != nil || f.run.k > 0
	return t
}

// AnySite is a Tester that every site with counters passes.
func AnySite() Tester { return Tester{lo: 1, hi: math.MaxInt32, owner: -1} }

// OK reports whether site i passes the count bounds and the owner test;
// owners are the owners' cells of c.
func (t *Tester) OK(c, owners []int32, i int32) bool {
	n := c[i]
	return n >= t.lo && n <= t.hi && (t.owner < 0 || owners[i] == t.owner)
}

// Hits returns the set of the sites of block (at most 64) that pass OK:
// bit k for block[k]. It is not inlined, so that its loop keeps the
// tests in registers.
//
//go:noinline
func (t *Tester) Hits(c, owners []int32, block []int32) uint64 {
	lo, hi, owner := t.lo, t.hi, t.owner
	c = c[:len(owners)] // the counts: one bounds check serves both
	var set uint64
	for k, i := range block {
		if n := c[i]; n >= lo && n <= hi && (owner < 0 || owners[i] == owner) {
			set |= 1 << (uint(k) & 63)
		}
	}
	return set
}

// MatchesOwner is the owner, next-site, support and line part of Matches.
func (f *Filter) MatchesOwner(c []int32, l *Layout, mover int, i int32) bool {
	o := int(c[l.Owners+int(i)])
	switch f.rel {
	case OwnerMover:
		if o != mover {
			return false
		}
	case OwnerOpponent:
		if o == 0 || o == mover {
			return false
		}
	default:
		if f.owner >= 0 && o != f.owner {
			return false
		}
	}
	if f.nextEmpty != nil && c[f.nextEmpty.next[i]] != 0 {
		return false
	}
	if f.below != nil && f.below[i] >= 0 && c[f.below[i]] == 0 {
		return false
	}
	if f.run.k > 0 && f.run.through(c[l.Owners:l.Owners+l.Sites], i) != f.run.in {
		return false
	}
	return true
}
