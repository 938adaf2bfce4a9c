package rules

import (
	"testing"

	"github.com/matombo/matombo/host/kernel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lineSitesReference is line.sites as first written, a new slice each
// time: the version that shares the board's whole lines must name the same
// sites.
func lineSitesReference(r *line, owners, line []int32, p, site int) []int {
	var out []int
	has := site < 0
	for _, x := range line {
		if int(owners[x]) != p {
			if !r.anywhere {
				if len(out) >= r.length && has {
					return out
				}
				out, has = out[:0], site < 0
			}
			continue
		}
		out = append(out, int(x))
		has = has || int(x) == site
	}
	return out
}

// TestLineRuleSites: the sites a winning line names, on a line of six with
// runs of three (through a site or anywhere, or everywhere on the line),
// over every way two players and empty points can fill it.
func TestLineRuleSites(t *testing.T) {
	b, err := kernel.NewBoard(kernel.BoardSpec{Rows: []string{"a", "b"}, Columns: 3, Style: kernel.Pieces,
		Lines: [][]string{{"a1", "a2", "a3", "b1", "b2", "b3"}}})
	require.NoError(t, err)
	def := &kernel.Def{Board: b, Players: 2, Layout: kernel.NewLayout(6, 2, 0, 0)}
	s := &kernel.State{Cells: make([]int32, def.Layout.Size)}
	c := &kernel.Ctx{Def: def}
	c.Reset(s, kernel.Unmetered{}, 1)
	owners := s.Cells[def.Layout.Owners:]
	whole := [][]int{intsOf(b.Line(0))}
	rules := []*line{{length: 3, through: -1, whole: whole}, {length: 3, anywhere: true, through: -1, whole: whole}, {length: 6, anywhere: true, through: -1, whole: whole}}
	for fill := range 729 { // 3^6 fillings: 0 empty, 1 and 2 the players
		for k, x, f := 0, b.Line(0), fill; k < len(x); k, f = k+1, f/3 {
			owners[x[k]] = int32(f % 3)
		}
		for _, r := range rules {
			for _, site := range append([]int{-1}, intsOf(b.Line(0))...) {
				for p := 1; p <= 2; p++ {
					want := lineSitesReference(r, owners, b.Line(0), p, site)
					got := r.sites(c, 0, p, site)
					if len(want) == 0 {
						assert.Empty(t, got, "fill %d, %+v, player %d, site %d", fill, *r, p, site)
						continue
					}
					require.Equal(t, want, got, "fill %d, %+v, player %d, site %d", fill, *r, p, site)
				}
			}
		}
	}
	assert.Equal(t, []int{0, 1, 2, 3, 4, 5}, whole[0], "the shared line is never changed")
}

func intsOf(line []int32) []int {
	out := make([]int, len(line))
	for k, x := range line {
		out[k] = int(x)
	}
	return out
}
