//go:build unix

package safefile

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/matombo/matombo/host/fifotest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A named pipe with no writer would block an ordinary open forever.
func TestReadFileNamedPipe(t *testing.T) {
	p := fifotest.Make(t, filepath.Join(t.TempDir(), "rules.md"))
	_, err := ReadFile(p, 1024)
	assert.EqualError(t, err, p+": not a regular file (a named pipe): only a plain file can be read")
	// The check of the opened file: readOpened refuses it even when the
	// path check was passed (a file replaced between stat and open).
	f, err := os.OpenFile(p, os.O_RDONLY|openFlags, 0)
	require.NoError(t, err, "opening without blocking returns at once")
	defer f.Close()
	_, err = readOpened(p, f, 1024)
	assert.EqualError(t, err, p+": not a regular file (a named pipe): only a plain file can be read")
}

// Open refuses a named pipe at once, as ReadFile does.
func TestOpenNamedPipe(t *testing.T) {
	p := fifotest.Make(t, filepath.Join(t.TempDir(), "cache.solution"))
	_, err := Open(p, 1024)
	assert.EqualError(t, err, p+": not a regular file (a named pipe): only a plain file can be read")
}
