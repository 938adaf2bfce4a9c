package host

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Parameters: defaults, variants from variants.yaml, overrides, and the
// errors that name the file, line, column, parameter and allowed values.

func paramMap(g *Game) map[string]any {
	out := map[string]any{}
	for _, p := range g.Params() {
		out[p.Name] = p.Value
	}
	return out
}

func TestParamsResolution(t *testing.T) {
	defaults := map[string]any{"seeds": 2, "fast": false, "shape": "grid", "label": "x", "limit": 40}
	with := func(changes map[string]any) map[string]any {
		out := map[string]any{}
		for k, v := range defaults {
			out[k] = v
		}
		for k, v := range changes {
			out[k] = v
		}
		return out
	}
	for _, c := range []struct {
		name string
		opts []Option
		want map[string]any
	}{
		{"defaults", nil, defaults},
		{"standard spells out the defaults", []Option{WithVariant("standard")}, defaults},
		{"one variant", []Option{WithVariant("one")}, with(map[string]any{"seeds": 1})},
		{"block mapping", []Option{WithVariant("four")}, with(map[string]any{"seeds": 4})},
		{"two variants combine", []Option{WithVariant("one", "quick")}, with(map[string]any{"seeds": 1, "fast": true, "limit": 10})},
		{"two options combine", []Option{WithVariant("quick"), WithVariant("ring")}, with(map[string]any{"fast": true, "limit": 10, "shape": "ring", "label": "hello world"})},
		{"two variants agreeing", []Option{WithVariant("four", "also-four")}, with(map[string]any{"seeds": 4})},
		{"a variant chosen twice", []Option{WithVariant("one", "one")}, with(map[string]any{"seeds": 1})},
		{"int param", []Option{WithParam("seeds", 3)}, with(map[string]any{"seeds": 3})},
		{"int param from a string", []Option{WithParam("seeds", "3")}, with(map[string]any{"seeds": 3})},
		{"int param from a spaced string", []Option{WithParam("limit", " 8 ")}, with(map[string]any{"limit": 8})},
		{"int param from int64", []Option{WithParam("limit", int64(12))}, with(map[string]any{"limit": 12})},
		{"int param from a whole float", []Option{WithParam("limit", 7.0)}, with(map[string]any{"limit": 7})},
		{"negative int", []Option{WithParam("limit", "-5")}, with(map[string]any{"limit": -5})},
		{"bool param", []Option{WithParam("fast", true)}, with(map[string]any{"fast": true})},
		{"bool param from a string", []Option{WithParam("fast", "true")}, with(map[string]any{"fast": true})},
		{"string param", []Option{WithParam("label", "anything at all")}, with(map[string]any{"label": "anything at all"})},
		{"string param with allowed values", []Option{WithParam("shape", "ring")}, with(map[string]any{"shape": "ring"})},
		{"override after a variant", []Option{WithVariant("one"), WithParam("seeds", 3)}, with(map[string]any{"seeds": 3})},
		{"override before a variant still wins", []Option{WithParam("seeds", 3), WithVariant("one")}, with(map[string]any{"seeds": 3})},
		{"later override wins", []Option{WithParam("seeds", 3), WithParam("seeds", "4")}, with(map[string]any{"seeds": 4})},
		{"override with a source", []Option{WithOverride(Override{Name: "seeds", Value: "1", Source: "--param seeds=1"})}, with(map[string]any{"seeds": 1})},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := loadTest(t, "probe", c.opts...)
			assert.Equal(t, c.want, paramMap(g))
			// The script sees the values: seeds counters per ring hole.
			assert.Equal(t, c.want["seeds"], g.Start().Count(0))
			v, ok := g.Param("seeds")
			assert.True(t, ok)
			assert.Equal(t, c.want["seeds"], v)
		})
	}
	g := loadTest(t, "probe", WithVariant("one", "quick"))
	assert.Equal(t, []string{"one", "quick"}, g.ChosenVariants())
	_, ok := g.Param("nope")
	assert.False(t, ok)
	var names []string
	for _, p := range g.Params() {
		names = append(names, p.Name)
	}
	assert.Equal(t, []string{"seeds", "fast", "shape", "label", "limit"}, names, "parameters in declaration order")
	var vnames []string
	for _, v := range g.Variants() {
		vnames = append(vnames, v.Name)
	}
	assert.Equal(t, []string{"standard", "one", "four", "quick", "ring", "also-four"}, vnames, "variants in file order")
	specs := g.ParamSpecs()
	require.Len(t, specs, 5)
	assert.Equal(t, ParamSpec{Name: "seeds", Kind: IntParam, Default: 2, Values: []any{1, 2, 3, 4}, Doc: "counters per ring hole"}, specs[0])
	assert.Equal(t, []string{"1", "2", "3", "4"}, specs[0].Allowed())
	assert.Equal(t, BoolParam, specs[1].Kind)
	assert.Equal(t, []string{"true", "false"}, specs[1].Allowed())
	assert.Equal(t, StringParam, specs[2].Kind)
	assert.Nil(t, specs[3].Allowed(), "any string")
	assert.Equal(t, "integer", IntParam.String())
	assert.Equal(t, "boolean", BoolParam.String())
	assert.Equal(t, "string", StringParam.String())
}

func TestParamsErrors(t *testing.T) {
	for _, c := range []struct {
		name    string
		opts    []Option
		param   string
		msg     string
		allowed []string
	}{
		{"unknown parameter", []Option{WithParam("holes", 6)}, "holes", "parameter holes: unknown parameter holes", []string{"seeds", "fast", "shape", "label", "limit"}},
		{"value not allowed", []Option{WithParam("seeds", 8)}, "seeds", "parameter seeds: 8 is not allowed", []string{"1", "2", "3", "4"}},
		{"string value not allowed", []Option{WithParam("seeds", "8")}, "seeds", "8 is not allowed", []string{"1", "2", "3", "4"}},
		{"wrong type: bool for int", []Option{WithParam("seeds", true)}, "seeds", "want an integer, got true", []string{"1", "2", "3", "4"}},
		{"wrong type: text for int", []Option{WithParam("limit", "lots")}, "limit", `want an integer, got "lots"`, nil},
		{"wrong type: fraction", []Option{WithParam("limit", 2.5)}, "limit", "want an integer, got 2.5", nil},
		{"wrong type: text for bool", []Option{WithParam("fast", "yes")}, "fast", `want true or false, got "yes"`, []string{"true", "false"}},
		{"wrong type: int for bool", []Option{WithParam("fast", 1)}, "fast", "want true or false, got 1", []string{"true", "false"}},
		{"wrong type: int for string", []Option{WithParam("label", 5)}, "label", "want a string, got 5", nil},
		{"wrong type: nil", []Option{WithParam("label", nil)}, "label", "want a string, got nothing", nil},
		{"string not allowed", []Option{WithParam("shape", "hex")}, "shape", "hex is not allowed", []string{"grid", "ring"}},
		{"source named", []Option{WithOverride(Override{Name: "seeds", Value: "9", Source: "--param seeds=9"})}, "seeds", "--param seeds=9: 9 is not allowed", []string{"1", "2", "3", "4"}},
		{"unknown variant", []Option{WithVariant("nope")}, "", `unknown variant "nope"`, []string{"standard", "one", "four", "quick", "ring", "also-four"}},
		{"variants disagreeing", []Option{WithVariant("one", "four")}, "seeds", "variants one and four set parameter seeds to different values (1 and 4)", nil},
		{"variants disagreeing the other way", []Option{WithVariant("four", "standard")}, "seeds", "variants four and standard set parameter seeds to different values (4 and 2)", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := testLibrary(t).Load("probe", c.opts...)
			require.Error(t, err)
			var ce *ConfigError
			require.ErrorAs(t, err, &ce, "%T %v", err, err)
			assert.Equal(t, c.param, ce.Param)
			assert.Contains(t, err.Error(), c.msg)
			assert.Equal(t, c.allowed, ce.Allowed)
			if len(c.allowed) > 0 {
				assert.Contains(t, err.Error(), "(allowed: "+strings.Join(c.allowed, ", ")+")")
			}
		})
	}
}

// A variants file is checked whole, chosen variants or not; its errors name
// the file, line and column of the value, the parameter and what is allowed.
func TestVariantsFileErrors(t *testing.T) {
	script := func(name string) string {
		return strings.ReplaceAll(`local m = matombo
local P = m.declare { name = "NAME", params = {
  { name = "holes", default = 6, values = { 6, 8 } },
  { name = "fast", default = false },
  { name = "board", default = "small" },
} }
m.board { rows = { "a" }, columns = P.holes }
local K = m.move("k", "{1}")
return { setup = function() m.set_count(1, 1) end, legal = function() m.emit(K, 1) end, play = function() m.finish(0) end }
`, "NAME", name)
	}
	for _, c := range []struct {
		name, yaml string
		opts       []Option
		line, col  int
		param      string
		msg        string
		allowed    []string
	}{
		{"unknown parameter", "variants:\n  big:\n    params: {holes: 8}\n  bad:\n    params:\n      hole: 8\n", nil, 6, 13, "hole",
			"variant bad sets unknown parameter hole", []string{"holes", "fast", "board"}},
		{"unknown parameter in an unchosen variant", "variants:\n  bad:\n    params: {size: 8}\n", []Option{WithParam("holes", 8)}, 3, 20, "size",
			"variant bad sets unknown parameter size", []string{"holes", "fast", "board"}},
		{"value not allowed", "variants:\n  big:\n    params: {holes: 9}\n", nil, 3, 21, "holes",
			"variant big: parameter holes: 9 is not allowed", []string{"6", "8"}},
		{"wrong type", "variants:\n  big:\n    params:\n      holes: many\n", nil, 4, 14, "holes",
			`variant big: parameter holes: want an integer, got the text "many"`, []string{"6", "8"}},
		{"quoted number", "variants:\n  big:\n    params:\n      holes: \"8\"\n", []Option{WithVariant("big")}, 4, 14, "holes",
			`variant big: parameter holes: want an integer, got the text "8" (leave out the quotes)`, []string{"6", "8"}},
		{"wrong type for bool", "variants:\n  fast:\n    params: {fast: 1}\n", nil, 3, 20, "fast",
			"variant fast: parameter fast: want true or false, got 1", []string{"true", "false"}},
		{"float", "variants:\n  big:\n    params: {holes: 8.5}\n", nil, 3, 21, "holes",
			"variant big: parameter holes: want an integer, boolean or string, got the number 8.5", nil},
		{"missing value", "variants:\n  big:\n    params:\n      holes:\n", nil, 4, 13, "holes", "variant big: parameter holes: missing value", nil},
		{"list value", "variants:\n  big:\n    params:\n      holes: [6, 8]\n", nil, 4, 14, "holes", "variant big: parameter holes: want a single value, got a list", nil},
		{"integer out of range", "variants:\n  big:\n    params: {holes: 99999999999}\n", nil, 3, 21, "holes", "integer 99999999999 is out of range", nil},
		{"integer past 64 bits", "variants:\n  big:\n    params: {holes: 99999999999999999999999}\n", nil, 3, 21, "holes", "integer 99999999999999999999999 is out of range: the limit is -2147483648 to 2147483647", nil},
		{"an alias for a value", "variants:\n  a:\n    params: {holes: &h 8}\n  big:\n    params: {holes: *h}\n", nil, 5, 21, "holes", "variant big: parameter holes: want a single value, got an alias (*name): write the value itself", nil},
		{"parameter twice", "variants:\n  big:\n    params:\n      holes: 8\n      holes: 6\n", nil, 5, 7, "holes", "variant big sets parameter holes twice", nil},
		{"unknown top key", "variant:\n  big: {}\n", nil, 1, 1, "", `unknown key "variant"`, []string{"variants", "data"}},
		{"unknown variant key", "variants:\n  big:\n    parameters: {holes: 8}\n", nil, 3, 5, "", `unknown key "parameters" in variant big`, []string{"title", "description", "params"}},
		{"variant not a mapping", "variants:\n  big: 8\n", nil, 2, 8, "", "variant big must be a mapping with title, description and params", nil},
		{"variants not a mapping", "variants: [big]\n", nil, 1, 11, "", "variants must be a mapping from variant names to their settings", nil},
		{"params not a mapping", "variants:\n  big:\n    params: [holes]\n", nil, 3, 13, "", "params of variant big must be a mapping", nil},
		{"description not text", "variants:\n  big:\n    description: {a: 1}\n", nil, 3, 18, "", "description must be text", nil},
		{"title not text", "variants:\n  big:\n    title: 8\n    params: {holes: 8}\n", nil, 3, 12, "", `the title of variant big must be text: write it in quotes ("8")`, nil},
		{"title too long", "variants:\n  big:\n    title: " + strings.Repeat("Big ", 16) + "\n", nil, 3, 12, "", "the title of variant big has 63 characters, more than 60", nil},
		{"root not a mapping", "- a\n- b\n", nil, 1, 1, "", "a variants file is a mapping with the keys variants and data", nil},
		{"data not a mapping", "data: 5\n", nil, 1, 7, "", "data must be a mapping", nil},
		{"variant named twice", "variants:\n  big: {params: {holes: 8}}\n  big: {params: {holes: 6}}\n", nil, 3, 3, "", "variant big is declared twice", nil},
		{"syntax error", "variants:\n  big:\n    params: {holes: 8\n  small: {}\n", nil, -1, 0, "", "YAML syntax", nil},
		{"tab indentation", "variants:\n\tbig: {}\n", nil, 2, 1, "", "YAML syntax: a tab indents this line; YAML indents with spaces only", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, dir, err := loadFolder(t, "vg", map[string]string{"vg.lua": script("vg"), "variants.yaml": c.yaml}, c.opts...)
			file := filepath.Join(dir, "vg", "variants.yaml")
			if c.msg == "" {
				// A quoted number is a string, which an integer parameter
				// accepts when it parses (as on a command line).
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			var ce *ConfigError
			require.ErrorAs(t, err, &ce, "%T %v", err, err)
			assert.Contains(t, err.Error(), c.msg)
			assert.Equal(t, file, ce.Pos.File)
			switch {
			case c.line > 0:
				start := ce.Pos
				start.EndLine, start.EndCol = 0, 0
				assert.Equal(t, Pos{File: file, Line: c.line, Col: c.col}, start)
				if ce.Pos.EndLine != 0 { // a plain scalar's range: its text
					assert.Equal(t, c.line, ce.Pos.EndLine)
					assert.GreaterOrEqual(t, ce.Pos.EndCol, c.col)
				}
				if c.name == "wrong type" {
					assert.Equal(t, 17, ce.Pos.EndCol, "the range of %q", "many")
				}
				assert.True(t, strings.HasPrefix(err.Error(), fmt.Sprintf("%s:%d:%d: ", file, c.line, c.col)), "%v", err)
			case c.line < 0:
				assert.Positive(t, ce.Pos.Line, "a syntax error names a line: %v", err)
				assert.True(t, strings.HasPrefix(err.Error(), fmt.Sprintf("%s:%d", file, ce.Pos.Line)), "%v", err)
			}
			assert.Equal(t, c.param, ce.Param)
			assert.Equal(t, c.allowed, ce.Allowed)
		})
	}
}

// TestEveryBadVariantOfAGame: a game whose variants file holds several
// bad variants does not load, and its error names each of them at its own
// line (a Diagnostics of ConfigErrors), whether the file's shape is wrong
// or a value is wrong for the script's parameters.
func TestEveryBadVariantOfAGame(t *testing.T) {
	script := `local m = matombo
local P = m.declare { name = "vg", params = { { name = "holes", default = 6, values = { 6, 8 } } } }
m.board { rows = { "a" }, columns = P.holes }
local K = m.move("k", "{1}")
return { setup = function() m.set_count(1, 1) end, legal = function() m.emit(K, 1) end, play = function() m.finish(0) end }
`
	for _, c := range []struct {
		name, yaml string
		want       []string
	}{
		{"values", "variants:\n  big: {params: {holes: 8}}\n  huge: {params: {holes: 9}}\n  wide: {params: {rows: 2}}\n",
			[]string{"variants.yaml:3:26: variant huge: parameter holes: 9 is not allowed", "variants.yaml:4:25: variant wide sets unknown parameter rows"}},
		{"shapes", "variants:\n  big: 8\n  small: {params: {holes: 6}}\n  odd: {parameters: {holes: 8}}\n",
			[]string{"variants.yaml:2:8: variant big must be a mapping", `variants.yaml:4:9: unknown key "parameters" in variant odd`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := loadFolder(t, "vg", map[string]string{"vg.lua": script, "variants.yaml": c.yaml})
			require.Error(t, err)
			var d Diagnostics
			require.ErrorAs(t, err, &d, "%T %v", err, err)
			require.Len(t, d, len(c.want), "%v", err)
			for i, want := range c.want {
				var ce *ConfigError
				require.ErrorAs(t, d[i], &ce)
				assert.Contains(t, d[i].Error(), want)
			}
			assert.Equal(t, "config-error", ErrorCode(err))
		})
	}
}

// ParseVariants is exported for tools: it returns the variants with their
// positions.
func TestParseVariants(t *testing.T) {
	vs, err := variantsOf("v.yaml", []byte("# comment\nvariants:\n  big:\n    description: Big.\n    params: {holes: 8, fast: true, board: \"x\"}\n  small: {}\n"))
	require.NoError(t, err)
	require.Len(t, vs, 2)
	assert.Equal(t, "big", vs[0].Name)
	assert.Equal(t, "Big.", vs[0].Description)
	assert.Equal(t, []Param{{Name: "holes", Value: 8}, {Name: "fast", Value: true}, {Name: "board", Value: "x"}}, vs[0].Params)
	assert.Equal(t, Pos{File: "v.yaml", Line: 3, Col: 3, EndLine: 3, EndCol: 5}, vs[0].Pos, "the range of the name big")
	assert.Equal(t, "small", vs[1].Name)
	assert.Empty(t, vs[1].Params)

	for _, empty := range []string{"", "# nothing\n"} {
		vs, err := variantsOf("v.yaml", []byte(empty))
		assert.NoError(t, err, "%q", empty)
		assert.Empty(t, vs)
	}
	_, err = variantsOf("v.yaml", []byte("variants:\n  a: {params: {x: 1.5}}\n"))
	var ce *ConfigError
	require.True(t, errors.As(err, &ce))
	assert.Equal(t, Pos{File: "v.yaml", Line: 2, Col: 19, EndLine: 2, EndCol: 21}, ce.Pos, "the range of 1.5")
}

// Variants files of several layers merge: a later layer's variant replaces
// an earlier one of the same name, and adds new ones.
func TestVariantsLayers(t *testing.T) {
	extra := t.TempDir()
	writeFile(t, filepath.Join(extra, "probe", "variants.yaml"), "variants:\n  one:\n    params: {seeds: 3}\n  mine:\n    params: {label: mine}\n")
	lib := testLibrary(t)
	require.NoError(t, lib.AddDir(extra))
	g, err := lib.Load("probe", WithVariant("one", "mine"))
	require.NoError(t, err)
	assert.Equal(t, 3, paramMap(g)["seeds"], "the later layer's variant one replaces the shipped one")
	assert.Equal(t, "mine", paramMap(g)["label"])
	assert.Equal(t, filepath.Join("testdata", "games", "probe", "probe.lua"), g.File(), "the script comes from the only layer that has one")
	_, err = lib.Load("probe", WithVariant("quick"))
	assert.NoError(t, err, "variants of the first layer stay")
}
