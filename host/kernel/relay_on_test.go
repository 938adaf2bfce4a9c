package kernel

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// endAt is a lap hook that ends the relay on one site and lets every
// other lap go on as a relay does.
type endAt struct {
	site  int
	heard []int
}

func (h *endAt) Lap(_ *Ctx, last int, _ *Track, _ int) (LapEnd, error) {
	h.heard = append(h.heard, last)
	if last == h.site {
		return LapEnd{Act: LapEndHere}, nil
	}
	return LapEnd{}, nil
}

// TestRelayOn: a relay goes on from a lap's end that no lap made (the
// counters of a site off the track sown after a site on it), and refuses
// ends it cannot sow on.
func TestRelayOn(t *testing.T) {
	b, err := NewBoard(BoardSpec{Rows: []string{"a", "b"}, Columns: 4})
	require.NoError(t, err)
	// a ring of row a, a1 to a4; row b is off it.
	k, err := b.AddTrack("ring", []int{0, 1, 2, 3}, true)
	require.NoError(t, err)
	ring := b.TrackAt(k)
	newCtx := func(counts ...int32) *Ctx {
		def := &Def{Board: b, Players: 2, Layout: NewLayout(8, 2, 0, 0)}
		s := &State{Cells: make([]int32, def.Layout.Size)}
		copy(s.Cells, counts)
		c := &Ctx{Def: def}
		c.Reset(s, Unmetered{}, 1)
		return c
	}
	for _, tc := range []struct {
		name   string
		counts []int32 // a1..a4, b1..b4
		end    LapEnd
		stopOn int // the site the hook ends on, -1 for none
		want   []int32
		last   int
		how    How
		laps   int
		err    string
	}{
		// a1 a2 a3, relay a3's two: a4 a1, relay a1's two: a2 a3 (empty).
		{name: "b1's three sown after a4, relayed to an empty site",
			counts: []int32{0, 0, 1, 0, 3, 0, 0, 0}, end: LapEnd{Act: LapResow, Track: ring, After: 3, From: 4}, stopOn: -1,
			want: []int32{0, 2, 1, 1, 0, 0, 0, 0}, last: 2, how: RelayEmpty, laps: 3},
		{name: "the hook ends it",
			counts: []int32{0, 0, 1, 0, 3, 0, 0, 0}, end: LapEnd{Act: LapResow, Track: ring, After: 3, From: 4}, stopOn: 2,
			want: []int32{1, 1, 2, 0, 0, 0, 0, 0}, last: 2, how: RelayHook, laps: 1},
		{name: "not a resow", end: LapEnd{Act: LapEndHere}, err: "nothing to sow on"},
		{name: "after off the track", counts: []int32{0, 0, 0, 0, 3}, end: LapEnd{Act: LapResow, Track: ring, After: 5, From: 4}, err: "not on track ring"},
		{name: "from off the board", end: LapEnd{Act: LapResow, Track: ring, After: 3, From: 99}, err: "no site to sow from"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newCtx(tc.counts...)
			h := &endAt{site: tc.stopOn}
			last, how, laps, err := c.RelayOn("relay_on", tc.end, 0, 100, 0, h)
			if tc.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, c.S.Cells[:8])
			assert.Equal(t, tc.last, last)
			assert.Equal(t, tc.how, how)
			assert.Equal(t, tc.laps, laps)
		})
	}
}
