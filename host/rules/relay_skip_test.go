package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRelaySkipOrigin: a relay_rule with skip_origin sows each lap into
// every site of the loop but the one it picked up from (nine counters on
// player 1's ring of eight: b1 gets none of its own), relays on from an
// occupied last site as any relay, and relay_ends_rule tries the same
// sowing. It cannot go with a lap hook.
func TestRelaySkipOrigin(t *testing.T) {
	for _, c := range []struct {
		name    string
		skip    bool
		want    map[string]int32
		last    string
		within4 bool // relay_ends_rule with max_laps 4
	}{
		// b1's nine: one for each other site, then b2 and b3; then b3's
		// two, a4's two and a2's two: the last falls into b1, emptied by
		// the first lap. Four laps.
		{"skipping its origin", true, map[string]int32{"b1": 1, "b2": 2, "b4": 2, "a3": 2, "a1": 2}, "b1", true},
		// b1's nine: one for every site, b1 too, then b2; then b2's,
		// b4's, a3's and a1's two: the last falls into b2. Five laps.
		{"dropping into its origin", false, map[string]int32{"b1": 2, "b2": 1, "b3": 2, "a4": 2, "a2": 2}, "b2", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newRingFixture(t)
			f.counts(t, map[string]int32{"b1": 9})
			x, err := f.make(t, "relay_rule", func(a *Args) {
				a.Set("tracks", f.dirs)
				a.Set("skip_origin", c.skip)
			})
			require.NoError(t, err)
			ends, err := f.make(t, "relay_ends_rule", func(a *Args) {
				a.Set("tracks", f.dirs)
				a.Set("skip_origin", c.skip)
				a.Set("max_laps", 4)
			})
			require.NoError(t, err)
			within4, err := ends.(SiteTester).TestSite(f.c, 1, f.site(t, "b1"))
			require.NoError(t, err)

			last, empty, err := x.(Sower).Sow(f.c, 1, f.site(t, "b1"))
			require.NoError(t, err)
			assert.True(t, empty, "a relay ends in an empty site")
			total := int32(0)
			for i := 0; i < 16; i++ {
				total += f.s.Cells[i]
			}
			assert.Equal(t, int32(9), total, "no counter lost")
			assert.Equal(t, f.site(t, c.last), last)
			for i := 0; i < 16; i++ {
				assert.Equal(t, c.want[f.b.SiteName(i)], f.s.Cells[i], f.b.SiteName(i))
			}
			assert.Equal(t, c.within4, within4, "relay_ends_rule within 4 laps")
		})
	}

	hook := newHouseFixture(t)
	h := hook.houses(t, 6)
	hl, err := hook.make(t, "house_lap_rule", func(a *Args) { a.Set("house", h) })
	require.NoError(t, err)
	_, err = hook.make(t, "relay_rule", func(a *Args) {
		a.Set("tracks", hook.dirs)
		a.Set("lap", hl)
		a.Set("skip_origin", true)
	})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "skip_origin cannot go with lap")
}
