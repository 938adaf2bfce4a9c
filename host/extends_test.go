package host

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// baseGame offers two rule points: setup and the reason of the end.
const baseGame = `local m = matombo
local P = m.declare { name = "base", title = "Base", params = { { name = "n", default = 1, values = { 1, 2 } } } }
m.board { rows = { "a", "b" }, columns = 2 }
local SOW = m.move("sow", "{1}")
local setup = m.rule("setup", function() m.set_count("a1", P.n) end)
local ending = m.rule("ending", function(p) return "done" end)
return {
  setup = setup,
  legal = function(p) m.emit(SOW, "a1") end,
  play = function(p, kind, s) m.finish(0, ending(p)) end,
}
`

const baseVariants = "variants:\n  two:\n    params: {n: 2}\n"

func extLibrary(t *testing.T, layers ...fstest.MapFS) *Library {
	t.Helper()
	lib := NewLibrary()
	for i, fsys := range layers {
		require.NoError(t, lib.AddFS(fsys, []string{"one", "two", "three"}[i]))
	}
	return lib
}

func TestExtends(t *testing.T) {
	shipped := fstest.MapFS{
		"base/base.lua":      {Data: []byte(baseGame)},
		"base/variants.yaml": {Data: []byte(baseVariants)},
		"base/rules.md":      {Data: []byte("# Base\n")},
	}
	tests := []struct {
		name     string
		game     string
		src      string
		opts     []Option
		count    int    // a1 at the opening
		reason   string // after one move
		title    string
		replaced []string
	}{
		{name: "nothing replaced", game: "plain", src: `return matombo.extends("base")`, count: 1, reason: "done", title: "Base"},
		{name: "setup wraps the base rule", game: "more", src: `local m = matombo
return m.extends("base", { title = "More", replace = { setup = function(base) base(); m.add("a1", 4) end } })`,
			count: 5, reason: "done", title: "More", replaced: []string{"setup"}},
		{name: "a replacement gets the rule's arguments", game: "named", src: `return matombo.extends("base", { replace = {
  ending = function(base, p) return base(p) .. " by " .. p end } })`, count: 1, reason: "done by 1", title: "Base", replaced: []string{"ending"}},
		{name: "the base's variants count", game: "plain", src: `return matombo.extends "base"`, opts: []Option{WithVariant("two")}, count: 2, reason: "done", title: "Base"},
		{name: "same name extends the lower layer", game: "base", src: `return matombo.extends("base", { replace = { setup = function(b) matombo.set_count("a2", 7) end } })`,
			count: 0, reason: "done", title: "Base", replaced: []string{"setup"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lib := extLibrary(t, shipped, fstest.MapFS{tt.game + "/" + tt.game + ".lua": {Data: []byte(tt.src)}})
			g, err := lib.Load(tt.game, tt.opts...)
			require.NoError(t, err)
			s := g.Start()
			require.Equal(t, tt.count, s.Count(0))
			require.NoError(t, s.Play("a1"))
			require.Equal(t, tt.reason, s.Outcome().Reason)
			require.Equal(t, tt.title, g.Title())
			require.Equal(t, tt.game, g.Name())
			ext, ok := g.Extends()
			require.True(t, ok)
			require.Equal(t, "base", ext.Base)
			require.Equal(t, "one/base/base.lua", ext.File)
			require.Equal(t, "# Base\n", ext.Rules)
			require.Equal(t, tt.replaced, ext.Replaced)
			require.Equal(t, []string{"setup", "ending"}, g.RulePoints())
		})
	}
}

func TestExtendsErrors(t *testing.T) {
	shipped := fstest.MapFS{"base/base.lua": {Data: []byte(baseGame)}}
	tests := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"unknown rule point", map[string]string{"x.lua": `return matombo.extends("base", { replace = { setpu = function() end } })`},
			`two/x.lua:1: matombo.extends("base"): no rule point setpu to replace (base offers: setup, ending) (in load)`},
		{"unknown game", map[string]string{"x.lua": `return matombo.extends("bsae")`},
			`two/x.lua:1: the script extends the unknown game "bsae" (allowed: base)`},
		{"name not literal", map[string]string{"x.lua": `local n = "base"
return matombo.extends(n)`}, `two/x.lua:2: matombo.extends needs the base game's name as a literal string, as in matombo.extends("NAME", { ... }) (in load)`},
		{"twice", map[string]string{"x.lua": "matombo.extends('base')\nreturn matombo.extends('base')"},
			`two/x.lua:2: matombo.extends is called more than once: a script extends one game (in load)`},
		{"cycle", map[string]string{"x.lua": `return matombo.extends("y")`, "y.lua": `return matombo.extends("x")`},
			`two/y.lua:1: the script extends "x", which extends it again (two/x.lua)`},
		{"cycle, the call on a later line", map[string]string{"x.lua": "-- x\n\nreturn matombo.extends(\"x\")"},
			`two/x.lua:3: the script extends "x", its own name, but no folder before it has a game "x" (allowed: base)`},
		{"a path for a name", map[string]string{"x.lua": "\nreturn matombo.extends(\"../base\")"},
			`two/x.lua:2: matombo.extends("../base"): a game's name is 1 to 64 lower-case letters, digits, - and _ (the name of its folder or script) (in load)`},
		{"an empty name", map[string]string{"x.lua": `return matombo.extends("")`},
			`two/x.lua:1: matombo.extends(""): a game's name is 1 to 64 lower-case letters, digits, - and _ (the name of its folder or script) (in load)`},
		{"own name without a lower game", map[string]string{"x.lua": `return matombo.extends("x")`},
			`two/x.lua:1: the script extends "x", its own name, but no folder before it has a game "x" (allowed: base)`},
		{"declares itself", map[string]string{"x.lua": `matombo.declare { name = "x" }
return matombo.extends("base")`}, `two/x.lua:2: matombo.extends must come before matombo.declare: the base game declares the game (give title and description to matombo.extends) (in load)`},
		{"bad spec field", map[string]string{"x.lua": `return matombo.extends("base", { titel = "X" })`},
			`two/x.lua:1: matombo.extends: unknown field titel (known: title, description, replace, params) (in load)`},
		{"escape in the title", map[string]string{"x.lua": `return matombo.extends("base", { title = "X\27[2J" })`},
			`two/x.lua:1: matombo.extends: the title contains the control character U+001B at byte 2: only printable characters are allowed (in load)`},
		{"bidi override in the description", map[string]string{"x.lua": `return matombo.extends("base", { description = "line\nsp\226\128\174oof" })`},
			`two/x.lua:1: matombo.extends: the description contains the control character U+202E at byte 8: only printable characters and newlines are allowed (in load)`},
		{"replacement not a function", map[string]string{"x.lua": `return matombo.extends("base", { replace = { setup = 3 } })`},
			`two/x.lua:1: matombo.extends: replace.setup must be a function, got number 3 (in load)`},
		// Found while the base declares its parameters, but the extending
		// script's line is where it is wrong.
		{"a parameter the base has", map[string]string{"x.lua": `local m = matombo
return m.extends("base", {
  params = { { name = "n", default = 99 } },
})`}, `two/x.lua:2: matombo.extends: the parameter n is the base game's already (its parameters: n) (in load)`},
		{"a parameter the base has, two levels up", map[string]string{
			"x.lua": "\n\nreturn matombo.extends('y', { params = { { name = 'n', default = 3 } } })",
			"y.lua": "return matombo.extends('base', { params = { { name = 'k', default = 3 } } })"},
			`two/x.lua:3: matombo.extends: the parameter n is the base game's already (its parameters: n, k) (in load)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			layer := fstest.MapFS{}
			for f, src := range tt.files {
				layer[f] = &fstest.MapFile{Data: []byte(src)}
			}
			_, err := extLibrary(t, shipped, layer).Load("x")
			require.Error(t, err)
			require.Equal(t, tt.want, err.Error())
		})
	}
}

// An extending game's own variants.yaml drops a variant of its base
// (NAME: null); a drop of a name no file before it declares is an error
// at the drop's line.
func TestExtendsDropsVariant(t *testing.T) {
	shipped := fstest.MapFS{
		"base/base.lua":      {Data: []byte(baseGame)},
		"base/variants.yaml": {Data: []byte(baseVariants + "  three:\n    params: {n: 1}\n")},
	}
	names := func(g *Game) []string {
		var out []string
		for _, v := range g.Variants() {
			out = append(out, v.Name)
		}
		return out
	}
	ext := `return matombo.extends("base")`
	lib := extLibrary(t, shipped, fstest.MapFS{"x/x.lua": {Data: []byte(ext)}, "x/variants.yaml": {Data: []byte("variants:\n  two: null\n")}})
	g, err := lib.Load("x")
	require.NoError(t, err)
	assert.Equal(t, []string{"three"}, names(g))
	_, err = lib.Load("x", WithVariant("two"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), `unknown variant "two" (allowed: three)`)
	base, err := lib.Load("base")
	require.NoError(t, err)
	assert.Equal(t, []string{"two", "three"}, names(base), "the base keeps its variants")

	lib = extLibrary(t, shipped, fstest.MapFS{"x/x.lua": {Data: []byte(ext)}, "x/variants.yaml": {Data: []byte("# a typo\nvariants:\n  tow: null\n")}})
	_, err = lib.Load("x")
	require.Error(t, err)
	assert.Equal(t, "two/x/variants.yaml:3:3: tow: null drops a variant of the files before this one, and none declares tow (allowed: two, three)", err.Error())
	var ce *ConfigError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, 3, ce.Pos.Line)
}

func TestRuleErrors(t *testing.T) {
	tests := []struct{ body, want string }{
		{`m.rule("a b", function() end)`, `bad argument #1 to rule (a rule point's name is a Lua name (letters, digits, _), got "a b")`},
		{`m.rule("r", function() end) m.rule("r", function() end)`, `matombo.rule("r") is declared twice`},
		{`m.rule("r", 3)`, `function expected`},
	}
	for _, tt := range tests {
		_, err := loadSource(t, "g", miniSource("g", tt.body))
		require.Error(t, err)
		require.Contains(t, err.Error(), tt.want)
	}
}

func TestSetBases(t *testing.T) {
	bases := extLibrary(t, fstest.MapFS{"base/base.lua": {Data: []byte(baseGame)}})
	lib := extLibrary(t, fstest.MapFS{"x/x.lua": {Data: []byte(`return matombo.extends("base")`)}})
	_, err := lib.Load("x")
	require.Error(t, err)
	lib.SetBases(bases)
	// A name that is no game's lists the games it could extend: the bases
	// library's (matombo check's shipped games), not the script's own.
	typo := extLibrary(t, fstest.MapFS{"x/x.lua": {Data: []byte(`return matombo.extends("bsae")`)}})
	typo.SetBases(bases)
	_, err = typo.Load("x")
	require.ErrorContains(t, err, `x/x.lua:1: the script extends the unknown game "bsae" (allowed: base)`)
	require.Equal(t, []string{"x"}, lib.Games())
	g, err := lib.Load("x")
	require.NoError(t, err)
	require.Equal(t, 1, g.Start().Count(0))
}

func TestParam(t *testing.T) {
	tests := []struct{ body, want string }{
		{`local x = m.param("n") if x ~= 1 then error("got " .. tostring(x)) end`, ""},
		{`m.param("holes")`, `matombo.param: unknown parameter "holes" (parameters: n)`},
	}
	for _, tt := range tests {
		src := miniSource("g", tt.body)
		src = strings.Replace(src, `m.declare { name = "g" }`, `m.declare { name = "g", params = { { name = "n", default = 1 } } }`, 1)
		_, err := loadSource(t, "g", src)
		if tt.want == "" {
			require.NoError(t, err)
			continue
		}
		require.ErrorContains(t, err, tt.want)
	}
}

// A game may extend a game that extends another: replacements stack, the
// outer one getting the inner one as the rule it replaces.
func TestExtendsChain(t *testing.T) {
	lib := extLibrary(t,
		fstest.MapFS{"base/base.lua": {Data: []byte(baseGame)}},
		fstest.MapFS{
			"mid/mid.lua": {Data: []byte(`return matombo.extends("base", { title = "Mid",
  replace = { setup = function(base) base(); matombo.add("a1", 10) end } })`)},
			"top/top.lua": {Data: []byte(`return matombo.extends("mid", { replace = {
  setup = function(mid) mid(); matombo.add("a1", 100) end,
  ending = function(base, p) return "top " .. base(p) end } })`)},
		})
	g, err := lib.Load("top")
	require.NoError(t, err)
	s := g.Start()
	require.Equal(t, 111, s.Count(0))
	require.NoError(t, s.Play("a1"))
	require.Equal(t, "top done", s.Outcome().Reason)
	require.Equal(t, "Mid", g.Title(), "the nearer base's title, as top gives none")
	ext, ok := g.Extends()
	require.True(t, ok)
	require.Equal(t, "mid", ext.Base)
	require.Equal(t, []string{"ending", "setup"}, ext.Replaced)
}

// A script that catches the failure of the game it extends is back to
// declaring itself.
func TestExtendsCaught(t *testing.T) {
	bad := fstest.MapFS{"bad/bad.lua": {Data: []byte(`error("the base is broken")`)}}
	src := `local ok, err = pcall(function() return matombo.extends("bad") end)
if ok or not tostring(err):find("the base is broken") then error("want the base's error, got " .. tostring(err)) end
` + miniSource("x", "")
	g, err := extLibrary(t, bad, fstest.MapFS{"x/x.lua": {Data: []byte(src)}}).Load("x")
	require.NoError(t, err)
	_, ok := g.Extends()
	require.True(t, ok, "the script still names the game it tried to extend")
}
