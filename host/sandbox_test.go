package host

import (
	"sort"
	"testing"

	"github.com/matombo/matombo/host/luavm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The sandbox's globals and libraries, as a script sees them.

func TestSandboxGlobals(t *testing.T) {
	g := loadTest(t, "probe")
	vm, err := g.machine()
	require.NoError(t, err)
	defer g.release(vm)
	got := vm.GlobalNames()
	sort.Strings(got)
	// Besides them, the ".." and "#" operators' functions, the closure
	// charge and the varargs' (no Lua name can read them: "function" is a
	// keyword).
	want := append(luavm.SandboxGlobals(), "..", "#", "function", "...")
	sort.Strings(want)
	assert.Equal(t, want, got, "the globals are exactly the sandbox's")
	for _, name := range []string{"os", "io", "debug", "package", "require", "load", "loadstring", "dofile", "loadfile", "setfenv", "getfenv", "collectgarbage", "coroutine", "channel", "_G", "newproxy", "module", "gcinfo"} {
		assert.NotContains(t, got, name)
	}
}

// The runtime guard behind the static check: code that did not go through
// compileScript (evalLua loads it directly) still cannot read or create
// globals.
func TestSandboxRuntimeGuard(t *testing.T) {
	g := loadTest(t, "probe")
	s := g.Start()
	for code, msg := range map[string]string{
		`return nope`:                        `undeclared global "nope"`,
		`nope = 1`:                           `assignment to global "nope": declare it local`,
		`string.rep = nil`:                   "string is read-only: cannot set string.rep",
		`table.insert = nil`:                 "table is read-only: cannot set table.insert",
		`math.pi = 3`:                        "math is read-only: cannot set math.pi",
		`matombo.count = nil`:                "matombo is read-only: cannot set matombo.count",
		`setmetatable(string, nil)`:          "cannot change a protected metatable",
		`rawset(math, "pi", 3)`:              "rawset: this table belongs to the sandbox and is read-only",
		`getmetatable("").__index.rep = nil`: "attempt to index",
		`return string.dump(print)`:          "attempt to call a non-function object",
		`return math.random()`:               "attempt to call a non-function object",
		`return ("x"):dump()`:                "attempt to call a non-function object",
	} {
		_, err := evalLua(g, s, code)
		assert.ErrorContains(t, err, msg, code)
	}
	got, err := evalLua(g, s, `return getmetatable(""), getmetatable(matombo), getmetatable(string), ("abc"):upper(), ("a,b"):find(","), rawget(string, "rep"), type(matombo.count)`)
	require.NoError(t, err)
	assert.Equal(t, []any{"locked", "locked", "locked", "ABC", 2, nil, "function"}, fromLuaAll(got))
	got, err = evalLua(g, s, `local t = setmetatable({}, { __index = function(t, k) return k .. "!" end }) rawset(t, "a", 1) return t.a, t.b`)
	require.NoError(t, err, "rawset and setmetatable work on the script's own tables")
	assert.Equal(t, []any{1, "b!"}, fromLuaAll(got))
	// The data table of matombo is the script's own (each machine has its
	// own copy).
	_, err = evalLua(g, s, `matombo.data.scratch = 1`)
	assert.NoError(t, err)
}

// The wrapped string and table functions still work within their limits.
func TestSandboxLibrariesWithinLimits(t *testing.T) {
	g := loadTest(t, "probe")
	s := g.Start()
	got, err := evalLua(g, s, `
		local s = string.rep("ab", 3)
		local t = { "x", "y", "z" }
		table.insert(t, "w")
		table.insert(t, 1, "v")
		return s, string.format("%5.2f|%-3s|%d", 3.14159, "a", 42), table.concat(t, ","), table.concat(t, "", 2, 3),
			("hello world"):gsub("o", "0"), string.match("key=val", "(%w+)=(%w+)"), #string.rep("x", 1048576)`)
	require.NoError(t, err)
	assert.Equal(t, []any{"ababab", " 3.14|a  |42", "v,x,y,z,w", "xy", "hell0 w0rld", "key", 1048576}, fromLuaAll(got))
	for code, msg := range map[string]string{
		`return string.rep("x", 1048577)`:                 "string size budget exceeded (limit 1048576 bytes): string.rep would build a string of 1048577 bytes",
		`return string.format("%100d", 1)`:                "invalid format (width or precision too long: at most 2 digits)",
		`return string.format("%.100f", 1)`:               "width or precision too long",
		`local t = {} table.insert(t, 3, 1)`:              "bad argument #2 to insert (position 3 out of bounds (the table has 0 elements))",
		`local t = {} table.insert(t, 0, 1)`:              "position 0 out of bounds",
		`return table.concat({}, "", 1, 65537)`:           "table size budget exceeded (limit 65536): table.concat of 65537 elements",
		`return string.find(string.rep("a", 65537), "b")`: "string size budget exceeded (limit 65536 bytes): string.find over a string of 65537 bytes",
		`return string.find("a", string.rep("a?", 513))`:  "string.find with a pattern of 1026 bytes",
	} {
		_, err := evalLua(g, s, code)
		assert.ErrorContains(t, err, msg, code)
	}
	// The limits are configurable.
	small := loadTest(t, "probe", WithLimits(Limits{StringBytes: 10, PatternText: 4, TableItems: 2}))
	for code, msg := range map[string]string{
		`return string.rep("x", 11)`:                "string size budget exceeded (limit 10 bytes)",
		`return ("abcde"):find("e")`:                "string size budget exceeded (limit 4 bytes)",
		`return table.concat({ 1, 2, 3 })`:          "table size budget exceeded (limit 2)",
		`local t = { 1, 2 } table.insert(t, 3)`:     "table size budget exceeded (limit 2)",
		`return string.format("%s", "12345678901")`: "string size budget exceeded (limit 10 bytes)",
	} {
		_, err := evalLua(small, small.Start(), code)
		assert.ErrorContains(t, err, msg, code)
		var be *BudgetError
		assert.ErrorAs(t, err, &be, code)
	}
}

// Tables longer than table.insert's limit: a script gets correct results
// for a sequence it builds itself (the host's array limit, 1<<20, is above
// it) and a table-size error from table.insert past Limits.TableItems.
func TestSandboxLongTables(t *testing.T) {
	g := loadTest(t, "probe")
	got, err := evalLua(g, g.Start(), `local t = {} for i = 1, 70000 do t[i] = i end local len = #t t[#t + 1] = "x" return len, #t, t[70001], t[65536]`)
	require.NoError(t, err)
	assert.Equal(t, []any{70000, 70001, "x", 65536}, fromLuaAll(got))
	_, err = evalLua(g, g.Start(), `local t = {} for i = 1, 70000 do t[i] = i end table.insert(t, "x")`)
	var be *BudgetError
	require.ErrorAs(t, err, &be)
	assert.Equal(t, BudgetTableSize, be.Budget)
}
