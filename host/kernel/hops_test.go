package kernel

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The headings that go across (AheadAcross, BackAcross): a piece moves
// one way along its lines and either way within its row, as a man of the
// Alquerque family or a goose moves forward or sideways, never back.

// squareBoard is a 3x3 grid whose lines run from row a to row c on the
// columns and diagonals (a3-b2-c1 too) and from column 1 to 3 on the
// rows.
func squareBoard(t *testing.T) *Board {
	t.Helper()
	lines := [][]string{
		{"a1", "a2", "a3"}, {"b1", "b2", "b3"}, {"c1", "c2", "c3"},
		{"a1", "b1", "c1"}, {"a2", "b2", "c2"}, {"a3", "b3", "c3"},
		{"a1", "b2", "c3"}, {"a3", "b2", "c1"},
	}
	b, err := NewBoard(BoardSpec{Rows: []string{"a", "b", "c"}, Columns: 3, Lines: lines, Style: Pieces})
	require.NoError(t, err)
	return b
}

// vBoard is a board of points: row a (a1 a3 a5, a line west to east), two
// diagonals up to c3 (a1-b2-c3, a5-b4-c3), and a bent line b2-a3-b4
// whose two ends are in row b and whose middle is not.
func vBoard(t *testing.T) *Board {
	t.Helper()
	points := map[string]int{"a1": 1, "a3": 3, "a5": 5, "b2": 2, "b4": 4, "c3": 3}
	lines := [][]string{{"a1", "a3", "a5"}, {"a1", "b2", "c3"}, {"a5", "b4", "c3"}, {"b2", "a3", "b4"}}
	b, err := NewBoard(BoardSpec{Points: points, Order: []string{"a1", "a3", "a5", "b2", "b4", "c3"}, Lines: lines, Style: Pieces})
	require.NoError(t, err)
	return b
}

// forkBoard is a board of points where two lines leave a3 through one
// neighbour, b3, and part there: a3-b3-c2-d1 and a3-b3-c4-d5.
func forkBoard(t *testing.T) *Board {
	t.Helper()
	points := map[string]int{"a3": 3, "b3": 3, "c2": 2, "c4": 4, "d1": 1, "d5": 5}
	lines := [][]string{{"a3", "b3", "c2", "d1"}, {"a3", "b3", "c4", "d5"}}
	b, err := NewBoard(BoardSpec{Points: points, Order: []string{"a3", "b3", "c2", "c4", "d1", "d5"}, Lines: lines, Style: Pieces})
	require.NoError(t, err)
	return b
}

// hopCtx is a Ctx on board b with Player 1 to move, Player 1's pieces on
// the sites one, Player 2's on two.
func hopCtx(t testing.TB, b *Board, one, two []string) *Ctx {
	t.Helper()
	n := b.NumSites()
	def := &Def{Board: b, Players: 2, Layout: NewLayout(n, 2, 0, 0)}
	mk, err := NewMoveKind("move", "{1}-{2}", "")
	require.NoError(t, err)
	def.Kinds = append(def.Kinds, mk)
	s := &State{Cells: make([]int32, def.Layout.Size)}
	for p, names := range [][]string{one, two} {
		for _, name := range names {
			i, ok := b.Index(name)
			require.True(t, ok, name)
			s.Cells[i], s.Cells[n+i] = 1, int32(p+1)
		}
	}
	c := &Ctx{Def: def}
	c.Reset(s, Unmetered{}, 1)
	return c
}

// hopTokens lists the hops h describes for Player 1 as from-to.
func hopTokens(t *testing.T, c *Ctx, h *Hops) []string {
	t.Helper()
	c.S.Moves = c.S.Moves[:0]
	_, err := c.EmitHops(0, h, -1, false, nil)
	require.NoError(t, err)
	var out []string
	for _, m := range c.S.Moves {
		out = append(out, c.Def.Board.SiteName(int(m.Sites[0]))+"-"+c.Def.Board.SiteName(int(m.Sites[1])))
	}
	return out
}

func TestHopsAcross(t *testing.T) {
	for _, c := range []struct {
		name     string
		board    func(*testing.T) *Board
		one, two []string
		head     Heading
		jump     bool
		fly      bool
		want     []string
	}{
		{"steps ahead or across", squareBoard, []string{"b2"}, nil, AheadAcross, false, false,
			[]string{"b2-b1", "b2-b3", "b2-c1", "b2-c2", "b2-c3"}},
		{"steps back or across", squareBoard, []string{"b2"}, nil, BackAcross, false, false,
			[]string{"b2-a1", "b2-a2", "b2-a3", "b2-b1", "b2-b3"}},
		{"steps ahead only, for comparison", squareBoard, []string{"b2"}, nil, Ahead, false, false,
			[]string{"b2-b3", "b2-c1", "b2-c2", "b2-c3"}},
		{"steps from the last row go across only", squareBoard, []string{"c2"}, nil, AheadAcross, false, false,
			[]string{"c2-c1", "c2-c3"}},
		{"jumps across against a row's order", squareBoard, []string{"a3"}, []string{"a2", "b2", "b3"}, AheadAcross, true, false,
			[]string{"a3-a1", "a3-c1", "a3-c3"}},
		{"no jump across with Ahead", squareBoard, []string{"a3"}, []string{"a2", "b2", "b3"}, Ahead, true, false,
			[]string{"a3-c1", "a3-c3"}},
		{"no jump back off the row", squareBoard, []string{"c3"}, []string{"b3", "b2", "c2"}, AheadAcross, true, false,
			[]string{"c3-c1"}},
		{"flies ahead or across", squareBoard, []string{"a2"}, nil, AheadAcross, false, true,
			[]string{"a2-a1", "a2-a3", "a2-b2", "a2-c2"}},
		{"flies back or across", squareBoard, []string{"c3"}, nil, BackAcross, false, true,
			[]string{"c3-a1", "c3-a3", "c3-b2", "c3-b3", "c3-c1", "c3-c2"}},
		{"a flying jump across", squareBoard, []string{"a3"}, []string{"a2"}, AheadAcross, true, true,
			[]string{"a3-a1"}},
		{"no flying jump off the row", squareBoard, []string{"c3"}, []string{"b2"}, AheadAcross, true, true, nil},
		{"points: a row's steps across, and back along the bent line", vBoard, []string{"a3"}, nil, BackAcross, false, false,
			[]string{"a3-a1", "a3-a5", "a3-b2"}},
		{"points: a bent line leaves the row", vBoard, []string{"b4"}, nil, AheadAcross, false, false,
			[]string{"b4-c3"}},
		{"points: no jump over a site of another row", vBoard, []string{"b4"}, []string{"a3"}, AheadAcross, true, false, nil},
		{"points: both ways the bent line's jump", vBoard, []string{"b4"}, []string{"a3"}, BothWays, true, false,
			[]string{"b4-b2"}},
		{"points: a flying piece stops where the line leaves the row", vBoard, []string{"b4"}, nil, AheadAcross, false, true,
			[]string{"b4-c3"}},
		{"points: flying across a row", vBoard, []string{"a5"}, nil, BackAcross, false, true,
			[]string{"a5-a1", "a5-a3"}},
		{"points: a flying piece follows both lines through one neighbour", forkBoard, []string{"a3"}, nil, BothWays, false, true,
			[]string{"a3-b3", "a3-c2", "a3-c4", "a3-d1", "a3-d5"}},
		{"points: a flying jump over the shared neighbour lands along both lines", forkBoard, []string{"a3"}, []string{"b3"}, BothWays, true, true,
			[]string{"a3-c2", "a3-c4", "a3-d1", "a3-d5"}},
		{"points: a flying jump along the second line", forkBoard, []string{"a3"}, []string{"c4"}, Ahead, true, true,
			[]string{"a3-d5"}},
		{"points: back along both lines to the fork's start", forkBoard, []string{"d5"}, nil, Back, false, true,
			[]string{"d5-a3", "d5-b3", "d5-c4"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := c.board(t)
			ctx := hopCtx(t, b, c.one, c.two)
			mine := NewFilter(b, FilterSpec{Rel: OwnerMover, Owner: -1, Min: 1, Max: -1, Row: -1})
			h := &Hops{From: mine, Heading: c.head}
			if c.jump {
				h.Over = NewFilter(b, FilterSpec{Rel: OwnerOpponent, Owner: -1, Min: 1, Max: -1, Row: -1})
			}
			if c.fly {
				h.Fly = mine
			}
			assert.Equal(t, c.want, hopTokens(t, ctx, h))
			at, _ := b.Index(c.one[0])
			can, err := ctx.CanHop(h, at, nil)
			require.NoError(t, err)
			assert.Equal(t, len(c.want) > 0, can, "CanHop")
		})
	}
}

// refHops are the hops of Player 1's piece on site i, found from the
// lines themselves: along a line in heading h, or against it with every
// site passed and landed on in i's row; a step to an empty site (with fly
// any up to the first piece), a jump over a piece of Player 2's to the
// empty site beyond (with fly over empty sites before it, to any empty
// site after it before the next piece).
func refHops(c *Ctx, i int32, h Heading, jump, fly bool) []string {
	b, cells := c.Def.Board, c.S.Cells
	own, across := h.across()
	found := map[int32]bool{}
	for _, line := range b.lines {
		k := slices.Index(line, i)
		if k < 0 {
			continue
		}
		for _, d := range []int{1, -1} {
			along := own == BothWays || own == Ahead && d > 0 || own == Back && d < 0
			if !along && !across {
				continue
			}
			open := func(x int) bool {
				return x >= 0 && x < len(line) && (along || b.sites[line[x]].Row == b.sites[i].Row)
			}
			empty := func(x int) bool { return open(x) && cells[line[x]] == 0 }
			x := k + d
			if jump {
				for fly && empty(x) {
					x += d
				}
				if !open(x) || c.Owner(int(line[x])) != 2 {
					continue
				}
				x += d
			}
			for ; empty(x); x += d {
				found[line[x]] = true
				if !fly {
					break
				}
			}
		}
	}
	var out []string
	for to := range int32(b.NumSites()) {
		if found[to] {
			out = append(out, b.SiteName(int(i))+"-"+b.SiteName(int(to)))
		}
	}
	return out
}

// TestHopsAcrossAgreeWithLines: on random boards, the hops of every
// heading, stepping and jumping, one site and flying, are those read from
// the lines directly.
func TestHopsAcrossAgreeWithLines(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 40 {
		// Extra lines, which may leave a site through the neighbour of
		// another and part from it further on.
		extra := 0
		if trial%2 == 0 {
			extra = rng.IntN(4)
		}
		b := randomBoard(t, rng, 3+rng.IntN(4), 3+rng.IntN(4), rng.IntN(4), extra)
		n := b.NumSites()
		var one, two []string
		for s := range n {
			switch rng.IntN(4) {
			case 0:
				one = append(one, b.SiteName(s))
			case 1:
				two = append(two, b.SiteName(s))
			}
		}
		c := hopCtx(t, b, one, two)
		for _, head := range []Heading{BothWays, Ahead, Back, AheadAcross, BackAcross} {
			for _, jump := range []bool{false, true} {
				for _, fly := range []bool{false, true} {
					var want []string
					for _, name := range one {
						i, _ := b.Index(name)
						want = append(want, refHops(c, int32(i), head, jump, fly)...)
					}
					mine := NewFilter(b, FilterSpec{Rel: OwnerMover, Owner: -1, Min: 1, Max: -1, Row: -1})
					h := &Hops{From: mine, Heading: head}
					if jump {
						h.Over = NewFilter(b, FilterSpec{Rel: OwnerOpponent, Owner: -1, Min: 1, Max: -1, Row: -1})
					}
					if fly {
						h.Fly = mine
					}
					where := fmt.Sprintf("trial %d heading %d jump %v fly %v", trial, head, jump, fly)
					assert.Equal(t, want, hopTokens(t, c, h), where)
				}
			}
		}
	}
}

// TestHasTwoRoutes: a board knows whether two of its lines share two
// sites (a jump between those may go two ways), and takes a board whose
// lines are too long to read for one that does.
func TestHasTwoRoutes(t *testing.T) {
	square := func(t *testing.T) *Board { // three rows, three columns, two diagonals
		names := []string{"a1", "a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3"}
		points := map[string]int{}
		for i, n := range names {
			points[n] = i
		}
		lines := [][]string{{"a1", "a2", "a3"}, {"b1", "b2", "b3"}, {"c1", "c2", "c3"}, {"a1", "b1", "c1"}, {"a2", "b2", "c2"},
			{"a3", "b3", "c3"}, {"a1", "b2", "c3"}, {"a3", "b2", "c1"}}
		b, err := NewBoard(BoardSpec{Points: points, Order: names, Lines: lines, Style: Pieces})
		require.NoError(t, err)
		return b
	}
	diamond := func(t *testing.T) *Board {
		names := []string{"a3", "b2", "b4", "c3"}
		b, err := NewBoard(BoardSpec{Points: map[string]int{"a3": 0, "b2": 1, "b4": 2, "c3": 3}, Order: names,
			Lines: [][]string{{"a3", "b2", "c3"}, {"a3", "b4", "c3"}}, Style: Pieces})
		require.NoError(t, err)
		return b
	}
	long := func(t *testing.T) *Board { // one line of 1,100 sites: 1,210,000 reads, over maxFlatSites
		var names []string
		points := map[string]int{}
		for i := range 1100 {
			n := fmt.Sprintf("p%d", i)
			names = append(names, n)
			points[n] = i
		}
		b, err := NewBoard(BoardSpec{Points: points, Order: names, Lines: [][]string{names}, Style: Pieces})
		require.NoError(t, err)
		return b
	}
	for _, c := range []struct {
		name  string
		board func(*testing.T) *Board
		want  bool
	}{
		{"a square's lines meet once", square, false},
		{"two lines join a3 and c3", diamond, true},
		{"two lines leave a3 through b3", forkBoard, true},
		{"lines too long to read are taken to", long, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, c.board(t).hasTwoRoutes())
		})
	}
}
