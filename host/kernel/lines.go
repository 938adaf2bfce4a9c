package kernel

// ItemsPerStep is how many items (sites of a line, characters of a text)
// one step of the meter pays for.
const ItemsPerStep = 4

// InARow finds the first run of k or more of player p's sites along a
// line through site (any line when site < 0): the line, the end of the
// run (exclusive) and its length, or a nil line. anywhere counts p's
// sites of a line wherever they stand on it, not only in a run.
func (c *Ctx) InARow(p, site, k int, anywhere bool) (line []int32, end, run int, err error) {
	b := c.Def.Board
	owners := c.S.Cells[c.Def.Layout.Owners:]
	check := func(line []int32) (end, run int, err error) {
		if err := c.Charge(1 + len(line)/ItemsPerStep); err != nil {
			return 0, 0, err
		}
		hasSite := site < 0
		for i, x := range line {
			if int(owners[x]) != p {
				if !anywhere {
					run, hasSite = 0, site < 0
				}
				continue
			}
			run++
			hasSite = hasSite || int(x) == site
			if run >= k && (hasSite || anywhere) {
				return i + 1, run, nil
			}
		}
		return 0, 0, nil
	}
	if site >= 0 {
		for _, li := range b.linesAt[site] {
			end, run, err := check(b.lines[li])
			if run > 0 || err != nil {
				return b.lines[li], end, run, err
			}
		}
		return nil, 0, 0, nil
	}
	for _, line := range b.lines {
		end, run, err := check(line)
		if run > 0 || err != nil {
			return line, end, run, err
		}
	}
	return nil, 0, 0, nil
}

// OpenLines counts the lines of the board player p holds but for one
// site, which is empty: the lines p completes with one piece.
func (c *Ctx) OpenLines(p int) (int, error) {
	owners := c.S.Cells[c.Def.Layout.Owners:]
	n := 0
	for _, line := range c.Def.Board.lines {
		if err := c.Charge(1 + len(line)/ItemsPerStep); err != nil {
			return n, err
		}
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
