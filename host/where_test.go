package host

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// whereGame is a small game whose rule table gets FIELD = the function
// written on the line marked HERE.
const whereGame = `local m = matombo
m.declare { name = "where" }
m.board { rows = { "a", "b" }, columns = 2 }
local SOW = m.move("sow", "{1}")
return {
  setup = function() m.set_count("a1", 1) end,
  legal = function(p) m.emit(SOW, "a1") end,
  play = function(p, kind, s) m.finish(0, "done") end,
  FIELD = function(...) -- HERE
    return RESULT
  end,
}
`

// markedLine is the line of src marked with the comment HERE.
func markedLine(t *testing.T, src string) int {
	t.Helper()
	for i, line := range strings.Split(src, "\n") {
		if strings.Contains(line, "-- HERE") {
			return i + 1
		}
	}
	t.Fatal("no line marked -- HERE")
	return 0
}

// A value a script's function returns that the host refuses is reported
// at the line of that function, as a Lua error is at its own line.
func TestBadReturnsNameTheLine(t *testing.T) {
	for _, c := range []struct {
		field, result string
		msg           string
	}{
		{"score", "0/0, 0", "score must return 2 whole numbers"},
		{"score", "math.huge, 0", "score must return 2 whole numbers"},
		{"score", "0, -1/0", "for player 2"},
		{"score", "0, -math.huge", "for player 2"},
		{"score", "2^40, 0", "at most 1073741823"},
		{"score", `"ten", 0`, `got string "ten" for player 1`},
		{"score", "1", "got nil for player 2"},
		{"evaluate", "0/0", "evaluate(1) must return a number"},
		{"evaluate", `"good"`, "evaluate(1) must return a number"},
		{"prompt", `"\27[2J clear"`, "control character U+001B"},
		{"prompt", `"\226\128\174 reversed"`, "U+202E"},
		{"prompt", `string.rep("x", 1000000)`, "at most 300 characters, got 1000000"},
		{"prompt", `{}`, "must return a text or nil"},
	} {
		src := strings.NewReplacer("FIELD", c.field, "RESULT", c.result).Replace(whereGame)
		if c.field == "score" {
			src = strings.Replace(src, `name = "where"`, `name = "where", score_label = "seeds"`, 1)
		}
		g, err := loadSource(t, "where", src)
		require.NoError(t, err, c.result)
		s := g.Start()
		switch c.field {
		case "score":
			_, err = s.Score()
		case "evaluate":
			r := g.NewRunner()
			_, _, err = r.Evaluate(s, 1)
			r.Close()
		case "prompt":
			_, err = s.Prompt()
		}
		var se *ScriptError
		require.ErrorAs(t, err, &se, "%s returning %s", c.field, c.result)
		assert.Contains(t, se.Error(), c.msg)
		assert.Equal(t, markedLine(t, src), se.Pos.Line, "%s returning %s: %v", c.field, c.result, err)
		assert.Contains(t, se.Error(), "where.lua:"+itoa(se.Pos.Line)+":")
		assert.Less(t, len(se.Error()), 1000)
	}
}

// A native legal that lists too many moves is reported at the line that
// made the rule; a rules table without play at the line that returns it.
func TestNativeAndTableErrorsNameTheLine(t *testing.T) {
	native := `local m = matombo
m.declare { name = "pairs" }
m.board { rows = { "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p", "q", "r", "s", "t" }, columns = 20 }
local MOVE = m.move("move", "{from}-{to}")
local ALL = m.filter {}
local legal = m.emit_rule { kind = MOVE, pairs = { from = ALL, to = ALL } } -- HERE
return {
  setup = function() end,
  legal = legal,
  play = function() m.finish(0, "done") end,
}
`
	_, err := loadSource(t, "pairs", native)
	var se *ScriptError
	require.ErrorAs(t, err, &se)
	assert.Contains(t, se.Error(), "more than 100000 legal moves")
	assert.Equal(t, markedLine(t, native), se.Pos.Line, "%v", err)

	table := `local m = matombo
m.declare { name = "noplay" }
m.board { rows = { "a" }, columns = 2 }
local SOW = m.move("sow", "{1}")
return { -- HERE
  setup = function() end,
  legal = function(p) m.emit(SOW, "a1") end,
}
`
	_, err = loadSource(t, "noplay", table)
	require.ErrorAs(t, err, &se)
	assert.Contains(t, se.Error(), `needs a function "play"`)
	assert.Equal(t, markedLine(t, table), se.Pos.Line, "%v", err)
}

func itoa(n int) string { return strconv.Itoa(n) }

// A rule part given as a field of the rules table that the field cannot
// call is refused when the game loads, at the line that returns the
// table, naming the part, its slot and the line that made it: not at the
// first call, where an emit part in play failed without a line.
func TestRulesTablePartOfAnotherSlot(t *testing.T) {
	const game = `local m = matombo
m.declare { name = "slots", score_label = "seeds" }
m.board { rows = { "a" }, columns = 2 }
local SOW = m.move("sow", "{1}")
local EMIT = m.emit_rule { kind = SOW, each = m.filter { min = 1 } }
local COND = m.compare_rule { amount = m.ply_rule {}, op = ">", value = 0 }
local PLAY = m.play_by_kind { [SOW] = false }
local SCORE = m.score_rule { amount = m.captured_rule {} }
return { -- HERE
  setup = function() m.set_count("a1", 1) end,
  legal = LEGAL,
  play = PLAY_FIELD,
  blocked = BLOCKED,
  score = SCORE_FIELD,
}
`
	for _, c := range []struct{ legal, play, blocked, score, want string }{
		{legal: "COND", want: "the returned rules table's legal is compare_rule, a part of the condition slot (made at line 6); legal takes a function (p) that emits the moves, or a part of the emit slot"},
		{play: "EMIT", want: "the returned rules table's play is emit_rule, a part of the emit slot (made at line 5); play takes a function play(p, kind, ...), or a part of the play slot"},
		{blocked: "EMIT", want: "the returned rules table's blocked is emit_rule, a part of the emit slot (made at line 5); only legal emits moves"},
		{score: "COND", want: "the returned rules table's score is compare_rule, a part of the condition slot (made at line 6); score takes a function (over), or a part of the score slot, such as matombo.score_rule"},
	} {
		field := func(v, def string) string {
			if v == "" {
				return def
			}
			return v
		}
		src := strings.NewReplacer(
			"LEGAL", field(c.legal, "EMIT"), "PLAY_FIELD", field(c.play, "PLAY"),
			"BLOCKED", field(c.blocked, "nil"), "SCORE_FIELD", field(c.score, "SCORE"),
		).Replace(game)
		_, err := loadSource(t, "slots", src)
		var se *ScriptError
		require.ErrorAs(t, err, &se, c.want)
		assert.Contains(t, se.Error(), c.want)
		assert.Equal(t, markedLine(t, src), se.Pos.Line, "%v", err)
	}
	// The fields as they should be load.
	_, err := loadSource(t, "slots", strings.NewReplacer("LEGAL", "EMIT", "PLAY_FIELD", "PLAY", "BLOCKED", "nil", "SCORE_FIELD", "SCORE").Replace(game))
	require.NoError(t, err)
}

// A field the table matombo lacks, or a parameter the game does not
// declare, is an error at the line that reads it, naming it (and the
// name it is likely a misspelling of): not a nil that fails later as
// "attempt to call a non-function object".
func TestMissingFieldsNamed(t *testing.T) {
	const game = `local m = matombo
local P = m.declare { name = "strict", params = { { name = "pieces", default = 3 } } }
m.board { rows = { "a" }, columns = 2 }
local SOW = m.move("sow", "{1}")
LOAD
return {
  setup = function()
    SETUP
  end,
  legal = function(p) m.emit(SOW, "a1") end,
  play = function() m.finish(0, "done") end,
}
`
	for _, c := range []struct{ load, setup, want string }{
		{setup: "m.finsh(1, 'x') -- HERE", want: `matombo has no field "finsh" (did you mean matombo.finish?) (in setup)`},
		{setup: "m.set_hnad(1, 3) -- HERE", want: `matombo has no field "set_hnad" (did you mean matombo.set_hand?)`},
		{setup: "m.frobnicate() -- HERE", want: `matombo has no field "frobnicate" (docs/lua-api.md lists what it has)`},
		{load: "local n = P.piece + 1 -- HERE", want: `the game has no parameter "piece" (parameters: pieces) (in load)`},
	} {
		src := strings.NewReplacer("LOAD", c.load, "SETUP", c.setup).Replace(game)
		_, err := loadSource(t, "strict", src)
		var se *ScriptError
		require.ErrorAs(t, err, &se, c.want)
		assert.Contains(t, se.Error(), c.want)
		assert.Equal(t, markedLine(t, src), se.Pos.Line, "%v", err)
	}
	// What the tables have reads as before; a raw read and the script's
	// own fields too.
	src := strings.NewReplacer("LOAD", `assert(P.pieces == 3 and rawget(P, "x") == nil and type(m.data) == "table")
P.mine = 1
assert(P.mine == 1)`, "SETUP", "m.set_count(1, P.pieces)").Replace(game)
	g, err := loadSource(t, "strict", src)
	require.NoError(t, err)
	assert.Equal(t, 3, g.Start().Count(0))
}
