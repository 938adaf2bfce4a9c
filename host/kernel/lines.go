package kernel

// ItemsPerStep is how many items (sites of a line, characters of a text)
// one step of the meter pays for.
const ItemsPerStep = 4

// InARow finds the first run of k or more of player p's sites along a
// line through site (any line when site < 0): the line, the end of the
// run (exclusive) and its length, or a nil line. anywhere counts p's
// sites of a line wherever they stand on it, not only in a run.
func (c *Ctx) InARow(p, site, k int, anywhere bool) (line []int32, end, run int, err error) {
	li, end, run, err := c.LineRun(p, site, k, anywhere, nil)
	if li < 0 {
		return nil, 0, 0, err
	}
	return c.Def.Board.lines[li], end, run, err
}

// LineRun is InARow by the index of the line: the first line through
// site (of the board when site < 0), in the order of the lines through it,
// where p owns a run of k or more sites, site among them (anywhere: k of
// its sites wherever they stand); li is -1 when there is none. A line li
// with skip[li] set does not count (skip may be nil). It charges a step
// for every ItemsPerStep sites of the lines it may read, before reading.
func (c *Ctx) LineRun(p, site, k int, anywhere bool, skip []bool) (li, end, run int, err error) {
	b := c.Def.Board
	owners := c.S.Cells[c.Def.Layout.Owners:]
	if site >= 0 {
		if err := c.Charge(int(b.lineCost[site])); err != nil {
			return -1, 0, 0, err
		}
		p32 := int32(p)
		// lineLen is 0 when the lines' lengths differ (and there is no
		// flatAt then), so k must be positive to take this path.
		if L := b.lineLen; L > 0 && L == k && skip == nil { // whole lines, all of one length: the commonest case
			flat := b.flatAt[site]
			if L == 3 {
				for j, n := 0, 0; j+2 < len(flat); j, n = j+3, n+1 {
					if owners[flat[j]] == p32 && owners[flat[j+1]] == p32 && owners[flat[j+2]] == p32 {
						return int(b.linesAt[site][n]), k, k, nil
					}
				}
				return -1, 0, 0, nil
			}
		flat:
			for j, n := 0, 0; j+L <= len(flat); j, n = j+L, n+1 {
				for _, x := range flat[j : j+L] {
					if owners[x] != p32 {
						continue flat
					}
				}
				return int(b.linesAt[site][n]), k, k, nil
			}
			return -1, 0, 0, nil
		}
	lines:
		for _, l := range b.linesAt[site] {
			if skip != nil && skip[l] {
				continue
			}
			line := b.lines[l]
			if len(line) == k { // the whole line, the commonest case
				for _, x := range line {
					if owners[x] != p32 {
						continue lines
					}
				}
				return int(l), k, k, nil
			}
			if end, run := runOn(line, owners, p32, int32(site), k, anywhere); run > 0 {
				return int(l), end, run, nil
			}
		}
		return -1, 0, 0, nil
	}
	if err := c.Charge(b.allLinesCost); err != nil {
		return -1, 0, 0, err
	}
	for l, line := range b.lines {
		if skip != nil && skip[l] {
			continue
		}
		if end, run := runOn(line, owners, int32(p), -1, k, anywhere); run > 0 {
			return l, end, run, nil
		}
	}
	return -1, 0, 0, nil
}

// ExactRun is LineRun for a run of exactly k sites: the first line
// through site (of the board when site < 0), in the order of the lines
// through it, where p owns k sites in a row, site among them, and neither
// site beside them, so that a longer run does not count (three in a row
// that a fourth piece spoils). end is the end of the run (exclusive): the
// run is the line's sites end-k to end. li is -1 when there is none. It
// charges as LineRun.
func (c *Ctx) ExactRun(p, site, k int, skip []bool) (li, end int, err error) {
	b := c.Def.Board
	owners := c.S.Cells[c.Def.Layout.Owners:]
	if site >= 0 {
		if err := c.Charge(int(b.lineCost[site])); err != nil {
			return -1, 0, err
		}
		for _, l := range b.linesAt[site] {
			if skip != nil && skip[l] {
				continue
			}
			if end := exactRunOn(b.lines[l], owners, int32(p), int32(site), k); end > 0 {
				return int(l), end, nil
			}
		}
		return -1, 0, nil
	}
	if err := c.Charge(b.allLinesCost); err != nil {
		return -1, 0, err
	}
	for l, line := range b.lines {
		if skip != nil && skip[l] {
			continue
		}
		if end := exactRunOn(line, owners, int32(p), -1, k); end > 0 {
			return l, end, nil
		}
	}
	return -1, 0, nil
}

// exactRunOn finds on line the first run of exactly k of p's sites, from
// one site not p's (or the line's end) to the next, holding site (any
// such run when site < 0): the end of the run (exclusive), or 0.
func exactRunOn(line, owners []int32, p, site int32, k int) int {
	run, hasSite := 0, false
	for i := 0; i <= len(line); i++ {
		if i < len(line) && owners[line[i]] == p {
			run++
			hasSite = hasSite || line[i] == site
			continue
		}
		if run == k && k > 0 && (hasSite || site < 0) {
			return i
		}
		run, hasSite = 0, false
	}
	return 0
}

// runOn finds on line the first run of k or more of p's sites holding
// site (any run when site < 0; anywhere: k of p's sites anywhere on the
// line, site among them): the end of the run (exclusive) and its length,
// or a run of 0.
func runOn(line, owners []int32, p, site int32, k int, anywhere bool) (end, run int) {
	if len(line) == k { // the whole line, the commonest case
		for _, x := range line {
			if owners[x] != p {
				return 0, 0
			}
		}
		return k, k
	}
	hasSite := site < 0
	for i, x := range line {
		if owners[x] != p {
			if !anywhere {
				run, hasSite = 0, site < 0
			}
			continue
		}
		run++
		hasSite = hasSite || x == site
		if run >= k && (hasSite || anywhere) {
			return i + 1, run
		}
	}
	return 0, 0
}

// OpenLines counts the lines of the board player p holds but for one
// site, which is empty: the lines p completes with one piece.
func (c *Ctx) OpenLines(p int) (int, error) {
	owners := c.S.Cells[c.Def.Layout.Owners:]
	b := c.Def.Board
	if err := c.Charge(b.allLinesCost); err != nil {
		return 0, err
	}
	n := 0
	for _, line := range b.lines {
		mine, empty := 0, 0
		for _, x := range line {
			switch int(owners[x]) {
			case p:
				mine++
			case 0:
				empty++
			}
		}
		if empty == 1 && mine == len(line)-1 {
			n++
		}
	}
	return n, nil
}
