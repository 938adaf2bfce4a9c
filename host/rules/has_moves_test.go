package rules

import (
	"testing"

	"github.com/matombo/matombo/host/kernel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHasMovesRule: has_moves_rule asks the moves of p or of the next
// player and leaves the list of moves as it was.
func TestHasMovesRule(t *testing.T) {
	for _, c := range []struct {
		name   string
		counts map[string]int32
		who    string
		want   bool
	}{
		{"the mover has a sowing", map[string]int32{"b2": 1}, "", true},
		{"the mover has none", map[string]int32{"c2": 1}, "mover", false},
		{"the next player has one", map[string]int32{"c2": 1}, "next", true},
		{"the next player has none", map[string]int32{"b2": 1}, "next", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newRingFixture(t)
			f.counts(t, c.counts)
			sowings, err := f.make(t, "sowings_rule", func(a *Args) {
				a.Set("kind", kindRingSow)
				a.Set("tracks", f.dirs)
				a.Set("from", f.front)
			})
			require.NoError(t, err)
			x, err := f.make(t, "has_moves_rule", func(a *Args) {
				a.Set("moves", sowings)
				if c.who != "" {
					a.Set("player", c.who)
				}
			})
			require.NoError(t, err)
			listed := kernel.Move{Kind: kindRingSow, N: 2}
			f.s.Moves = append(f.s.Moves[:0], listed)
			ok, err := x.(Condition).Holds(f.c, 1)
			require.NoError(t, err)
			assert.Equal(t, c.want, ok)
			assert.Equal(t, []kernel.Move{listed}, f.s.Moves, "the list is as it was")
			assert.Equal(t, 1, f.c.Mover, "the mover is as it was")
		})
	}
}
