package rules

import (
	"testing"

	"github.com/matombo/matombo/host/kernel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDropRelaySowOn: with sow_on the site a counter goes into is taken
// up and sown whatever its lap would say, and with house a house so
// taken up is lost: player 1's house b3 of five (of six to play its
// part) gets its sixth and is sown clockwise to b1; asked as a lap's end
// it would stop there instead.
func TestDropRelaySowOn(t *testing.T) {
	for _, c := range []struct {
		name   string
		sowOn  bool
		house  bool
		want   map[string]int32
		owns1  int
		toMove int
	}{
		{"sown on, the house lost", true, true,
			map[string]int32{"b4": 1, "a4": 1, "a3": 1, "a2": 1, "a1": 1, "b1": 1}, 0, 2},
		{"sown on, no houses kept", true, false,
			map[string]int32{"b4": 1, "a4": 1, "a3": 1, "a2": 1, "a1": 1, "b1": 1}, 1, 2},
		{"its lap asked: the house stops it", false, false,
			map[string]int32{"b3": 6}, 1, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newHouseFixture(t)
			f.counts(t, map[string]int32{"b3": 5})
			f.s.Cells[f.def.Layout.Hand] = 3
			f.s.Cells[f.def.Layout.ToMove] = 2
			f.c.Mover = 1
			h := f.houses(t, 6)
			lap, err := f.make(t, "house_lap_rule", func(a *Args) {
				a.Set("house", h)
				a.Set("stops", true)
			})
			require.NoError(t, err)
			relay, err := f.make(t, "relay_rule", func(a *Args) {
				a.Set("tracks", f.dirs)
				a.Set("lap", lap)
			})
			require.NoError(t, err)
			x, err := f.make(t, "drop_relay_play", func(a *Args) {
				a.Set("relay", relay)
				a.Set("sow_on", c.sowOn)
				if c.house {
					a.Set("house", h)
				}
			})
			require.NoError(t, err)
			m := kernel.Move{N: 2}
			m.Sites[0], m.Sites[1] = uint16(f.site(t, "b3")), uint16(f.site(t, "b4"))
			require.NoError(t, x.(Player).Play(f.c, 1, m))
			for i := 0; i < 16; i++ {
				assert.Equal(t, c.want[f.b.SiteName(i)], f.s.Cells[i], f.b.SiteName(i))
			}
			assert.Equal(t, int32(2), f.s.Cells[f.def.Layout.Hand], "the hand")
			assert.Equal(t, c.owns1, f.c.Var(varHouseOwns1), "house1")
			assert.Equal(t, c.toMove, int(f.s.Cells[f.def.Layout.ToMove]), "to move")
		})
	}
}

// TestDropRelaySowOnRefused: house needs sow_on and a house_rule.
func TestDropRelaySowOnRefused(t *testing.T) {
	f := newHouseFixture(t)
	h := f.houses(t, 6)
	lap, err := f.make(t, "house_lap_rule", func(a *Args) { a.Set("house", h) })
	require.NoError(t, err)
	relay, err := f.make(t, "relay_rule", func(a *Args) {
		a.Set("tracks", f.dirs)
		a.Set("lap", lap)
	})
	require.NoError(t, err)
	_, err = f.make(t, "drop_relay_play", func(a *Args) {
		a.Set("relay", relay)
		a.Set("house", h)
	})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "house needs sow_on")
	_, err = f.make(t, "drop_relay_play", func(a *Args) {
		a.Set("relay", relay)
		a.Set("sow_on", true)
		a.Set("house", lap)
	})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "house must be a house_rule")
}

// playRecord stands in for a play, recording the moves it plays.
type playRecord struct{ played []kernel.Move }

func (r *playRecord) Play(_ *kernel.Ctx, _ int, m kernel.Move) error {
	r.played = append(r.played, m)
	return nil
}

// TestIfPlay: if_play plays the move by play when the condition holds,
// by otherwise when it does not.
func TestIfPlay(t *testing.T) {
	f := newRingFixture(t)
	for _, holds := range []bool{true, false} {
		yes, no := &playRecord{}, &playRecord{}
		x, err := f.make(t, "if_play", func(a *Args) {
			a.Set("when", condFunc(func() bool { return holds }))
			a.Set("play", yes)
			a.Set("otherwise", no)
		})
		require.NoError(t, err)
		m := kernel.Move{Kind: kindRingSow, N: 1}
		require.NoError(t, x.(Player).Play(f.c, 1, m))
		if holds {
			assert.Equal(t, []kernel.Move{m}, yes.played)
			assert.Empty(t, no.played)
		} else {
			assert.Empty(t, yes.played)
			assert.Equal(t, []kernel.Move{m}, no.played)
		}
	}
}

// TestDropRelayNoDrop: with drop = 0 the move sows its site as it is (no
// counter from the hand), and clear sets its variables to 0.
func TestDropRelayNoDrop(t *testing.T) {
	f := newHouseFixture(t)
	f.counts(t, map[string]int32{"b3": 2})
	f.s.Cells[f.def.Layout.Hand] = 0
	f.c.SetVar(varHouseStopAt, 5)
	h := f.houses(t, 6)
	lap, err := f.make(t, "house_lap_rule", func(a *Args) { a.Set("house", h) })
	require.NoError(t, err)
	relay, err := f.make(t, "relay_rule", func(a *Args) {
		a.Set("tracks", f.dirs)
		a.Set("lap", lap)
	})
	require.NoError(t, err)
	x, err := f.make(t, "drop_relay_play", func(a *Args) {
		a.Set("relay", relay)
		a.Set("drop", 0)
		a.Set("sow_on", true)
		a.Set("house", h)
		a.Set("clear", []int{varHouseStopAt})
	})
	require.NoError(t, err)
	m := kernel.Move{N: 2}
	m.Sites[0], m.Sites[1] = uint16(f.site(t, "b3")), uint16(f.site(t, "b2"))
	require.NoError(t, x.(Player).Play(f.c, 1, m))
	want := map[string]int32{"b2": 1, "b1": 1}
	for i := 0; i < 16; i++ {
		assert.Equal(t, want[f.b.SiteName(i)], f.s.Cells[i], f.b.SiteName(i))
	}
	assert.Equal(t, int32(0), f.s.Cells[f.def.Layout.Hand], "the hand")
	assert.Equal(t, 0, f.c.Var(varHouseOwns1), "house1: taken up, lost")
	assert.Equal(t, 0, f.c.Var(varHouseStopAt), "cleared")

	_, err = f.make(t, "drop_relay_play", func(a *Args) {
		a.Set("relay", relay)
		a.Set("drop", 0)
	})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "drop = 0 needs sow_on")
}

// TestIfPlayTest: if_play with a move test asks it of the move; when and
// test go one at a time.
func TestIfPlayTest(t *testing.T) {
	f := newRingFixture(t)
	yes, no := &playRecord{}, &playRecord{}
	test := moveTestFunc(func(m kernel.Move) (bool, error) { return m.Sites[0] == 1, nil })
	x, err := f.make(t, "if_play", func(a *Args) {
		a.Set("test", test)
		a.Set("play", yes)
		a.Set("otherwise", no)
	})
	require.NoError(t, err)
	one, two := kernel.Move{N: 1}, kernel.Move{N: 1}
	one.Sites[0], two.Sites[0] = 1, 2
	require.NoError(t, x.(Player).Play(f.c, 1, one))
	require.NoError(t, x.(Player).Play(f.c, 1, two))
	assert.Equal(t, []kernel.Move{one}, yes.played)
	assert.Equal(t, []kernel.Move{two}, no.played)
	for _, both := range []bool{true, false} {
		_, err = f.make(t, "if_play", func(a *Args) {
			if both {
				a.Set("test", test)
				a.Set("when", condFunc(func() bool { return true }))
			}
			a.Set("play", yes)
			a.Set("otherwise", no)
		})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "give when (a condition) or test (a move test), not both")
	}
}

// TestFirstLapMax: first_lap_rule with max never acts for a first lap of
// more counters.
func TestFirstLapMax(t *testing.T) {
	f := newRingFixture(t)
	// b1's counters clockwise: two end in b3, which holds one, facing
	// c3's one: a capture; with max 1 the lap is never asked.
	f.counts(t, map[string]int32{"b1": 2, "b3": 1, "c3": 1})
	lap, err := f.make(t, "capture_sow_rule", func(a *Args) {
		a.Set("tracks", f.dirs)
		a.Set("opposite", facingRows)
		a.Set("start", [][]int{f.sites(t, "b1", "b4"), f.sites(t, "c4", "c1")})
	})
	require.NoError(t, err)
	m := kernel.Move{N: 2}
	m.Sites[0], m.Sites[1] = uint16(f.site(t, "b1")), uint16(f.site(t, "b2"))
	for _, c := range []struct {
		max  int
		want bool
	}{{0, true}, {2, true}, {1, false}} {
		x, err := f.make(t, "first_lap_rule", func(a *Args) {
			a.Set("tracks", f.dirs)
			a.Set("lap", lap)
			if c.max > 0 {
				a.Set("max", c.max)
			}
		})
		require.NoError(t, err)
		ok, err := x.(MoveTester).TestMove(f.c, 1, m)
		require.NoError(t, err)
		assert.Equal(t, c.want, ok, "max %d", c.max)
	}
}
