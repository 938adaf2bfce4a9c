package host

import (
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTitleLeavesTheFingerprint: a variant's title is words for players,
// not a rule, so writing one on a line of its own leaves the game's
// fingerprint (and the games stored, solved and analysed with it) as it
// was; any other change to the file changes it. A title written inside a
// flow mapping cannot be left out of the text: it counts.
func TestTitleLeavesTheFingerprint(t *testing.T) {
	script, err := os.ReadFile(filepath.Join("..", "games", "tsoro", "tsoro.lua"))
	require.NoError(t, err)
	const plain = "variants:\n  4x8:\n    description: A small board.\n    params: {holes: 8}\n"
	cases := []struct {
		name, variants string
		same           bool
	}{
		{"the same file", plain, true},
		{"a title", "variants:\n  4x8:\n    title: 4 by 8\n    description: A small board.\n    params: {holes: 8}\n", true},
		{"a quoted title with a comment", "variants:\n  4x8:\n    description: A small board.\n    title: \"4 by 8\"  # words\n    params: {holes: 8}\n", true},
		{"a title in a flow mapping", "variants:\n  4x8: {title: 4 by 8, description: A small board., params: {holes: 8}}\n", false},
		{"a title over two lines", "variants:\n  4x8:\n    title: \"4 by\n      8\"\n    description: A small board.\n    params: {holes: 8}\n", false},
		{"another description", "variants:\n  4x8:\n    description: A smaller board.\n    params: {holes: 8}\n", false},
	}
	load := func(variants string) *Game {
		t.Helper()
		lib := NewLibrary()
		require.NoError(t, lib.AddFS(fstest.MapFS{
			"tsoro/tsoro.lua":     {Data: script},
			"tsoro/variants.yaml": {Data: []byte(variants)},
		}, "."))
		g, err := lib.Load("tsoro", WithVariant("4x8"))
		require.NoError(t, err)
		t.Cleanup(g.Close)
		return g
	}
	want := load(plain).Fingerprint()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := load(c.variants)
			assert.Equal(t, c.same, g.Fingerprint() == want)
			assert.Equal(t, 8, paramMap(g)["holes"])
		})
	}
}
