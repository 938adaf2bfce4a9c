package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// withBOM writes text into path after a UTF-8 byte-order mark, as Notepad
// saves a file.
func withBOM(t *testing.T, path string, text []byte) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, append([]byte("\uFEFF"), text...), 0o644))
}

// readFile is the text of a file the test needs.
func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return b
}

// TestFilesWithByteOrderMark: every text file the command line reads
// is read alike with or without a byte-order mark at its start. A YAML
// file always was; the others were not: a script was "syntax error:
// Invalid token near \xef" at 1:1, a shard or job file "invalid character
// 'ï'", an OpenSpiel playthrough "a state before the "game:" line", and a
// rules page showed its first heading as text after a stray character.
func TestFilesWithByteOrderMark(t *testing.T) {
	isolateCache(t)
	shipped := filepath.Join("..", "..", "games", "yematatu")
	dir := t.TempDir()
	withBOM(t, filepath.Join(dir, "games", "yematatu", "yematatu.lua"), readFile(t, filepath.Join(shipped, "yematatu.lua")))
	withBOM(t, filepath.Join(dir, "games", "yematatu", "variants.yaml"), readFile(t, filepath.Join(shipped, "variants.yaml")))
	withBOM(t, filepath.Join(dir, "games", "yematatu", "rules.md"), []byte("# Rules\n\nThree in a row win.\n"))
	withBOM(t, filepath.Join(dir, "mancala.txt"), readFile(t, filepath.Join(openspielData, "mancala.txt")))
	for i, shard := range []string{"0/2", "1/2"} {
		r := matombo(t, "", "analyze", "yematatu", "-n", "4", "--shard", shard)
		require.Equal(t, exitOK, r.code, r.stderr)
		withBOM(t, filepath.Join(dir, "shard-"+string(rune('0'+i))+".json"), []byte(r.stdout))
	}
	jobs := runJobs(t, t.TempDir(), 1, kalahArgs)
	var bomJobs []string
	for _, j := range jobs {
		p := filepath.Join(dir, filepath.Base(j))
		withBOM(t, p, readFile(t, j))
		bomJobs = append(bomJobs, p)
	}

	for _, c := range []struct {
		name string
		args []string
		want string // the start of standard output
	}{
		{"a script and its variants file", []string{"trace", "yematatu", "--games", filepath.Join(dir, "games"), "--variant", "square"}, "== ply 0: opening of Tsoro Yematatu [yematatu: board=square]"},
		{"a rules page", []string{"rules", "yematatu", "--games", filepath.Join(dir, "games")}, "# Rules\n"},
		{"an OpenSpiel playthrough", []string{"import", "openspiel", filepath.Join(dir, "mancala.txt")}, "# yaml-language-server"},
		{"shard files", []string{"analyze", "--merge", filepath.Join(dir, "shard-0.json"), filepath.Join(dir, "shard-1.json")}, "Tsoro Yematatu (yematatu): random vs random, 4 games"},
		{"job files", append(solveArgs("--shard-depth", "1", "--merge"), bomJobs...), "Kalah [kalah: pits=3 seeds=3 empty_capture=true]: solved"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := matombo(t, "", c.args...)
			assert.Equal(t, exitOK, r.code, r.stderr)
			assert.True(t, strings.HasPrefix(r.stdout, c.want), "stdout starts %q, want %q", firstLine(r.stdout), c.want)
			assert.NotContains(t, r.stdout+r.stderr, "\uFEFF")
		})
	}
}

// firstLine is the first line of s.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
