package kernel

import (
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The guard of the hostile load below is a hang guard (hundreds of times
// the linear cost), not a measurement: it holds on a loaded machine and
// under the race detector. Measured with a quadratic merge of the jumps,
// 150000 jumps of one site would take minutes.
// 300000 lines through one site: the site gets 300000 distinct jumps.
func TestHostileLoadManyLinesThroughOneSite(t *testing.T) {
	const cols, lines = 4093, 300000
	spec := BoardSpec{Rows: []string{"a"}, Columns: cols}
	for l := 0; l < lines; l++ {
		x := 2 + l%(cols-1)
		y := 2 + (l/(cols-1)+x)%(cols-1)
		if y == x {
			y = 2 + (y-1)%(cols-1)
		}
		spec.Lines = append(spec.Lines, []string{"a1", "a" + strconv.Itoa(x), "a" + strconv.Itoa(y)})
	}
	start := time.Now()
	b, err := NewBoard(spec)
	elapsed := time.Since(start)
	require.NoError(t, err)
	t.Logf("%d lines through a1: %d jumps from a1, %d neighbours: %v", lines, len(b.JumpsFrom(0)), len(b.Neighbours(0)), elapsed)
	assert.Greater(t, len(b.JumpsFrom(0)), lines/2, "the test gives one site many distinct jumps")
	assert.Less(t, elapsed, time.Minute, "loading a board is near-linear in its lines")
}

// A checkered board's points are squares of one colour, and only a board
// of pieces is checkered; a site drawn at an end is not a square.
func TestCheckeredBoard(t *testing.T) {
	tests := []struct {
		name string
		spec BoardSpec
		err  string
	}{
		{"dark squares of a 2x4", BoardSpec{Points: map[string]int{"a1": 1, "a2": 3, "b3": 2, "b4": 4}, Style: Pieces, Checkered: true}, ""},
		{"the other colour", BoardSpec{Points: map[string]int{"a1": 1, "a2": 3, "b3": 2, "b4": 3}, Style: Pieces, Checkered: true},
			"a checkered board's points are squares of one colour: b4 (row b, position 3) is on the other colour from a1"},
		{"side by side in a grid", BoardSpec{Rows: []string{"a"}, Columns: 2, Style: Pieces, Checkered: true},
			"a checkered board's points are squares of one colour: a2 (row a, position 2) is on the other colour from a1"},
		{"counts", BoardSpec{Points: map[string]int{"a1": 1}, Checkered: true}, "a checkered board is a board of pieces"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.spec.Order = nil
			for name := range tt.spec.Points {
				tt.spec.Order = append(tt.spec.Order, name)
			}
			slices.Sort(tt.spec.Order)
			b, err := NewBoard(tt.spec)
			if tt.err != "" {
				require.EqualError(t, err, tt.err)
				return
			}
			require.NoError(t, err)
			assert.True(t, b.Checkered())
		})
	}
	b, err := NewBoard(BoardSpec{Rows: []string{"a"}, Columns: 2, Style: Pieces})
	require.NoError(t, err)
	assert.False(t, b.Checkered(), "a board is not checkered unless declared so")
}
