package kernel

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// The emitters, filters and line tests take fast paths (sets of sites on
// boards of at most 64, appends without checks, lines all of one length);
// these tests compare them with the plain definitions, written here as
// loops over Matches, on random boards, filters and states.

// randomBoard is a grid of rows x cols sites with its rows, columns and
// diagonals as lines (split into lines of length at most maxLen, or
// whole), and extra random lines that make jumps land on neighbours or on
// one site twice.
func randomBoard(t *testing.T, rng *rand.Rand, rows, cols, maxLen, extra int) *Board {
	t.Helper()
	labels := []string{}
	for r := range rows {
		labels = append(labels, string(rune('a'+r)))
	}
	name := func(r, c int) string { return labels[r] + strconv.Itoa(c+1) }
	var lines [][]string
	add := func(l []string) {
		for len(l) >= 2 {
			n := len(l)
			if maxLen > 0 {
				n = min(n, maxLen)
			}
			if n < 2 {
				return
			}
			lines = append(lines, l[:n])
			l = l[n:]
		}
	}
	for r := range rows {
		var l []string
		for c := range cols {
			l = append(l, name(r, c))
		}
		add(l)
	}
	for c := range cols {
		var l []string
		for r := range rows {
			l = append(l, name(r, c))
		}
		add(l)
	}
	for d := -rows; d <= cols; d++ {
		var l []string
		for r := range rows {
			if c := r + d; c >= 0 && c < cols {
				l = append(l, name(r, c))
			}
		}
		add(l)
	}
	for range extra {
		n := 2 + rng.IntN(3)
		seen := map[string]bool{}
		var l []string
		for len(l) < n {
			x := name(rng.IntN(rows), rng.IntN(cols))
			if !seen[x] {
				seen[x] = true
				l = append(l, x)
			}
		}
		lines = append(lines, l)
	}
	b, err := NewBoard(BoardSpec{Rows: labels, Columns: cols, Lines: lines, Style: Pieces})
	require.NoError(t, err)
	if _, err := b.AddTag("t", []int{0, 2, 3}); err != nil {
		t.Fatal(err)
	}
	return b
}

func randomFilter(rng *rand.Rand, b *Board) (*Filter, FilterSpec) {
	spec := FilterSpec{Owner: -1, Max: -1, Row: -1}
	switch rng.IntN(5) {
	case 0:
		spec.Rel = OwnerMover
	case 1:
		spec.Rel = OwnerOpponent
	case 2:
		spec.Owner = rng.IntN(3)
	}
	if rng.IntN(2) == 0 {
		spec.Min = rng.IntN(3)
	}
	if rng.IntN(3) == 0 {
		spec.Max = rng.IntN(3)
	}
	if rng.IntN(6) == 0 {
		spec.Tag = 1
	}
	if rng.IntN(8) == 0 {
		spec.Row = rng.IntN(b.NumRows())
	}
	if rng.IntN(8) == 0 {
		spec.NotInRow = 2 + rng.IntN(2)
	}
	if rng.IntN(6) == 0 {
		spec.Supported = true
	}
	return NewFilter(b, spec), spec
}

// fastFixture is a Ctx on a random state of board b.
func fastFixture(rng *rand.Rand, b *Board) *Ctx {
	n := b.NumSites()
	def := &Def{Board: b, Players: 2, Layout: NewLayout(n, 2, 0, 0), Tag: 7}
	for _, k := range []struct{ name, tmpl string }{{"one", "{1}"}, {"two", "{1}-{2}"}, {"other", "x{1}-{2}"}} {
		mk, _ := NewMoveKind(k.name, k.tmpl, "")
		def.Kinds = append(def.Kinds, mk)
	}
	s := &State{Cells: make([]int32, def.Layout.Size)}
	for i := range n {
		switch rng.IntN(4) {
		case 0, 1:
		case 2:
			s.Cells[i], s.Cells[n+i] = 1, int32(1+rng.IntN(2))
		case 3:
			s.Cells[i], s.Cells[n+i] = int32(rng.IntN(4)), int32(rng.IntN(3))
		}
	}
	c := &Ctx{Def: def}
	c.Reset(s, Unmetered{}, 1+rng.IntN(2))
	return c
}

// prefill lists some random moves of kinds two and other first, so that
// steps and jumps may be listed already.
func prefill(rng *rand.Rand, c *Ctx) {
	n := c.Def.Board.NumSites()
	for range rng.IntN(6) {
		m := Move{Kind: uint8(1 + rng.IntN(2)), N: 2, game: c.Def.Tag}
		m.Sites[0], m.Sites[1] = uint16(rng.IntN(n)), uint16(rng.IntN(n))
		c.S.Moves = append(c.S.Moves, m)
	}
}

func matching(c *Ctx, f *Filter) []int32 {
	var out []int32
	for _, i := range f.cand {
		if f.Matches(c.S.Cells, &c.Def.Layout, c.Mover, i) {
			out = append(out, i)
		}
	}
	return out
}

func refPush(list []Move, m Move, check bool) []Move {
	if check && slices.Contains(list, m) {
		return list
	}
	return append(list, m)
}

func refSteps(c *Ctx, list []Move, k int, f *Filter) []Move {
	cells := c.S.Cells
	for _, i := range matching(c, f) {
		for _, to := range c.Def.Board.adj[i] {
			if cells[to] == 0 {
				list = refPush(list, Move{Kind: uint8(k), N: 2, Sites: [4]uint16{uint16(i), uint16(to)}, game: c.Def.Tag}, true)
			}
		}
	}
	return list
}

func refJumps(c *Ctx, list []Move, k int, f *Filter) []Move {
	cells := c.S.Cells
	for _, i := range matching(c, f) {
		for _, j := range c.Def.Board.jumps[i] {
			if cells[j.Over] != 0 && cells[j.To] == 0 {
				list = refPush(list, Move{Kind: uint8(k), N: 2, Sites: [4]uint16{uint16(i), uint16(j.To)}, game: c.Def.Tag}, true)
			}
		}
	}
	return list
}

func TestFastPathsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	shapes := []struct{ rows, cols, maxLen, extra int }{
		{3, 3, 0, 0}, {3, 3, 0, 3}, {3, 3, 3, 0}, {4, 4, 3, 2}, {5, 5, 0, 4}, {6, 8, 3, 0}, {8, 8, 0, 2}, {9, 9, 3, 3}, {5, 13, 0, 0},
	}
	for _, sh := range shapes {
		for trial := range 8 {
			b := randomBoard(t, rng, sh.rows, sh.cols, sh.maxLen, sh.extra)
			for round := range 15 {
				c := fastFixture(rng, b)
				f, spec := randomFilter(rng, b)
				g, _ := randomFilter(rng, b)
				where := fmt.Sprintf("%dx%d/%d+%d trial %d round %d filter %+v", sh.rows, sh.cols, sh.maxLen, sh.extra, trial, round, spec)
				l := &c.Def.Layout

				want := matching(c, f)
				require.Equal(t, len(want), f.Count(c.S.Cells, l, c.Mover), where)
				first := -1
				if len(want) > 0 {
					first = int(want[0])
				}
				require.Equal(t, first, f.First(c.S.Cells, l, c.Mover), where)
				require.Equal(t, slices.Concat([]int32{}, want), slices.Concat([]int32{}, f.AppendSites(nil, c.S.Cells, l, c.Mover)), where)
				sum := 0
				for _, i := range want {
					sum += int(c.S.Cells[i])
				}
				require.Equal(t, sum, f.Sum(c.S.Cells, l, c.Mover), where)
				require.Equal(t, sum == 0, f.Empty(c.S.Cells, l, c.Mover), where)

				prefill(rng, c)
				before := slices.Clone(c.S.Moves)
				var ref []Move
				switch round % 5 {
				case 0:
					ref = slices.Clone(before)
					for _, i := range want {
						ref = append(ref, Move{Kind: 0, N: 1, Sites: [4]uint16{uint16(i)}, game: c.Def.Tag})
					}
					_, err := c.EmitEach(0, f)
					require.NoError(t, err)
				case 1:
					ref = refSteps(c, slices.Clone(before), 1, f)
					_, err := c.EmitSteps(1, f)
					require.NoError(t, err)
				case 2:
					ref = refJumps(c, slices.Clone(before), 1, f)
					_, err := c.EmitJumps(1, f)
					require.NoError(t, err)
				case 3:
					ref = refJumps(c, refSteps(c, slices.Clone(before), 1, f), 1, f)
					_, err := c.EmitStepsJumps(1, f, f)
					require.NoError(t, err)
				case 4:
					ref = refJumps(c, refSteps(c, slices.Clone(before), 1, f), 1, g)
					_, err := c.EmitStepsJumps(1, f, g)
					require.NoError(t, err)
				}
				if len(ref) == 0 {
					require.Empty(t, c.S.Moves, where)
				} else {
					require.Equal(t, ref, c.S.Moves, where)
				}

				// Lines: every site, length and skip set agree with runOn.
				skip := make([]bool, b.NumLines())
				for li := range skip {
					skip[li] = rng.IntN(4) == 0
				}
				for _, k := range []int{-1, 0, 1, 2, 3, 4} { // k < 1 too: no caller may reach a fast path with it
					for _, sk := range [][]bool{nil, skip} {
						for site := -1; site < b.NumSites(); site++ {
							for _, anywhere := range []bool{false, true} {
								p := 1 + rng.IntN(2)
								wli, wend, wrun := refLineRun(c, p, site, k, anywhere, sk)
								li, end, run, err := c.LineRun(p, site, k, anywhere, sk)
								require.NoError(t, err)
								require.Equal(t, []int{wli, wend, wrun}, []int{li, end, run}, "%s: player %d site %d k %d anywhere %v", where, p, site, k, anywhere)
								if !anywhere {
									wli, wend := refExactRun(c, p, site, k, sk)
									li, end, err := c.ExactRun(p, site, k, sk)
									require.NoError(t, err)
									require.Equal(t, []int{wli, wend}, []int{li, end}, "%s: exactly: player %d site %d k %d", where, p, site, k)
								}
							}
						}
					}
				}
			}
		}
	}
}

func refLineRun(c *Ctx, p, site, k int, anywhere bool, skip []bool) (int, int, int) {
	b := c.Def.Board
	owners := c.S.Cells[c.Def.Layout.Owners:]
	var ls []int32
	if site >= 0 {
		ls = b.linesAt[site]
	} else {
		for l := range b.lines {
			ls = append(ls, int32(l))
		}
	}
	for _, l := range ls {
		if skip != nil && skip[l] {
			continue
		}
		if end, run := refRun(b.lines[l], owners, int32(p), int32(site), k, anywhere); run > 0 {
			return int(l), end, run
		}
	}
	return -1, 0, 0
}

// refRun is runOn as first written, without its shortcut for whole lines.
func refRun(line, owners []int32, p, site int32, k int, anywhere bool) (end, run int) {
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

// refExactRun is ExactRun written plainly: every run of p's sites on each
// line, from its first site to its last, and the first of exactly k
// sites that holds site (any, for site < 0).
func refExactRun(c *Ctx, p, site, k int, skip []bool) (li, end int) {
	b := c.Def.Board
	owners := c.S.Cells[c.Def.Layout.Owners:]
	var ls []int32
	if site >= 0 {
		ls = b.linesAt[site]
	} else {
		for l := range b.lines {
			ls = append(ls, int32(l))
		}
	}
	for _, l := range ls {
		line := b.lines[l]
		if skip != nil && skip[l] {
			continue
		}
		for i := 0; i < len(line); {
			j := i
			for j < len(line) && owners[line[j]] == int32(p) {
				j++
			}
			if j-i == k && k > 0 && (site < 0 || slices.Contains(line[i:j], int32(site))) {
				return int(l), j
			}
			i = max(j, i+1)
		}
	}
	return -1, 0
}
