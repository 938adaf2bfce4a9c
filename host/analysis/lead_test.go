package analysis_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/analysis"
)

// The lead and the margins are read from the game's score when it has
// one (Kalah banks into stores and captures nothing), from the captured
// totals otherwise; a game with neither reports neither.
func TestLeadFrom(t *testing.T) {
	for _, tc := range []struct {
		game      string
		from      string
		label     string
		captures  bool
		lead      bool
		maxPlies  int
		wantMoves bool // lead changes seen in these games
	}{
		{game: "kalah", from: analysis.LeadScore, label: "seeds", lead: true, wantMoves: true},
		{game: "gore", from: analysis.LeadScore, label: "captured", captures: true, lead: true, maxPlies: 200, wantMoves: true},
		{game: "draughts", from: analysis.LeadCaptured, captures: true, lead: true, wantMoves: true},
		{game: "yematatu", from: analysis.LeadCaptured},
	} {
		t.Run(tc.game, func(t *testing.T) {
			g := load(t, tc.game)
			res, err := analysis.Run(context.Background(), g, analysis.WithGames(20), analysis.WithMaxPlies(tc.maxPlies))
			require.NoError(t, err)
			assert.Equal(t, tc.from, res.Lead)
			rep := analysis.Summarize(res)
			assert.Equal(t, tc.from, rep.LeadFrom)
			assert.Equal(t, tc.label, rep.ScoreLabel)
			assert.Equal(t, tc.captures, rep.HasCaptures)
			assert.Equal(t, tc.lead, rep.HasLead)
			assert.Equal(t, tc.lead, rep.HasMargin, "every run here has games ended by a rule")
			assert.Equal(t, tc.wantMoves, rep.LeadChangesMean > 0)
			ended := 0
			for _, n := range res.Margins {
				ended += n
			}
			assert.Equal(t, res.Played-res.Capped, ended, "one margin per game ended by a rule")
			if rep.HasMargin {
				assert.GreaterOrEqual(t, rep.MarginMean, rep.MarginP1Mean)
				assert.GreaterOrEqual(t, rep.MarginMean, -rep.MarginP1Mean)
			}
		})
	}
}

// In Kalah the larger final score wins: the margins agree with the wins
// and draws.
func TestKalahMarginsAgreeWithResults(t *testing.T) {
	res, err := analysis.Run(context.Background(), load(t, "kalah"), analysis.WithGames(200), analysis.WithParallel(4))
	require.NoError(t, err)
	var ahead, behind, level int
	for m, n := range res.Margins {
		switch {
		case m > 0:
			ahead += n
		case m < 0:
			behind += n
		default:
			level += n
		}
	}
	assert.Equal(t, []int{ahead, behind}, res.Wins)
	assert.Equal(t, level, res.Draws)
}

// countingGame plays five plies; its score, a script function, gives the
// lead to Player 1 after odd plies and to Player 2 after even ones, and
// fails after ply FAIL.
const countingGame = `local m = matombo
m.declare { name = "counting", score_label = "points" }
m.board { rows = { "a" }, columns = 1 }
local K = m.move("k", "{1}")
return {
  setup = function() end,
  legal = function(p) m.emit(K, "a1") end,
  play = function(p) m.set_count("a1", m.count("a1") + 1); if m.count("a1") == 5 then m.finish(1, "done") end end,
  score = function(over)
    local c = m.count("a1")
    if c == FAIL then error("no score today") end
    if c % 2 == 1 then return 2, 0 end
    return 0, 1
  end,
}
`

// A score that is a script function: the lead changes at every ply, the
// margin is the final score's; a score that fails stops the run, naming
// the game and the ply.
func TestLeadFromScriptScore(t *testing.T) {
	for _, tc := range []struct {
		fail string
		want string
	}{
		{fail: "-1"},
		{fail: "2", want: "game 1 (seed "},
	} {
		t.Run("fail after ply "+tc.fail, func(t *testing.T) {
			lib := host.NewLibrary()
			require.NoError(t, lib.AddSource("counting", strings.Replace(countingGame, "FAIL", tc.fail, 1), ""))
			g, err := lib.Load("counting")
			require.NoError(t, err)
			res, err := analysis.Run(context.Background(), g, analysis.WithGames(3))
			if tc.want != "" {
				require.ErrorContains(t, err, tc.want)
				assert.ErrorContains(t, err, "the score after ply 2")
				assert.ErrorContains(t, err, "no score today")
				return
			}
			require.NoError(t, err)
			rep := analysis.Summarize(res)
			assert.Equal(t, analysis.LeadScore, rep.LeadFrom)
			assert.Equal(t, "points", rep.ScoreLabel)
			assert.InDelta(t, 4.0, rep.LeadChangesMean, 1e-9)
			assert.Equal(t, map[int]int{2: 3}, rep.Margins)
			assert.InDelta(t, 2.0, rep.MarginMean, 1e-9)
			assert.InDelta(t, 2.0, rep.MarginP1Mean, 1e-9)
			assert.InDelta(t, 0.0, rep.MarginSD, 1e-9)
		})
	}
}

// newShardOf is shardOf as this matombo writes it: with the lead's
// source and a margin of 3 for each game.
func newShardOf(games, d, n int) *analysis.Result {
	r := shardOf(games, d, n)
	r.Lead, r.Margins = analysis.LeadCaptured, map[int]int{}
	if r.Played > 0 {
		r.Margins[3] = r.Played
	}
	return r
}

// Results written before the lead's source merge with each other, as
// before, but not with newer ones, nor results whose lead is read from
// different things.
func TestMergeLeadSources(t *testing.T) {
	scored := func(games, d, n int) *analysis.Result {
		r := newShardOf(games, d, n)
		r.Lead, r.ScoreLabel = analysis.LeadScore, "seeds"
		return r
	}
	for _, tc := range []struct {
		name string
		a, b func(games, d, n int) *analysis.Result
		want string
	}{
		{"old with old", shardOf, shardOf, ""},
		{"new with new", newShardOf, newShardOf, ""},
		{"scored with scored", scored, scored, ""},
		{"old, then new", shardOf, newShardOf, "the results before this one were written by an older matombo"},
		{"new, then old", newShardOf, shardOf, "this result was written by an older matombo"},
		{"captured, then scored", newShardOf, scored, "lead read from the captured totals and the score (seeds)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := analysis.Merge(tc.a(20, 0, 2), tc.b(20, 1, 2))
			if tc.want != "" {
				var me *analysis.MergeError
				require.ErrorAs(t, err, &me)
				assert.Contains(t, err.Error(), tc.want)
				return
			}
			require.NoError(t, err)
			rep := analysis.Summarize(m)
			assert.Equal(t, 20, rep.Games)
			if m.Lead == "" {
				assert.Equal(t, analysis.LeadCaptured, rep.LeadFrom, "an old result's lead is the captured totals'")
				assert.Empty(t, m.Margins)
				return
			}
			assert.Equal(t, map[int]int{3: 20}, m.Margins)
		})
	}
}

// Margins from another machine are checked like the other counts.
func TestMergeRefusesBadMargins(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(r *analysis.Result)
		want string
	}{
		{"margins of an old result", func(r *analysis.Result) { r.Lead = "" }, "margins without what they are read from"},
		{"an unknown lead", func(r *analysis.Result) { r.Lead = "hunch" }, `a lead read from "hunch"`},
		{"a margin too few", func(r *analysis.Result) { r.Margins[3]-- }, "margins do not add up to its 10 games"},
		{"margins that wrap around", func(r *analysis.Result) {
			half := math.MaxInt/2 + 1 // four of them wrap around to 0, whatever the int's size
			r.Margins = map[int]int{1: half, 2: half, 3: half, 4: half, 5: 10}
		}, "do not add up"},
		{"a negative count", func(r *analysis.Result) { r.Margins = map[int]int{3: 11, 4: -1} }, "-1 games won by a margin of 4"},
		{"a margin beyond any score", func(r *analysis.Result) {
			beyond := int64(math.MaxInt32) + 1 // wraps below -MaxInt32 where an int has 32 bits
			r.Margins = map[int]int{int(beyond): 10}
		}, "won by a margin of"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newShardOf(20, 0, 2)
			tc.edit(r)
			_, err := analysis.Merge(r)
			var me *analysis.MergeError
			require.ErrorAs(t, err, &me)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// Kalah's seeds go into stores on the board, never captured: its lead and
// its margin are read from its score.
func ExampleSummarize_lead() {
	g, err := games.Library().Load("kalah")
	if err != nil {
		panic(err)
	}
	res, err := analysis.Run(context.Background(), g, analysis.WithGames(200), analysis.WithSeed(1))
	if err != nil {
		panic(err)
	}
	rep := analysis.Summarize(res)
	fmt.Printf("lead read from the %s (%s): %.2f changes per game; won by %.1f %s per game\n",
		rep.LeadFrom, rep.ScoreLabel, rep.LeadChangesMean, rep.MarginMean, rep.ScoreLabel)
	// Output: lead read from the score (seeds): 2.04 changes per game; won by 10.0 seeds per game
}
