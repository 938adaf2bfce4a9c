package kernel

import (
	"math"
	"runtime"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The guard of the hostile load below compares the time of two loads in
// the same run, one with sixteen times the lines of the other: loading as
// it is takes about fifteen to twenty times as long (the larger board's
// memory), a quadratic merge of the jumps two hundred and fifty-six times
// (measured so, 150000 jumps of one site took minutes). A ratio, not a
// duration, so a loaded machine or the race detector slows both alike and
// the guard still holds.
func TestHostileLoadManyLinesThroughOneSite(t *testing.T) {
	const cols, lines = 4093, 150000
	small := loadLinesThroughOneSite(t, cols, lines/16)
	large := loadLinesThroughOneSite(t, cols, lines)
	ratio := float64(large) / float64(max(small, time.Microsecond))
	t.Logf("%d lines through a1: %v; %d lines: %v; ratio %.1f", lines/16, small, lines, large, ratio)
	assert.Less(t, ratio, 96.0, "loading sixteen times the lines through one site takes about sixteen times as long, not two hundred and fifty-six")
}

// loadLinesThroughOneSite loads a board of one row whose lines all pass
// through a1, each with a distinct jump from it, and returns the fastest
// of three loads, each after a collection (on a loaded machine one slow
// load, or a collection of the other size's garbage, is not the
// loader's time).
func loadLinesThroughOneSite(t *testing.T, cols, lines int) time.Duration {
	t.Helper()
	spec := BoardSpec{Rows: []string{"a"}, Columns: cols}
	for l := 0; l < lines; l++ {
		x := 2 + l%(cols-1)
		y := 2 + (l/(cols-1)+x)%(cols-1)
		if y == x {
			y = 2 + (y-1)%(cols-1)
		}
		spec.Lines = append(spec.Lines, []string{"a1", "a" + strconv.Itoa(x), "a" + strconv.Itoa(y)})
	}
	fastest := time.Duration(math.MaxInt64)
	for range 3 {
		runtime.GC()
		start := time.Now()
		b, err := NewBoard(spec)
		fastest = min(fastest, time.Since(start))
		require.NoError(t, err)
		require.Greater(t, len(b.JumpsFrom(0)), lines/2, "the test gives one site many distinct jumps")
	}
	return fastest
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

// A board keeps its lines once per site on them for the commonest search
// only while that stays small: eight lines of all 4,096 sites of a row
// made 8 × 4,096 copies of 4,096 sites (a GB with the slices' growth;
// 256 such lines, 17 GB). Such a board searches its lines as one with
// lines of different lengths does.
func TestLongLinesAreNotCopiedPerSite(t *testing.T) {
	const cols = 4096
	spec := BoardSpec{Rows: []string{"a"}, Columns: cols}
	for k := range 8 {
		line := make([]string, cols)
		for i := range line {
			line[i] = "a" + strconv.Itoa(i+1)
		}
		line[0], line[k+1] = line[k+1], line[0]
		spec.Lines = append(spec.Lines, line)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b, err := NewBoard(spec)
	runtime.ReadMemStats(&after)
	require.NoError(t, err)
	allocated := after.TotalAlloc - before.TotalAlloc
	t.Logf("allocated %d MiB", allocated>>20)
	assert.Less(t, allocated, uint64(64<<20), "the board's lines are not copied per site")
	assert.Equal(t, 8, b.NumLines())
}
