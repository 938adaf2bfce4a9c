package kernel

import (
	"math/bits"
	"slices"
)

// The emitters: legal moves made from filters and the board's lines, for
// the primitives (matombo.emit_each, ...) and the native parts alike.
// Each charges the filters it visits (Filter.Cost) and a step for every
// ItemsPerStep moves it lists.
//
// Each has a fast path, taken when the filter's state tests are the
// common ones (Tester.Rare unset), the list has room for every move the
// call could make and no move the call makes can be listed already: it
// appends to the list in one tight loop, with no check per move. The
// other cases take the general path, which pushes the moves one by one.

// room makes room in the decision's legal list for n more moves; it
// reports false when n more moves could pass MaxLegal, so the caller
// pushes them one by one, checking.
func (c *Ctx) room(n int) bool {
	moves := c.S.Moves
	if len(moves)+n > MaxLegal {
		return false
	}
	if cap(moves)-len(moves) < n {
		c.S.Moves = slices.Grow(moves, n)
	}
	return true
}

// fast returns the set of f's candidates that match (see Filter.Mask)
// when the emitter may take its fast path: the filter has a mask and the
// list room for n more moves.
func (c *Ctx) fast(f *Filter, n int) (set uint64, ok bool) {
	set, ok = f.Mask(c.S.Cells, &c.Def.Layout, c.Mover)
	return set, ok && c.room(n)
}

// emptySet returns the set of the sites (at most 64) whose count, in
// cells, is 0: bit i for site i.
func emptySet(cells []int32) uint64 {
	var set uint64
	for i, x := range cells {
		if x == 0 {
			set |= 1 << (uint(i) & 63)
		}
	}
	return set
}

// listedKind reports whether the decision lists a move of kind k.
func (c *Ctx) listedKind(k uint8) bool {
	for _, m := range c.S.Moves {
		if m.Kind == k {
			return true
		}
	}
	return false
}

// chargeMoves charges the moves listed since the list held start.
func (c *Ctx) chargeMoves(start int) error {
	return c.Charge((len(c.S.Moves)-start)/ItemsPerStep + 1)
}

// EmitEach adds a move of kind k for each site of f, with mover to move,
// and returns how many.
func (c *Ctx) EmitEach(k int, f *Filter) (int, error) {
	if err := c.Charge(f.Cost()); err != nil {
		return 0, err
	}
	cells, l := c.S.Cells, &c.Def.Layout
	t, owners := f.Tester(c.Mover), l.OwnersOf(cells)
	m := Move{Kind: uint8(k), N: 1, game: c.Def.Tag}
	start := len(c.S.Moves)
	if t.Rare || len(f.cand) > MaskSites || !c.room(len(f.cand)) {
		for _, i := range f.cand {
			if t.OK(cells, owners, i) && (!t.Rare || f.MatchesOwner(cells, l, c.Mover, i)) {
				m.Sites[0] = uint16(i)
				if err := c.Push(m); err != nil {
					return len(c.S.Moves) - start, err
				}
			}
		}
		return len(c.S.Moves) - start, nil
	}
	set := t.mask(cells, owners, f.cand, f.all)
	moves, cand := c.S.Moves, f.cand
	for ; set != 0; set &= set - 1 {
		m.Sites[0] = uint16(cand[bits.TrailingZeros64(set)])
		moves = append(moves, m)
	}
	c.S.Moves = moves
	return len(moves) - start, nil
}

// EmitSteps adds a move (from, to) of kind k for each site of f and each
// empty neighbour along the board's lines, unless the decision lists that
// move already.
func (c *Ctx) EmitSteps(k int, f *Filter) (int, error) {
	if err := c.Charge(f.Cost()); err != nil {
		return 0, err
	}
	cells, l, b := c.S.Cells, &c.Def.Layout, c.Def.Board
	t, owners := f.Tester(c.Mover), l.OwnersOf(cells)
	m := Move{Kind: uint8(k), N: 2, game: c.Def.Tag}
	start := len(c.S.Moves)
	// Steps from different sites differ, and a site's neighbours are
	// listed once: a step can only be listed already by an earlier call.
	if adj := b.adjSet; adj != nil && f.all && !t.Rare && !c.listedKind(m.Kind) && c.room(f.steps) {
		// A board of at most 64 sites, every site a candidate: the
		// sites that match and the empty ones as sets, in one pass,
		// then each matching site's neighbours that are empty.
		set, empty := t.maskEmpty(cells, owners, len(adj))
		moves := c.S.Moves
		for ; set != 0; set &= set - 1 {
			i := bits.TrailingZeros64(set)
			m.Sites[0] = uint16(i)
			for to := adj[i] & empty; to != 0; to &= to - 1 {
				m.Sites[1] = uint16(bits.TrailingZeros64(to))
				moves = append(moves, m)
			}
		}
		c.S.Moves = moves
		return len(moves) - start, c.chargeMoves(start)
	}
	set, ok := c.fast(f, f.steps)
	if !ok || c.listedKind(m.Kind) {
		n := 0
		for _, i := range f.cand {
			if !t.OK(cells, owners, i) || t.Rare && !f.MatchesOwner(cells, l, c.Mover, i) {
				continue
			}
			m.Sites[0] = uint16(i)
			for _, to := range b.adj[i] {
				if cells[to] == 0 {
					m.Sites[1] = uint16(to)
					added, err := c.PushNew(m)
					if err != nil {
						return n, err
					}
					if added {
						n++
					}
				}
			}
		}
		return n, nil
	}
	moves, cand := c.S.Moves, f.cand
	if adj := b.adjSet; adj != nil { // a board of at most 64 sites: neighbours and empty sites as sets
		empty := emptySet(cells[:len(adj)])
		for ; set != 0; set &= set - 1 {
			i := cand[bits.TrailingZeros64(set)]
			m.Sites[0] = uint16(i)
			for to := adj[i] & empty; to != 0; to &= to - 1 {
				m.Sites[1] = uint16(bits.TrailingZeros64(to))
				moves = append(moves, m)
			}
		}
		c.S.Moves = moves
		return len(moves) - start, c.chargeMoves(start)
	}
	for ; set != 0; set &= set - 1 {
		i := cand[bits.TrailingZeros64(set)]
		m.Sites[0] = uint16(i)
		for _, to := range b.adj[i] {
			if cells[to] == 0 {
				m.Sites[1] = uint16(to)
				moves = append(moves, m)
			}
		}
	}
	c.S.Moves = moves
	return len(moves) - start, c.chargeMoves(start)
}

// EmitJumps adds a move (from, to) of kind k for each site of f that can
// jump along a line over an occupied neighbour to the empty site just
// beyond, unless the decision lists that move already.
func (c *Ctx) EmitJumps(k int, f *Filter) (int, error) {
	// Jumps from one site may land on one site over two neighbours (on
	// boards with such lines); otherwise only an earlier call can have
	// listed a jump.
	return c.emitJumps(k, f, f.jumpsTwice || c.listedKind(uint8(k)))
}

// EmitStepsJumps is EmitSteps(k, steps) then EmitJumps(k, jumps), in one
// call that knows which jumps the steps can have listed: only those that
// land on a neighbour (on boards whose lines make a jump and a step
// between the same two sites).
func (c *Ctx) EmitStepsJumps(k int, steps, jumps *Filter) (int, error) {
	again := c.listedKind(uint8(k))
	if b := c.Def.Board; steps == jumps && b.adjSet != nil && steps.all && !again && !jumps.jumpsTwice && !jumps.jumpSteps {
		if t := steps.Tester(c.Mover); !t.Rare && c.room(steps.steps+steps.jumps) {
			// One filter, every site a candidate, on a board of at
			// most 64 sites: one pass for both, as EmitSteps and
			// EmitJumps do it.
			if err := c.Charge(2 * steps.Cost()); err != nil {
				return 0, err
			}
			cells := c.S.Cells
			set, empty := t.maskEmpty(cells, c.Def.Layout.OwnersOf(cells), len(b.adjSet))
			m := Move{Kind: uint8(k), N: 2, game: c.Def.Tag}
			moves := c.S.Moves
			start := len(moves)
			for s := set; s != 0; s &= s - 1 {
				i := bits.TrailingZeros64(s)
				m.Sites[0] = uint16(i)
				for to := b.adjSet[i] & empty; to != 0; to &= to - 1 {
					m.Sites[1] = uint16(bits.TrailingZeros64(to))
					moves = append(moves, m)
				}
			}
			for ; set != 0; set &= set - 1 {
				i := bits.TrailingZeros64(set)
				m.Sites[0] = uint16(i)
				for _, j := range b.jumps[i] {
					if empty&(1<<(uint(j.Over)&63)) == 0 && empty&(1<<(uint(j.To)&63)) != 0 {
						m.Sites[1] = uint16(j.To)
						moves = append(moves, m)
					}
				}
			}
			c.S.Moves = moves
			return len(moves) - start, c.chargeMoves(start)
		}
	}
	n, err := c.EmitSteps(k, steps)
	if err != nil {
		return n, err
	}
	j, err := c.emitJumps(k, jumps, again || jumps.jumpsTwice || jumps.jumpSteps)
	return n + j, err
}

// emitJumps is EmitJumps; with check, each jump is looked for among the
// moves listed before it.
func (c *Ctx) emitJumps(k int, f *Filter, check bool) (int, error) {
	if err := c.Charge(f.Cost()); err != nil {
		return 0, err
	}
	cells, l, b := c.S.Cells, &c.Def.Layout, c.Def.Board
	t, owners := f.Tester(c.Mover), l.OwnersOf(cells)
	m := Move{Kind: uint8(k), N: 2, game: c.Def.Tag}
	start := len(c.S.Moves)
	if adj := b.adjSet; adj != nil && f.all && !t.Rare && !check && c.room(f.jumps) {
		// A board of at most 64 sites, every site a candidate: as
		// EmitSteps, with the empty sites as a set.
		set, empty := t.maskEmpty(cells, owners, len(adj))
		moves := c.S.Moves
		for ; set != 0; set &= set - 1 {
			i := bits.TrailingZeros64(set)
			m.Sites[0] = uint16(i)
			for _, j := range b.jumps[i] {
				if empty&(1<<(uint(j.Over)&63)) == 0 && empty&(1<<(uint(j.To)&63)) != 0 {
					m.Sites[1] = uint16(j.To)
					moves = append(moves, m)
				}
			}
		}
		c.S.Moves = moves
		return len(moves) - start, c.chargeMoves(start)
	}
	set, ok := c.fast(f, f.jumps)
	if !ok || check {
		n := 0
		for _, i := range f.cand {
			if !t.OK(cells, owners, i) || t.Rare && !f.MatchesOwner(cells, l, c.Mover, i) {
				continue
			}
			m.Sites[0] = uint16(i)
			for _, j := range b.jumps[i] {
				if cells[j.Over] != 0 && cells[j.To] == 0 {
					m.Sites[1] = uint16(j.To)
					added, err := c.PushNew(m)
					if err != nil {
						return n, err
					}
					if added {
						n++
					}
				}
			}
		}
		return n, nil
	}
	moves, cand := c.S.Moves, f.cand
	for ; set != 0; set &= set - 1 {
		i := cand[bits.TrailingZeros64(set)]
		m.Sites[0] = uint16(i)
		for _, j := range b.jumps[i] {
			if cells[j.Over] != 0 && cells[j.To] == 0 {
				m.Sites[1] = uint16(j.To)
				moves = append(moves, m)
			}
		}
	}
	c.S.Moves = moves
	return len(moves) - start, c.chargeMoves(start)
}

// EmitPairs adds a move (a, b) of kind k for every site a of from and
// every other site b of to, a in board order, then b in board order:
// "any of my pieces to any empty point" in one call. It does not look for
// the same moves among those listed before.
func (c *Ctx) EmitPairs(k int, from, to *Filter) (int, error) {
	if err := c.Charge(from.Cost()); err != nil {
		return 0, err
	}
	if err := c.Charge(to.Cost()); err != nil {
		return 0, err
	}
	cells, l := c.S.Cells, &c.Def.Layout
	var buf [64]int32
	dst := to.AppendSites(buf[:0], cells, l, c.Mover)
	if len(dst) == 0 {
		return 0, nil
	}
	owners := l.OwnersOf(cells)
	m := Move{Kind: uint8(k), N: 2, game: c.Def.Tag}
	ft := from.Tester(c.Mover)
	n := 0
	fast := !ft.Rare && c.room(len(from.cand)*len(dst))
	for _, i := range from.cand {
		if !ft.OK(cells, owners, i) || ft.Rare && !from.MatchesOwner(cells, l, c.Mover, i) {
			continue
		}
		// The pairs of one source are charged together: a step for
		// about four moves, as the filters charge for their sites.
		if err := c.Charge(len(dst)/4 + 1); err != nil {
			return n, err
		}
		m.Sites[0] = uint16(i)
		if fast {
			moves := c.S.Moves
			for _, j := range dst {
				if j != i {
					m.Sites[1] = uint16(j)
					moves = append(moves, m)
				}
			}
			n += len(moves) - len(c.S.Moves)
			c.S.Moves = moves
			continue
		}
		for _, j := range dst {
			if j != i {
				m.Sites[1] = uint16(j)
				if err := c.Push(m); err != nil {
					return n, err
				}
				n++
			}
		}
	}
	return n, nil
}

// EmitSubsets adds a move of kind k (a kind taking a list of sites) for
// each set of lo to hi sites of pool, smaller sets first, each set in the
// order of pool.
func (c *Ctx) EmitSubsets(k int, pool []int32, lo, hi int) (int, error) {
	var idx [MaxMoveSites]int
	n := 0
	for size := lo; size <= hi && size <= len(pool); size++ {
		for i := 0; i < size; i++ {
			idx[i] = i
		}
		for {
			m := Move{Kind: uint8(k), N: uint8(size)}
			for i := 0; i < size; i++ {
				m.Sites[i] = uint16(pool[idx[i]])
			}
			if err := c.Push(m); err != nil {
				return n, err
			}
			n++
			i := size - 1 // the next set of this size
			for i >= 0 && idx[i] == len(pool)-size+i {
				i--
			}
			if i < 0 {
				break
			}
			idx[i]++
			for j := i + 1; j < size; j++ {
				idx[j] = idx[j-1] + 1
			}
		}
	}
	return n, nil
}
