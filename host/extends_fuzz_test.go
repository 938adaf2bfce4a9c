package host

import (
	"errors"
	"testing"

	"github.com/matombo/matombo/host/luavm"
)

// FuzzExtendsTarget: any script text gives no base, a valid game name, or a
// ScriptError; never a panic.
func FuzzExtendsTarget(f *testing.F) {
	f.Add(`return matombo.extends("tsoro", { replace = { t2_setup = function(s) s() end } })`)
	f.Add(`local m = matombo return m.extends "gore"`)
	f.Add(`matombo.extends(x)`)
	f.Add(`a.extends("b") c.extends("d")`)
	f.Add(`-- extends`)
	f.Add(`return matombo.extends("../tsoro")`)
	f.Add("\n\nreturn matombo.extends(\"\")")
	f.Fuzz(func(t *testing.T, src string) {
		name, line, ok, err := luavm.ExtendsCall("f.lua", []byte(src))
		if err != nil {
			var se *ScriptError
			if !errors.As(err, &se) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			if se.Pos.Line == 0 {
				t.Fatalf("an error without its line: %v", err)
			}
			return
		}
		if ok && !luavm.ValidGameName(name) {
			t.Fatalf("extends %q, not a game name", name)
		}
		if ok && line == 0 {
			t.Fatalf("extends %q at no line", name)
		}
	})
}

// FuzzParsePointDiagram: a diagram of a point board, with or without its
// key, reads back as drawn.
func FuzzParsePointDiagram(f *testing.F) {
	g := loadTest(f, "probepts")
	f.Add(g.Start().Diagram())
	f.Add("c . 2 .   c 1 2 3\nb 1 . .\na 1   a 1\n")
	f.Add("c . 2 . c\nb 1 . . b 1\na a")
	f.Fuzz(func(t *testing.T, text string) { diagramRoundTrip(t, g, text) })
}
