package host

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A script's problems are reported all at once, each with its line: the
// uses of undeclared globals (found before the script runs), and the rule
// parts and filters whose tables are wrong (found as it runs; the script
// goes on past each).
func TestLoadReportsEveryProblem(t *testing.T) {
	globals := `local m = matombo
m.declare { name = "typos" }
m.board { rows = { "a" }, columns = 4 }
local SOW = m.move("sow", "{1}")
local x = cuont -- HERE 1
return {
  setup = function() m.set_count("a1", totl) end, -- HERE 2
  legal = function(p) m.emit(SOW, "a1") end,
  play = function() m.finish(0, fnish) end, -- HERE 3
}
`
	_, err := loadSource(t, "typos", globals)
	require.Error(t, err)
	var d Diagnostics
	require.ErrorAs(t, err, &d, "%v", err)
	require.Len(t, d, 3, "%v", err)
	for i, name := range []string{"cuont", "totl", "fnish"} {
		var se *ScriptError
		require.ErrorAs(t, d[i], &se)
		assert.Equal(t, markedLineN(t, globals, i+1), se.Pos.Line, "%v", d[i])
		assert.Contains(t, se.Msg, name)
	}
	var first *ScriptError
	require.ErrorAs(t, err, &first, "errors.As finds the first problem")
	assert.Equal(t, CodeScript, ErrorCode(err))

	parts := `local m = matombo
m.declare { name = "parts" }
m.board { rows = { "a", "b" }, columns = 4 }
local SOW = m.move("sow", "{1}")
local RING = m.track("ring", { "a1", "a2", "a3", "a4", "b4", "b3", "b2", "b1" }, true)
local BAD = m.filter { owner = "everyone" } -- HERE 1
local sow = m.sow_rule { track = 9 } -- HERE 2
local capture = m.capture_rule { counts = { 0 } } -- HERE 3
local legal = m.sowings_rule { kind = SOW, from = m.filter { min = 1 } }
local play = m.sowing_play { kind = SOW, sow = sow, capture = capture, sideways = true } -- HERE 4
return { setup = function() end, legal = legal, play = play }
`
	_, err = loadSource(t, "parts", parts)
	require.ErrorAs(t, err, &d, "%v", err)
	require.Len(t, d, 4, "%v", err)
	for i, want := range []string{`owner must be a player number`, "sow_rule: track must be a track", "capture_rule: counts[1] must be a count of at least 1", "sowing_play: unknown field sideways"} {
		var se *ScriptError
		require.ErrorAs(t, d[i], &se)
		assert.Equal(t, markedLineN(t, parts, i+1), se.Pos.Line, "%v", d[i])
		assert.Contains(t, se.Msg, want)
	}
	assert.Equal(t, 4, strings.Count(err.Error(), "\n")+1, "one problem a line")
	assert.True(t, errors.Is(err, d[0]))
}

// markedLineN is the line of src that ends with the comment "-- HERE n".
func markedLineN(t *testing.T, src string, n int) int {
	t.Helper()
	mark := "-- HERE " + string(rune('0'+n))
	for i, line := range strings.Split(src, "\n") {
		if strings.HasSuffix(line, mark) {
			return i + 1
		}
	}
	t.Fatalf("no line marked %q", mark)
	return 0
}
