//go:build unix

package fifotest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Make makes a named pipe that IsPipe knows; a plain file and a link to
// a pipe are no pipes.
func TestMakeAndIsPipe(t *testing.T) {
	dir := t.TempDir()
	fifo := Make(t, filepath.Join(dir, "pipe"))
	assert.Equal(t, filepath.Join(dir, "pipe"), fifo)
	assert.True(t, IsPipe(t, fifo))
	plain := filepath.Join(dir, "plain")
	require.NoError(t, os.WriteFile(plain, nil, 0o644))
	link := filepath.Join(dir, "link")
	require.NoError(t, os.Symlink(fifo, link))
	assert.False(t, IsPipe(t, plain))
	assert.False(t, IsPipe(t, link))
}
