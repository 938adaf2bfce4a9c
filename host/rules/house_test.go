package rules

import (
	"testing"

	"github.com/matombo/matombo/host/kernel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The houses of the four-row ring board (sowings_test.go): b3 for player
// 1, c2 for player 2, with four position variables: each player's
// ownership of their house, a pending direction and a site where laps
// stop.
const (
	varHouseOwns1 = iota
	varHouseOwns2
	varHousePending
	varHouseStopAt
)

func newHouseFixture(t *testing.T) *ringFixture {
	t.Helper()
	f := newRingFixture(t)
	f.def.Layout = kernel.NewLayout(16, 2, 4, 0)
	for i, name := range []string{"house1", "house2", "pending", "stop_at"} {
		f.def.Vars = append(f.def.Vars, kernel.Var{Name: name, Position: true, Cell: f.def.Layout.Vars + i})
	}
	f.s = &kernel.State{Cells: make([]int32, f.def.Layout.Size)}
	f.s.Cells[f.def.Layout.ToMove] = 1
	f.c.Reset(f.s, kernel.Unmetered{}, 1)
	f.c.SetVar(varHouseOwns1, 1)
	f.c.SetVar(varHouseOwns2, 1)
	return f
}

func (f *ringFixture) houses(t *testing.T, min int) *house {
	x, err := f.make(t, "house_rule", func(a *Args) {
		a.Set("sites", f.sites(t, "b3", "c2"))
		a.Set("owns", []int{varHouseOwns1, varHouseOwns2})
		a.Set("min", min)
	})
	require.NoError(t, err)
	return x.(*house)
}

// TestHouseRule: a house plays its part while owned and holding min.
func TestHouseRule(t *testing.T) {
	for _, c := range []struct {
		name  string
		p     int
		count int32
		owns  int
		want  bool
	}{
		{"owned and full", 1, 6, 1, true},
		{"owned, one short", 1, 5, 1, false},
		{"lost", 1, 9, 0, false},
		{"player 2's", 2, 6, 1, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newHouseFixture(t)
			h := f.houses(t, 6)
			f.counts(t, map[string]int32{"b3": c.count, "c2": c.count})
			f.c.SetVar(varHouseOwns1, c.owns)
			f.c.SetVar(varHouseOwns2, c.owns)
			ok, err := h.Holds(f.c, c.p)
			require.NoError(t, err)
			assert.Equal(t, c.want, ok)
		})
	}
}

// TestHouseLap: how a relay goes on after a lap of player 1 (player 2's
// front row is c, facing b column by column), and which houses are lost.
func TestHouseLap(t *testing.T) {
	for _, c := range []struct {
		name     string
		counts   map[string]int32
		last     string
		acw      bool   // the lap went anticlockwise
		min      int    // the house's minimum
		stops    bool   // the house stops a lap
		capture  bool   // a capture_sow_rule is heard first
		stopAt   string // the site of the variable stop_at
		owns1    int
		want     kernel.LapAct
		from     string // with LapResow: the site sown from next
		owns     [2]int // the ownership of the houses after
		pending  int
		wantLeft map[string]int32 // counts after, where they changed
	}{
		{name: "an empty site ends the relay", counts: map[string]int32{"b2": 1, "b3": 8}, last: "b2", min: 6, stops: true,
			owns1: 1, want: kernel.LapDefault, owns: [2]int{1, 1}},
		{name: "the functional house stops it, the direction pending", counts: map[string]int32{"b3": 7}, last: "b3", min: 6, stops: true,
			owns1: 1, want: kernel.LapEndHere, owns: [2]int{1, 1}, pending: 1},
		{name: "anticlockwise, direction 2", counts: map[string]int32{"b3": 7}, last: "b3", acw: true, min: 6, stops: true,
			owns1: 1, want: kernel.LapEndHere, owns: [2]int{1, 1}, pending: 2},
		{name: "a house short of min is taken up and lost", counts: map[string]int32{"b3": 5}, last: "b3", min: 6, stops: true,
			owns1: 1, want: kernel.LapDefault, owns: [2]int{0, 1}},
		{name: "a lost house is an ordinary site", counts: map[string]int32{"b3": 9}, last: "b3", min: 6, stops: true,
			owns1: 0, want: kernel.LapDefault, owns: [2]int{0, 1}},
		{name: "without stops the house is taken up and lost", counts: map[string]int32{"b3": 9}, last: "b3", min: 6,
			owns1: 1, want: kernel.LapDefault, owns: [2]int{0, 1}},
		{name: "the site of stop_at stops it", counts: map[string]int32{"b2": 3}, last: "b2", min: 6, stopAt: "b2",
			owns1: 1, want: kernel.LapEndHere, owns: [2]int{1, 1}},
		{name: "stop_at elsewhere: relay on", counts: map[string]int32{"b2": 3}, last: "b2", min: 6, stopAt: "b1",
			owns1: 1, want: kernel.LapDefault, owns: [2]int{1, 1}},
		{name: "a capture of the opponent's house loses it", counts: map[string]int32{"b2": 2, "c2": 4, "c1": 1}, last: "b2", min: 6,
			capture: true, owns1: 1, want: kernel.LapResow, from: "c2", owns: [2]int{1, 0}},
		{name: "a capture of the last front seeds ends the relay", counts: map[string]int32{"b2": 2, "c2": 4, "b1": 1}, last: "b2", min: 6,
			capture: true, owns1: 1, want: kernel.LapEndHere, owns: [2]int{1, 0},
			wantLeft: map[string]int32{"c2": 0, "b1": 2, "b2": 3, "b3": 1, "b4": 1}},
		{name: "no capture: the house stops it", counts: map[string]int32{"b3": 6}, last: "b3", min: 6, stops: true,
			capture: true, owns1: 1, want: kernel.LapEndHere, owns: [2]int{1, 1}, pending: 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newHouseFixture(t)
			f.counts(t, c.counts)
			f.c.SetVar(varHouseOwns1, c.owns1)
			f.c.Mover = 1
			h := f.houses(t, c.min)
			x, err := f.make(t, "house_lap_rule", func(a *Args) {
				a.Set("house", h)
				a.Set("stops", c.stops)
				if c.stops {
					a.Set("pending", varHousePending)
					a.Set("tracks", f.dirs)
				}
				a.Set("stop_at", varHouseStopAt)
				if c.capture {
					ends, err := f.make(t, "empty_rule", func(a *Args) {
						a.Set("filter", f.front)
						a.Set("player", "next")
					})
					require.NoError(t, err)
					cs, err := f.make(t, "capture_sow_rule", func(a *Args) {
						a.Set("tracks", f.dirs)
						a.Set("opposite", facingRows)
						a.Set("start", [][]int{f.sites(t, "b1", "b4"), f.sites(t, "c4", "c1")})
						a.Set("ends_when", ends)
					})
					require.NoError(t, err)
					a.Set("lap", cs)
				}
			})
			require.NoError(t, err)
			if c.stopAt != "" {
				f.c.SetVar(varHouseStopAt, f.site(t, c.stopAt)+1)
			}
			track := f.dirs[0][0]
			if c.acw {
				track = f.dirs[0][1]
			}
			end, err := x.(LapRule).Lap(f.c, 1, f.site(t, c.last), track, 1)
			require.NoError(t, err)
			assert.Equal(t, c.want, end.Act)
			if c.from != "" {
				assert.Equal(t, f.site(t, c.from), end.From)
			}
			assert.Equal(t, c.owns, [2]int{f.c.Var(varHouseOwns1), f.c.Var(varHouseOwns2)}, "house1, house2")
			assert.Equal(t, c.pending, f.c.Var(varHousePending), "pending")
			for n, k := range c.wantLeft {
				assert.Equal(t, k, f.s.Cells[f.site(t, n)], n)
			}
		})
	}
}

// TestHouseRelay: a relay_rule whose laps a house_lap_rule hears stops
// in the functional house in the middle of a move.
func TestHouseRelay(t *testing.T) {
	f := newHouseFixture(t)
	f.counts(t, map[string]int32{"a1": 3, "b2": 1, "b3": 6})
	f.c.Mover = 1
	h := f.houses(t, 6)
	lap, err := f.make(t, "house_lap_rule", func(a *Args) {
		a.Set("house", h)
		a.Set("stops", true)
		a.Set("pending", varHousePending)
		a.Set("tracks", f.dirs)
	})
	require.NoError(t, err)
	x, err := f.make(t, "relay_rule", func(a *Args) {
		a.Set("tracks", f.dirs)
		a.Set("lap", lap)
	})
	require.NoError(t, err)
	// a1's three go b1 b2 b3; b3 held six: the relay waits there.
	last, how, laps, err := x.(Relayer).Relay(f.c, 1, f.site(t, "a1"))
	require.NoError(t, err)
	assert.Equal(t, "b3", f.b.SiteName(last))
	assert.Equal(t, kernel.RelayHook, how)
	assert.Equal(t, 1, laps)
	assert.Equal(t, 1, f.c.Var(varHousePending))
	assert.Equal(t, int32(7), f.s.Cells[f.site(t, "b3")])
}

// TestHouseRefused: the tables that do not fit together.
func TestHouseRefused(t *testing.T) {
	f := newHouseFixture(t)
	h := f.houses(t, 6)
	for _, c := range []struct {
		name string
		part string
		fill func(a *Args)
		want string
	}{
		{"a shared house", "house_rule", func(a *Args) {
			a.Set("sites", f.sites(t, "b3", "b3"))
			a.Set("owns", []int{varHouseOwns1, varHouseOwns2})
		}, "cannot share the house b3"},
		{"house not a house_rule", "house_lap_rule", func(a *Args) { a.Set("house", &noCounters{}) }, "house must be a house_rule"},
		{"pending without stops", "house_lap_rule", func(a *Args) {
			a.Set("house", h)
			a.Set("pending", varHousePending)
			a.Set("tracks", f.dirs)
		}, "pending needs stops"},
		{"pending without tracks", "house_lap_rule", func(a *Args) {
			a.Set("house", h)
			a.Set("stops", true)
			a.Set("pending", varHousePending)
		}, "pending needs tracks"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := f.make(t, c.part, c.fill)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}
