package diag

import (
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
