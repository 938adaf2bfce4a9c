package diag

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// yaml.v3 errors without a line are placed: an alias of no anchor at its
// first use, any other at the first line; an error with a line is left to
// the caller.
func TestPlaceYAMLError(t *testing.T) {
	for _, c := range []struct {
		name, src, msg string
		line, col      int
		what           string
		ok             bool
	}{
		{"first line", "a: b: c\n", "yaml: mapping values are not allowed in this context", 1, 0, "YAML syntax: mapping values are not allowed in this context", true},
		{"unknown anchor", "x: 1\ny: [1, *é]\n", "yaml: unknown anchor 'é' referenced", 2, 8, "YAML: the alias *é names no anchor (&é) before it", true},
		{"unknown anchor not in the text", "x: 1\n", "yaml: unknown anchor 'q' referenced", 0, 0, "YAML: the alias *q names no anchor (&q) before it", true},
		{"with a line", "x: [\n", "yaml: line 1: did not find expected node content", 0, 0, "", false},
		{"not yaml's", "x\n", "something else", 0, 0, "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			line, col, what, ok := PlaceYAMLError([]byte(c.src), c.msg)
			assert.Equal(t, c.ok, ok)
			assert.Equal(t, c.line, line)
			assert.Equal(t, c.col, col)
			assert.Equal(t, c.what, what)
		})
	}
}

// A syntax error is placed on the line it is about, where yaml.v3 gives
// the line its construct began on, counted from 0 for most errors.
func TestYAMLSyntaxLine(t *testing.T) {
	long := "top:\n  a: 1\n" + strings.Repeat("  k: v\n", 300) + " b: 2\n"
	for _, c := range []struct {
		name, src string
		line      int
	}{
		{"a key indented wrongly below its mapping", "v:\n  a:\n    x: 1\n  b:\n    x: 2\n   y: 3\n", 6},
		{"a flow mapping left open", "v:\n  a: {x: 1\n  b: 2\n", 2},
		{"a flow sequence left open", "v:\n  a: [1, 2\n  b: 2\n", 2},
		{"text after a quoted scalar", "v:\n  a: 1\n  b: \"x\" y\n  c: 2\n", 3},
		{"a tab as indentation", "v:\n\ta: 1\n", 2},
		{"a flow mapping over two lines, then an error", "v: {a: 1,\n  b: 2}\nw: [1\nx: 2\n", 3},
		{"in the second document", "a: 1\n---\nb:\n  c: 1\n d: 2\n", 5},
		{"Windows line ends", "v:\r\n  a:\r\n    x: 1\r\n   y: 3\r\n", 4},
		{"old Mac line ends", "v:\r  a:\r    x: 1\r   y: 3\r", 4},
		{"far below its mapping (found by halves)", long, 303},
		{"on the last line, without a line end", "v:\n  a: 1\n b: 2", 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := decodeYAML([]byte(c.src))
			if !assert.Error(t, err) {
				return
			}
			line, ok := YAMLSyntaxLine([]byte(c.src), err.Error())
			assert.True(t, ok)
			assert.Equal(t, c.line, line, "yaml.v3 said %q", err)
		})
	}
	_, ok := YAMLSyntaxLine([]byte("x\n"), "yaml: unknown anchor 'q' referenced")
	assert.False(t, ok, "an error without a line")
}

// FuzzYAMLSyntaxLine checks that the line found for any text's syntax
// error is one of its lines, at or after yaml.v3's own.
func FuzzYAMLSyntaxLine(f *testing.F) {
	f.Add("v:\n  a:\n    x: 1\n   y: 3\n")
	f.Add("v: {a: 1,\n  b: 2}\nw: [1\n")
	f.Add("a: 1\n---\nb:\n  c: 1\n d: 2\n")
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 4096 {
			return
		}
		err := decodeYAML([]byte(src))
		if err == nil {
			return
		}
		var reported int
		if _, e := fmt.Sscanf(err.Error(), "yaml: line %d:", &reported); e != nil {
			return
		}
		line, ok := YAMLSyntaxLine([]byte(src), err.Error())
		if !ok {
			t.Fatalf("no line for %q", err)
		}
		if n := len(lineEnds([]byte(src))); line < 1 || line > max(n, reported, 1) {
			t.Fatalf("line %d of %d lines for %q", line, n, err)
		}
	})
}

// A tab in a line's indentation is said in the host's words, at the tab,
// whatever yaml.v3 reported it as; other errors and lines are left alone.
func TestTabIndent(t *testing.T) {
	const token = "yaml: line 2: found character that cannot start any token"
	for _, c := range []struct {
		name, src, msg string
		line, col      int
		ok             bool
	}{
		{"a tab first", "a:\n\tb: 1\n", token, 2, 1, true},
		{"a tab after spaces", "a:\n  \tb: 1\n", token, 2, 3, true},
		{"the last line without a break", "a:\n  b:\n\t c: 1", token, 3, 1, true},
		{"a tab inside the line", "a:\n  b:\tc\n", token, 2, 0, false},
		{"yaml.v3's other words", "a:\n  - b\n\t  c: 1\n", "yaml: line 3: found a tab character that violates indentation", 3, 1, true},
		{"another error", "a:\n\tb: 1\n", "yaml: line 2: did not find expected key", 2, 0, false},
		{"a line past the text", "a:\n", token, 5, 0, false},
		{"no line", "a:\n", token, 0, 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			col, what, ok := TabIndent([]byte(c.src), c.line, c.msg)
			assert.Equal(t, c.ok, ok)
			assert.Equal(t, c.col, col)
			if ok {
				assert.Equal(t, "YAML syntax: a tab indents this line; YAML indents with spaces only", what)
			}
		})
	}
}

// A syntax error with a line is placed on the line it is about and said
// in the host's words, a tab in the indentation at the tab.
func TestPlaceYAMLSyntax(t *testing.T) {
	for _, c := range []struct {
		name, src, msg string
		line, col      int
		what           string
		ok             bool
	}{
		{"a key indented wrongly", "top:\n  a: 1\n b: 2\n", "", 3, 0, "YAML syntax: did not find expected key", true},
		{"a tab", "a:\n\tb: 1\n", "yaml: line 2: found character that cannot start any token", 2, 1, "YAML syntax: a tab indents this line; YAML indents with spaces only", true},
		{"no line", "a: *x\n", "yaml: unknown anchor 'x' referenced", 0, 0, "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			msg := c.msg
			if msg == "" { // yaml.v3's own words for src
				msg = decodeYAML([]byte(c.src)).Error()
			}
			line, col, what, ok := PlaceYAMLSyntax([]byte(c.src), msg)
			assert.Equal(t, c.ok, ok)
			assert.Equal(t, c.line, line)
			assert.Equal(t, c.col, col)
			assert.Equal(t, c.what, what)
		})
	}
}
