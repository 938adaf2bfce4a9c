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
