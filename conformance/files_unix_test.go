//go:build unix

package conformance

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/matombo/matombo/host/fifotest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Scenario files that are not plain files of a sensible size are refused
// with an error naming them, at once: a named pipe (which would block the
// read), a link to /dev/zero (endless), a huge file, a folder named .yaml.
func TestLoadFilesHostileFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := fifotest.Make(t, filepath.Join(dir, "pipe.yaml"))
	zero := filepath.Join(dir, "zero.yaml")
	require.NoError(t, os.Symlink("/dev/zero", zero))
	huge := filepath.Join(dir, "huge.yaml")
	f, err := os.Create(huge)
	require.NoError(t, err)
	require.NoError(t, f.Truncate(100<<20)) // 100 MB, sparse
	require.NoError(t, f.Close())

	for path, msg := range map[string]string{
		fifo: "not a regular file (a named pipe)",
		zero: "not a regular file (a character device)",
		huge: "file is larger than 1 MiB",
	} {
		files, errs := LoadFiles(path)
		assert.Empty(t, files, path)
		require.Len(t, errs, 1, path)
		var fe *FileError
		require.ErrorAs(t, errs[0], &fe)
		assert.Equal(t, path, fe.Pos.File)
		assert.Contains(t, errs[0].Error(), path+": "+msg)
	}
	// The folder holding them: each is refused, none hangs.
	files, errs := LoadFiles(dir)
	assert.Empty(t, files)
	assert.Len(t, errs, 3)
}
