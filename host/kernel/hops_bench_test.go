package kernel

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// diagonalLines are the diagonals of an n x n board whose rows are a, b,
// ... and columns 1 to n, each from row a upwards: the lines of draughts.
func diagonalLines(n int) (rows []string, lines [][]string) {
	for r := range n {
		rows = append(rows, string(rune('a'+r)))
	}
	name := func(r, c int) string { return rows[r] + strconv.Itoa(c+1) }
	for _, dc := range []int{1, -1} {
		for r := range n {
			for c := range n {
				if pr, pc := r-1, c-dc; pr >= 0 && pc >= 0 && pc < n {
					continue // not the line's first site
				}
				var line []string
				for rr, cc := r, c; rr < n && cc >= 0 && cc < n; rr, cc = rr+1, cc+dc {
					line = append(line, name(rr, cc))
				}
				if len(line) >= 2 {
					lines = append(lines, line)
				}
			}
		}
	}
	return rows, lines
}

// draughtsCtx is a 10x10 board of diagonals with a third of its sites
// Player 1's and a third Player 2's, from a fixed seed.
func draughtsCtx(b testing.TB) *Ctx {
	rows, lines := diagonalLines(10)
	board, err := NewBoard(BoardSpec{Rows: rows, Columns: 10, Lines: lines, Style: Pieces})
	require.NoError(b, err)
	rng := rand.New(rand.NewPCG(7, 8))
	var one, two []string
	for s := range board.NumSites() {
		switch rng.IntN(3) {
		case 0:
			one = append(one, board.SiteName(s))
		case 1:
			two = append(two, board.SiteName(s))
		}
	}
	return hopCtx(b, board, one, two)
}

// BenchmarkEmitHops lists the hops of Player 1's pieces on a 10x10 board
// of diagonals, stepping and jumping, one site and flying.
func BenchmarkEmitHops(b *testing.B) {
	for _, c := range []struct {
		name       string
		jump, fly  bool
		most, goOn bool
	}{
		{"steps", false, false, false, false},
		{"jumps", true, false, false, false},
		{"steps_fly", false, true, false, false},
		{"jumps_fly", true, true, false, false},
		{"jumps_fly_go_on", true, true, false, true},
		{"jumps_fly_most", true, true, true, false},
	} {
		b.Run(c.name, func(b *testing.B) {
			ctx := draughtsCtx(b)
			board := ctx.Def.Board
			mine := NewFilter(board, FilterSpec{Rel: OwnerMover, Owner: -1, Min: 1, Max: -1, Row: -1})
			h := &Hops{From: mine, Heading: BothWays, GoOn: c.goOn, Most: c.most}
			if c.jump {
				h.Over = NewFilter(board, FilterSpec{Rel: OwnerOpponent, Owner: -1, Min: 1, Max: -1, Row: -1})
			}
			if c.fly {
				h.Fly = mine
			}
			b.ReportAllocs()
			for b.Loop() {
				ctx.S.Moves = ctx.S.Moves[:0]
				if _, err := ctx.EmitHops(0, h, -1, false, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkNewBoard makes the 10x10 board of diagonals.
func BenchmarkNewBoard(b *testing.B) {
	rows, lines := diagonalLines(10)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := NewBoard(BoardSpec{Rows: rows, Columns: 10, Lines: lines, Style: Pieces}); err != nil {
			b.Fatal(err)
		}
	}
}
