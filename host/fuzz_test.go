package host

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/matombo/matombo/host/luavm"
	"github.com/matombo/matombo/host/params"
)

func fuzzGame(f *testing.F) *Game {
	f.Helper()
	lib := NewLibrary()
	if err := lib.AddDir(filepath.Join("testdata", "games")); err != nil {
		f.Fatal(err)
	}
	g, err := lib.Load("kalah")
	if err != nil {
		f.Fatal(err)
	}
	return g
}

// FuzzParseVariants: a variants file never panics the parser.
func FuzzParseVariantsOf(f *testing.F) {
	f.Add([]byte("variants:\n  small:\n    description: x\n    params: {seeds: 3}\ndata:\n  boards: {a: [1, 2]}\n"))
	f.Add([]byte("variants: [\n"))
	f.Add([]byte("variants:\n  x:\n    params: {a: 1.5, b: null, c: [1]}\n"))
	f.Add([]byte(""))
	f.Add([]byte("variants:\n  five: null\n  six: ~\n  big: {params: {k: 1}}\n"))
	f.Add([]byte("variants:\n  a: {params: {k: 1}}\nvariants:\n  b: {params: {k: 2}}\n"))
	f.Add([]byte("data: {a: 1}\n---\ndata: {a: 2}\n"))
	f.Add([]byte("variants:\n  a\x00b: {params: {k: 1}}\n"))
	f.Add([]byte("variants:\n  a:\n    description: caf\xe9\n"))
	f.Add([]byte("variants:\n  a:\n    title: A board\n    params: {k: 1}\n  b:\n    title: \"B\n      board\"\n  c: {title: C}\n"))
	f.Add([]byte("variants:\n  a:\n    title: 2048\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		vs, err := variantsOf("f.yaml", src)
		if err != nil {
			var ce *ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			// Text YAML refuses is placed, not reported line-less.
			if ce.Pos.Line == 0 && (strings.Contains(ce.Msg, "control characters") || strings.Contains(ce.Msg, "UTF-8")) {
				t.Fatalf("a refused character without its line: %v", err)
			}
			return
		}
		// Layered over a base file (as a game's own file over its base
		// game's), and twice: a drop of a variant no file before it
		// declares is a ConfigError, never a panic.
		base, err := params.Parse("base.yaml", []byte("variants:\n  five: {params: {k: 5}}\n"))
		if err != nil {
			t.Fatal(err)
		}
		own, err := params.Parse("f.yaml", src)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := params.Merge([]*params.File{base, own, own}); err != nil {
			var ce *ConfigError
			if !errors.As(err, &ce) || ce.Pos.Line == 0 {
				t.Fatalf("merge: %T without a line: %v", err, err)
			}
		}
		for _, v := range vs {
			if v.Name == "" {
				t.Fatal("a variant without a name")
			}
		}
		// The text a fingerprint covers is the same file but for titles.
		bare, err := params.Parse("f.yaml", own.Fingerprinted())
		if err != nil {
			t.Fatalf("the text without its titles does not parse: %v\n%q", err, own.Fingerprinted())
		}
		sameButTitles(t, own, bare)
	})
}

// FuzzParseDiagram: a diagram never panics the parser, and what parses
// draws and parses back to the same board.
func FuzzParseDiagram(f *testing.F) {
	g := fuzzGame(f)
	f.Add(g.Start().Diagram())
	f.Add("b 4 4 4 4 4 4 0\na 4 4 0 5 5 5 1\n")
	f.Add("b 4 4 4 4 4 4 0@1\na 4 4 . 5 5 5 1\n  1 2 3 4 5 6 7")
	f.Add("a 1\nb")
	f.Fuzz(func(t *testing.T, text string) { diagramRoundTrip(t, g, text) })
}

// FuzzPlayToken: any token is played or refused; a refusal leaves the
// state as it was.
func FuzzPlayToken(f *testing.F) {
	g := fuzzGame(f)
	for _, t := range []string{"a1", "a6", "b1", "a7", "", " a1", "a1 ", "x", "a99", "é"} {
		f.Add(t)
	}
	f.Fuzz(func(t *testing.T, tok string) {
		s := g.Start()
		before, _ := s.MarshalJSON()
		err := s.Play(tok)
		after, _ := s.MarshalJSON()
		if err != nil {
			var ill *IllegalMoveError
			if !errors.As(err, &ill) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			if ill.Token != tok || !bytes.Equal(before, after) {
				t.Fatalf("refusing %q changed the state or lost the token", tok)
			}
		}
	})
}

// FuzzStateJSON: reading a state never panics, and what reads back writes
// the same JSON again.
func FuzzStateJSON(f *testing.F) {
	g := fuzzGame(f)
	s := g.Start()
	j, _ := s.MarshalJSON()
	f.Add(j)
	_ = s.Play("a3")
	j, _ = s.MarshalJSON()
	f.Add(j)
	// With the effects of a recorded move, and a finished game's sites.
	if m, err := s.ParseMove("a1"); err == nil && s.ApplyRecorded(m) == nil {
		j, _ = s.MarshalJSON()
		f.Add(j)
	}
	f.Add(bytes.Replace(j, []byte(`"result_sites":[]`), []byte(`"result_sites":["a1","b7"]`), 1))
	f.Add([]byte(`{"game":"kalah"}`))
	// Read two ways, nested deep, a ply beyond 2^53 (see TestStateJSONHostile).
	f.Add(append(bytes.Replace(j, []byte(`"ply":2`), []byte(`"ply":2,"PLY":1,"ply":9223372036854775807`), 1), "{}"...))
	f.Add(bytes.Replace(j, []byte(`"vars":{`), []byte(`"vars":{"x":[[[[[[[[[[[[]]]]]]]]]]]],`), 1))
	f.Fuzz(func(t *testing.T, data []byte) {
		st, err := g.StateFromJSON(data)
		if err != nil {
			return
		}
		out, _ := st.MarshalJSON()
		back, err := g.StateFromJSON(out)
		if err != nil {
			t.Fatalf("written JSON does not read back: %v\n%s", err, out)
		}
		again, _ := back.MarshalJSON()
		if !bytes.Equal(out, again) {
			t.Fatalf("JSON changes on a second round trip:\n%s\n%s", out, again)
		}
	})
}

// FuzzCompileScript: compiling any text never panics.
func FuzzCompileScript(f *testing.F) {
	f.Add([]byte("local m = matombo\nlocal x = 1\nreturn { }"))
	f.Add([]byte("local function f() return f() end"))
	f.Add([]byte("x = 1"))
	f.Add([]byte("for i = 1, 2 do local y = i end repeat local z = 1 until z"))
	f.Add([]byte("local t = {} function t.a() return self end function t:b() return self end"))
	f.Fuzz(func(t *testing.T, src []byte) {
		_, err := luavm.Compile("f.lua", src)
		if err != nil {
			var se *ScriptError
			if !errors.As(err, &se) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			// The place named is in the script (whose lines end as
			// gopher-lua ends them: "\n", "\r\n" or "\r").
			lines := bytes.Count(src, []byte("\n")) + bytes.Count(src, []byte("\r")) - bytes.Count(src, []byte("\r\n")) + 1
			if se.Pos.Line < 0 || se.Pos.Line > lines || se.Pos.Col < 0 {
				t.Fatalf("%v: the script has %d lines", err, lines)
			}
		}
	})
}

// diagramRoundTrip checks that text parses to a board of g or fails with a
// DiagramError, and that what parses draws and parses back to the same
// board.
func diagramRoundTrip(t *testing.T, g *Game, text string) {
	counts, owners, err := g.ParseDiagram(text)
	if err != nil {
		var de *DiagramError
		if !errors.As(err, &de) {
			t.Fatalf("error of type %T: %v", err, err)
		}
		return
	}
	pos := g.Start().Position()
	pos.Counts, pos.Owners = counts, owners
	s, err := g.positionState(pos, false)
	if err != nil {
		return // e.g. an owner out of range is refused by the position
	}
	c2, o2, err := g.ParseDiagram(s.Diagram())
	if err != nil {
		t.Fatalf("the drawn diagram does not parse: %v\n%s", err, s.Diagram())
	}
	for i := range counts {
		if c2[i] != counts[i] || o2[i] != owners[i] {
			t.Fatalf("site %d: %d@%d drawn and read back as %d@%d", i, counts[i], owners[i], c2[i], o2[i])
		}
	}
}

// sameButTitles fails t unless b holds a's variants and drops, but for
// titles a has and b may not.
func sameButTitles(t *testing.T, a, b *params.File) {
	t.Helper()
	av, bv := a.Variants(), b.Variants()
	if len(av) != len(bv) || len(a.Drops()) != len(b.Drops()) {
		t.Fatalf("%d variants and %d drops, then %d and %d", len(av), len(a.Drops()), len(bv), len(b.Drops()))
	}
	for i := range av {
		x, y := av[i], bv[i]
		if x.Name != y.Name || x.Description != y.Description || fmt.Sprint(x.Params) != fmt.Sprint(y.Params) || (y.Title != "" && y.Title != x.Title) {
			t.Fatalf("variant %d: %+v, then %+v", i, x, y)
		}
	}
}
