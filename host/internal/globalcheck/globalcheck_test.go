package globalcheck

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/yuin/gopher-lua/parse"
)

// allowed is the sandbox's globals, as host passes them.
var allowed = map[string]bool{}

func init() {
	for _, g := range []string{"assert", "error", "ipairs", "next", "pairs", "pcall", "print", "rawequal",
		"rawget", "rawset", "select", "setmetatable", "getmetatable", "tonumber",
		"tostring", "type", "unpack", "xpcall", "_VERSION",
		"string", "table", "math", "matombo"} {
		allowed[g] = true
	}
}

// The static global check runs before a script runs: every
// read of a global the sandbox does not provide and every assignment to a
// global is an error naming its line. Each case is a chunk; line is the
// line of the error, 0 for none.
func TestCheckGlobals(t *testing.T) {
	for _, c := range []struct {
		name, src string
		line      int
		msg       string
	}{
		// Locals, functions and recursion.
		{"local", "local x = 1\nreturn x", 0, ""},
		{"sandbox globals", "return string.rep, table.insert, math.floor, matombo.count, pairs, ipairs, next, pcall, error, assert, tostring, tonumber, type, select, unpack, rawget, rawset, rawequal, setmetatable, getmetatable, xpcall, print, _VERSION", 0, ""},
		{"local function recursion", "local function f(n)\n  if n > 0 then return f(n - 1) end\n  return 0\nend\nreturn f(3)", 0, ""},
		{"local f = function sees f (as gopher-lua compiles it)", "local f = function(n) if n > 0 then return f(n - 1) end return 0 end\nreturn f(1)", 0, ""},
		{"local x = x reads the global", "local x = x", 1, `undeclared global "x"`},
		{"local with two functions", "local f, g = function() return g() end, 1", 1, `undeclared global "g"`},
		{"mutual recursion through a forward local", "local g\nlocal function f() return g() end\ng = function() return f() end\nreturn f", 0, ""},
		{"parameters", "local function f(a, b, ...)\n  return a + b, ...\nend", 0, ""},
		{"parameter out of scope", "local function f(a)\n  return a\nend\nreturn a", 4, `undeclared global "a"`},

		// Loops and blocks.
		{"numeric for", "for i = 1, 3 do\n  local x = i\nend", 0, ""},
		{"numeric for variable after the loop", "for i = 1, 3 do\nend\nreturn i", 3, `undeclared global "i"`},
		{"numeric for limits are outside", "for i = 1, i do\nend", 1, `undeclared global "i"`},
		{"numeric for step", "for i = 1, 3, step do\nend", 1, `undeclared global "step"`},
		{"generic for", "for k, v in pairs({}) do\n  local x = k .. v\nend", 0, ""},
		{"generic for variable after the loop", "for k, v in pairs({}) do end\nreturn v", 2, `undeclared global "v"`},
		{"generic for iterator", "for k in each(t) do end", 1, `undeclared global "each"`},
		{"while body scope", "while true do\n  local x = 1\n  break\nend\nreturn x", 5, `undeclared global "x"`},
		{"while condition", "while go do end", 1, `undeclared global "go"`},
		{"repeat until sees the body's locals", "repeat\n  local done = true\nuntil done", 0, ""},
		{"repeat body local is gone after", "repeat\n  local done = true\nuntil done\nreturn done", 4, `undeclared global "done"`},
		{"if scopes", "if true then\n  local y = 1\nelse\n  local z = 2\nend\nreturn y", 6, `undeclared global "y"`},
		{"elseif condition", "local a = 1\nif a == 1 then\nelseif b then\nend", 3, `undeclared global "b"`},
		{"else branch", "if true then\nelse\n  return w\nend", 3, `undeclared global "w"`},
		{"do block scope", "do\n  local q = 1\nend\nreturn q", 4, `undeclared global "q"`},
		{"break and goto", "for i = 1, 2 do\n  goto continue\n  ::continue::\nend", 0, ""},

		// Functions defined with function statements.
		{"global function", "function f()\nend", 1, "function f is global: write \"local function f\""},
		{"function assigned to a declared local", "local f\nfunction f() return 1 end", 0, ""},
		{"method definition sees self", "local T = {}\nfunction T:get()\n  return self.x\nend", 0, ""},
		{"method on a nested table", "local T = { a = {} }\nfunction T.a:get()\n  return self\nend", 0, ""},
		{"field function has no self", "local T = {}\nfunction T.get()\n  return self\nend", 3, `undeclared global "self"`},
		{"field function of an undeclared table", "function U.get()\nend", 1, `undeclared global "U"`},
		{"method of an undeclared table", "function U:get()\nend", 1, `undeclared global "U"`},
		{"function statement parameters", "local T = {}\nfunction T.f(a)\n  return a\nend", 0, ""},
		{"nested functions see outer locals", "local function outer()\n  local y = 1\n  return function()\n    return function() return y end\n  end\nend", 0, ""},
		{"nested functions report inner undeclared", "local function outer()\n  local y = 1\n  return function()\n    return y + z\n  end\nend", 4, `undeclared global "z"`},
		{"function expression parameters do not leak", "local f = function(p) return p end\nreturn p", 2, `undeclared global "p"`},

		// Assignments.
		{"assignment to a global", "x = 1", 1, `assignment to global "x": declare it local`},
		{"assignment to a local", "local x\nx = 1", 0, ""},
		{"assignment to a field", "local t = {}\nt.x = 1\nt[1] = 2", 0, ""},
		{"assignment to a field of a global", "u.x = 1", 1, `undeclared global "u"`},
		{"multiple assignment with one global", "local a\na, b = 1, 2", 2, `assignment to global "b"`},
		{"assignment reads its right side first", "local a\na = c", 2, `undeclared global "c"`},
		{"assignment to a sandbox global", "string = nil", 1, `assignment to global "string"`},
		{"assignment to matombo", "matombo = {}", 1, `assignment to global "matombo"`},
		{"index expression", "local t = {}\nt[k] = 1", 2, `undeclared global "k"`},

		// Reads in every kind of expression.
		{"undeclared read", "return foo", 1, `undeclared global "foo"`},
		{"undeclared call", "local x = 1\n\nbar(x)", 3, `undeclared global "bar"`},
		{"method call on an undeclared", "return s:upper()", 1, `undeclared global "s"`},
		{"method call on a local", "local s = \"a\"\nreturn s:upper()", 0, ""},
		{"table constructor value", "local t = { a = b }", 1, `undeclared global "b"`},
		{"table constructor key", "local t = { [k] = 1 }", 1, `undeclared global "k"`},
		{"table constructor list", "local t = { 1, 2, n }", 1, `undeclared global "n"`},
		{"arithmetic", "local a = 1 + n", 1, `undeclared global "n"`},
		{"unary minus", "local a = -n", 1, `undeclared global "n"`},
		{"not", "local a = not n", 1, `undeclared global "n"`},
		{"length", "local a = #n", 1, `undeclared global "n"`},
		{"concat", "local a = \"x\" .. n", 1, `undeclared global "n"`},
		{"comparison", "local a = 1 < n", 1, `undeclared global "n"`},
		{"logical", "local a = true and n", 1, `undeclared global "n"`},
		{"call argument", "print(n)", 1, `undeclared global "n"`},
		{"attribute object", "local a = n.x", 1, `undeclared global "n"`},
		{"return value", "return 1, n", 1, `undeclared global "n"`},
		{"the first error is reported", "local a = n1\nlocal b = n2", 1, `undeclared global "n1"`},
		{"library tables the sandbox removes", "return os.time()", 1, `undeclared global "os"`},
		{"_G", "return _G", 1, `undeclared global "_G"`},
		{"_ENV", "return _ENV", 1, `undeclared global "_ENV"`},
		{"fields are not globals", "return string.dump, math.random, matombo.nothing", 0, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			chunk, err := parse.Parse(strings.NewReader(c.src), "g.lua")
			require.NoError(t, err)
			e := Check(chunk, allowed)
			if c.line == 0 {
				require.Nil(t, e)
				return
			}
			require.NotNil(t, e)
			assert.Equal(t, c.line, e.Line)
			assert.Contains(t, e.Msg, c.msg)
		})
	}
}

// A global function is reported with the lines of its definition.
func TestCheckRange(t *testing.T) {
	chunk, err := parse.Parse(strings.NewReader("local x = 1\nfunction f()\n  return x\nend\n"), "r.lua")
	require.NoError(t, err)
	e := Check(chunk, allowed)
	require.NotNil(t, e)
	assert.Equal(t, 2, e.Line)
	assert.Equal(t, 4, e.LastLine)
}
