package host

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pickGame: a turn is two picks of empty points, numbered 1, 2, 12 and
// 21, so that words of two picks can read more than one way.
const pickGame = `local m = matombo
m.declare { name = "picks", conserve = false }
m.board { points = { a1 = 1, a2 = 2, b12 = 1, b21 = 2 }, style = "pieces" }
local PICK = m.move("pick", "{#1}")
local PICKED = m.var("picked")
local EMPTY = m.filter { max = 0 }
return {
  setup = function() end,
  legal = function(p) m.emit_each(PICK, EMPTY) end,
  play = function(p, kind, s)
    m.set_count(s, 1); m.set_owner(s, p)
    if m.get(PICKED) == 0 then m.set(PICKED, 1); m.set_to_move(p) else m.set(PICKED, 0) end
  end,
  blocked = function(p) m.finish(0, "full") end,
}
`

// A word may write a turn of several decisions of one player; it is read
// when it reads one way only.
func TestParseTurn(t *testing.T) {
	g, err := loadSource(t, "picks", pickGame)
	require.NoError(t, err)
	tokens := func(ms []Move) []string {
		var out []string
		for _, m := range ms {
			out = append(out, g.Token(m))
		}
		return out
	}
	s := g.Start()
	for _, c := range []struct {
		word string
		want []string
		err  string
	}{
		{"12", []string{"12"}, ""},       // a legal token is one decision
		{"112", []string{"1", "12"}, ""}, // 11 is no token: 1 then 12
		{"221", []string{"2", "21"}, ""},
		{"121", nil, "it reads as several turns: 1 21, or 12 1"},
		{"212", nil, "it reads as several turns: 2 12, or 21 2"},
		{"1212", nil, `after 121, "2": the turn ends with 21`},
		{"11", nil, `after 1, "1": 1 is not possible for a pick now`},
		{"1122", nil, `after 112, "2": the turn ends with 12`}, // the third decision is the other player's
		{"9", nil, "9 is not a site number of this board"},
		{"x", nil, "it fits none of the ways"},
		{"1 2", nil, "it fits none of the ways"},
		{strings.Repeat("1", 300), nil, "it fits none of the ways"},
	} {
		before := stateJSONText(t, s)
		ms, err := s.ParseTurn(c.word)
		assert.Equal(t, before, stateJSONText(t, s), "%s: the state is unchanged", c.word)
		if c.err != "" {
			var ie *IllegalMoveError
			require.ErrorAs(t, err, &ie, c.word)
			assert.Contains(t, ie.Reason, c.err, c.word)
			assert.Equal(t, c.word, ie.Token)
			assert.Equal(t, s.Legal(), ie.Legal)
			continue
		}
		require.NoError(t, err, c.word)
		assert.Equal(t, c.want, tokens(ms), c.word)
	}

	require.NoError(t, s.PlayTurn("112"))
	assert.Equal(t, 2, s.ToMove())
	assert.Equal(t, 2, s.Ply())
	assert.Equal(t, []string{"2", "21"}, s.Legal())
	before := stateJSONText(t, s)
	require.Error(t, s.PlayTurn("22"))
	assert.Equal(t, before, stateJSONText(t, s), "a turn that fails plays nothing")
	require.NoError(t, s.PlayTurn("221"))
	assert.True(t, s.Over())
}
