package host_test

import (
	"fmt"
	"log"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host"
)

// TestPositionView: the view reads the values AppendPositionValues
// appends, in place, on random games of several shipped games; an index
// out of range panics.
func TestPositionView(t *testing.T) {
	onRandomPlies(t, 60, 5, 6, func(t *testing.T, _ *host.Game) func(int, *host.State) {
		var vals []int
		return func(ply int, s *host.State) {
			vals = s.AppendPositionValues(vals[:0])
			v := s.PositionView()
			require.Equal(t, len(vals), v.Len(), "ply %d", ply)
			for i, want := range vals {
				require.Equal(t, want, v.Value(i), "ply %d value %d", ply, i)
			}
			assert.Panics(t, func() { v.Value(v.Len()) })
			assert.Panics(t, func() { v.Value(-1) })
		}
	})
}

// Read a few values of a position without copying them: the count of a
// site, its owner and the player to move.
func ExampleState_PositionView() {
	g, err := games.Library().Load("kalah", host.WithParam("pits", 2), host.WithParam("seeds", 3))
	if err != nil {
		log.Fatal(err)
	}
	s := g.Start()
	if err := s.Play("a1"); err != nil {
		log.Fatal(err)
	}
	n := g.Board().NumSites()
	v := s.PositionView()
	fmt.Println("count", v.Value(1), "owner", v.Value(n+1), "to move", v.Value(v.Len()-1))
	// Output:
	// count 4 owner 1 to move 2
}

// TestPositionViewSame compares ranges of two positions' values: equal
// ranges, a range that differs by one value, empty ranges, and ranges out
// of either view, which panic.
func TestPositionViewSame(t *testing.T) {
	g, err := games.Library().Load("kalah", host.WithParam("pits", 3), host.WithParam("seeds", 2))
	require.NoError(t, err)
	open, moved := g.Start(), g.Start()
	require.NoError(t, moved.Play("a1")) // takes the counters of a1, sows a2, a3
	n := g.Board().NumSites()
	a, b := open.PositionView(), moved.PositionView()
	tests := []struct {
		name     string
		from, to int
		same     bool
	}{
		{"every value", 0, a.Len(), false},
		{"the counts", 0, n, false},
		{"the sown site alone", 1, 2, false},
		{"the opponent's sites", 4, n, true},
		{"the owners", n, 2 * n, true},
		{"nothing", 3, 3, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.same, a.Same(b, tc.from, tc.to))
			assert.Equal(t, tc.same, b.Same(a, tc.from, tc.to))
		})
	}
	assert.True(t, a.Same(a, 0, a.Len()))
	assert.Panics(t, func() { a.Same(b, 0, a.Len()+1) })
	assert.Panics(t, func() { a.Same(b, 2, 1) })
}
