package kernel

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A supported filter selects the sites a dropped piece comes to rest on:
// the bottom row, and the sites whose site below holds counters; on a
// point board, a site above a gap never.
func TestFilterSupported(t *testing.T) {
	grid, err := NewBoard(BoardSpec{Rows: []string{"a", "b", "c"}, Columns: 2, Style: Pieces})
	require.NoError(t, err)
	points, err := NewBoard(BoardSpec{Points: map[string]int{"a1": 1, "b1": 1, "b2": 2}, Order: []string{"a1", "b1", "b2"}, Style: Pieces})
	require.NoError(t, err)
	cases := []struct {
		name   string
		board  *Board
		filled []string // sites holding a piece
		want   []string
	}{
		{"an empty grid: the bottom row", grid, nil, []string{"a1", "a2"}},
		{"a piece in a1: b1 is supported", grid, []string{"a1"}, []string{"a2", "b1"}},
		{"a column of two", grid, []string{"a1", "b1", "a2"}, []string{"b2", "c1"}},
		{"a full grid: none", grid, []string{"a1", "a2", "b1", "b2", "c1", "c2"}, nil},
		{"a point above a gap never", points, []string{"a1"}, []string{"b1"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := c.board
			f := NewFilter(b, FilterSpec{Owner: 0, Max: 0, Row: -1, Supported: true})
			l := NewLayout(b.NumSites(), 2, 0, 0)
			cells := make([]int32, l.Size)
			for _, name := range c.filled {
				i, ok := b.Index(name)
				require.True(t, ok, name)
				cells[i], cells[l.Owners+i] = 1, 1
			}
			var got []string
			for _, i := range f.AppendSites(nil, cells, &l, 1) {
				got = append(got, b.Site(int(i)).Name)
			}
			assert.Equal(t, c.want, got)
			assert.Equal(t, len(c.want), f.Count(cells, &l, 1))
		})
	}
}
