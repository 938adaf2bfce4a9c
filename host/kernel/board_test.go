package kernel

import (
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
