package host

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Tests of lua_sow_extra.go (sow_skip, capture_count) and
// lua_irreversible.go (irreversible), on the probe test game (see
// lua_api_test.go): track 1 is the looping ring a1 a2 a3 a4 c4 c3 c2 c1
// (2 counters each at the opening), track 2 the line b1 b2 b3 b4 (empty).

func TestPrimitivesSowSkip(t *testing.T) {
	g := loadTest(t, "probe")
	runPrimCases(t, g, []primCase{
		{name: "short sowing as sow", code: `return m.sow_skip(1, "a1", m.take("a1"))`, want: []any{3, false},
			check: func(t *testing.T, s *State) { assert.Equal(t, []int{0, 3, 3, 2, 2, 2, 2, 2}, ringCounts(s)) }},
		{name: "seven counters fill the other sites once", code: `m.take("a1") return m.sow_skip(1, "a1", 7)`, want: []any{9, false},
			check: func(t *testing.T, s *State) { assert.Equal(t, []int{0, 3, 3, 3, 3, 3, 3, 3}, ringCounts(s)) }},
		{name: "eight counters skip the start and end after it", code: `m.take("a1") return m.sow_skip(1, "a1", 8)`, want: []any{2, false},
			check: func(t *testing.T, s *State) { assert.Equal(t, []int{0, 4, 3, 3, 3, 3, 3, 3}, ringCounts(s)) }},
		{name: "fourteen counters make two laps of the others", code: `m.take("c4") return m.sow_skip(1, "c4", 14)`, want: []any{4, false},
			check: func(t *testing.T, s *State) { assert.Equal(t, []int{4, 4, 4, 4, 0, 4, 4, 4}, ringCounts(s)) }},
		{name: "across the end of the loop, skipping the start", code: `m.take("c1") return m.sow_skip(1, "c1", 9)`, want: []any{2, false},
			check: func(t *testing.T, s *State) { assert.Equal(t, []int{4, 4, 3, 3, 3, 3, 3, 0}, ringCounts(s)) }},
		{name: "last counter into an empty site", pre: `m.set_count("a2", 0)`, code: `return m.sow_skip(1, "a1", 1)`, want: []any{2, true}},
		{name: "a line does not come back", code: `return m.sow_skip(2, "b1", 3)`, want: []any{8, true}},
		{name: "off the end of a line", code: `m.sow_skip(2, "b3", 2)`, err: "sowing 2 counters from b3 runs off the end of track middle"},
		{name: "from a site off the track", code: `m.sow_skip(1, "b1", 1)`, err: "bad argument #2 to sow_skip (b1 is not on track ring)"},
		{name: "zero counters", code: `m.sow_skip(1, "a1", 0)`, err: "bad argument #3 to sow_skip (cannot sow 0 counters (1 to 1073741823))"},
		{name: "too many counters", pre: `m.set_count("a2", 1073741822)`, code: `m.sow_skip(1, "a1", 14)`, err: "the count of a2"},
		{name: "in legal", mode: asLegal, code: `m.sow_skip(1, "a1", 1)`, err: "legal must not change the state"},
	})
}

func TestPrimitivesCaptureCount(t *testing.T) {
	g := loadTest(t, "probe")
	runPrimCases(t, g, []primCase{
		{name: "reports the run without taking it", mode: asLegal, pre: `m.set_count("a2", 2) m.set_count("a3", 4) m.set_count("a4", 3)`,
			code: `return m.capture_count(1, "a1", 1, 2, 4)`, want: []any{6, 2},
			check: func(t *testing.T, s *State) {
				assert.Equal(t, []int{2, 2, 4, 3, 2, 2, 2, 2}, ringCounts(s))
				assert.Equal(t, 0, s.Captured(1))
			}},
		{name: "as much as capture_run takes", pre: `m.set_count("c2", 4) m.set_count("c3", 3)`,
			code: `local n, k = m.capture_count(1, "a1", -1, 2, 4) return n, k, m.capture_run(2, 1, "a1", -1, 2, 4)`, want: []any{6, 2, 6}},
		{name: "once round at most", code: `return m.capture_count(1, "a1", 1, 2)`, want: []any{16, 8}},
		{name: "bounded by a line", pre: `m.set_count("b1", 3) m.set_count("b2", 2) m.set_count("b3", 3)`,
			code: `local n, k = m.capture_count(2, "b3", -1, 2, 3) return n, k, m.capture_count(2, "b1", -1, 2, 3)`, want: []any{5, 2, 0, 0}},
		{name: "first site does not match", code: `return m.capture_count(1, "a1", 1, 3)`, want: []any{0, 0}},
		{name: "step 0", code: `m.capture_count(1, "a1", 0, 2)`, err: "bad argument #3 to capture_count (step must not be 0)"},
		{name: "no values", code: `m.capture_count(1, "a1", 1)`, err: "capture_count needs 1 to 8 counts to capture"},
		{name: "value 0", code: `m.capture_count(1, "a1", 1, 0)`, err: "bad argument #4 to capture_count (counts to capture must be at least 1)"},
		{name: "off the track", code: `m.capture_count(1, "b2", 1, 2)`, err: "bad argument #2 to capture_count (b2 is not on track ring)"},
	})
}

// irreversibleGame: "flip" toggles a1 between 1 and 2 and passes the turn;
// "cut" keeps the position and the turn and calls irreversible; "bad"
// calls irreversible and then fails. The second occurrence of a position
// ends the game.
const irreversibleGame = `local m = matombo
m.declare { name = "irrev", repetition = 2 }
m.board { rows = { "a" }, columns = 1 }
local FLIP, CUT, BAD = m.move("flip", "flip"), m.move("cut", "cut"), m.move("bad", "bad")
return {
  setup = function() m.set_count("a1", 1) end,
  legal = function(p) m.emit(FLIP) m.emit(CUT) m.emit(BAD) end,
  play = function(p, kind)
    if kind == FLIP then
      m.set_count("a1", 3 - m.count("a1"))
    elseif kind == CUT then
      m.set_to_move(p)
      m.irreversible()
      m.set_count("b", m.repetitions())
    else
      m.irreversible()
      error("bad move")
    end
  end,
  repeated = function(p) m.finish(0, "repetition") end,
}
`

func TestIrreversible(t *testing.T) {
	src := irreversibleGame
	g, err := loadSource(t, "irrev", src)
	require.NoError(t, err)

	t.Run("without it the same position ends the game", func(t *testing.T) {
		s := g.Start()
		require.NoError(t, s.Play("flip"))
		require.NoError(t, s.Play("flip"))
		assert.True(t, s.Over())
		assert.Equal(t, "repetition", s.Outcome().Reason)
	})
	t.Run("after it the position counts once", func(t *testing.T) {
		g, err := loadSource(t, "irrev", strings.Replace(src, `m.set_count("b", m.repetitions())`, `assert(m.repetitions() == 1)`, 1))
		require.NoError(t, err)
		s := g.Start()
		require.NoError(t, s.Play("cut"))
		assert.False(t, s.Over(), "the start position is forgotten")
		assert.Equal(t, 1, s.Repetitions())
		assert.Equal(t, 1, historyLen(s))
		require.NoError(t, s.Play("flip"))
		require.NoError(t, s.Play("flip"))
		assert.True(t, s.Over(), "the position after cut came back")
	})
	t.Run("a failing move keeps the history", func(t *testing.T) {
		g, err := loadSource(t, "irrev", strings.Replace(src, `m.set_count("b", m.repetitions())`, ``, 1))
		require.NoError(t, err)
		s := g.Start()
		require.NoError(t, s.Play("flip"))
		before := historyLen(s)
		require.ErrorContains(t, s.Play("bad"), "bad move")
		assert.Equal(t, before, historyLen(s))
		require.NoError(t, s.Play("flip"))
		assert.True(t, s.Over(), "the start position is still remembered")
		s = g.Start()
		require.Error(t, s.Play("bad"))
		require.NoError(t, s.Play("flip"), "a failed irreversible move does not mark the next one")
		assert.Equal(t, 2, historyLen(s))
	})
	t.Run("only inside play", func(t *testing.T) {
		_, err := evalIn(g, g.Start(), asSetup, "matombo.irreversible()")
		require.ErrorContains(t, err, "irreversible can only be called inside play")
		_, err = evalIn(g, g.Start(), asLegal, "matombo.irreversible()")
		require.ErrorContains(t, err, "irreversible can only be called inside play")
	})
}
