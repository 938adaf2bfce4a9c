package games_test

import (
	"fmt"
	"testing"

	"github.com/matombo/matombo/host"
	"github.com/stretchr/testify/assert"
)

// baokiswahiliClaims are the figures of docs/rules/baokiswahili.md: its
// example, and the measures of random games (see TestRulesPageFigures).
func baokiswahiliClaims(t *testing.T) []claim {
	const page = "baokiswahili"
	bao := game(page, "")
	says := func(text string, check func(*testing.T)) claim { return claim{page: page, text: text, check: check} }
	hands := func(s *host.State) []int { return []int{s.Hand(1), s.Hand(2)} }
	out := []claim{
		says("From the opening, Player 1 plays `b6-b5`: a seed from the hand into `b6` (now 3), sown anticlockwise into `b5`, `b4` and `b3`; `b3` was empty, so the move ends.", func(t *testing.T) {
			assert.Equal(t, []string{"player 1 has 21 in hand", "drop 1 on b6", "take 3 from b6", "drop 1 on b5", "drop 1 on b4", "drop 1 on b3", "player 2 to move"},
				effectsOf(t, bao(t), "", "b6-b5"))
		}),
		says("Player 2 must capture (Z7): `c3` and `c4` face seeds, and both are central holes, so either kichwa may be chosen: `c3xc8`, `c3xc1`, `c4xc8` or `c4xc1`.",
			legalIs(bao, "b6-b5", "c3xc8", "c3xc1", "c4xc8", "c4xc1")),
		says("`c4xc1` puts a seed into the house `c4`, captures the one seed of `b4` and sows it in from the right kichwa `c1`, which was empty: the move ends.", func(t *testing.T) {
			assert.Equal(t, []int{1, 2, 2, 7, 0}, countsOf(t, after(t, bao(t), "b6-b5 c4xc1"), "c1 c2 c3 c4 b4"))
		}),
		says("Player 1 must capture too: `b3xb1` puts a seed in `b3`, captures the two seeds of `c3` and sows them from `b1` clockwise: `b1`, `b2`.", func(t *testing.T) {
			assert.Equal(t, []string{"b3xb1", "b3xb8"}, after(t, bao(t), "b6-b5 c4xc1").Legal())
			assert.Equal(t, []int{1, 1, 2, 0}, countsOf(t, after(t, bao(t), "b6-b5 c4xc1 b3xb1"), "b1 b2 b3 c3"))
		}),
		says("Then Player 2's `c2xc1` captures from its kimbi, so from the nearest kichwa `c1`: the seed of `b2` goes into `c1` (one seed there already), which faces `b1`: another capture from a kichwa, its seed into `c1` again; nothing faces `c1` now, so `c1` relays its three seeds into `c2`, `c3` and the house `c4`, which holds eight and faces nothing.", func(t *testing.T) {
			assert.Equal(t, []string{"player 2 has 20 in hand", "drop 1 on c2", "take 1 from b2", "drop 1 on c1",
				"take 1 from b1", "drop 1 on c1", "take 3 from c1", "drop 1 on c2", "drop 1 on c3", "drop 1 on c4", "player 2 to move"},
				effectsOf(t, bao(t), "b6-b5 c4xc1 b3xb1", "c2xc1"))
		}),
		drawn(t, page, bao(t), "b6-b5 c4xc1 b3xb1 c2xc1"),
		says("Each player has 20 seeds left in hand, and Player 2 chooses: `safari` or `stop`.", func(t *testing.T) {
			s := after(t, bao(t), "b6-b5 c4xc1 b3xb1 c2xc1")
			assert.Equal(t, []int{20, 20}, hands(s))
			assert.Equal(t, 2, s.ToMove())
			assert.Equal(t, []string{"safari", "stop"}, s.Legal())
		}),
		says("With 64 seeds the game is far too large for `matombo solve`.", func(t *testing.T) {
			s := bao(t).Start()
			total := s.Hand(1) + s.Hand(2)
			for i := range s.Game().Board().NumSites() {
				total += s.Count(i)
			}
			assert.Equal(t, 64, total)
		}),
		says("Between random players (`matombo analyze baokiswahili --variants all --games 5000`):", nil),
	}
	for _, v := range []string{"standard", "no-takasia", "house-in-mtaji", "kichwa-inward", "house-of-five"} {
		r := randomGames(t, variantOf(t, page, v), 5000)
		out = append(out, says(fmt.Sprintf("| %s | %.1f%% | %.1f%% | %.1f%% | %.1f | %.2f |", v,
			100*r.WinRates[0].Rate, 100*r.WinRates[1].Rate, 100*r.DrawRate.Rate, r.PliesMean, r.BranchingMean), nil))
	}
	std := randomGames(t, variantOf(t, page, "standard"), 5000)
	out = append(out, says(fmt.Sprintf("Random play ends fast: the median game is %d plies, hardly past the 44 of the namua stage, and most games end with an empty front row (%s of 5,000 standard games), the others with a player who cannot move.",
		std.PliesMedian, commas(ending(std, "front row empty"))), func(t *testing.T) {
		s := bao(t).Start()
		assert.Equal(t, 44, s.Hand(1)+s.Hand(2), "a namua move puts one seed in")
		assert.Equal(t, 5000, ending(std, "front row empty")+ending(std, "no legal move"))
	}))
	return out
}
