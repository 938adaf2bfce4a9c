package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPromoteRule(t *testing.T) {
	for _, c := range []struct {
		name     string
		fromHand bool
		pos      position
		p        int
		at       string
		hand     int // the mover's hand before
		acted    bool
		count    int // the site's count after
		handThen int
		err      string
	}{
		{"a man on the far row is crowned from the hand", true, position{one: []string{"c2"}}, 1, "c2", 3, true, 2, 2, ""},
		{"elsewhere nothing happens", true, position{one: []string{"b2"}}, 1, "b2", 3, false, 1, 3, ""},
		{"a king is not crowned again", true, position{one: []string{"c2"}, kings: []string{"c2"}}, 1, "c2", 3, false, 2, 3, ""},
		{"player 2's far row is row a", true, position{two: []string{"a3"}}, 2, "a3", 3, true, 2, 2, ""},
		{"player 1's far row is not player 2's", true, position{two: []string{"c1"}}, 2, "c1", 3, false, 1, 3, ""},
		{"without from_hand the crown is new", false, position{one: []string{"c1"}}, 1, "c1", 0, true, 2, 0, ""},
		{"a hand without a crown is an error", true, position{one: []string{"c1"}}, 1, "c1", 0, false, 1, 0,
			"player 1 has 0 in hand, not the 1 a promotion on c1 takes"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			f.put(t, c.pos)
			f.s.Cells[f.def.Layout.Hand+c.p-1] = int32(c.hand)
			r := f.make(t, "promote_rule", func(a *Args) {
				a.Set("row", []int{2, 0})
				a.Set("piece", f.filter(men()))
				a.Set("add", 1)
				a.Set("from_hand", c.fromHand)
			}).(Arriver)
			acted, err := r.Arrive(f.c, c.p, f.site(t, c.at))
			if c.err != "" {
				assert.ErrorContains(t, err, c.err)
			} else {
				require.NoError(t, err)
			}
			assert.Equal(t, c.acted, acted)
			assert.Equal(t, c.count, f.c.Count(f.site(t, c.at)))
			assert.Equal(t, c.handThen, f.c.Hand(c.p))
		})
	}
}
