package diagram

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCutAtField(t *testing.T) {
	for _, c := range []struct {
		line string
		k    int
		want string
	}{
		{"c . 2 .   c 1 2 3", 4, "c . 2 ."},
		{"  a   1     a   1", 2, "  a   1"},
		{"b\t.-.\tb 1-2", 2, "b\t.-."},
		{"a 1", 5, "a 1"},
		// Fields as strings.Fields splits them: a carriage return or a
		// no-break space separates too (the parser's fields and its cut
		// must agree, or the rest of the line is sliced out of range).
		{"\r c c", 1, "\r c"},
		{"c\u00a01\u00a0c 1", 2, "c\u00a01"},
		{"c\v.\fc 1", 2, "c\v."},
	} {
		assert.Equal(t, c.want, cutAtField(c.line, c.k), "%q", c.line)
	}
}
