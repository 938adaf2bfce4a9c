package host

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
)

// countingLog counts what scripts print, so that print does its work.
type countingLog struct{ n int }

func (w *countingLog) Write(b []byte) (int, error) { w.n += len(b); return len(b), nil }

// Every library function that works in Go charges that work to the step
// budget: an endless loop around one call is stopped by its steps, the
// same on every machine, after a bounded amount of work, never by the
// time guard. Each case is the body of an endless loop, after a prelude;
// calls counts the loop's turns through the test primitive m.turn().
func TestLibraryWorkIsChargedToSteps(t *testing.T) {
	const steps = 100_000
	// Each turn's work in steps' worth of it: a turn costs at least its
	// charge, so the loop turns at most steps/charge times.
	for _, c := range []struct {
		name, prelude, body string
		charge              int // the least steps a turn must cost
	}{
		{"string.rep", ``, `local s = string.rep("x", 1000000)`, 1000000 / 64},
		{"print", `local s = string.rep("x", 1000000)`, `print(s)`, 1000000 / 64},
		{"string.format", `local s = string.rep("x", 400000)`, `local f = string.format("%s%s", s, s)`, 800000 / 64},
		{"string.upper", `local s = string.rep("x", 1000000)`, `local u = s:upper()`, 1000000 / 64},
		{"string.find with backtracking", `local s = string.rep("a", 2000)`, `local i = string.find(s, "a*b")`, 4000000 / 16},
		{"string.match", `local s = string.rep("a", 20000)`, `local x = string.match(s, "b")`, 20000 / 64},
		{"string.gmatch", `local s = string.rep("a", 20000)`, `local it = string.gmatch(s, "b")`, 20000 / 64},
		{"string.gsub", `local s = string.rep("a", 20000)`, `local r = string.gsub(s, "a", "bb")`, 40000 / 64},
		{"string.byte", `local s = string.rep("a", 30000)`, `local a, b = string.byte(s, 1, -1)`, 30000 / 4},
		{"string.char", `local t = {} for i = 1, 30000 do t[i] = 65 end`, `local s = string.char(unpack(t))`, 30000 / 4},
		{"unpack", `local t = {} for i = 1, 30000 do t[i] = i end`, `local a = unpack(t)`, 30000 / 4},
		{"table.concat", `local t = {} for i = 1, 20000 do t[i] = "xyz" end`, `local s = table.concat(t)`, 20000 / 4},
		{"table.insert at the front", `local t = {} for i = 1, 20000 do t[i] = i end`, `table.insert(t, 1, 0) t[#t] = nil`, 20000 / 4},
		{"table.remove at the front", `local t = {} for i = 1, 20000 do t[i] = i end`, `table.remove(t, 1) t[#t + 1] = 0`, 20000 / 4},
		{"table.insert after nils", `local t = {} for i = 1, 10000 do t[i] = i end for i = 2, 10000 do t[i] = nil end`, `table.insert(t, 2) t[2] = nil`, 10000 / 4},
		{"table.sort", `local t = {} for i = 1, 20000 do t[i] = i end`, `table.sort(t)`, 20000 * 15 / 4},
		{"table.maxn", `local t = {} for i = 1, 20000 do t[i] = i end`, `local n = table.maxn(t)`, 20000 / 4},
		{"tonumber", `local s = string.rep("1", 1000000)`, `local n = tonumber(s)`, 1000000 / 64},
	} {
		t.Run(c.name, func(t *testing.T) {
			turns := 0
			turn := withTestPrimitive("turn", func(L *lua.LState) int { turns++; return 0 })
			src := replaceOnce(miniSource("work", ""), `play = function(p, kind, s) m.finish(0, "done") end`,
				"play = function(p, kind, s)\n"+c.prelude+"\nm.turn()\nwhile true do\n"+c.body+"\nm.turn()\nend\nend")
			g, err := loadSource(t, "work", src, turn, WithLog(&countingLog{}),
				WithLimits(Limits{Steps: steps, Time: 5 * time.Minute, Memory: 1 << 30}))
			require.NoError(t, err)
			err = g.Start().Play("a1")
			var be *BudgetError
			require.ErrorAs(t, err, &be)
			assert.Equal(t, BudgetSteps, be.Budget, "%v", err)
			require.Positive(t, turns, "the prelude fits the budget")
			assert.LessOrEqual(t, turns-1, steps/c.charge, "each turn costs at least %d steps", c.charge)
		})
	}
}

// The loop of the report that ran a minute (issue 26): a string of a MiB
// built and printed forever stops with the default step budget, after
// building at most a budget's worth of bytes.
func TestBigStringsInALoopStopByTheirSteps(t *testing.T) {
	turns := 0
	turn := withTestPrimitive("turn", func(L *lua.LState) int { turns++; return 0 })
	src := replaceOnce(miniSource("big", ""), `play = function(p, kind, s) m.finish(0, "done") end`,
		`play = function(p, kind, s) for i = 1, 1e7 do print(string.rep("x", 1000000)) m.turn() end end`)
	g, err := loadSource(t, "big", src, turn, WithLog(&countingLog{}), WithLimits(Limits{Time: time.Hour}))
	require.NoError(t, err)
	err = g.Start().Play("a1")
	var be *BudgetError
	require.ErrorAs(t, err, &be)
	assert.Equal(t, BudgetSteps, be.Budget)
	assert.True(t, strings.HasSuffix(be.Pos.File, "big.lua") && be.Pos.Line > 0, "%v", err)
	// 2,000,000 steps at 64 bytes a step build at most 128 MB: 122 MiB
	// strings, and print charges as much again.
	assert.LessOrEqual(t, turns, DefaultSteps*64/1000000/2)
	t.Logf("%d strings of a MiB before: %v", turns, err)
}
