package host

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The sandbox's string functions give Lua 5.1's results (the expected
// values are those of the reference Lua 5.1 interpreter).
func TestStringLibResults(t *testing.T) {
	g := loadTest(t, "probe")
	s := g.Start()
	for _, c := range []struct {
		code string
		want []any
	}{
		{`return string.format("%d|%5d|%-5d|%05d|%+d|%.3d", 7, 7, 7, 7, 7, 7)`, []any{"7|    7|7    |00007|+7|007"}},
		{`return string.format("%i %u %o %x %X %#x", -3, 3, 8, 255, 255, 255)`, []any{"-3 3 10 ff FF 0xff"}},
		{`return string.format("%d", 3.9)`, []any{"3"}},
		{`return string.format("%d", "12")`, []any{"12"}},
		{`return string.format("%5.2f|%e|%g|%g|%g", 3.14159, 12345.678, 0.1, 1/3, 1e20)`, []any{" 3.14|1.234568e+04|0.1|0.333333|1e+20"}},
		{`return string.format("%f %f %5.1f", 1/0, -1/0, 0/0)`, []any{"inf -inf   nan"}},
		{`return string.format("%s|%5s|%-5s|%.2s|%s", "abc", "ab", "ab", "abc", 12)`, []any{"abc|   ab|ab   |ab|12"}},
		{`return string.format("%q", 'a "b"\\' .. "\n\r\0z")`, []any{"\"a \\\"b\\\"\\\\\\\n\\r\\000z\""}},
		{`return string.format("%c%c%c", 76, 117, 97)`, []any{"Lua"}},
		{`return string.format("100%% sure %s", "x")`, []any{"100% sure x"}},
		{`return string.format("%s", "a", "extra", "args")`, []any{"a"}},
		{`return string.gsub("hello world", "o", "0")`, []any{"hell0 w0rld", 2}},
		{`return string.gsub("hello world", "(%w+)", "<%1>")`, []any{"<hello> <world>", 2}},
		{`return string.gsub("abc", "%w", "%0%0")`, []any{"aabbcc", 3}},
		{`return string.gsub("abc", "", "-")`, []any{"-a-b-c-", 4}},
		{`return string.gsub("abc", "b", "%%")`, []any{"a%c", 1}},
		{`return string.gsub("hello world", "o", "0", 1)`, []any{"hell0 world", 1}},
		{`return string.gsub("hello world", "o", "0", 0)`, []any{"hello world", 0}},
		{`return string.gsub("$name is $age", "%$(%w+)", { name = "Ann", age = 7 })`, []any{"Ann is 7", 2}},
		{`return string.gsub("a b c", "%w", function(x) if x == "b" then return false end return x:upper() end)`, []any{"A b C", 3}},
		{`return string.gsub("abc", "()b", "%1")`, []any{"a2c", 1}},
		{`return string.rep("ab", 3), string.rep("x", 0), string.rep("x", -1), string.rep("", 1e15)`, []any{"ababab", "", "", ""}},
		{`return string.upper("aBc1é"), string.lower("AbC"), string.reverse("abc")`, []any{"ABC1é", "abc", "cba"}},
		{`return string.char(), string.char(104, 105)`, []any{"", "hi"}},
		{`return table.concat({1, "b", 3}, ", "), table.concat({}, "x"), table.concat({"a", "b", "c"}, "", 2), table.concat({"a", "b", "c"}, "-", 1, 2)`, []any{"1, b, 3", "", "bc", "a-b"}},
		{`return table.concat({"a"}, "-", 3, 2)`, []any{""}},
	} {
		got, err := evalLua(g, s, c.code)
		if assert.NoError(t, err, c.code) {
			assert.Equal(t, c.want, fromLuaAll(got), c.code)
		}
	}
}

// Formats Lua 5.1 does not accept are Lua errors naming the problem;
// Go's formatter never shows through ("%!").
func TestStringFormatErrors(t *testing.T) {
	g := loadTest(t, "probe")
	s := g.Start()
	for code, msg := range map[string]string{
		`return string.format("%", 1)`:                             "ends with a lone %",
		`return string.format("abc %")`:                            "ends with a lone %",
		`return string.format("%*d", 5, 1)`:                        "invalid option '%*' to 'format'",
		`return string.format("%z", 1)`:                            "invalid option '%z' to 'format'",
		`return string.format("%5", 1)`:                            "ends inside a conversion",
		`return string.format("%ld", 1)`:                           "invalid option '%l'",
		`return string.format("%100d", 1)`:                         "width or precision too long",
		`return string.format("%.100f", 1)`:                        "width or precision too long",
		`return string.format("%------d", 1)`:                      "repeated flags",
		`return string.format("%d", 0/0)`:                          "has no integer representation",
		`return string.format("%x", 1/0)`:                          "has no integer representation",
		`return string.format("%d", 2^63)`:                         "has no integer representation",
		`return string.format("%d")`:                               "bad argument #2",
		`return string.format("%d", "x")`:                          "number expected",
		`return string.format("%s", {})`:                           "string expected, got table",
		`return string.format("%s", nil)`:                          "string expected, got nil",
		`return string.format("%c", 256)`:                          "a byte from 0 to 255",
		`return string.format("%\1", 1)`:                           `invalid option '%\x01'`,
		`return string.char(300)`:                                  "a byte from 0 to 255",
		`return string.gsub("abc", "(b)", "%2")`:                   "invalid capture index %2",
		`return string.gsub("abc", "b", {}, "x")`:                  "number expected",
		`return string.gsub("abc", "b", true)`:                     "string, number, table or function expected",
		`return string.gsub("abc", "b", function() return {} end)`: "invalid replacement value (a table)",
		`return string.gsub("abc", "[b", "x")`:                     "malformed pattern",
		`return table.concat({1, {}, 3})`:                          "invalid value (table) at index 2",
		`return table.concat({}, "", -100000, 1)`:                  "table size budget exceeded",
		`return table.concat({}, "", -2^62, -2^62)`:                "out of range",
	} {
		_, err := evalLua(g, s, code)
		if assert.Error(t, err, code) {
			assert.Contains(t, err.Error(), msg, code)
			assert.NotContains(t, err.Error(), "%!", code)
			var se *ScriptError
			var be *BudgetError
			assert.True(t, errors.As(err, &se) || errors.As(err, &be), "a host error type: %T", err)
		}
	}
}

// Every function that builds a string refuses a result above
// Limits.StringBytes before building it.
func TestStringLibOutputBounds(t *testing.T) {
	g := loadTest(t, "probe", WithLimits(Limits{StringBytes: 1000}))
	s := g.Start()
	for code, fn := range map[string]string{
		`return string.rep("ab", 501)`:                                     "string.rep",
		`return string.rep("a", 2^53)`:                                     "string.rep",
		`return string.rep("a", 1/0)`:                                      "string.rep",
		`return string.gsub(string.rep("a", 40), "", string.rep("b", 30))`: "string.gsub",
		`return string.gsub(string.rep("a", 40), "a", "%0%0%0%0%0%0%0%0%0%0%0%0%0%0%0%0%0%0%0%0%0%0%0%0%0%0%0")`: "string.gsub",
		`return string.gsub(string.rep("a", 40), "(a)", function(x) return string.rep(x, 30) end)`:               "string.gsub",
		`return string.gsub(string.rep("a", 40), "a", { a = string.rep("x", 30) })`:                              "string.gsub",
		`return string.format("%q", string.rep("\0", 300))`:                                                      "string.format",
		`return string.format("%99d%99d%99d%99d%99d%99d%99d%99d%99d%99d%99d", 1,2,3,4,5,6,7,8,9,10,11)`:          "string.format",
		`return string.format("%s%s", string.rep("a", 600), string.rep("b", 600))`:                               "string.format",
		`return string.format(string.rep("a", 1000) .. "b")`:                                                     "string.format",
		`local s = string.rep("a", 1000) return string.upper(s .. "b")`:                                          "string.upper",
		`local s = string.rep("a", 1000) return string.lower(s .. "b")`:                                          "string.lower",
		`local s = string.rep("a", 1000) return string.reverse(s .. "b")`:                                        "string.reverse",
		`local t = {} for i = 1, 200 do t[i] = "abcdef" end return table.concat(t)`:                              "table.concat",
		`return table.concat({"a", "b"}, string.rep("-", 999))`:                                                  "table.concat",
	} {
		_, err := evalLua(g, s, code)
		var be *BudgetError
		if assert.ErrorAs(t, err, &be, code) {
			assert.Equal(t, Budget("string size"), be.Budget, code)
			assert.Contains(t, err.Error(), fn+" would build a string of", code)
		}
	}
	// Up to the limit is fine.
	got, err := evalLua(g, s, `return #string.rep("ab", 500), #string.gsub(string.rep("a", 100), "a", "%0%0"), #string.format("%q", string.rep("\0", 199))`)
	require.NoError(t, err)
	assert.Equal(t, []any{1000, 200, 798}, fromLuaAll(got))
}

// A template whose parts expand to nothing still costs a step per part and
// match: that work is bounded too.
func TestStringGsubTemplateWork(t *testing.T) {
	g := loadTest(t, "probe")
	s := g.Start()
	_, err := evalLua(g, s, `return string.gsub(string.rep("a", 60000), "", string.rep("%0", 500000))`)
	var be *BudgetError
	require.ErrorAs(t, err, &be)
	assert.Contains(t, []string{"pattern", "string size"}, string(be.Budget))
	assert.False(t, strings.Contains(err.Error(), "%!"))
}

// unpack and string.byte push a value each: a count the data stack cannot
// hold is refused before pushing; odd bounds give what Lua gives.
func TestUnpackAndByteBounds(t *testing.T) {
	g := loadTest(t, "probe")
	s := g.Start()
	got, err := evalLua(g, s, `return select("#", unpack({}, 1/0)), select("#", unpack({1, 2}, 0/0)), select("#", unpack({1, 2, 3}, 2)), select("#", unpack({}, -2^62, -2^62)), string.byte("abc", -1), select("#", string.byte("abc", 1/0, -1))`)
	require.NoError(t, err)
	assert.Equal(t, []any{0, 0, 2, 1, 99, 0}, fromLuaAll(got))
	for _, code := range []string{
		`return unpack({}, 1, 2^31)`,
		`return unpack({}, -1/0, 1)`,
		`return string.byte(string.rep("a", 60000), 1, -1)`,
	} {
		_, err := evalLua(g, s, code)
		var be *BudgetError
		if assert.ErrorAs(t, err, &be, code) {
			assert.Equal(t, BudgetDataStack, be.Budget, code)
		}
	}
}

// The pattern matcher runs in Go, where the time budget cannot stop it: a
// match whose worst case is too costly is refused before it runs, and
// every match is charged its worst case. The worst case counts the
// pattern's length, its optional items (each doubles the ways to match)
// and its %b and back-reference items (each scans the subject), not only
// its repetition items: each pattern here took minutes (the first
// forever) or ran to the time guard in a loop, refused or charged nothing.
func TestPatternWorstCases(t *testing.T) {
	g := loadTest(t, "probe")
	s := g.Start()
	for _, c := range []struct{ name, code string }{
		{"optional items", `return string.find(string.rep("a", 40), string.rep("a?", 40) .. "b")`},
		{"optional items anchored", `return string.match(string.rep("a", 60), "^" .. string.rep("a?", 30) .. "b")`},
		{"a balance over every start", `return string.find(string.rep("(", 65536), "%b()")`},
		{"a back-reference", `return string.find(string.rep("a", 65536), "(" .. string.rep("a", 500) .. ")%1b")`},
		{"a long pattern", `return string.find(string.rep("a", 65536), string.rep("a", 1023) .. "b")`},
		{"long character sets", `return string.match(string.rep("a", 65536), string.rep("[%a%d%s%p%c%l%u%w%x]", 40) .. "b")`},
		{"gmatch", `return string.gmatch(string.rep("(", 65536), "%b()")`},
		{"gsub", `return string.gsub(string.rep("a", 50), string.rep("a?", 30) .. "b", "")`},
		{"repetition items", `return string.find(string.rep("a", 3000), "a*a*b")`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := evalLua(g, s, c.code)
			var be *BudgetError
			require.ErrorAs(t, err, &be)
			assert.Equal(t, Budget("pattern"), be.Budget, "%v", err)
		})
	}
	// Ordinary patterns over ordinary strings pass.
	got, err := evalLua(g, s, `return {string.match("K12-4", "^(K?)(%d+)%-?(%d*)$")}, {string.find("a(b(c)d)e", "%b()")}, (string.gsub("x y  z", "%s+", "")), string.match("abab", "(ab)%1")`)
	require.NoError(t, err)
	assert.Equal(t, []any{[]any{"K", "12", "4"}, []any{2, 8}, "xyz", "ab"}, fromLuaAll(got))
}
