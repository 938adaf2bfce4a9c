package host_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Code in docs/embedding.md marked with "<!-- example: NAME -->" is the
// body of the Example function NAME in this package's tests, line for line
// (indentation aside), so the documentation cannot drift from code that
// runs. Every following fenced block up to the next heading is checked.
func TestEmbeddingDocMatchesExamples(t *testing.T) {
	doc, err := os.ReadFile("../docs/embedding.md")
	require.NoError(t, err)
	sources, err := filepath.Glob("*_test.go")
	require.NoError(t, err)
	var code strings.Builder
	for _, f := range sources {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		code.Write(b)
	}
	lines := normalize(code.String())
	marker := regexp.MustCompile(`<!-- example: (\w+) -->`)
	found := marker.FindAllStringSubmatchIndex(string(doc), -1)
	require.NotEmpty(t, found, "docs/embedding.md marks its examples")
	for _, m := range found {
		name := string(doc[m[2]:m[3]])
		rest := string(doc[m[1]:])
		if i := strings.Index(rest, "\n## "); i >= 0 {
			rest = rest[:i]
		}
		require.Contains(t, code.String(), "func "+name+"()", "the example %s exists", name)
		for _, block := range regexp.MustCompile("(?s)```go\n(.*?)```").FindAllStringSubmatch(rest, -1) {
			want := normalize(block[1])
			require.True(t, containsInOrder(lines, want), "a block after the %s marker is not in the tests' code:\n%s", name, block[1])
		}
	}
}

func normalize(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// containsInOrder reports whether want occurs in lines as consecutive lines.
func containsInOrder(lines, want []string) bool {
	for i := 0; i+len(want) <= len(lines); i++ {
		ok := true
		for j := range want {
			if lines[i+j] != want[j] {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}
