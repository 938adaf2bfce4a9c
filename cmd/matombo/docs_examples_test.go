package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// docExample is a fenced block of a documentation page that starts with
// "$ matombo ...": the command and what it prints.
type docExample struct {
	args []string
	want string
}

// docExamples extracts the examples of a Markdown page.
func docExamples(t *testing.T, page string) []docExample {
	t.Helper()
	data, err := os.ReadFile(page)
	require.NoError(t, err)
	var out []docExample
	var block []string
	in := false
	for _, line := range strings.Split(string(data), "\n") {
		switch {
		case !in && strings.HasPrefix(line, "```"):
			in, block = true, nil
		case in && line == "```":
			in = false
			if len(block) > 0 && strings.HasPrefix(block[0], "$ matombo ") {
				want := strings.Join(block[1:], "\n")
				if want != "" {
					want += "\n"
				}
				out = append(out, docExample{args: strings.Fields(block[0])[2:], want: want})
			}
		case in:
			block = append(block, line)
		}
	}
	return out
}

// TestDocExamples runs the examples of docs/analysis.md and compares their
// output with the page.
func TestDocExamples(t *testing.T) {
	isolateCache(t)
	examples := docExamples(t, filepath.Join("..", "..", "docs", "analysis.md"))
	require.GreaterOrEqual(t, len(examples), 4)
	for _, ex := range examples {
		t.Run(strings.Join(ex.args, " "), func(t *testing.T) {
			r := matombo(t, "", ex.args...)
			got := r.stdout
			if r.code != exitOK {
				got = r.stderr
			}
			assert.Equal(t, ex.want, got)
		})
	}
}
