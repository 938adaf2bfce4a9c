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
	} {
		assert.Equal(t, c.want, cutAtField(c.line, c.k), "%q", c.line)
	}
}
