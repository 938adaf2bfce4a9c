package kernel

// Hops: a piece moving one site along the board's lines, a step to an
// empty neighbour or a jump over a neighbour to the empty site just
// beyond, in the way the piece may go. A line has a way: the order in
// which it lists its sites. A piece that moves only forward (a man) goes
// along its lines one way, a piece that moves both ways (a king) either
// way. A piece that moves forward or sideways, never back (an
// Alquerque man, a goose) goes one way along its lines and either way
// along its row: a hop across is one whose sites, the one it leaves, those
// it passes and the one it lands on, are all in one row of the board.

// Heading is the way along the board's lines a piece may move.
type Heading uint8

// The headings.
const (
	BothWays    Heading = iota // either way
	Ahead                      // in the order each line lists its sites
	Back                       // against that order
	AheadAcross                // as Ahead, or either way across (within a row)
	BackAcross                 // as Back, or either way across (within a row)
)

// across splits h into the way a piece goes along every line (BothWays,
// Ahead or Back) and whether it also goes the other way across, within
// its row.
func (h Heading) across() (Heading, bool) {
	switch h {
	case AheadAcross:
		return Ahead, true
	case BackAcross:
		return Back, true
	}
	return h, false
}

// Toward returns site i's neighbours along the lines in heading h, in
// board order (shared, read only).
func (b *Board) Toward(i int, h Heading) []int32 {
	switch h {
	case Ahead:
		return b.ahead[i]
	case Back:
		return b.back[i]
	case AheadAcross:
		b.across.Do(b.addAcross)
		return b.aheadAcross[i]
	case BackAcross:
		b.across.Do(b.addAcross)
		return b.backAcross[i]
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
	case AheadAcross:
		b.across.Do(b.addAcross)
		return b.jumpsAheadAcross[i]
	case BackAcross:
		b.across.Do(b.addAcross)
		return b.jumpsBackAcross[i]
	}
	return b.jumps[i]
}

// Hops describes the hops of one player's pieces.
type Hops struct {
	From    *Filter // the pieces that move
	Heading Heading // the way they move
	Both    *Filter // the pieces that move both ways whatever Heading (kings); nil for none
	Over    *Filter // jumps: the sites a piece may jump over; nil for steps
	// Fly is the pieces that move any distance along a line (flying
	// kings): a step to any empty site up to the first occupied one, a
	// jump over empty sites and one site of Over to any empty site
	// beyond it, before the next occupied one; nil for none.
	Fly *Filter
	// GoOn: of the sites beyond the piece it jumps, a flying piece lands
	// only on those from which it can jump again, when there are any.
	GoOn bool
	// Most: only the jumps that begin a chain of jumps taking the most
	// pieces of any chain the pieces can make (each piece jumped counts
	// one, and a piece once jumped is marked: it is not jumped again).
	Most bool
	// PromoteRow, for Most's search: a piece that does not fly landing
	// on this row (from 1, the row index plus one; 0 for none) in the
	// middle of a chain goes on
	// as a piece of Fly moving both ways (a man crowned at once), or with
	// PromoteEnds its chain ends there.
	PromoteRow  int
	PromoteEnds bool
}

// promoted is how the piece moving as m goes on after landing on site
// to in the middle of a chain, and whether its chain ends there.
func (c *Ctx) promoted(h *Hops, m mover, to int32) (mover, bool) {
	if m.fly || h.PromoteRow == 0 || c.Def.Board.sites[to].Row != h.PromoteRow-1 {
		return m, false
	}
	if h.PromoteEnds {
		return m, true
	}
	return mover{head: BothWays, fly: true}, false
}

// ray is a line read from one of its sites onward, one way.
type ray struct {
	line, at int32
	d        int8
}

// mover is how the piece on a site moves.
type mover struct {
	head Heading
	fly  bool
}

// hopTesters are a Hops' filters' tests, with the mover to move.
type hopTesters struct {
	from, both, over, fly Tester
}

func (h *Hops) testers(mover int) hopTesters {
	var t hopTesters
	t.from = h.From.Tester(mover)
	if h.Both != nil {
		t.both = h.Both.Tester(mover)
	}
	if h.Over != nil {
		t.over = h.Over.Tester(mover)
	}
	if h.Fly != nil {
		t.fly = h.Fly.Tester(mover)
	}
	return t
}

// passes reports whether site i passes f, whose tests are t.
func (c *Ctx) passes(f *Filter, t *Tester, owners []int32, i int32) bool {
	return t.OK(c.S.Cells, owners, i) && (!t.Rare || f.MatchesOwner(c.S.Cells, &c.Def.Layout, c.Mover, i))
}

// moverAt is how the piece on site i moves.
func (c *Ctx) moverAt(h *Hops, t *hopTesters, owners []int32, i int32) mover {
	m := mover{head: h.Heading}
	if h.Both != nil && c.passes(h.Both, &t.both, owners, i) {
		m.head = BothWays
	}
	m.fly = h.Fly != nil && c.passes(h.Fly, &t.fly, owners, i)
	return m
}

// marked reports whether site s is among the marked sites.
func marked(ms []int32, s int32) bool {
	for _, x := range ms {
		if x == s {
			return true
		}
	}
	return false
}

// hopsFrom appends to dst the hops of a piece moving as m from site i,
// ordered by the site landed on: the steps (Over -1) without h.Over, the
// jumps with it, never over a marked site. It returns them and the
// neighbours, jumps or sites of lines it looked at.
func (c *Ctx) hopsFrom(dst []Jump, h *Hops, t *hopTesters, owners []int32, m mover, i int32, ms []int32) ([]Jump, int) {
	cells, b := c.S.Cells, c.Def.Board
	start, looked := len(dst), 0
	if !m.fly {
		if h.Over == nil {
			ns := b.Toward(int(i), m.head)
			for _, to := range ns {
				if cells[to] == 0 {
					dst = append(dst, Jump{Over: -1, To: to})
				}
			}
			return dst, len(ns)
		}
		last := int32(-1) // jumps are by landing site: one over two neighbours to one site is listed once
		js := b.JumpsToward(int(i), m.head)
		for _, j := range js {
			if j.To == last || cells[j.To] != 0 || !c.passes(h.Over, &t.over, owners, j.Over) || marked(ms, j.Over) {
				continue
			}
			last = j.To
			dst = append(dst, j)
		}
		return dst, len(js)
	}
	head, across := m.head.across()
	row := b.sites[i].Row
	for w := 0; w < 2; w++ {
		rs := b.raysAhead[i]
		if w == 1 {
			rs = b.raysBack[i]
		}
		// Against the heading, a piece that may go across keeps to
		// its row: a ray ends where its line leaves the row.
		inRow := head == Ahead && w == 1 || head == Back && w == 0
		if inRow && !across {
			continue
		}
		for _, r := range rs {
			line, d := b.lines[r.line], int(r.d)
			k := int(r.at) + d
			for ; b.onRay(line, k, inRow, row) && cells[line[k]] == 0; k += d {
				looked++
				if h.Over == nil {
					dst = append(dst, Jump{Over: -1, To: line[k]})
				}
			}
			if h.Over == nil || !b.onRay(line, k, inRow, row) {
				continue
			}
			over := line[k]
			looked++
			if !c.passes(h.Over, &t.over, owners, over) || marked(ms, over) {
				continue
			}
			for k += d; b.onRay(line, k, inRow, row) && cells[line[k]] == 0; k += d {
				looked++
				dst = append(dst, Jump{Over: over, To: line[k]})
			}
		}
	}
	// By the site landed on, as the tables of neighbours and jumps are,
	// each site once: two lines may leave i through one neighbour, or
	// meet again further on.
	hs := dst[start:]
	twice := false
	for x := 1; x < len(hs); x++ {
		y := x
		for ; y > 0 && hs[y].To < hs[y-1].To; y-- {
			hs[y], hs[y-1] = hs[y-1], hs[y]
		}
		twice = twice || y > 0 && hs[y].To == hs[y-1].To
	}
	if twice {
		return dst[:start+onceEach(hs)], looked
	}
	return dst, looked
}

// onceEach moves the first of each run of hops landing on one site to
// the front of hs, which is sorted by the site landed on, and returns
// how many there are.
func onceEach(hs []Jump) int {
	n := 0
	for _, j := range hs {
		if n > 0 && hs[n-1].To == j.To {
			continue
		}
		hs[n] = j
		n++
	}
	return n
}

// onRay reports whether position k of line is one of the line's sites
// and, with inRow, a site of row row.
func (b *Board) onRay(line []int32, k int, inRow bool, row int) bool {
	return k >= 0 && k < len(line) && (!inRow || b.sites[line[k]].Row == row)
}

// chain returns the most pieces the piece moving as m, on site at, can
// jump one after another, the marked sites not jumped; the caller has
// emptied the site the piece started from.
func (c *Ctx) chain(h *Hops, t *hopTesters, owners []int32, m mover, at int32, ms []int32) (int, error) {
	var buf [16]Jump
	js, looked := c.hopsFrom(buf[:0], h, t, owners, m, at, ms)
	if err := c.Charge(1 + looked/ItemsPerStep); err != nil {
		return 0, err
	}
	best := 0
	for _, j := range js {
		next, ends := c.promoted(h, m, j.To)
		n := 0
		if !ends {
			var err error
			if n, err = c.chain(h, t, owners, next, j.To, append(ms, j.Over)); err != nil {
				return 0, err
			}
		}
		best = max(best, n+1)
	}
	return best, nil
}

// afterJump returns the most pieces (any: at most one) the piece moving
// as m from site from can jump after the jump j, the marked sites and
// j.Over not jumped.
func (c *Ctx) afterJump(h *Hops, t *hopTesters, owners []int32, m mover, from int32, j Jump, ms []int32, any bool) (int, error) {
	cells := c.S.Cells
	saved := cells[from]
	cells[from] = 0
	var n int
	var err error
	if any {
		var buf [16]Jump
		var js []Jump
		var looked int
		js, looked = c.hopsFrom(buf[:0], h, t, owners, m, j.To, append(ms, j.Over))
		err = c.Charge(1 + looked/ItemsPerStep)
		n = min(len(js), 1)
	} else if next, ends := c.promoted(h, m, j.To); !ends {
		n, err = c.chain(h, t, owners, next, j.To, append(ms, j.Over))
	}
	cells[from] = saved
	return n, err
}

// EmitHops adds a move of kind k for each hop of the pieces h describes,
// charging the filter's sites, the neighbours, jumps or sites of lines it
// looks at and the moves it lists, with c.Mover to move: from every site
// of h.From, or with at >= 0 from site at only, which must pass h.From.
// The sites of ms are marked: no jump goes over them. A move names the
// site moved from and the site moved to, or with landing only the site
// moved to (the next jump of a piece that waits). A move the decision
// lists already is not listed again.
func (c *Ctx) EmitHops(k int, h *Hops, at int, landing bool, ms []int32) (int, error) {
	if h.Fly == nil && !h.Most {
		return c.emitNear(k, h, at, landing, ms)
	}
	f := h.From
	if err := c.Charge(f.Cost()); err != nil {
		return 0, err
	}
	owners := c.Def.Layout.OwnersOf(c.S.Cells)
	t := h.testers(c.Mover)
	mv := Move{Kind: uint8(k), N: 2, game: c.Def.Tag}
	if landing {
		mv.N = 1
	}
	check := c.listedKind(mv.Kind)
	start := len(c.S.Moves)
	cand := f.cand
	var one [1]int32
	if at >= 0 {
		one[0] = int32(at)
		cand = one[:]
	}
	jumping := h.Over != nil
	best := 0
	if jumping && h.Most {
		for _, i := range cand {
			if !c.passes(f, &t.from, owners, i) {
				continue
			}
			m := c.moverAt(h, &t, owners, i)
			saved := c.S.Cells[i]
			c.S.Cells[i] = 0
			n, err := c.chain(h, &t, owners, m, i, ms)
			c.S.Cells[i] = saved
			if err != nil {
				return 0, err
			}
			best = max(best, n)
		}
		if best == 0 {
			return 0, nil
		}
	}
	var buf [32]Jump
	var goOn, onBuf [32]bool
	looked := 0
	for _, i := range cand {
		if !c.passes(f, &t.from, owners, i) {
			continue
		}
		m := c.moverAt(h, &t, owners, i)
		js, n := c.hopsFrom(buf[:0], h, &t, owners, m, i, ms)
		looked += n
		keep := goOn[:0]
		switch {
		case jumping && h.Most:
			for _, j := range js {
				n, err := c.afterJump(h, &t, owners, m, i, j, ms, false)
				if err != nil {
					return len(c.S.Moves) - start, err
				}
				keep = append(keep, n+1 == best)
			}
		case jumping && h.GoOn && m.fly && len(js) > 1:
			on := onBuf[:0]
			for _, j := range js {
				n, err := c.afterJump(h, &t, owners, m, i, j, ms, true)
				if err != nil {
					return len(c.S.Moves) - start, err
				}
				on = append(on, n > 0)
			}
			// Where it can go on; beyond a piece from which no landing
			// goes on, every landing.
			for x, j := range js {
				any := false
				for y, o := range js {
					any = any || o.Over == j.Over && on[y]
				}
				keep = append(keep, on[x] || !any)
			}
		}
		for x, j := range js {
			if len(keep) > 0 && !keep[x] {
				continue
			}
			if landing {
				mv.Sites[0] = uint16(j.To)
			} else {
				mv.Sites[0], mv.Sites[1] = uint16(i), uint16(j.To)
			}
			var err error
			if check {
				_, err = c.PushNew(mv)
			} else {
				err = c.Push(mv)
			}
			if err != nil {
				return len(c.S.Moves) - start, err
			}
		}
	}
	if err := c.Charge(looked / ItemsPerStep); err != nil {
		return len(c.S.Moves) - start, err
	}
	return len(c.S.Moves) - start, c.chargeMoves(start)
}

// emitNear is EmitHops for pieces that move one site (no Fly, no Most),
// in one pass.
func (c *Ctx) emitNear(k int, h *Hops, at int, landing bool, ms []int32) (int, error) {
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
		head := h.Heading
		if h.Both != nil && both.OK(cells, owners, i) && (!both.Rare || h.Both.MatchesOwner(cells, l, c.Mover, i)) {
			head = BothWays
		}
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
			if j.To == last || cells[j.To] != 0 || !over.OK(cells, owners, j.Over) || over.Rare && !h.Over.MatchesOwner(cells, l, c.Mover, j.Over) || len(ms) > 0 && marked(ms, j.Over) {
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
// describes, with c.Mover to move, no jump going over a site of ms.
func (c *Ctx) CanHop(h *Hops, at int, ms []int32) (bool, error) {
	b := c.Def.Board
	if err := c.Charge((len(b.adj[at])+len(b.jumps[at]))/ItemsPerStep + 1); err != nil {
		return false, err
	}
	if h.Fly == nil {
		return c.canHopNear(h, at, ms), nil
	}
	owners := c.Def.Layout.OwnersOf(c.S.Cells)
	t := h.testers(c.Mover)
	i := int32(at)
	if !c.passes(h.From, &t.from, owners, i) {
		return false, nil
	}
	var buf [32]Jump
	js, looked := c.hopsFrom(buf[:0], h, &t, owners, c.moverAt(h, &t, owners, i), i, ms)
	if err := c.Charge(looked / ItemsPerStep); err != nil {
		return false, err
	}
	return len(js) > 0, nil
}

// Between returns the sites strictly between sites a and b along a line
// through both, in order from a, appended to dst; nil when no line holds
// both.
func (b *Board) Between(dst []int32, from, to int) []int32 {
	sites, next := b.route(dst, from, to, 0)
	switch {
	case next < 0:
		return nil
	case sites == nil:
		return []int32{}
	}
	return sites
}

// hasTwoRoutes reports whether two lines of the board share two sites:
// between those a jump may go two ways. It is found once, on the first
// call, by reading the sites of the lines through each site (lineWork
// reads, as flatAt copies them); a board whose lines would take more
// than maxFlatSites reads is taken to have two routes (its jumps then
// look at every way, which costs more but is right on any board).
func (b *Board) hasTwoRoutes() bool {
	b.routes.Do(func() {
		if b.lineWork > maxFlatSites {
			b.twoRoutes = true
			return
		}
		seen := make([]int32, len(b.sites)) // per site: 1 + the last site whose lines held it
		for s, ls := range b.linesAt {
			for _, li := range ls {
				for _, t := range b.lines[li] {
					if int(t) == s {
						continue
					}
					if seen[t] == int32(s)+1 { // a second line through s holds t
						b.twoRoutes = true
						return
					}
					seen[t] = int32(s) + 1
				}
			}
		}
	})
	return b.twoRoutes
}

// route returns the sites strictly between from and to along the first
// way the board's lines join them from place at on (places: each jump
// from `from`, then each line through it, the order Between takes the
// first of), in order from `from`, appended to dst, and the place after
// it: the next way is route's from there. next is -1 when no way is left.
func (b *Board) route(dst []int32, from, to, at int) (_ []int32, next int) {
	js := b.jumps[from]
	for ; at < len(js); at++ {
		if int(js[at].To) == to {
			return append(dst, js[at].Over), at + 1
		}
	}
	for ls := b.linesAt[from]; at-len(js) < len(ls); at++ {
		line := b.lines[ls[at-len(js)]]
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
		return dst, at + 1
	}
	return dst, -1
}

// JumpedOver returns the sites a move of player p from `from` to `to`
// passed over, appended to dst: Between's, along the first line joining
// them, on every board but one where two lines join the same two sites.
// There a move named by its two ends may have gone either way, and it is
// the first way whose sites between hold exactly one piece, another
// player's (the piece a jump passes over; the listing names a jump by its
// ends once); Between's when no way does. The ways are read once each.
func (c *Ctx) JumpedOver(dst []int32, p, from, to int) []int32 {
	b := c.Def.Board
	if !b.hasTwoRoutes() {
		return b.Between(dst, from, to)
	}
	start := len(dst)
	for at := 0; ; {
		var sites []int32
		if sites, at = b.route(dst[:start], from, to, at); at < 0 {
			break
		}
		if c.oneOfAnother(sites[start:], p) {
			return sites
		}
	}
	return b.Between(dst[:start], from, to)
}

// oneOfAnother reports whether the sites hold exactly one piece, of a
// player other than p.
func (c *Ctx) oneOfAnother(sites []int32, p int) bool {
	pieces, theirs := 0, 0
	for _, s := range sites {
		if c.S.Cells[s] != 0 {
			pieces++
			if o := c.Owner(int(s)); o != 0 && o != p {
				theirs++
			}
		}
	}
	return pieces == 1 && theirs == 1
}

// CaptureBetween moves the pieces of players other than p on the sites
// between from and to along a line into p's captured total (the pieces a
// jump passes over, JumpedOver) and returns the counters captured.
func (c *Ctx) CaptureBetween(p, from, to int) (int, error) {
	if err := c.Charge(int(c.Def.Board.lineCost[from])); err != nil {
		return 0, err
	}
	var buf [16]int32
	n := 0
	for _, s := range c.JumpedOver(buf[:0], p, from, to) {
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

// LineCost is the steps reading the lines through site s costs.
func (c *Ctx) LineCost(s int) int { return int(c.Def.Board.lineCost[s]) }

// canHopNear is CanHop for pieces that move one site, charged already.
func (c *Ctx) canHopNear(h *Hops, at int, ms []int32) bool {
	cells, l, b := c.S.Cells, &c.Def.Layout, c.Def.Board
	owners := l.OwnersOf(cells)
	i := int32(at)
	if t := h.From.Tester(c.Mover); !t.OK(cells, owners, i) || t.Rare && !h.From.MatchesOwner(cells, l, c.Mover, i) {
		return false
	}
	head := h.Heading
	if h.Both != nil {
		if both := h.Both.Tester(c.Mover); both.OK(cells, owners, i) && (!both.Rare || h.Both.MatchesOwner(cells, l, c.Mover, i)) {
			head = BothWays
		}
	}
	if h.Over == nil {
		for _, to := range b.Toward(at, head) {
			if cells[to] == 0 {
				return true
			}
		}
		return false
	}
	over := h.Over.Tester(c.Mover)
	for _, j := range b.JumpsToward(at, head) {
		if cells[j.To] == 0 && over.OK(cells, owners, j.Over) && (!over.Rare || h.Over.MatchesOwner(cells, l, c.Mover, j.Over)) && (len(ms) == 0 || !marked(ms, j.Over)) {
			return true
		}
	}
	return false
}
