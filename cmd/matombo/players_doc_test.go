package main

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The sessions shown in docs/players.md and the move section of
// docs/cli.md are what matombo prints (stdout and stderr together).
func TestPlayerDocExamples(t *testing.T) {
	for _, doc := range []string{"../../docs/players.md", "../../docs/cli.md"} {
		src, err := os.ReadFile(doc)
		require.NoError(t, err)
		checked := 0
		for _, block := range strings.Split(string(src), "```")[1:] {
			lines := strings.Split(strings.TrimPrefix(block, "\n"), "\n")
			cmd, ok := strings.CutPrefix(lines[0], "$ matombo move ")
			if !ok {
				continue
			}
			want := strings.TrimRight(strings.Join(lines[1:], "\n"), "\n")
			r := matombo(t, "", append([]string{"move"}, strings.Fields(cmd)...)...)
			assert.Equal(t, want, strings.TrimRight(r.stdout+r.stderr, "\n"), "%s: matombo move %s", doc, cmd)
			checked++
		}
		assert.Positive(t, checked, doc)
	}
}
