package kernel

// The emitters: legal moves made from filters and the board's lines, for
// the primitives (matombo.emit_each, ...) and the native parts alike.
// Each charges the filters it visits (Filter.Cost).

// EmitEach adds a move of kind k for each site of f, with mover to move,
// and returns how many.
func (c *Ctx) EmitEach(k int, f *Filter) (int, error) {
	if err := c.Charge(f.Cost()); err != nil {
		return 0, err
	}
	cells, l := c.S.Cells, &c.Def.Layout
	moves := c.S.Moves
	before := len(moves)
	if len(moves)+len(f.cand) > MaxLegal {
		return c.emitEachSlowly(k, f)
	}
	m := Move{Kind: uint8(k), N: 1, game: c.Def.Tag}
	t, owners := f.Tester(c.Mover), l.OwnersOf(cells)
	for _, i := range f.cand {
		if t.OK(cells, owners, i) && (!t.Rare || f.MatchesOwner(cells, l, c.Mover, i)) {
			m.Sites[0] = uint16(i)
			moves = append(moves, m)
		}
	}
	c.S.Moves = moves
	return len(moves) - before, nil
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
	m := Move{Kind: uint8(k), N: 2}
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

// EmitJumps adds a move (from, to) of kind k for each site of f that can
// jump along a line over an occupied neighbour to the empty site just
// beyond, unless the decision lists that move already.
func (c *Ctx) EmitJumps(k int, f *Filter) (int, error) {
	if err := c.Charge(f.Cost()); err != nil {
		return 0, err
	}
	cells, l, b := c.S.Cells, &c.Def.Layout, c.Def.Board
	t, owners := f.Tester(c.Mover), l.OwnersOf(cells)
	m := Move{Kind: uint8(k), N: 2}
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
	m := Move{Kind: uint8(k), N: 2}
	ft := from.Tester(c.Mover)
	n := 0
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

// emitEachSlowly is EmitEach near the bound on the legal moves: one move
// at a time, each checked.
func (c *Ctx) emitEachSlowly(k int, f *Filter) (int, error) {
	cells, l := c.S.Cells, &c.Def.Layout
	m := Move{Kind: uint8(k), N: 1}
	n := 0
	for _, i := range f.cand {
		if f.Matches(cells, l, c.Mover, i) {
			m.Sites[0] = uint16(i)
			if err := c.Push(m); err != nil {
				return n, err
			}
			n++
		}
	}
	return n, nil
}
