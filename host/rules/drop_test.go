package rules

import (
	"testing"

	"github.com/matombo/matombo/host/kernel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// afterCount counts the calls of a part after a move.
type afterCount struct{ calls int }

func (a *afterCount) After(*kernel.Ctx, int, int) error {
	a.calls++
	return nil
}

// TestDropRelayPlay: player 1 puts a counter from the hand into a site of
// the ring board's front row b (houses b3 and c2, of six), which captures
// the facing site of row c and sows it in from the start site the move
// names (b1 clockwise, b4 anticlockwise), or relays, or stops in the
// house.
func TestDropRelayPlay(t *testing.T) {
	for _, c := range []struct {
		name     string
		counts   map[string]int32
		move     [2]string
		start    bool
		want     map[string]int32 // every site's count after; the others empty
		owns2    int
		pending  int
		toMove   int
		endCalls int
		err      string
	}{
		{name: "a capture sown in clockwise, relayed to an empty site",
			counts: map[string]int32{"b2": 1, "c2": 2, "c4": 1}, move: [2]string{"b2", "b1"}, start: true,
			want: map[string]int32{"b1": 1, "b3": 1, "b4": 1, "a4": 1, "c4": 1}, owns2: 0, toMove: 2},
		{name: "anticlockwise from b4",
			counts: map[string]int32{"b2": 1, "c2": 2, "c4": 1}, move: [2]string{"b2", "b4"}, start: true,
			want: map[string]int32{"b2": 2, "b3": 1, "b4": 1, "c4": 1}, owns2: 0, toMove: 2},
		{name: "without start the move names the first site sown",
			counts: map[string]int32{"b2": 1, "c2": 2, "c4": 1}, move: [2]string{"b2", "b1"},
			want: map[string]int32{"b2": 2, "b3": 1, "b4": 1, "c4": 1}, owns2: 0, toMove: 2},
		{name: "the last front seeds captured: sown in, the move ends",
			counts: map[string]int32{"b2": 1, "c2": 2}, move: [2]string{"b2", "b1"}, start: true,
			want: map[string]int32{"b1": 1, "b2": 3}, owns2: 0, toMove: 2},
		{name: "no capture: the site relays and stops in the house, p moves again",
			counts: map[string]int32{"b1": 1, "b3": 6, "c4": 1}, move: [2]string{"b1", "b1"}, start: true,
			want: map[string]int32{"b2": 1, "b3": 7, "c4": 1}, owns2: 1, pending: 1, toMove: 1},
		{name: "into an empty site facing nothing: the move ends",
			counts: map[string]int32{"b3": 6, "c4": 1}, move: [2]string{"b2", "b4"}, start: true,
			want: map[string]int32{"b2": 1, "b3": 6, "c4": 1}, owns2: 1, toMove: 2},
		{name: "a site that names no direction", counts: map[string]int32{"b2": 1, "c2": 2}, move: [2]string{"b2", "b3"}, start: true,
			err: "names no direction"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newHouseFixture(t)
			f.counts(t, c.counts)
			f.s.Cells[f.def.Layout.Hand] = 3
			f.s.Cells[f.def.Layout.ToMove] = 2
			f.c.Mover = 1
			end := &afterCount{}
			x := f.dropRelay(t, c.start, end)
			err := x.Play(f.c, 1, kernel.Move{N: 2, Sites: [kernel.MaxMoveSites]uint16{uint16(f.site(t, c.move[0])), uint16(f.site(t, c.move[1]))}})
			if c.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), c.err)
				assert.Equal(t, int32(3), f.s.Cells[f.def.Layout.Hand], "the hand")
				return
			}
			require.NoError(t, err)
			for i := 0; i < 16; i++ {
				assert.Equal(t, c.want[f.b.SiteName(i)], f.s.Cells[i], f.b.SiteName(i))
			}
			assert.Equal(t, int32(2), f.s.Cells[f.def.Layout.Hand], "the hand")
			assert.Equal(t, c.owns2, f.c.Var(varHouseOwns2), "house2")
			assert.Equal(t, c.pending, f.c.Var(varHousePending), "pending")
			assert.Equal(t, c.toMove, int(f.s.Cells[f.def.Layout.ToMove]), "to move")
			assert.Equal(t, 1, end.calls, "after")
			assert.True(t, f.c.Irreversible)
		})
	}
}

// dropRelay makes a drop_relay_play of a relay whose laps capture and
// stop in the houses (of six), with start sites or without.
func (f *ringFixture) dropRelay(t *testing.T, start bool, after Follower) *dropRelay {
	t.Helper()
	h := f.houses(t, 6)
	empty, err := f.make(t, "empty_rule", func(a *Args) {
		a.Set("filter", f.front)
		a.Set("player", "next")
	})
	require.NoError(t, err)
	starts := [][]int{f.sites(t, "b1", "b4"), f.sites(t, "c4", "c1")}
	capture, err := f.make(t, "capture_sow_rule", func(a *Args) {
		a.Set("tracks", f.dirs)
		a.Set("opposite", facingRows)
		a.Set("start", starts)
		a.Set("ends_when", empty)
	})
	require.NoError(t, err)
	lap, err := f.make(t, "house_lap_rule", func(a *Args) {
		a.Set("house", h)
		a.Set("lap", capture)
		a.Set("stops", true)
		a.Set("pending", varHousePending)
		a.Set("tracks", f.dirs)
	})
	require.NoError(t, err)
	relay, err := f.make(t, "relay_rule", func(a *Args) {
		a.Set("tracks", f.dirs)
		a.Set("lap", lap)
	})
	require.NoError(t, err)
	x, err := f.make(t, "drop_relay_play", func(a *Args) {
		a.Set("relay", relay)
		if start {
			a.Set("start", starts)
		}
		a.Set("pending", varHousePending)
		a.Set("irreversible", true)
		a.Set("after", []any{after})
	})
	require.NoError(t, err)
	return x.(*dropRelay)
}

// TestDropRelayRefused: a drop needs a relay with a lap, a counter in
// hand, and start sites for each direction.
func TestDropRelayRefused(t *testing.T) {
	f := newHouseFixture(t)
	plain, err := f.make(t, "relay_rule", func(a *Args) { a.Set("tracks", f.dirs) })
	require.NoError(t, err)
	_, err = f.make(t, "drop_relay_play", func(a *Args) { a.Set("relay", plain) })
	require.Error(t, err)
	assert.Contains(t, err.Error(), "a relay_rule with a lap")

	x := f.dropRelay(t, true, &afterCount{})
	f.counts(t, map[string]int32{"b2": 1, "c2": 2})
	err = x.Play(f.c, 1, kernel.Move{N: 2, Sites: [kernel.MaxMoveSites]uint16{uint16(f.site(t, "b2")), uint16(f.site(t, "b1"))}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no counter in hand")
	assert.Equal(t, int32(1), f.s.Cells[f.site(t, "b2")], "nothing changed")
}
