//go:build unix

package solve_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/host/fifotest"
	"github.com/matombo/matombo/host/solve"
)

// TestCacheFIFOHangsNothing: a named pipe where the solution cache is
// looked for is refused at once, not waited on.
func TestCacheFIFOHangsNothing(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	g := load(t, "yematatu")
	path, err := solve.CachePath(g)
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	fifotest.Make(t, path)
	done := make(chan error, 1)
	go func() {
		_, err := solve.LoadCached(g)
		done <- err
	}()
	select {
	case err := <-done:
		var ce *solve.CacheError
		require.ErrorAs(t, err, &ce)
		assert.Equal(t, "cached solution "+path+": not a regular file (a named pipe): only a plain file can be read", err.Error(),
			"the message names the file once")
	case <-time.After(time.Minute):
		t.Fatal("LoadCached waited on a named pipe")
	}
}
