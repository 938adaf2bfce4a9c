package match

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The Go code of docs/players.md, and the blocks of docs/embedding.md
// marked for these packages, is the body of an Example function of the
// tests of host/player or host/match, line for line (indentation aside),
// so the documentation runs under go test and cannot drift. A block is
// marked by "<!-- example: host/PKG NAME -->" before it; every fenced Go
// block up to the next heading is checked. Every Go block of players.md
// must be marked.
func TestDocsMatchExamples(t *testing.T) {
	marker := regexp.MustCompile(`<!-- example: host/(player|match) (\w+) -->`)
	goBlock := regexp.MustCompile("(?s)```go\n(.*?)```")
	code := map[string]string{}
	for _, pkg := range []string{"player", "match"} {
		files, err := filepath.Glob(filepath.Join("..", pkg, "*_test.go"))
		require.NoError(t, err)
		var b strings.Builder
		for _, f := range files {
			src, err := os.ReadFile(f)
			require.NoError(t, err)
			b.Write(src)
		}
		code[pkg] = b.String()
	}
	for _, doc := range []string{"players.md", "embedding.md"} {
		text, err := os.ReadFile(filepath.Join("..", "..", "docs", doc))
		require.NoError(t, err)
		checked := map[int]bool{}
		for _, m := range marker.FindAllStringSubmatchIndex(string(text), -1) {
			pkg, name := string(text[m[2]:m[3]]), string(text[m[4]:m[5]])
			require.Contains(t, code[pkg], "func "+name+"()", "%s: the example %s of host/%s exists", doc, name, pkg)
			rest := string(text[m[1]:])
			if i := strings.Index(rest, "\n#"); i >= 0 {
				rest = rest[:i]
			}
			blocks := goBlock.FindAllStringSubmatchIndex(rest, -1)
			require.NotEmpty(t, blocks, "%s: a Go block follows the marker of %s", doc, name)
			for _, bl := range blocks {
				checked[m[1]+bl[0]] = true
				assert.Contains(t, "\n"+flat(code[pkg]), "\n"+flat(rest[bl[2]:bl[3]]), "%s: a block after the marker of %s is not in host/%s's tests:\n%s", doc, name, pkg, rest[bl[2]:bl[3]])
			}
		}
		if doc == "players.md" {
			for _, bl := range goBlock.FindAllStringIndex(string(text), -1) {
				assert.True(t, checked[bl[0]], "%s: the Go block at byte %d has no example marker", doc, bl[0])
			}
		}
	}
}

// flat joins the lines of s with their indentation and blank lines
// dropped, so that a block matches the code it was copied from.
func flat(s string) string {
	var b strings.Builder
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	return b.String()
}
