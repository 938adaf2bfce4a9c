package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// custodian_rule captures the pieces caught between the piece that
// arrived and another of its player's along a line, and nothing else.
func TestCustodianRule(t *testing.T) {
	for _, c := range []struct {
		name   string
		pos    position
		p      int
		at     string
		caught []string // the sites emptied, in any order
	}{
		{"a piece between two of the mover's along a row", position{one: []string{"a1", "a3"}, two: []string{"a2"}}, 1, "a1", []string{"a2"}},
		{"along a diagonal", position{one: []string{"c3", "a1"}, two: []string{"b2"}}, 1, "c3", []string{"b2"}},
		{"two lines at once", position{one: []string{"a1", "a3", "c1"}, two: []string{"a2", "b1"}}, 1, "a1", []string{"a2", "b1"}},
		{"nothing beyond: no capture", position{one: []string{"a1"}, two: []string{"a2"}}, 1, "a1", nil},
		{"the opponent's beyond: no capture", position{one: []string{"a1"}, two: []string{"a2", "a3"}}, 1, "a1", nil},
		{"the mover's own piece between: no capture", position{one: []string{"a1", "a2", "a3"}}, 1, "a1", nil},
		{"a piece caught before, not by this arrival, stays", position{one: []string{"a1", "a2", "c2"}, two: []string{"b2"}}, 1, "a1", nil},
		{"player 2 catches player 1's", position{one: []string{"b2"}, two: []string{"a1", "c3"}}, 2, "a1", []string{"b2"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			f.put(t, c.pos)
			r := f.make(t, "custodian_rule", func(a *Args) {
				a.Set("over", f.filter(theirs()))
				a.Set("with", f.filter(mine()))
			}).(Arriver)
			before := f.c.Captured(c.p)
			acted, err := r.Arrive(f.c, c.p, f.site(t, c.at))
			require.NoError(t, err)
			assert.Equal(t, len(c.caught) > 0, acted)
			assert.Equal(t, before+len(c.caught), f.c.Captured(c.p), "the captured total")
			for _, s := range c.caught {
				assert.Zero(t, f.c.Count(f.site(t, s)), "%s is emptied", s)
				assert.Zero(t, f.c.Owner(f.site(t, s)), "%s has no owner", s)
			}
			assert.NotZero(t, f.c.Count(f.site(t, c.at)), "the piece that arrived stays")
		})
	}
}
