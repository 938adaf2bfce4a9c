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
