package host

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// scoreGame is a one-move game whose score function is SCORE and whose
// declaration adds DECL.
const scoreGame = `local m = matombo
m.declare { name = "scored", DECL }
m.board { rows = { "a", "b" }, columns = 2 }
local SOW = m.move("sow", "{1}")
return {
  setup = function() m.set_count("a1", 3); m.set_count("b2", 5) end,
  legal = function(p) m.emit(SOW, "a1") end,
  play = function(p, kind, s) m.capture("a1", 1); m.finish(1, "done") end,
  SCORE
}
`

func scoreSource(decl, score string) string {
	r := strings.NewReplacer("DECL", decl, "SCORE", score)
	return r.Replace(scoreGame)
}

func TestScore(t *testing.T) {
	cases := []struct {
		name     string
		decl     string
		score    string
		loadErr  string
		label    string
		atStart  []int
		atEnd    []int
		scoreErr string
	}{
		{name: "none", decl: "players = 2", score: "", label: ""},
		{name: "default label", decl: "players = 2",
			score: "score = function(over) return m.count('a1'), m.count('b2') end",
			label: "score", atStart: []int{3, 5}, atEnd: []int{0, 5}},
		{name: "named, final differs", decl: `score_label = "seeds"`,
			score: "score = function(over) if over then return m.captured(1) + 100, m.captured(2) end return m.captured(1), m.captured(2) end",
			label: "seeds", atStart: []int{0, 0}, atEnd: []int{103, 0}},
		{name: "label without function", decl: `score_label = "seeds"`, score: "",
			loadErr: "score_label but the returned rules table has no score function"},
		{name: "bad label", decl: `score_label = 3`, score: "score = function() return 1, 2 end",
			loadErr: "score_label must be a name"},
		{name: "too few values", decl: "players = 2",
			score: "score = function() return 1 end", label: "score",
			scoreErr: "score must return 2 whole numbers"},
		{name: "fraction", decl: "players = 2",
			score: "score = function() return 1.5, 2 end", label: "score",
			scoreErr: "got number 1.5 for player 1"},
		{name: "changes the state", decl: "players = 2",
			score: "score = function() m.set_count('a1', 0) return 1, 2 end", label: "score",
			scoreErr: "score must not change the state"},
		{name: "a score part", decl: "players = 2",
			score: "score = m.score_rule { amount = m.captured_rule {} }",
			label: "score", atStart: []int{0, 0}, atEnd: []int{3, 0}},
		{name: "a score part, final differs", decl: `score_label = "seeds"`,
			score: "score = m.score_rule { amount = m.captured_rule {}, over = m.sum_rule { filter = { m.filter { row = 1 }, m.filter { row = 2 } } } }",
			label: "seeds", atStart: []int{0, 0}, atEnd: []int{0, 5}},
		{name: "a score part of a script amount", decl: "players = 2",
			score: "score = m.score_rule { amount = function(p) return 10 * p + m.captured(p) end }",
			label: "score", atStart: []int{10, 20}, atEnd: []int{13, 20}},
		{name: "a score part called by the script", decl: "players = 2",
			score: "score = (function() local part = m.score_rule { amount = m.captured_rule {} } return function(over) local a, b = part(over) return a + 1, b end end)()",
			label: "score", atStart: []int{1, 0}, atEnd: []int{4, 0}},
		{name: "a score part whose amount changes the state", decl: "players = 2",
			score: "score = m.score_rule { amount = function(p) m.set_count('a1', 0) return 1 end }", label: "score",
			scoreErr: "score must not change the state"},
		{name: "a score part past the counts", decl: "players = 2",
			score: "score = m.score_rule { amount = function(p) return 2000000000 end }", label: "score",
			scoreErr: "the score of player 1 is 2000000000"},
		{name: "another part as the score", decl: "players = 2",
			score:   "score = m.captured_rule {}",
			loadErr: "score is captured_rule, a part of the amount slot"},
		{name: "a score part declared wrong", decl: "players = 2",
			score:   "score = m.score_rule { total = m.captured_rule {} }",
			loadErr: "score_rule"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g, err := loadSource(t, "scored", scoreSource(c.decl, c.score))
			if c.loadErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), c.loadErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, c.label, g.ScoreLabel())
			assert.Equal(t, c.label != "", g.HasScore())
			s := g.Start()
			got, err := s.Score()
			if c.scoreErr != "" {
				require.Error(t, err)
				var se *ScriptError
				require.ErrorAs(t, err, &se)
				assert.Equal(t, CallScore, se.Func)
				assert.Contains(t, err.Error(), c.scoreErr)
				// The state is unchanged and the game still plays.
				assert.Equal(t, 3, s.Count(0))
				require.NoError(t, s.Play("a1"))
				return
			}
			require.NoError(t, err)
			assert.Equal(t, c.atStart, got)
			require.NoError(t, s.Play("a1"))
			r := g.NewRunner()
			defer r.Close()
			end, err := r.Score(s, []int{42})
			require.NoError(t, err)
			if c.atEnd == nil {
				assert.Equal(t, []int{42}, end, "no score appends nothing")
				return
			}
			assert.Equal(t, append([]int{42}, c.atEnd...), end)
		})
	}
}

// The state JSON carries the score (null without one), and reading it
// back checks it.
func TestScoreJSON(t *testing.T) {
	g, err := loadSource(t, "scored", scoreSource(`score_label = "seeds"`, "score = function(over) return m.count('a1'), m.count('b2') end"))
	require.NoError(t, err)
	data := stateJSONText(t, g.Start())
	assert.Contains(t, data, `"hand":[0,0],"score":[3,5],"legal":`)
	_, err = g.StateFromJSON([]byte(data))
	require.NoError(t, err)
	_, err = g.StateFromJSON([]byte(strings.Replace(data, `"score":[3,5]`, `"score":[3,6]`, 1)))
	require.ErrorContains(t, err, "score: the script gives the score [3 5] here, the JSON [3 6]")
	_, err = g.StateFromJSON([]byte(strings.Replace(data, `"score":[3,5]`, `"score":null`, 1)))
	require.NoError(t, err, "a JSON without the score (an older one) reads")

	none, err := loadSource(t, "scored", scoreSource("players = 2", ""))
	require.NoError(t, err)
	data = stateJSONText(t, none.Start())
	assert.Contains(t, data, `"score":null`)
	_, err = none.StateFromJSON([]byte(strings.Replace(data, `"score":null`, `"score":[1,2]`, 1)))
	require.ErrorContains(t, err, "the script gives the score [] here, the JSON [1 2]")

	// A score function that fails makes the JSON fail, with its error.
	bad, err := loadSource(t, "scored", scoreSource("players = 2", "score = function() error('broken') end"))
	require.NoError(t, err)
	_, err = bad.Start().MarshalJSON()
	var se *ScriptError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, CallScore, se.Func)
}
