package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var openspielData = filepath.Join("..", "..", "host", "testdata", "openspiel")

// TestImportOpenSpiel converts a playthrough to the standard output and to
// a file, compares the result with the shipped scenario file, and replays
// it with conform.
func TestImportOpenSpiel(t *testing.T) {
	src := filepath.Join(openspielData, "mancala.txt")
	shipped, err := os.ReadFile(filepath.Join("..", "..", "conformance", "kalah", "openspiel-mancala.yaml"))
	require.NoError(t, err)

	r := matombo(t, "", "import", "openspiel", src)
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Equal(t, string(shipped), r.stdout)

	dir := t.TempDir()
	out := filepath.Join(dir, "kalah", "mancala.yaml")
	require.NoError(t, os.MkdirAll(filepath.Dir(out), 0o755))
	r = matombo(t, "", "import", "-o", out, "openspiel", src, "--game", "kalah")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Empty(t, r.stdout)
	written, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Equal(t, string(shipped), string(written))

	r = matombo(t, "", "conform", out)
	require.Equal(t, exitOK, r.code, r.stdout+r.stderr)
	assert.Contains(t, r.stdout, "1 passed, 0 failed")
}

func TestImportErrors(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"chess.txt":  "game: chess\n\n# State 0\n",
		"broken.txt": "game: oware\n# State 0\n# State 2\n",
		"nofull.txt": "game: mancala\n\n# State 0\n# a board\n\n# Apply action \"1\"\naction: 1\n\n# State 1\n# a board\n",
		"cut.txt":    cutPlaythrough(t, "mancala.txt", "# State 54\n"),
	})
	oware := filepath.Join(openspielData, "oware.txt")
	for _, c := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no source", []string{"import"}, exitUsage, "name the source, openspiel, and a playthrough file"},
		{"unknown source", []string{"import", "ludii", "x.txt"}, exitUsage, `unknown source "ludii" (allowed: openspiel)`},
		{"no file", []string{"import", "openspiel"}, exitUsage, "name the playthrough file to convert"},
		{"two files", []string{"import", "openspiel", oware, oware}, exitUsage, "unexpected argument"},
		{"bad game", []string{"import", "openspiel", oware, "--game", "chess"}, exitUsage, "--game chess: allowed: kalah, oware"},
		{"missing file", []string{"import", "openspiel", filepath.Join(dir, "none.txt")}, exitFail, "none.txt"},
		{"malformed", []string{"import", "openspiel", filepath.Join(dir, "broken.txt")}, exitFail, `broken.txt: line 3: "# State 2": want state 1`},
		{"a folder", []string{"import", "openspiel", dir}, exitFail, "not a regular file (a folder)"},
		{"a device", []string{"import", "openspiel", "/dev/zero"}, exitFail, "/dev/zero: not a regular file (a character device)"},
		{"unknown game", []string{"import", "openspiel", filepath.Join(dir, "chess.txt")}, exitFail, `OpenSpiel's game "chess" has no Matombo counterpart`},
		{"game mismatch", []string{"import", "openspiel", oware, "--game", "kalah"}, exitFail, "which converts to oware, not kalah"},
		{"no state in full", []string{"import", "openspiel", filepath.Join(dir, "nofull.txt")}, exitFail, "nofull.txt: the playthrough prints no state in full"},
		{"cut short", []string{"import", "openspiel", filepath.Join(dir, "cut.txt")}, exitFail, "cut.txt: line 449: the playthrough ends with state 54, which is not printed in full: the file is cut short"},
		{"unwritable output", []string{"import", "openspiel", oware, "-o", filepath.Join(dir, "no", "such", "dir.yaml")}, exitFail, "dir.yaml"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := matombo(t, "", c.args...)
			assert.Equal(t, c.code, r.code)
			assert.Contains(t, r.stderr, c.want)
		})
	}
}

// cutPlaythrough is the playthrough file name of the test data cut short
// just after the line end.
func cutPlaythrough(t *testing.T, name, end string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(openspielData, name))
	require.NoError(t, err)
	text, _, ok := strings.Cut(string(b), end)
	require.True(t, ok, "%s has no line %q", name, end)
	return text + end
}
