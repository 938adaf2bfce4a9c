package luastr

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCountGsubParts(t *testing.T) {
	for _, r := range []string{"", "a", "%", "%1", "a%1b", "%%", "ab%%cd", "%1%2", "x%0%", "%a%1%b", strings.Repeat("%0", 5)} {
		assert.Equal(t, len(parseGsubTemplate(r).parts), countGsubParts(r), r)
	}
}

// FuzzGsubTemplate: a gsub replacement counts its parts as it parses them
// (the work bound relies on it), and expanding it never panics.
func FuzzGsubTemplate(f *testing.F) {
	for _, s := range []string{"", "%", "%1", "a%0b%%c", "%%%", strings.Repeat("%0", 10), "x%9"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, repl string) {
		tm := parseGsubTemplate(repl)
		if n := countGsubParts(repl); n != len(tm.parts) {
			t.Fatalf("%q: counted %d parts, parsed %d", repl, n, len(tm.parts))
		}
		lit := 0
		for _, p := range tm.parts {
			if p.capture < 0 {
				lit += len(p.text)
			}
		}
		if lit != tm.literal {
			t.Fatalf("%q: literal %d, parts hold %d", repl, tm.literal, lit)
		}
	})
}

// shapeOf reads a pattern's items as gopher-lua's parser does: a
// quantifier repeats the single-character item before it, and is a
// plain character anywhere else.
func TestShapeOf(t *testing.T) {
	for p, want := range map[string]patternShape{
		"":              {},
		"abc":           {},
		"a*b":           {loops: 1},
		"a+b-c*":        {loops: 3},
		"a?b?":          {optionals: 2},
		"[*?+-]":        {},
		"[^]*]*":        {loops: 1},
		"%**":           {loops: 1},
		"%*":            {},
		"*":             {},
		"**":            {loops: 1},
		"^*":            {},
		"a^*":           {loops: 1},
		"(a)*":          {},
		"()*":           {},
		"%b()":          {scans: 1},
		"%b**":          {scans: 1},
		"%b()*":         {scans: 1},
		"(a)%1":         {scans: 1},
		"(a)%1*":        {scans: 1},
		"%d+%.?%d*":     {loops: 2, optionals: 1},
		"^(K?)(%d+)$":   {loops: 1, optionals: 1},
		"[%a%d]?[%]]-%": {loops: 1, optionals: 1},
	} {
		assert.Equal(t, want, shapeOf(p), "%q", p)
	}
}

// FuzzPatternWork: reading any pattern never panics, finds at most one
// item per byte, and the worst case never shrinks as the subject grows.
func FuzzPatternWork(f *testing.F) {
	for _, p := range []string{"a*b", "%b()", "(a)%1", "a?a?b", "[%a]-", "^%", "%", "[", "[^", "%b(", "%b"} {
		f.Add(p, 10)
	}
	f.Fuzz(func(t *testing.T, p string, n int) {
		if n < 0 || n > 1<<20 {
			return
		}
		sh := shapeOf(p)
		if sh.loops+sh.optionals+sh.scans > len(p) {
			t.Fatalf("%q: %+v is more items than bytes", p, sh)
		}
		if w, w1 := patternWork(n, p), patternWork(n+1, p); w1 < w || w < 0 {
			t.Fatalf("%q: work %v over %d bytes, %v over %d", p, w, n, w1, n+1)
		}
	})
}
