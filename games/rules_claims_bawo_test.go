package games_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

// bawoClaims are the figures of docs/rules/bawo.md: its example, and the
// measures of random games (see TestRulesPageFigures).
func bawoClaims(t *testing.T) []claim {
	const page = "bawo"
	bawo := game(page, "")
	says := func(text string, check func(*testing.T)) claim { return claim{page: page, text: text, check: check} }
	out := []claim{
		says("From the opening, Player 1 plays `b6-b5`: a seed from the hand into `b6` (now 3), sown anticlockwise into the kuu `b5`, `b4` and `b3`; `b3` was empty, so the move ends.", func(t *testing.T) {
			assert.Equal(t, []string{"player 1 has 19 in hand", "drop 1 on b6", "take 3 from b6", "drop 1 on b5", "drop 1 on b4", "drop 1 on b3", "player 2 to move"},
				effectsOf(t, bawo(t), "", "b6-b5"))
		}),
		says("Player 2 must capture (Z7): `c4xc1` puts a seed into the kuu `c4`, captures the one seed of `b4` and sows it in from the right kichwa `c1`, which was empty: the move ends.", func(t *testing.T) {
			assert.Contains(t, after(t, bawo(t), "b6-b5").Legal(), "c4xc1")
			assert.NotContains(t, after(t, bawo(t), "b6-b5").Legal(), "c2-c3", "a capture is compulsory")
			assert.Equal(t, []int{1, 2, 2, 9, 0}, countsOf(t, after(t, bawo(t), "b6-b5 c4xc1"), "c1 c2 c3 c4 b4"))
		}),
		drawn(t, page, bawo(t), "b6-b5 c4xc1"),
		says("Each player has 19 seeds left in hand.", func(t *testing.T) {
			s := after(t, bawo(t), "b6-b5 c4xc1")
			assert.Equal(t, []int{19, 19}, []int{s.Hand(1), s.Hand(2)})
		}),
		says("With 64 seeds the game is far too large for `matombo solve`.", func(t *testing.T) {
			s := bawo(t).Start()
			total := s.Hand(1) + s.Hand(2)
			for i := range s.Game().Board().NumSites() {
				total += s.Count(i)
			}
			assert.Equal(t, 64, total)
		}),
		says("Between random players (`matombo analyze bawo --variants all --games 5000`):", nil),
	}
	variants := []string{"standard", "no-takasia", "house-in-mtaji", "kichwa-inward", "house-of-five", "chibaka"}
	for _, v := range variants {
		r := randomGames(t, variantOf(t, page, v), 5000)
		out = append(out, says(fmt.Sprintf("| %s | %.1f%% | %.1f%% | %.1f%% | %.1f | %.2f |", v,
			100*r.WinRates[0].Rate, 100*r.WinRates[1].Rate, 100*r.DrawRate.Rate, r.PliesMean, r.BranchingMean), nil))
	}
	std := randomGames(t, variantOf(t, page, "standard"), 5000)
	out = append(out, says(fmt.Sprintf("The median game is %d plies, hardly past the 40 of the namua stage, and most games end with an empty front row (%s of 5,000 standard games), the others with a player who cannot move.",
		std.PliesMedian, commas(ending(std, "front row empty"))), func(t *testing.T) {
		s := bawo(t).Start()
		assert.Equal(t, 40, s.Hand(1)+s.Hand(2), "a namua move puts one seed in")
		assert.Equal(t, 5000, ending(std, "front row empty")+ending(std, "no legal move"))
	}))
	five := randomGames(t, variantOf(t, page, "house-of-five"), 5000)
	out = append(out, says("`house-of-five` plays every game as the standard game does: in Bawo the kuu's opening count decides (W3).", func(t *testing.T) {
		assert.Equal(t, std.Wins, five.Wins)
		assert.Equal(t, std.Lengths, five.Lengths)
		assert.Equal(t, std.Endings, five.Endings)
		assert.Equal(t, std.BranchingMean, five.BranchingMean)
	}))
	return out
}
