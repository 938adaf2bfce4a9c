package host

import (
	"fmt"
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
		{"string.find with backtracking", `local s = string.rep("a", 1000)`, `local i = string.find(s, "a*b")`, 3000000 / 16},
		{"string.find with optional items", `local s = string.rep("a", 200)`, `local i = string.find(s, "a?a?a?a?a?a?a?a?a?b")`, 200 * 512 * 19 / 16},
		{"string.find with a long pattern", `local s = string.rep("a", 3000)`, `local i = string.find(s, string.rep("a", 1000) .. "b")`, 3000 * 1000 / 16},
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
		// The walks of a table's nils and cleared keys (tablewalk.go).
		{"# over nils", `local t = { true } t[100000] = true t[100000] = nil`, `local n = #t`, 100000 / 4},
		{"next over nils", `local t = {} t[100000] = true`, `local k = next(t)`, 100000 / 4},
		{"pairs over nils", `local t = {} t[100000] = true`, `for k in pairs(t) do local first = k break end`, 100000 / 4},
		{"next over cleared keys", `local t = {} for i = 1, 5000 do t[-i] = i end for i = 1, 4999 do t[-i] = nil end`, `local k = next(t)`, 5000 * 4},
		{"unpack over nils", `local t = { true } t[100000] = true t[100000] = nil`, `local a = unpack(t)`, 100000 / 4},
		// The operator is no library function, but builds strings in Go
		// all the same (concat.go).
		{"the .. operator", `local s = string.rep("x", 1000000)`, `local c = s .. "y"`, 1000000 / 64},
		{"a chain of .. with numbers", `local s = string.rep("x", 500000)`, `local c = s .. 1 .. s .. 2.5`, 1000000 / 64},
		{".. in a __concat result", `local s = string.rep("x", 1000000) local o = setmetatable({}, { __concat = function(a, b) return s end })`, `local c = "a" .. o .. "b"`, 1000000 / 64},
	} {
		t.Run(c.name, func(t *testing.T) {
			turns := turnsWithin(t, steps, "play = function(p, kind, s)\n"+c.prelude+"\nm.turn()\nwhile true do\n"+c.body+"\nm.turn()\nend\nend")
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

// The ".." operator is run by the sandbox's function (see
// luavm/concat.go), which must behave as gopher-lua's operator: the
// operands evaluated left to right, joined right to left, a run of
// strings and numbers at once, __concat asked for any other pair, and
// an error naming the script's line for a value that cannot be joined.
func TestConcatOperator(t *testing.T) {
	for _, c := range []struct {
		name, prelude, expr string
		want                string // the result, or the error's text
		fails               bool
	}{
		{"strings", ``, `"a" .. "b"`, "ab", false},
		{"numbers", ``, `1 .. 2 .. 0.5 .. -3`, "120.5-3", false},
		{"a long chain", ``, `"a" .. "b" .. "c" .. "d" .. "e" .. 1 .. "f"`, "abcde1f", false},
		{"parenthesized", ``, `("a" .. "b") .. ("c" .. "d")`, "abcd", false},
		{"in a condition", ``, `("a" .. "b" == "ab") and "yes" or "no"`, "yes", false},
		{"in arguments", ``, `string.format("%s|%s", "a" .. "b", "c" .. 1)`, "ab|c1", false},
		{"returned", `local function f(x) return x .. "!" end`, `f("hi") .. f(1)`, "hi!1!", false},
		{"a method call", `local o = { n = "x" } function o:f(y) return self.n .. y end`, `o:f("y") .. o:f(1)`, "xyx1", false},
		{"evaluated left to right", `local log = "" local function v(x) log = log .. x return x end`, `v("a") .. v("b") .. v("c") .. "|" .. log`, "abc|abc", false},
		{"__concat right to left", `local log = {} local mt = { __concat = function(a, b) local x = type(a) == "table" and a.n or a local y = type(b) == "table" and b.n or b log[#log + 1] = x .. "+" .. y return x .. y end } local function o(n) return setmetatable({ n = n }, mt) end`, `(function() local r = "a" .. o("B") .. "c" .. o("D") return r .. "|" .. table.concat(log, ",") end)()`, "aBcD|c+D,B+cD", false},
		{"__concat of the right operand", `local o = setmetatable({}, { __concat = function(a, b) return "meta" end })`, `"x" .. o`, "meta", false},
		{"the string metatable", ``, `("x"):rep(2) .. ("y"):upper()`, "xxY", false},
		{"nil", ``, `"a" .. nil`, "cannot perform concat operation between string and nil", true},
		{"a table", ``, `{} .. "a"`, "cannot perform concat operation between table and string", true},
		{"a boolean in a chain", ``, `"a" .. "b" .. true .. "c"`, "cannot perform concat operation between boolean and string", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := replaceOnce(miniSource("cat", ""), `play = function(p, kind, s) m.finish(0, "done") end`,
				"play = function(p, kind, s)\n"+c.prelude+"\nlocal got = "+c.expr+"\nm.set_count(\"b1\", #got) error(\"got: \" .. got)\nend")
			g, err := loadSource(t, "cat", src)
			require.NoError(t, err)
			err = g.Start().Play("a1")
			require.Error(t, err)
			var se *ScriptError
			require.ErrorAs(t, err, &se)
			assert.True(t, strings.HasSuffix(se.Pos.File, "cat.lua"), "%v", err)
			if c.fails {
				assert.Contains(t, err.Error(), c.want)
				assert.Equal(t, 11+strings.Count(c.prelude, "\n"), se.Pos.Line, "the line of the expression: %v", err)
				return
			}
			assert.Contains(t, err.Error(), "got: "+c.want+" ", "%v", err)
		})
	}
}

// The primitives that make tables for the script (m.sites, m.adjacent,
// m.jumps, m.lines, m.row_sites) charge a step per value and a few per
// table, and m.sweep the sites it visits: an endless loop around one, on
// a large board, stops by its steps as a Lua loop making the same tables
// would. Each case is the body of an endless loop, as in
// TestLibraryWorkIsChargedToSteps, on a row of 1,001 points where a1 is
// on 500 lines (so it has 500 neighbours and 500 jumps).
func TestPrimitiveTablesAreChargedToSteps(t *testing.T) {
	const steps = 100_000
	for _, c := range []struct {
		name, body string
		charge     int // the least steps a turn must cost
	}{
		{"m.sites", `local t = m.sites(ALL)`, 1000},
		{"m.adjacent", `local t = m.adjacent("a1")`, 500},
		{"m.jumps", `local t = m.jumps("a1")`, 500 * 3},
		{"m.lines", `local t = m.lines()`, 500 * 3},
		{"m.lines through a site", `local t = m.lines("a1")`, 500 * 3},
		{"m.row_sites", `local t = m.row_sites(1, "a1", 3)`, 3},
		{"m.sweep", `m.sweep()`, 1000 / 4},
	} {
		t.Run(c.name, func(t *testing.T) {
			turns := 0
			turn := withTestPrimitive("turn", func(L *lua.LState) int { turns++; return 0 })
			src := `local m = matombo
m.declare { name = "tables" }
local lines = {}
for l = 0, 499 do lines[#lines + 1] = { "a1", "a" .. (2 + 2 * l), "a" .. (3 + 2 * l) } end
m.board { rows = { "a" }, columns = 1001, lines = lines }
local K = m.move("k", "{1}")
local ALL = m.filter {}
return {
  setup = function() for s = 1, 1000 do m.set_count(s, 1) m.set_owner(s, 1) end end,
  legal = function(p) m.emit(K, "a1") end,
  play = function()
    m.turn()
    while true do
      ` + c.body + `
      m.turn()
    end
  end,
}
`
			g, err := loadSource(t, "tables", src, turn, WithLimits(Limits{Steps: steps, Time: 5 * time.Minute}))
			require.NoError(t, err)
			err = g.Start().Play("a1")
			var be *BudgetError
			require.ErrorAs(t, err, &be)
			assert.Equal(t, BudgetSteps, be.Budget, "%v", err)
			require.Positive(t, turns)
			assert.LessOrEqual(t, turns-1, steps/c.charge, "each turn costs at least %d steps", c.charge)
		})
	}
}

// The walks of gopher-lua's list of open upvalues (luavm/closures.go):
// with frames down the stack keeping captured locals open, every return,
// every block's end that closes a captured local and every new closure
// walks that list within one instruction. Each turn of the loop below
// runs at the bottom of depth frames of 60 captured locals each; it must
// cost at least charge steps, where it cost a few before, whatever the
// list's length. With one such frame (the controls), the list is within
// what is free and a turn costs its few instructions.
func TestOpenUpvalueWalksAreCharged(t *testing.T) {
	const steps = 2_000_000
	locals := make([]string, 60)
	for i := range locals {
		locals[i] = fmt.Sprintf("a%d", i)
	}
	frame := "local " + strings.Join(locals, ", ") + " = 0" + strings.Repeat(", 0", len(locals)-1) + "\n" +
		"local keep = function() return " + strings.Join(locals, " + ") + " end\n"
	for _, c := range []struct {
		name   string
		depth  int
		body   string
		charge int // the least steps a turn must cost (0: the most, free)
	}{
		{"calls", 30, `n = n + f()`, 150},
		{"closures", 30, `local g = function() return a59 end`, 150},
		{"closures of a local of the loop", 30, `local x = n local g = function() return x end`, 150},
		{"a block that closes a captured local", 30, `do local x = n local g = function() return x end end`, 150},
		{"closures capturing 60 locals, one frame", 0, "local g = function() return " + strings.Join(locals, " + ") + " end", 60 * 60 / 8},
		{"calls, one frame", 0, `n = n + f()`, 0},
		{"closures, one frame", 0, `local g = function() return a59 end`, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			turns := turnsWithin(t, steps, "play = function(p, kind, s)\n"+
				"local function f() return 1 end\n"+
				"local function deep(d)\n"+frame+
				"if d > 0 then return deep(d - 1) + keep() end\n"+
				"local n = 0\nm.turn()\nwhile true do\n"+c.body+"\nm.turn()\nend\nend\n"+
				fmt.Sprintf("deep(%d)\nend", c.depth))
			if c.charge > 0 {
				assert.LessOrEqual(t, turns-1, steps/c.charge, "each turn costs at least %d steps", c.charge)
			} else {
				assert.GreaterOrEqual(t, turns, steps/20, "a turn costs its instructions")
			}
		})
	}
}

// The closure charges put before functions (luavm/closures.go) and the
// charged "..." (luavm/varargs.go) change no script's meaning: each form
// that makes a closure or passes varargs on, at the top level and in
// play, gives what Lua gives (recursive locals see themselves, methods
// their self, each turn of a loop its own local, a repeat's condition the
// body's locals, "..." every value, nils included).
func TestClosureChargesKeepMeaning(t *testing.T) {
	code := `
local log = {}
local function say(x) log[#log + 1] = tostring(x) end
local function fact(n) if n <= 1 then return #log - #log + 1 end return n * fact(n - 1) end
say(fact(5))
local one = 1
local fib = function(n) if n < 2 then return n * one end return fib(n - 1) + fib(n - 2) end
say(fib(10))
local obj = { base = 7 }
function obj:plus(x) return self.base + x end
function obj.times(x) return obj.base * x end
say(obj:plus(3)) say(obj.times(2))
local fs = {}
for i = 1, 3 do fs[i] = function() return i end end
say(fs[1]() + fs[2]() * 10 + fs[3]() * 100)
local k = 0
repeat local j = k * 2 k = k + 1 local g = function() return j end until g() >= 4
say(k)
local t = { f = function(a, ...) return a + select("#", ...) end }
say(t.f(1, 2, 3))
say((function(x) return x * 3 end)(5))
local a, b = function() return "a" end, function() return "b" end
say(a() .. b())
local c = 1
local function counter() c = c + 1 return c end
counter() say(counter())
do local x = 10 local function inner() return function() return x end end say(inner()()) end
local s = 0
local function deep(d) local v = d if d > 0 then return deep(d - 1) + (function() return v end)() end return 0 end
say(deep(5))
local function count(...) return select("#", ...) end
local function pass(...) return ... end
local function pack(...) return { ... } end
say(count(pass(1, nil, 3, nil)))
say(#pack(pass(4, 5, 6)))
say(string.format("%d-%d", pass(7, 8)))
local function tail(...) return pass(...) end
say(count(tail(nil, nil)))
say(count(pass()))
local o = { v = 2 }
function o:mul(...) local t = { self.v, ... } return t[1] * (t[#t] or 1) end
say(o:mul(9))
return table.concat(log, " ")
`
	const want = "120 55 10 14 321 3 3 15 ab 3 10 15 4 3 7-8 2 0 18"
	var got string
	report := withTestPrimitive("report", func(L *lua.LState) int { got = L.CheckString(1); return 0 })
	for _, where := range []string{"load", "play"} {
		t.Run(where, func(t *testing.T) {
			got = ""
			body := "local function run()\n" + code + "\nend\n"
			var src string
			if where == "load" {
				src = miniSource("meaning", body+"m.report(run())\n")
			} else {
				src = replaceOnce(miniSource("meaning", body), `play = function(p, kind, s) m.finish(0, "done") end`,
					"play = function(p, kind, s) m.report(run()) m.finish(0, \"done\") end")
			}
			g, err := loadSource(t, "meaning", src, report)
			require.NoError(t, err)
			if where == "play" {
				require.NoError(t, g.Start().Play("a1"))
			}
			assert.Equal(t, want, got)
		})
	}
}

// "..." where it gives every value (the last argument of a call, the last
// item of a table, the last value returned) copies them all in one
// instruction: each turn of these loops, in a function called with
// 15,000 arguments, must cost at least a step per 4 of them, where it
// cost a few steps before (and ran into the time guard).
func TestVarargsAreCharged(t *testing.T) {
	const steps = 500_000
	const args = 15_000
	for _, body := range []string{
		`local t = { ... }`,
		`g(...)`,
		`local k = select("#", ...)`,
		`local k = { h(...) }`,
	} {
		t.Run(body, func(t *testing.T) {
			turns := turnsWithin(t, steps, "play = function(p, kind, s)\n"+
				"local function g(...) end\n"+
				"local function h(...) return ... end\n"+
				"local function f(...)\nm.turn()\nwhile true do\n"+body+"\nm.turn()\nend\nend\n"+
				fmt.Sprintf("local t = {} for i = 1, %d do t[i] = i end\nf(unpack(t))\nend", args))
			assert.LessOrEqual(t, turns-1, steps/(args/4), "each turn costs at least %d steps", args/4)
		})
	}
}

// turnsWithin plays the first move of a small game whose play function is
// play, with a budget of steps, and returns how often it called m.turn()
// before the step budget stopped it (which it must, after at least one).
func turnsWithin(t *testing.T, steps int64, play string) int {
	t.Helper()
	turns := 0
	turn := withTestPrimitive("turn", func(L *lua.LState) int { turns++; return 0 })
	src := replaceOnce(miniSource("work", ""), `play = function(p, kind, s) m.finish(0, "done") end`, play)
	g, err := loadSource(t, "work", src, turn, WithLog(&countingLog{}),
		WithLimits(Limits{Steps: steps, Time: 5 * time.Minute, Memory: 1 << 30}))
	require.NoError(t, err)
	err = g.Start().Play("a1")
	var be *BudgetError
	require.ErrorAs(t, err, &be)
	assert.Equal(t, BudgetSteps, be.Budget, "%v", err)
	require.Positive(t, turns, "what comes before the loop fits the budget: %v", err)
	return turns
}
