package games_test

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/analysis"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rulesClaims are the statements of figures of the rules pages, page by
// page (see TestRulesPageFigures).
func rulesClaims(t *testing.T) []claim {
	var out []claim
	add := func(c ...claim) { out = append(out, c...) }
	row := func(page, label, name, variant string, params ...string) claim {
		return claim{page: page, text: solvedRow(t, label, variantOf(t, name, variant, params...))}
	}
	says := func(page, text string, check func(*testing.T)) claim {
		return claim{page: page, text: text, check: check}
	}
	given := func(page, text, why string) claim { return claim{page: page, text: text, given: why} }
	_ = given
	diagram := func(page, name, variant, record string, params ...string) claim {
		return drawn(t, page, variantOf(t, name, variant, params...), record)
	}
	// The bound on a game's length that the third repetition gives: each
	// position with every piece down (pieces of each player on a board
	// of sites, either player to move) occurs at most twice after the
	// drops.
	bound := func(sites, pieces, drops int) int { return drops + 2*2*arrangements(sites, pieces, pieces) }

	// ---- achi ----
	achi := game("achi", "")
	add(
		says("achi", "`b2 a1 c3 a3 a2 c2 b1 b3` fills eight points; `c1` is empty and Player 1 slides into it, from `b1` or `b2`",
			legalIs(achi, "b2 a1 c3 a3 a2 c2 b1 b3", "b1-c1", "b2-c1")),
		diagram("achi", "achi", "", "b2 a1 c3 a3 a2 c2 b1 b3"),
		row("achi", "standard (four pieces, pass)", "achi", ""),
		row("achi", "`blocked-loses`", "achi", "blocked-loses"),
		row("achi", "`three-pieces`", "achi", "three-pieces"),
		says("achi", "With four pieces no position is a draw", func(t *testing.T) {
			assert.Zero(t, solved(t, variantOf(t, "achi", "")).Counts().Drawn)
			assert.Zero(t, solved(t, variantOf(t, "achi", "blocked-loses")).Counts().Drawn)
		}),
		says("achi", "Player 1 wins only by dropping the first piece on the centre `b2`; a first drop anywhere else loses (in 12 plies from a corner, in 10 from the middle of a side)",
			hintIs(achi, "", map[string]string{"b2": "win in 11", "a1": "loss in 12", "a3": "loss in 12", "c1": "loss in 12", "c3": "loss in 12",
				"a2": "loss in 10", "b1": "loss in 10", "b3": "loss in 10", "c2": "loss in 10"})),
		says("achi", "With three pieces Achi is Tapatan, and its figures are Tapatan's.", func(t *testing.T) {
			assert.Equal(t, solvedRow(t, "x", variantOf(t, "tapatan", "")), solvedRow(t, "x", variantOf(t, "achi", "three-pieces")))
		}),
	)

	// ---- nineholes ----
	add(
		says("nineholes", "6 + 2 x 3,360 = 6,726 decisions", func(t *testing.T) {
			assert.Equal(t, 3360, 2*arrangements(9, 3, 3))
			assert.Equal(t, 6726, bound(9, 3, 6))
		}),
		row("nineholes", "standard (steps)", "nineholes", ""),
		row("nineholes", "`move-anywhere`", "nineholes", "move-anywhere"),
	)

	// ---- shisima ----
	shisima := game("shisima", "")
	add(
		says("shisima", "2 x 2 x 84 x 20 = 6,720 decisions", func(t *testing.T) {
			g := variantOf(t, "shisima", "")
			assert.Equal(t, 84*20, arrangements(g.Board().NumSites(), 3, 3))
			assert.Equal(t, 6720, bound(g.Board().NumSites(), 3, 0))
		}),
		says("shisima", "From the opening, Player 1's legal moves are `a1-b1`, `a1-c1`, `a2-c1`, `b2-c1` and `b2-d2`.",
			legalIs(shisima, "", "a1-b1", "a1-c1", "a2-c1", "b2-c1", "b2-d2")),
		says("shisima", "Player 2 has only two moves, `d1-b1` and `e2-d2`: `e1`'s neighbours are all taken. Both keep the draw.",
			hintIs(shisima, "a2-c1", map[string]string{"d1-b1": "draw", "e2-d2": "draw"})),
		says("shisima", "after `a2-c1 d1-b1`, `a1-a2`, `b2-a2` and `c1-a2` all lose in 10 plies (`matombo hint shisima a2-c1 d1-b1`), while `b2-d2`, `c1-d1` and `c1-d2` draw.",
			hintIs(shisima, "a2-c1 d1-b1", map[string]string{"a1-a2": "loss in 10", "b2-a2": "loss in 10", "c1-a2": "loss in 10",
				"b2-d2": "draw", "c1-d1": "draw", "c1-d2": "draw"})),
		row("shisima", "octagon (S1)", "shisima", ""),
		row("shisima", "square (S7)", "shisima", "square"),
	)

	// ---- tantfant ----
	tantfant := game("tantfant", "")
	add(
		says("tantfant", "8 blocked positions are reachable, the quickest after `a1-b1 c1-b2 a3-b3 b2-c1 a2-b2`, where Player 1 fills the middle row and Player 2, back on `c1 c2 c3`, cannot move: Player 1 wins (`no legal move`).", func(t *testing.T) {
			g := variantOf(t, "tantfant", "diagonals")
			_, blocked, quickest := reachable(t, g)
			assert.Equal(t, 8, blocked)
			assert.Equal(t, 5, quickest)
			out := after(t, g, "a1-b1 c1-b2 a3-b3 b2-c1 a2-b2").Outcome()
			assert.Equal(t, 1, out.Winner)
			assert.Equal(t, "no legal move", out.Reason)
			for _, v := range []string{"", "no-home-rows"} {
				_, blocked, _ := reachable(t, variantOf(t, "tantfant", v))
				assert.Zero(t, blocked, "no blocked position on %q", v)
			}
		}),
		diagram("tantfant", "tantfant", "diagonals", "a1-b1 c1-b2 a3-b3 b2-c1 a2-b2"),
		says("tantfant", "within 2 x 3,360 = 6,720 decisions", func(t *testing.T) { assert.Equal(t, 6720, bound(9, 3, 0)) }),
		says("tantfant", "From the opening Player 1 has five moves: `a1-b1`, `a1-b2`, `a2-b2`, `a3-b2` and `a3-b3`.",
			legalIs(tantfant, "", "a1-b1", "a1-b2", "a2-b2", "a3-b2", "a3-b3")),
		says("tantfant", "After `a2-b2 c1-b1` Player 1 has six; the three that step back into the home row (`a1-a2`, `a3-a2`, `b2-a2`) lose in 10 plies, while `a3-b3`, `b2-b3` and `b2-c1` keep the draw",
			hintIs(tantfant, "a2-b2 c1-b1", map[string]string{"a1-a2": "loss in 10", "a3-a2": "loss in 10", "b2-a2": "loss in 10",
				"a3-b3": "draw", "b2-b3": "draw", "b2-c1": "draw"})),
		row("tantfant", "standard (not one's own home row)", "tantfant", ""),
		row("tantfant", "`no-home-rows`", "tantfant", "no-home-rows"),
		row("tantfant", "`diagonals`", "tantfant", "diagonals"),
		row("tantfant", "`diagonals`, `blocked=draw`", "tantfant", "diagonals", "blocked=draw"),
		says("tantfant", "on `diagonals` 8 of the 88 finished positions are blocked ones, and when a blocked player draws rather than loses, the won, drawn and lost positions are 720 / 2,352 / 200 instead of 760 / 2,304 / 208 (the opening stays a draw).", func(t *testing.T) {
			loses, draws := solved(t, variantOf(t, "tantfant", "diagonals")), solved(t, variantOf(t, "tantfant", "diagonals", "blocked=draw"))
			assert.Equal(t, 88, loses.Terminals())
			assert.Equal(t, "720 / 2352 / 200", fmt.Sprintf("%d / %d / %d", draws.Counts().Won, draws.Counts().Drawn, draws.Counts().Lost))
			assert.Equal(t, "760 / 2304 / 208", fmt.Sprintf("%d / %d / %d", loses.Counts().Won, loses.Counts().Drawn, loses.Counts().Lost))
			assert.Equal(t, "**draw**", opening(draws))
		}),
	)

	// ---- tapatan ----
	tapatan := game("tapatan", "")
	add(
		says("tapatan", "there are 3,360 positions with all pieces down and each occurs at most twice, so no game lasts more than 6 + 2 x 3,360 = 6,726 decisions.", func(t *testing.T) {
			assert.Equal(t, 3360, 2*arrangements(9, 3, 3))
			assert.Equal(t, 6726, bound(9, 3, 6))
		}),
		says("tapatan", "`b2 a1 c3 a3 a2` drops; Player 2 to drop the third piece. Player 1 holds the centre and threatens `a2 b2 c2`", func(t *testing.T) {
			s := after(t, variantOf(t, "tapatan", ""), "b2 a1 c3 a3 a2")
			assert.Equal(t, 2, s.ToMove())
			assert.Equal(t, 1, s.Hand(2))
		}),
		diagram("tapatan", "tapatan", "", "b2 a1 c3 a3 a2"),
		says("tapatan", "Player 2 must drop the last piece on `c2`.",
			hintIs(tapatan, "b2 a1 c3 a3 a2", map[string]string{"c2": "draw", "b1": "loss in 2", "b3": "loss in 2", "c1": "loss in 2"})),
		says("tapatan", "Of Player 1's four moves, `b2-b1` and `b2-c1` keep the draw; `b2-b3` and `c3-b3` lose in four plies",
			hintIs(tapatan, "b2 a1 c3 a3 a2 c2", map[string]string{"b2-b1": "draw", "b2-c1": "draw", "b2-b3": "loss in 4", "c3-b3": "loss in 4"})),
		row("tapatan", "standard (`first_drop = anywhere`)", "tapatan", ""),
		row("tapatan", "`not-centre-first`", "tapatan", "not-centre-first"),
		row("tapatan", "`centre-first`", "tapatan", "centre-first"),
		row("tapatan", "`move-anywhere`", "tapatan", "move-anywhere"),
	)

	// ---- tictactoe ----
	ttt := func(t *testing.T) *host.Game { return variantOf(t, "tictactoe", "") }
	add(
		says("tictactoe", "So every game ends within nine decisions.", func(t *testing.T) { assert.Equal(t, 9, ttt(t).Board().NumSites()) }),
		says("tictactoe", "`b2 a1 c3 a3 a2 c2 b1 b3 c1`: nine marks, no line of three: a draw.", func(t *testing.T) {
			out := after(t, ttt(t), "b2 a1 c3 a3 a2 c2 b1 b3 c1").Outcome()
			assert.True(t, out.Over)
			assert.Zero(t, out.Winner)
		}),
		diagram("tictactoe", "tictactoe", "", "b2 a1 c3 a3 a2 c2 b1 b3 c1"),
		says("tictactoe", "`b2 a2 a1 c3 c1 a3 b1` wins for Player 1 with the seventh mark. After `c1` Player 1 threatens two lines at once (a fork)", func(t *testing.T) {
			out := after(t, ttt(t), "b2 a2 a1 c3 c1 a3 b1").Outcome()
			assert.Equal(t, 1, out.Winner)
			assert.True(t, after(t, ttt(t), "b2 a2 a1 c3 c1 a3").Over() == false)
			assert.Equal(t, 2, threats(after(t, ttt(t), "b2 a2 a1 c3 c1"), 1))
		}),
		diagram("tictactoe", "tictactoe", "", "b2 a2 a1 c3 c1 a3 b1"),
		says("tictactoe", fmt.Sprintf("**%s positions** are reachable from the empty grid", commas(solved(t, ttt(t)).Positions())), nil),
		says("tictactoe", fmt.Sprintf("**%s** of them are finished games.", commas(solved(t, ttt(t)).Terminals())), nil),
		says("tictactoe", "The opening is a "+opening(solved(t, ttt(t))), nil),
		says("tictactoe", fmt.Sprintf("For the player to move: %s positions won, %s drawn, %s lost.",
			commas(solved(t, ttt(t)).Counts().Won), commas(solved(t, ttt(t)).Counts().Drawn), commas(solved(t, ttt(t)).Counts().Lost)), nil),
	)

	// ---- yematatu ----
	triangle := func(t *testing.T) *host.Game { return variantOf(t, "yematatu", "") }
	square := func(t *testing.T) *host.Game { return variantOf(t, "yematatu", "square") }
	add(
		says("yematatu", "On the triangle there are 280 positions of the move phase (Player 1's three points, Player 2's three points, and who is to move), so no game lasts more than 6 + 2 x 280 = 566 decisions; on the square, with 3360 such positions, no more than 6726. The script declares the bound of the board it is played on (566 on the triangle, 6726 on the square)", func(t *testing.T) {
			assert.Equal(t, 280, 2*arrangements(triangle(t).Board().NumSites(), 3, 3))
			assert.Equal(t, 566, bound(triangle(t).Board().NumSites(), 3, 6))
			assert.Equal(t, 3360, 2*arrangements(square(t).Board().NumSites(), 3, 3))
			assert.Equal(t, 6726, bound(square(t).Board().NumSites(), 3, 6))
			assert.Equal(t, 566, triangle(t).MaxPlies())
			assert.Equal(t, 6726, square(t).MaxPlies())
		}),
		says("yematatu", fmt.Sprintf("in 20,000 random games on each board (`matombo analyze yematatu --games 20000`, seed 1) the longest lasted %d decisions on the triangle and %d on the square",
			randomGames(t, triangle(t), 20000).PliesMax, randomGames(t, square(t), 20000).PliesMax), nil),
		says("yematatu", "The record `c1 b2 a1 b1 b3 c2` fills the board.", func(t *testing.T) {
			s := after(t, triangle(t), "c1 b2 a1 b1 b3 c2")
			assert.Equal(t, []string{"a1-c3", "b3-c3", "c1-c3"}, sorted(s.Legal()))
		}),
		diagram("yematatu", "yematatu", "", "c1 b2 a1 b1 b3 c2"),
		says("yematatu", "Player 1 has three legal moves, all ending on `c3`:", legalIs(triangle, "c1 b2 a1 b1 b3 c2", "a1-c3", "b3-c3", "c1-c3")),
		diagram("yematatu", "yematatu", "", "c1 b2 a1 b1 b3 c2 c1-c3"),
		says("yematatu", "Record: `b2 c1 a1 b3 c2`", func(t *testing.T) {
			s := after(t, triangle(t), "b2 c1 a1 b3 c2")
			assert.Equal(t, 1, s.Outcome().Winner)
			assert.Equal(t, 1, s.Hand(2))
		}),
		says("yematatu", "1. Player 1 drops on `b2`. 2. Player 2 drops on `c1`. 3. Player 1 drops on `a1`.", nil),
		says("yematatu", "4. Player 2 drops on `b3` and does not block. 5. Player 1 drops on `c2` and wins at once (Y5), with one piece still in Player 2's hand.", nil),
		diagram("yematatu", "yematatu", "", "b2 c1 a1 b3 c2"),
		diagram("yematatu", "yematatu", "", "b2 c2 a1 b1 c1 b3"),
		says("yematatu", "the same position for the second time (after 12 tokens). The players repeat the six moves, the position occurs for the third time (after 18 tokens), and the game is a draw (Y6).", func(t *testing.T) {
			rec := "b2 c2 a1 b1 c1 b3 a1-c3 b3-a1 c3-b3 a1-c3 b3-a1 c3-b3 a1-c3 b3-a1 c3-b3 a1-c3 b3-a1 c3-b3"
			g := triangle(t)
			s := after(t, g, "b2 c2 a1 b1 c1 b3 a1-c3 b3-a1 c3-b3 a1-c3 b3-a1 c3-b3")
			assert.Equal(t, 2, s.Repetitions())
			s = after(t, g, rec)
			assert.Equal(t, 18, s.Ply())
			assert.Equal(t, "third repetition", s.Outcome().Reason)
			assert.Zero(t, s.Outcome().Winner)
		}),
		diagram("yematatu", "yematatu", "square", "a1 b1 b2 c3 a3 a2"),
		says("yematatu", "Player 1 has six legal moves: the steps `a3-b3`, `b2-b3`, `b2-c1` and `b2-c2`, the jump `a1-c1` over Player 2's `b1`, and the jump `a3-c1` over Player 1's own `b2`.",
			legalIs(square, "a1 b1 b2 c3 a3 a2", "a3-b3", "b2-b3", "b2-c1", "b2-c2", "a1-c1", "a3-c1")),
		says("yematatu", "After the six drops it is Player 1's turn and `c3` is empty:", func(t *testing.T) {
			s := after(t, triangle(t), "b2 c2 a1 b1 c1 b3")
			assert.Equal(t, 1, s.ToMove())
			c3, _ := s.Game().Board().Index("c3")
			assert.Zero(t, s.Owner(c3))
		}),
		says("yematatu", "**Triangle (Y1)**: a **draw**. Of the 815 positions reachable from the opening (66 of them finished games), every first drop of Player 1 draws", func(t *testing.T) {
			sol := solved(t, triangle(t))
			assert.Equal(t, 815, sol.Positions())
			assert.Equal(t, 66, sol.Terminals())
			assert.Equal(t, "**draw**", opening(sol))
			hintIs(triangle, "", map[string]string{"a1": "draw", "b1": "draw", "b2": "draw", "b3": "draw", "c1": "draw", "c2": "draw", "c3": "draw"})(t)
		}),
		says("yematatu", "**Square (Y7)**: a **win for Player 1 in 9 plies**. Of 5390 reachable positions (416 finished), Player 1 wins by dropping the first piece on the centre `b2`", func(t *testing.T) {
			sol := solved(t, square(t))
			assert.Equal(t, 5390, sol.Positions())
			assert.Equal(t, 416, sol.Terminals())
			assert.Equal(t, "**Player 1 wins in 9 plies**", opening(sol))
		}),
		says("yematatu", "A first drop on a corner only draws; one on the middle of a side loses in 8 plies.",
			hintIs(square, "", map[string]string{"b2": "win in 9", "a1": "draw", "a3": "draw", "c1": "draw", "c3": "draw",
				"a2": "loss in 8", "b1": "loss in 8", "b3": "loss in 8", "c2": "loss in 8"})),
	)
	// ---- kalah ----
	kalahSpec := func(name string, lo, hi, def int) func(*testing.T) {
		return func(t *testing.T) {
			for _, s := range variantOf(t, "kalah", "").ParamSpecs() {
				if s.Name == name {
					assert.Equal(t, def, s.Default, name)
					var want []string
					for v := lo; v <= hi; v++ {
						want = append(want, fmt.Sprint(v))
					}
					assert.Equal(t, want, s.Allowed(), name)
					return
				}
			}
			t.Errorf("kalah has no parameter %s", name)
		}
	}
	add(
		says("kalah", "The parameter `seeds` sets the number of seeds in each pit at the start: 1 to 6; 4 is the default, OpenSpiel's game. The named variants are `standard` (4), `three`, `five` and `six`:", all(
			kalahSpec("seeds", 1, 6, 4),
			func(t *testing.T) {
				for v, n := range map[string]int{"standard": 4, "three": 3, "five": 5, "six": 6} {
					seeds, _ := variantOf(t, "kalah", v).Param("seeds")
					assert.Equal(t, n, seeds, v)
				}
			})),
		says("kalah", "The parameter `pits` sets the number of pits on each side: 1 to 6; 6 is the default. With N pits, Player 1 owns `a1` to `aN` and the store `a(N+1)`, Player 2 owns `b1` to `bN` and the store `b(N+1)`; `b1` still faces `a1`, a round is 2N + 1 sites", all(
			kalahSpec("pits", 1, 6, 6),
			func(t *testing.T) {
				g := variantOf(t, "kalah", "", "pits=4")
				assert.Equal(t, 10, g.Board().NumSites(), "2N + 2 sites, of which a player sows into 2N + 1")
				a1, _ := g.Board().Index("a1")
				b1, _ := g.Board().Index("b1")
				_, ok := g.Board().Index("a5")
				assert.True(t, ok, "the store a(N+1)")
				_ = a1
				_ = b1
			})),
		given("kalah", "Kalah(m,n) for the game of m pits a side and n seeds a pit: Kalah(4,3) is", "the literature's name of a game"),
		diagram("kalah", "kalah", "", "", "pits=4", "seeds=3"),
	)

	// ---- oware ----
	owareStd := func(t *testing.T) *host.Game { return variantOf(t, "oware", "") }
	add(
		says("oware", fmt.Sprintf("In 20,000 random games of the standard board (`matombo analyze oware --games 20000`, seed 1) the longest took %d moves (mean %.1f); in 5,000 with six seeds a house (`--variant rich`), %d (mean %.1f).",
			randomGames(t, owareStd(t), 20000).PliesMax, randomGames(t, owareStd(t), 20000).PliesMean,
			randomGames(t, variantOf(t, "oware", "rich"), 5000).PliesMax, randomGames(t, variantOf(t, "oware", "rich"), 5000).PliesMean), func(t *testing.T) {
			seeds, _ := variantOf(t, "oware", "rich").Param("seeds")
			assert.Equal(t, 6, seeds)
		}),
		says("oware", "The script declares 2,000 moves as the cap", func(t *testing.T) { assert.Equal(t, 2000, owareStd(t).MaxPlies()) }),
	)

	// ---- yemutwelve ----
	add(
		given("yemutwelve", "(Nine Men's Morris, smaller than this, was solved by Ralph Gasser in 1996 with months of computation: a draw)", "history"),
		says("yemutwelve", "`a1 g7 a4 g4 a7` (Player 1 on `a1`, `a4` and `a7`, Player 2 on `g7` and `g4`): the bottom side is Player 1's mill, and Player 1 decides again, which of Player 2's pieces to remove: `xg4` or `xg7`.",
			legalIs(game("yemutwelve", ""), "a1 g7 a4 g4 a7", "xg4", "xg7")),
		diagram("yemutwelve", "yemutwelve", "", "a1 g7 a4 g4 a7"),
		says("yemutwelve", "Random games show how the variants differ (`matombo analyze yemutwelve --variants all --games 2000`):", nil),
	)
	for _, v := range []string{"standard", "flying", "nine-mens-morris", "morabaraba", "diagonal-moves"} {
		r := randomGames(t, variantOf(t, "yemutwelve", v), 2000)
		add(says("yemutwelve", fmt.Sprintf("| %s | %.1f%% | %.1f%% | %.1f%% | %.1f | %.2f |", v,
			100*r.WinRates[0].Rate, 100*r.WinRates[1].Rate, 100*r.DrawRate.Rate, r.PliesMean, r.BranchingMean), nil))
	}
	std := randomGames(t, variantOf(t, "yemutwelve", "standard"), 2000)
	add(
		says("yemutwelve", fmt.Sprintf("With twelve pieces a random board fills up now and then (%d of 2,000 games end `full board`), and %d of 2,000 end with a blocked player.",
			ending(std, "full board"), ending(std, "no legal move")), func(t *testing.T) {
			pieces, _ := variantOf(t, "yemutwelve", "standard").Param("pieces")
			assert.Equal(t, 12, pieces)
		}),
	)
	// ---- tsoro: worked examples on the 4x8 board ----
	tsoro := func(t *testing.T) *host.Game { return variantOf(t, "tsoro", "4x8") }
	add(
		diagram("tsoro", "tsoro", "4x8", ""),
		diagram("tsoro", "tsoro", "4x8", "a1"),
		says("tsoro", "1. Lap 1 (T5): take the 2 counters from `a1` (now 0). Sow `a2` (2 -> 3) and `a3` (2 -> 3). The last counter fell into `a3`, which was occupied and is not a head: relay (T7b). "+
			"2. Lap 2: take the 3 counters from `a3` (now 0). Sow `a4` (-> 3), `a5` (-> 3), `a6` (-> 3). `a6` was occupied, not a head: relay again. "+
			"3. Lap 3: take the 3 counters from `a6` (now 0). Sow `a7` (-> 3), `a8` (-> 3), then turn the corner into `b8` (0 -> 1).", func(t *testing.T) {
			assert.Equal(t, []string{"take 2 from a1", "drop 1 on a2", "drop 1 on a3", "take 3 from a3", "drop 1 on a4", "drop 1 on a5", "drop 1 on a6",
				"take 3 from a6", "drop 1 on a7", "drop 1 on a8", "drop 1 on b8", "player 2 to move"}, effectsOf(t, tsoro(t), "", "a1"))
			assert.Equal(t, []int{2, 2, 2, 2, 2, 2, 2, 2, 0}, countsOf(t, after(t, tsoro(t), ""), "a1 a2 a3 a4 a5 a6 a7 a8 b8"))
		}),
		says("tsoro", "4. Capture check (T8): `b8` is in Player 1's inner row, but `c8` opposite is empty. Nothing is captured, although `d8` holds 2.", func(t *testing.T) {
			s := after(t, tsoro(t), "a1")
			assert.Equal(t, []int{0, 2}, countsOf(t, s, "c8 d8"))
			assert.Equal(t, []int{0, 0}, []int{s.Captured(1), s.Captured(2)})
		}),
		says("tsoro", rowSums(t, after(t, variantOf(t, "tsoro", "4x8"), "a1"), "Check: Player 1's rows hold %s = %d, as before; Player 2's rows hold %[4]d; nothing captured; %[5]d in all.%.0[3]s"), nil),
		says("tsoro", "4x8 board, after the record `a1 d1 a2 d7 continue` (in that last move Player 2 reached the occupied head `d2` and chose to continue). Player 1 to move; nothing has been captured yet.", func(t *testing.T) {
			s := after(t, tsoro(t), "a1 d1 a2 d7 continue")
			assert.Equal(t, 1, s.ToMove())
			assert.Equal(t, []int{0, 0}, []int{s.Captured(1), s.Captured(2)})
		}),
		diagram("tsoro", "tsoro", "4x8", "a1 d1 a2 d7 continue"),
		says("tsoro", "Player 1's rows hold 16 counters, Player 2's rows 16.", func(t *testing.T) {
			s := after(t, tsoro(t), "a1 d1 a2 d7 continue")
			assert.Equal(t, 16, rowTotal(s, "a")+rowTotal(s, "b"))
			assert.Equal(t, 16, rowTotal(s, "c")+rowTotal(s, "d"))
		}),
		says("tsoro", "1. `a7` (T5): Player 1 starts from a head, which is allowed. Take the 4 counters from `a7` (now 0). Sow `a8` (4 -> 5), `b8` (0 -> 1), `b7` (1 -> 2), `b6` (1 -> 2). `b6` was occupied, not a head: relay (T7b). "+
			"2. Take the 2 counters from `b6` (now 0). Sow `b5` (0 -> 1) and `b4` (0 -> 1). `b4` was empty: the move ends (T7a). "+
			"3. Capture (T8): `b4` is in Player 1's inner row and `c4` opposite holds 1. Player 1 captures `c4` (1) and `d4` (3): 4 counters. "+
			"4. Bonus (T9), B = 2.", func(t *testing.T) {
			assert.Equal(t, []string{"take 4 from a7", "drop 1 on a8", "drop 1 on b8", "drop 1 on b7", "drop 1 on b6", "take 2 from b6", "drop 1 on b5", "drop 1 on b4",
				"capture 1 from c4 for player 1", "capture 3 from d4 for player 1", "player 1 to move"}, effectsOf(t, tsoro(t), "a1 d1 a2 d7 continue", "a7"))
			assert.Equal(t, []int{4, 0, 1, 1, 0, 0, 1, 3}, countsOf(t, after(t, tsoro(t), "a1 d1 a2 d7 continue"), "a8 b8 b7 b6 b5 b4 c4 d4"))
			bonus, _ := tsoro(t).Param("bonus")
			assert.Equal(t, 2, bonus)
		}),
		says("tsoro", "Player 2's non-empty holes are now `c1`, `c3`, `d1`, `d3`, `d6` and `d8`, so the legal tokens are `xc1`, `xc3`, `xd1`, `xd3`, `xd6` and `xd8` (`xc4` and `xd4` are empty now). Player 1 plays `xd3` (3 counters, 7 captured in all) and then `xd6` (3 more, 10 in all).", all(
			legalIs(tsoro, "a1 d1 a2 d7 continue a7", "xc1", "xc3", "xd1", "xd3", "xd6", "xd8"),
			func(t *testing.T) {
				assert.Equal(t, 7, after(t, tsoro(t), "a1 d1 a2 d7 continue a7 xd3").Captured(1))
				assert.Equal(t, 10, after(t, tsoro(t), "a1 d1 a2 d7 continue a7 xd3 xd6").Captured(1))
				assert.Equal(t, 2, after(t, tsoro(t), "a1 d1 a2 d7 continue a7 xd3 xd6").ToMove())
			})),
		diagram("tsoro", "tsoro", "4x8", "a1 d1 a2 d7 continue a7 xd3 xd6"),
		says("tsoro", rowSums(t, after(t, variantOf(t, "tsoro", "4x8"), "a1 d1 a2 d7 continue a7 xd3 xd6"),
			"Check: Player 1's rows hold %s = %d; Player 2's rows hold %s = %d; Player 1 has captured 10; %[2]d + %[4]d + 10 = %[5]d."), func(t *testing.T) {
			s := after(t, tsoro(t), "a1 d1 a2 d7 continue a7 xd3 xd6")
			assert.Equal(t, 10, s.Captured(1))
			assert.Equal(t, 32, rowTotal(s, "a")+rowTotal(s, "b")+rowTotal(s, "c")+rowTotal(s, "d")+s.Captured(1)+s.Captured(2))
		}),
	)
	// ---- gore: worked examples from positions set up ----
	gore := func(t *testing.T) *host.Game { return variantOf(t, "gore", "") }
	chain := func(t *testing.T) *host.State {
		return setUp(t, gore(t), "b    4  2  3  1\na    2  7  3  1\n     1  2  3  4", 12, 13)
	}
	trade := func(t *testing.T) *host.State {
		return setUp(t, gore(t), "b    5  6  2  4\na    0  1  5  3\n     1  2  3  4", 8, 14)
	}
	play := func(t *testing.T, s *host.State, tokens string) *host.State {
		s = s.Clone()
		for _, tok := range strings.Fields(tokens) {
			require.NoError(t, s.Play(tok))
		}
		return s
	}
	add(
		says("gore", "Player 1 to move. Captured: Player 1 has 12, Player 2 has 13. The board holds 23, and 23 + 12 + 13 = 48.", func(t *testing.T) {
			s := chain(t)
			assert.Equal(t, 23, boardTotal(s))
			assert.Equal(t, 48, boardTotal(s)+s.Captured(1)+s.Captured(2))
			assert.Equal(t, 48, boardTotal(gore(t).Start()), "the total of the opening, which a position of the game keeps")
		}),
		claim{page: "gore", text: chain(t).Diagram(), diagram: true},
		says("gore", "Player 1 plays `a3`. 1. Sowing. Take the 3 counters from `a3`, which is now 0. Drop them into `a4` (1 → 2), `b4` (1 → 2) and `b3` (3 → 4). "+
			"2. Landing. The last counter fell into `b3`. It belongs to Player 2 and now holds 4. Capture: take 4. "+
			"3. Forward, the sowing direction (`b3 → b2 → b1 → a1 → a2`): - `b2` holds 2: take 2. - `b1` holds 4: take 4. - `a1` holds 2: take 2. The chain went round the corner from `b1` to `a1` and took Player 1's own hole. - `a2` holds 7: stop. "+
			"4. Backward (`b3 → b4 → a4 → a3`): - `b4` holds 2: take 2. - `a4` holds 2: take 2. Player 1's own hole again. - `a3` holds 0: stop. "+
			"5. Total: 4 + 2 + 4 + 2 + 2 + 2 = 16. Player 1's captured total becomes 12 + 16 = 28.", func(t *testing.T) {
			s := chain(t)
			assert.Equal(t, []int{3, 1, 1, 3, 2, 4, 2, 7}, countsOf(t, s, "a3 a4 b4 b3 b2 b1 a1 a2"))
			assert.Equal(t, []string{"take 3 from a3", "drop 1 on a4", "drop 1 on b4", "drop 1 on b3",
				"capture 4 from b3 for player 1", "capture 2 from b2 for player 1", "capture 4 from b1 for player 1", "capture 2 from a1 for player 1",
				"capture 2 from b4 for player 1", "capture 2 from a4 for player 1", "player 2 to move"}, effectsFrom(t, s, "a3"))
			assert.Equal(t, 28, play(t, s, "a3").Captured(1))
		}),
		claim{page: "gore", text: play(t, chain(t), "a3").Diagram(), diagram: true},
		says("gore", "Captured: Player 1 has 28, Player 2 has 13. Check: 7 + 28 + 13 = 48. `a2` still holds 7, so the game goes on (G8). It is Player 2's turn, and all Player 2's holes are empty: Player 2 must `pass` or make an offer (G5).", func(t *testing.T) {
			s := play(t, chain(t), "a3")
			assert.Equal(t, []int{28, 13}, []int{s.Captured(1), s.Captured(2)})
			assert.Equal(t, 7, boardTotal(s))
			assert.False(t, s.Over())
			assert.Equal(t, 2, s.ToMove())
			for _, tok := range s.Legal() {
				assert.True(t, tok == "pass" || strings.HasPrefix(tok, "offer:"), tok)
			}
		}),
		says("gore", "Player 1 to move. Captured: Player 1 has 8, Player 2 has 14. The board holds 26, and 26 + 8 + 14 = 48.", func(t *testing.T) {
			s := trade(t)
			assert.Equal(t, 26, boardTotal(s))
			assert.Equal(t, 48, boardTotal(s)+s.Captured(1)+s.Captured(2))
		}),
		claim{page: "gore", text: trade(t).Diagram(), diagram: true},
		says("gore", "`a1` is empty, so it cannot be sown. Offers of three holes are missing: they need 18 captured counters and Player 2 has only 14. "+
			"Player 1 plays `offer:a1,a2`. Two holes need 12; Player 2 has 14, and Player 1 keeps `a3` and `a4`. The board does not change. Player 2 must answer: the legal tokens are `accept` and `decline`.", func(t *testing.T) {
			s := trade(t)
			assert.Equal(t, []string{"a2", "a3", "a4", "offer:a1", "offer:a2", "offer:a3", "offer:a4", "offer:a1,a2", "offer:a1,a3",
				"offer:a1,a4", "offer:a2,a3", "offer:a2,a4", "offer:a3,a4"}, s.Legal())
			offered := play(t, s, "offer:a1,a2")
			assert.Equal(t, s.Diagram(), offered.Diagram())
			assert.Equal(t, []string{"accept", "decline"}, offered.Legal())
			accepted := play(t, offered, "accept")
			price := (s.Captured(2) - accepted.Captured(2)) / 2
			assert.Equal(t, 6, price, "a hole costs 6")
			assert.Equal(t, 12, 2*price)
			assert.Equal(t, 18, 3*price)
		}),
		says("gore", "**Player 2 answers `accept`.** `a1` and `a2` now belong to Player 2. Player 2 pays 6 counters into each: `a1` goes from 0 to 6, `a2` from 1 to 7. Player 2's captured total drops from 14 to 2.", func(t *testing.T) {
			s := play(t, trade(t), "offer:a1,a2 accept")
			assert.Equal(t, []int{6, 7}, countsOf(t, s, "a1 a2"))
			a1, _ := gore(t).Board().Index("a1")
			a2, _ := gore(t).Board().Index("a2")
			assert.Equal(t, []int{2, 2}, []int{s.Owner(a1), s.Owner(a2)})
			assert.Equal(t, 2, s.Captured(2))
		}),
		claim{page: "gore", text: play(t, trade(t), "offer:a1,a2 accept").Diagram(), diagram: true},
		says("gore", "Captured: Player 1 has 8, Player 2 has 2. Check: 38 + 8 + 2 = 48.", func(t *testing.T) {
			s := play(t, trade(t), "offer:a1,a2 accept")
			assert.Equal(t, []int{8, 2}, []int{s.Captured(1), s.Captured(2)})
			assert.Equal(t, 38, boardTotal(s))
		}),
		says("gore", "the board and the captured totals stay as in the first diagram (8 and 14).", func(t *testing.T) {
			s := play(t, trade(t), "offer:a1,a2 decline")
			assert.Equal(t, trade(t).Diagram(), s.Diagram())
			assert.Equal(t, []int{8, 14}, []int{s.Captured(1), s.Captured(2)})
		}),
	)
	add(baokiswahiliClaims(t)...)
	add(bawoClaims(t)...)
	return out
}

// setUp makes a position of a game from a diagram and the captured
// totals, Player 1 to move.
func setUp(t *testing.T, g *host.Game, diagram string, captured ...int) *host.State {
	t.Helper()
	counts, owners, err := g.ParseDiagram(diagram)
	require.NoError(t, err)
	s, err := g.NewState(host.Position{Counts: counts, Owners: owners, Captured: captured, Hand: make([]int, len(captured)), ToMove: 1})
	require.NoError(t, err)
	return s
}

// boardTotal is the counters on the board.
func boardTotal(s *host.State) int {
	n := 0
	for i := 0; i < s.Game().Board().NumSites(); i++ {
		n += s.Count(i)
	}
	return n
}

// effectsFrom plays tok on a copy of s, recording, and says its effects.
func effectsFrom(t *testing.T, s *host.State, tok string) []string {
	t.Helper()
	g := s.Game()
	c := s.Clone()
	r := g.NewRunner()
	defer r.Close()
	r.Record(true)
	require.NoError(t, r.Play(c, tok))
	effs, _ := c.Effects()
	var out []string
	for _, e := range effs {
		out = append(out, g.EffectText(e))
	}
	return out
}

// effectsOf plays tok after a record, recording, and says its effects.
func effectsOf(t *testing.T, g *host.Game, record, tok string) []string {
	t.Helper()
	s := after(t, g, record)
	r := g.NewRunner()
	defer r.Close()
	r.Record(true)
	require.NoError(t, r.Play(s, tok))
	effs, _ := s.Effects()
	var out []string
	for _, e := range effs {
		out = append(out, g.EffectText(e))
	}
	return out
}

// countsOf is the counts of the named sites (separated by spaces).
func countsOf(t *testing.T, s *host.State, names string) []int {
	t.Helper()
	var out []int
	for _, n := range strings.Fields(names) {
		i, ok := s.Game().Board().Index(n)
		require.True(t, ok, n)
		out = append(out, s.Count(i))
	}
	return out
}

// rowTotal is the counters of a row.
func rowTotal(s *host.State, row string) int {
	n := 0
	for _, i := range s.Game().Board().RowSites(slices.Index(s.Game().Board().Rows(), row)) {
		n += s.Count(i)
	}
	return n
}

// rowSums fills a sentence with the sums of Player 1's rows (a and b) and
// Player 2's (c and d) as the worked examples write them: the non-empty
// holes of each row, each player's outer row first, rows apart
// ("1+4+1+5 + 1+1+2+1"), and the totals:
// the arguments are Player 1's sum and total, Player 2's sum and total,
// and everything with the captured counters.
func rowSums(t *testing.T, s *host.State, format string) string {
	t.Helper()
	sum := func(rows ...string) (string, int) {
		var parts []string
		total := 0
		for _, r := range rows {
			var nz []string
			for _, i := range s.Game().Board().RowSites(slices.Index(s.Game().Board().Rows(), r)) {
				if c := s.Count(i); c > 0 {
					nz = append(nz, strconv.Itoa(c))
					total += c
				}
			}
			if len(nz) > 0 {
				parts = append(parts, strings.Join(nz, "+"))
			}
		}
		return strings.Join(parts, " + "), total
	}
	s1, t1 := sum("a", "b")
	s2, t2 := sum("d", "c")
	return fmt.Sprintf(format, s1, t1, s2, t2, t1+t2+s.Captured(1)+s.Captured(2))
}

// ending is how many games of a report ended with the reason.
func ending(r analysis.Report, reason string) int {
	for _, c := range r.Endings {
		if c.Name == reason {
			return c.Games
		}
	}
	return 0
}

// arrangements is the number of ways to put a pieces of one player and b
// of the other on distinct points of n.
func arrangements(n, a, b int) int { return choose(n, a) * choose(n-a, b) }

func choose(n, k int) int {
	r := 1
	for i := 1; i <= k; i++ {
		r = r * (n - k + i) / i
	}
	return r
}

// threats counts the lines on which player p has all points but one and
// the last is empty.
func threats(s *host.State, p int) int {
	n := 0
	for _, line := range s.Game().Board().Lines() {
		mine, empty := 0, 0
		for _, i := range line {
			switch s.Owner(i) {
			case p:
				mine++
			case 0:
				empty++
			}
		}
		if mine == len(line)-1 && empty == 1 {
			n++
		}
	}
	return n
}

// reachable walks the positions reachable from the opening: how many,
// how many end with a player blocked (no legal move), and in how few
// plies the first such position is reached (-1 for none).
func reachable(t *testing.T, g *host.Game) (positions, blocked, quickest int) {
	t.Helper()
	type item struct {
		s     *host.State
		plies int
	}
	seen := map[string]bool{string(g.Start().AppendPosition(nil)): true}
	queue := []item{{g.Start(), 0}}
	quickest = -1
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		if it.s.Over() {
			if it.s.Outcome().Method == host.MethodNoMoves {
				blocked++
				if quickest < 0 {
					quickest = it.plies
				}
			}
			continue
		}
		for _, m := range it.s.AppendMoves(nil) {
			c := it.s.Clone()
			require.NoError(t, c.Apply(m))
			if k := string(c.AppendPosition(nil)); !seen[k] {
				seen[k] = true
				queue = append(queue, item{c, it.plies + 1})
			}
		}
	}
	return len(seen), blocked, quickest
}
