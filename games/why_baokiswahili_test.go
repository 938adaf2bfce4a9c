package games_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBaoKiswahiliWhy: a refused token of Bao la Kiswahili says which
// rule refuses it, in the rules page's words and points, before the
// host's own reason; the refusal itself is unchanged.
func TestBaoKiswahiliWhy(t *testing.T) {
	g, err := games.Library().Load("baokiswahili")
	require.NoError(t, err)
	at := func(t *testing.T, diagram string, hand []int, toMove int, vars map[string]int) *host.State {
		counts, owners, err := g.ParseDiagram(diagram)
		require.NoError(t, err)
		s, err := g.NewState(host.Position{Counts: counts, Owners: owners, Captured: []int{0, 0}, Hand: hand, ToMove: toMove, Vars: vars}, host.AnyTotal())
		require.NoError(t, err)
		return s
	}
	houses := map[string]int{"house1": 1, "house2": 1}
	// Namua: a capture is possible at b4 (facing c4), from the kimbi b7
	// (facing c7) too.
	namuaCapture := at(t, `
d    0  0  0  0  0  0  0  0
c    0  0  0  3  0  0  1  0
b    0  0  0  1  6  0  2  0
a    0  0  0  0  0  0  0  0
`, []int{10, 10}, 1, houses)
	// Mtaji: Player 1 can capture (b1 sows two seeds into b2 and b3,
	// which faces c3), but not by sowing b5 towards b6.
	mtajiCapture := at(t, `
d    0  0  0  0  0  0  0  0
c    0  0  2  0  0  0  2  0
b    2  0  1  0  2  0  0  0
a    0  0  0  2  0  0  0  0
`, []int{0, 0}, 1, map[string]int{})
	// Mtaji: no capture for Player 1, whose only front hole of two is b5.
	mtajiTakasa := at(t, `
d    0  0  0  0  0  0  0  0
c    0  0  0  0  0  0  0  1
b    0  0  0  0  2  0  1  0
a    0  0  0  2  0  0  0  0
`, []int{0, 0}, 1, map[string]int{})
	for _, tt := range []struct {
		name string
		s    *host.State
		tok  string
		why  string // the script's reason, "" for none
	}{
		{"not the mover's hole", g.Start(), "c1-c2", "c1 is not one of your holes (Z1)"},
		{"namua from the back row", g.Start(), "a1-a2", "while you have seeds in hand, every move puts one into a hole of your front row (Z4)"},
		{"namua into an empty hole", g.Start(), "b1-b2", "b1 is empty: the seed from your hand goes into a hole of your front row that holds seeds (Z8)"},
		{"namua into the functional house", g.Start(), "b5-b4", "your house b5 is functional: the seed goes into it only when it is the only occupied hole of your front row (Z8)"},
		{"a sowing's second hole not next", g.Start(), "b6-b8", "b8 is not next to b6 on your rows: a sowing names its hole and the first hole it sows (Z3)"},
		{"a namua capture facing nothing", g.Start(), "b6xb1", "b6 does not capture: a namua capture puts the seed into a hole of your front row that holds seeds and faces seeds (Z7)"},
		{"a takasa while a capture is possible", namuaCapture, "b5-b4", "a capture is possible (b4 faces seeds), and capturing comes first: write it as the hole and the kichwa, such as b4xb1 (Z7)"},
		{"a kimbi's capture from the far kichwa", namuaCapture, "b7xb1", "a capture from a kichwa or kimbi is sown in from the nearest kichwa, b8 (Z6)"},
		{"a namua capture from the back row", namuaCapture, "a4xb1", "a4 does not capture: a namua capture puts the seed into a hole of your front row that holds seeds and faces seeds (Z7)"},
		{"a capture sown in from no kichwa", namuaCapture, "b4xb3", "captured seeds are sown in from a kichwa, b1 or b8 (Z6)"},
		{"a legal choice of kichwa has no reason", namuaCapture, "b4xb8", ""},
		{"a mtaji capture from the hand", mtajiCapture, "b3xb1", "your hand is empty: a capture with a seed from the hand belongs to the namua stage; sow a hole instead (Z4, Z11)"},
		{"a mtaji hole of one seed", mtajiCapture, "b3-b4", "b3 holds one seed: a move sows a hole of two seeds or more (Z12)"},
		{"a takasa while a capture move is possible", mtajiCapture, "b5-b6", "a capture move is possible, and a takasa is played only when none is (Z11, Z12)"},
		{"a back-row takasa while the front row has a hole of two", mtajiTakasa, "a4-a5", "a takasa sows a hole of your front row while one holds two seeds or more (Z12)"},
		{"a takasia'd hole", at(t, `
d    0  0  0  0  0  0  0  0
c    0  0  2  0  1  0  2  0
b    2  0  1  1  0  0  0  0
a    0  0  0  0  0  0  0  0
`, []int{0, 0}, 2, map[string]int{"takasia": 19}), "c3-c2", "c3 is takasia'd: it may not be sown this move (Z14)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			before := tt.s.Key()
			err := tt.s.Clone().Play(tt.tok)
			if tt.why == "" {
				if err == nil {
					return
				}
				assert.NotContains(t, tt.s.WhyNot(tt.tok), "(Z", "no reason of the script's")
				return
			}
			require.Error(t, err, "%s is refused", tt.tok)
			why := tt.s.WhyNot(tt.tok)
			assert.Equal(t, tt.why+"; ", why[:min(len(why), len(tt.why)+2)], "the whole reason: %s", why)
			assert.Equal(t, before, tt.s.Key(), "asking why changes nothing")
		})
	}
}

// TestBaoKiswahiliWhyRandom: over random games, every refused sowing or
// capture of the mover's holes gets a reason, and a reason that names a
// capture to play instead names a legal one.
func TestBaoKiswahiliWhyRandom(t *testing.T) {
	g, err := games.Library().Load("baokiswahili")
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(5, 9))
	asked := 0
	for game := range 6 {
		s := g.Start()
		for ply := 0; ply < 120 && !s.Over(); ply++ {
			legal := map[string]bool{}
			for _, tok := range s.Legal() {
				legal[tok] = true
			}
			for _, tok := range []string{"b4-b5", "b2-b1", "a3-a4", "c5-c4", "d2-d3", "b3xb1", "b6xb8", "c6xc8", "b5-b4", "c4-c5"} {
				if legal[tok] {
					continue
				}
				why := s.WhyNot(tok)
				require.NotEmpty(t, why, "game %d ply %d: %s", game, ply, tok)
				asked++
				if _, after, ok := strings.Cut(why, "such as "); ok {
					suggested, _, _ := strings.Cut(after, " ")
					assert.True(t, legal[suggested], "game %d ply %d: %s suggests %s, legal %v", game, ply, why, suggested, s.Legal())
				}
			}
			require.NoError(t, s.Play(s.Legal()[rng.IntN(len(s.Legal()))]))
		}
	}
	assert.Greater(t, asked, 1000)
}
