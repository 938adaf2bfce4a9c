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

// TestOneTargetRule: one_target_rule finds the site facing the end of
// every first lap of the moves, 0 when they aim at two or none, and
// leaves the list of moves as it was.
func TestOneTargetRule(t *testing.T) {
	for _, c := range []struct {
		name   string
		counts map[string]int32
		want   string // "" for 0
	}{
		// b2's two: clockwise to b4 (facing c4), anticlockwise to a1
		// (in column 1: c1).
		{"two directions aim at two sites", map[string]int32{"b2": 2}, ""},
		// b3's four: clockwise b4, a4, a3, a2; anticlockwise b2, b1, a1,
		// a2: both end in column 2, facing c2.
		{"every move aims at the same site", map[string]int32{"b3": 4}, "c2"},
		{"no move", map[string]int32{"c2": 2}, ""},
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
			x, err := f.make(t, "one_target_rule", func(a *Args) {
				a.Set("moves", sowings)
				a.Set("tracks", f.dirs)
				a.Set("opposite", facingRows)
			})
			require.NoError(t, err)
			f.s.Moves = f.s.Moves[:0]
			got, err := x.(Amount).Value(f.c, 1)
			require.NoError(t, err)
			want := 0
			if c.want != "" {
				want = f.site(t, c.want) + 1
			}
			assert.Equal(t, want, got)
			assert.Empty(t, f.s.Moves, "the list is as it was")
		})
	}
}
