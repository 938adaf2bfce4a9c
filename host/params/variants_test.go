package params

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"
)

// The guards below are hang guards (hundreds of times the linear cost),
// not measurements: they hold on a loaded machine and under the race
// detector.

// 200000 data keys of one variants file overriding 200000 of another.
func TestHostileLoadMergeManyKeys(t *testing.T) {
	const keys = 200000
	mapping := func(prefix string) *yaml.Node {
		n := &yaml.Node{Kind: yaml.MappingNode}
		for i := 0; i < keys; i++ {
			n.Content = append(n.Content,
				&yaml.Node{Kind: yaml.ScalarNode, Value: "k" + strconv.Itoa(i)},
				&yaml.Node{Kind: yaml.ScalarNode, Value: prefix + strconv.Itoa(i)})
		}
		return n
	}
	a, b := mapping("old"), mapping("new")
	start := time.Now()
	out := mergeNodes(a, b)
	elapsed := time.Since(start)
	t.Logf("merging %d keys over %d: %v", keys, keys, elapsed)
	require.Len(t, out.Content, 2*keys, "every key of the second replaces the first's")
	assert.Equal(t, "new"+strconv.Itoa(keys-1), out.Content[2*keys-1].Value)
	assert.Less(t, elapsed, time.Minute, "merging data is near-linear in its keys")

	// Through the library: a user's variants file overriding a game's.
	src := func(prefix string) string {
		var s strings.Builder
		s.WriteString("data:\n")
		for i := 0; i < keys; i++ {
			fmt.Fprintf(&s, "  k%d: %s%d\n", i, prefix, i)
		}
		return s.String()
	}
	old, err := Parse("a/variants.yaml", []byte(src("old")))
	require.NoError(t, err)
	nw, err := Parse("b/variants.yaml", []byte(src("new")))
	require.NoError(t, err)
	start = time.Now()
	_, data := Merge([]*File{old, nw})
	elapsed = time.Since(start)
	require.Len(t, data.Content, 2*keys)
	assert.Less(t, elapsed, time.Minute)
}
