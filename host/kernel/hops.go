package kernel

// Hops: a piece moving one site along the board's lines, a step to an
// empty neighbour or a jump over a neighbour to the empty site just
// beyond, in the way the piece may go. A line has a way: the order in
// which it lists its sites. A piece that moves only forward (a man) goes
// along its lines one way, a piece that moves both ways (a king) either
// way.

// Heading is the way along the board's lines a piece may move.
type Heading uint8

// The headings.
const (
	BothWays Heading = iota // either way
	Ahead                   // in the order each line lists its sites
	Back                    // against that order
)

// Toward returns site i's neighbours along the lines in heading h, in
// board order (shared, read only).
func (b *Board) Toward(i int, h Heading) []int32 {
	switch h {
	case Ahead:
		return b.ahead[i]
	case Back:
		return b.back[i]
	}
	return b.adj[i]
}

// JumpsToward returns the jumps from site i along the lines in heading h,
// by their landing site (shared, read only).
func (b *Board) JumpsToward(i int, h Heading) []Jump {
	switch h {
	case Ahead:
		return b.jumpsAhead[i]
	case Back:
		return b.jumpsBack[i]
	}
	return b.jumps[i]
}

// Hops describes the hops of one player's pieces.
type Hops struct {
	From    *Filter // the pieces that move
	Heading Heading // the way they move
	Both    *Filter // the pieces that move both ways whatever Heading (kings); nil for none
	Over    *Filter // jumps: the sites a piece may jump over; nil for steps
}

// heading is the way the piece on site i moves.
func (h *Hops) heading(c *Ctx, owners []int32, both *Tester, i int32) Heading {
	if h.Both != nil && both.OK(c.S.Cells, owners, i) && (!both.Rare || h.Both.MatchesOwner(c.S.Cells, &c.Def.Layout, c.Mover, i)) {
		return BothWays
	}
	return h.Heading
}

// EmitHops adds a move of kind k for each hop of the pieces h describes,
// charging the filter's sites, the neighbours or jumps it looks at and
// the moves it lists,
// with c.Mover to move: from every site of h.From, or with at >= 0 from
// site at only, which must pass h.From. A move names the site moved from
// and the site moved to, or with landing only the site moved to (the next
// jump of a piece that waits). A move the decision lists already is not
// listed again.
func (c *Ctx) EmitHops(k int, h *Hops, at int, landing bool) (int, error) {
	f := h.From
	if err := c.Charge(f.Cost()); err != nil {
		return 0, err
	}
	cells, l, b := c.S.Cells, &c.Def.Layout, c.Def.Board
	owners := l.OwnersOf(cells)
	t := f.Tester(c.Mover)
	var both, over Tester
	if h.Both != nil {
		both = h.Both.Tester(c.Mover)
	}
	if h.Over != nil {
		over = h.Over.Tester(c.Mover)
	}
	m := Move{Kind: uint8(k), N: 2, game: c.Def.Tag}
	if landing {
		m.N = 1
	}
	check := c.listedKind(m.Kind)
	start := len(c.S.Moves)
	cand := f.cand
	var one [1]int32
	if at >= 0 {
		one[0] = int32(at)
		cand = one[:]
	}
	push := func(from, to int32) error {
		if landing {
			m.Sites[0] = uint16(to)
		} else {
			m.Sites[0], m.Sites[1] = uint16(from), uint16(to)
		}
		if check {
			_, err := c.PushNew(m)
			return err
		}
		return c.Push(m)
	}
	looked := 0
	for _, i := range cand {
		if !t.OK(cells, owners, i) || t.Rare && !f.MatchesOwner(cells, l, c.Mover, i) {
			continue
		}
		head := h.heading(c, owners, &both, i)
		if h.Over == nil {
			ns := b.Toward(int(i), head)
			looked += len(ns)
			for _, to := range ns {
				if cells[to] == 0 {
					if err := push(i, to); err != nil {
						return len(c.S.Moves) - start, err
					}
				}
			}
			continue
		}
		last := int32(-1) // jumps are by landing site: one over two neighbours to one site is listed once
		js := b.JumpsToward(int(i), head)
		looked += len(js)
		for _, j := range js {
			if j.To == last || cells[j.To] != 0 || !over.OK(cells, owners, j.Over) || over.Rare && !h.Over.MatchesOwner(cells, l, c.Mover, j.Over) {
				continue
			}
			last = j.To
			if err := push(i, j.To); err != nil {
				return len(c.S.Moves) - start, err
			}
		}
	}
	if err := c.Charge(looked / ItemsPerStep); err != nil {
		return len(c.S.Moves) - start, err
	}
	return len(c.S.Moves) - start, c.chargeMoves(start)
}

// CanHop reports whether the piece on site at has a hop of those h
// describes, with c.Mover to move.
func (c *Ctx) CanHop(h *Hops, at int) (bool, error) {
	cells, l, b := c.S.Cells, &c.Def.Layout, c.Def.Board
	if err := c.Charge((len(b.adj[at])+len(b.jumps[at]))/ItemsPerStep + 1); err != nil {
		return false, err
	}
	owners := l.OwnersOf(cells)
	i := int32(at)
	if t := h.From.Tester(c.Mover); !t.OK(cells, owners, i) || t.Rare && !h.From.MatchesOwner(cells, l, c.Mover, i) {
		return false, nil
	}
	var both Tester
	if h.Both != nil {
		both = h.Both.Tester(c.Mover)
	}
	head := h.heading(c, owners, &both, i)
	if h.Over == nil {
		for _, to := range b.Toward(at, head) {
			if cells[to] == 0 {
				return true, nil
			}
		}
		return false, nil
	}
	over := h.Over.Tester(c.Mover)
	for _, j := range b.JumpsToward(at, head) {
		if cells[j.To] == 0 && over.OK(cells, owners, j.Over) && (!over.Rare || h.Over.MatchesOwner(cells, l, c.Mover, j.Over)) {
			return true, nil
		}
	}
	return false, nil
}

// Between returns the sites strictly between sites a and b along a line
// through both, in order from a, appended to dst; nil when no line holds
// both.
func (b *Board) Between(dst []int32, from, to int) []int32 {
	for _, j := range b.jumps[from] {
		if int(j.To) == to {
			return append(dst, j.Over)
		}
	}
	for _, li := range b.linesAt[from] {
		line := b.lines[li]
		x, y := -1, -1
		for k, s := range line {
			switch int(s) {
			case from:
				x = k
			case to:
				y = k
			}
		}
		if x < 0 || y < 0 {
			continue
		}
		d := 1
		if y < x {
			d = -1
		}
		for k := x + d; k != y; k += d {
			dst = append(dst, line[k])
		}
		if dst == nil {
			dst = []int32{}
		}
		return dst
	}
	return nil
}

// CaptureBetween moves the pieces of players other than p on the sites
// between from and to along a line into p's captured total (the pieces a
// jump passes over) and returns the counters captured.
func (c *Ctx) CaptureBetween(p, from, to int) (int, error) {
	if err := c.Charge(int(c.Def.Board.lineCost[from])); err != nil {
		return 0, err
	}
	var buf [16]int32
	n := 0
	for _, s := range c.Def.Board.Between(buf[:0], from, to) {
		if o := c.Owner(int(s)); o != 0 && o != p {
			k, err := c.Capture(int(s), p, -1)
			if err != nil {
				return n, err
			}
			n += k
		}
	}
	return n, nil
}
