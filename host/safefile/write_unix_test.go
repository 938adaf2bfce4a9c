//go:build unix

package safefile

import (
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/matombo/matombo/host/fifotest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWriteOutputs checks every kind of path an output may be named with,
// for WriteFile (a plain write) and WriteAtomic (a temporary file renamed
// into place): none waits forever, none replaces a device, a pipe or a
// symbolic link by a file, and every refusal names the file.
func TestWriteOutputs(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain.json")
	require.NoError(t, os.WriteFile(plain, []byte("old"), 0o644))
	link := filepath.Join(dir, "link.json")
	require.NoError(t, os.Symlink(plain, link))
	fifo := fifotest.Make(t, filepath.Join(dir, "fifo"))
	dangling := filepath.Join(dir, "dangling")
	require.NoError(t, os.Symlink(filepath.Join(dir, "nowhere"), dangling))
	loop := filepath.Join(dir, "loop")
	require.NoError(t, os.Symlink(loop, loop))
	writers := map[string]func(path string) error{
		"WriteFile": func(path string) error { return WriteFile(path, []byte("new"), 0o644) },
		"WriteAtomic": func(path string) error {
			return WriteAtomic(path, 0o644, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err })
		},
	}
	for name, write := range writers {
		for _, c := range []struct {
			name, path string
			err        string // "" for a write that succeeds
		}{
			{"a new file", filepath.Join(dir, name+".new"), ""},
			{"a regular file", plain, ""},
			{"a link to a regular file", link, ""},
			{"/dev/null", os.DevNull, ""},
			{"a named pipe no program reads", fifo, "a named pipe that no program reads"},
			{"a folder", dir, "not a file that can be written (a folder)"},
			{"a link to nothing", dangling, "a symbolic link that leads to no file"},
			{"a link loop", loop, "too many levels of symbolic links"},
		} {
			t.Run(name+"/"+c.name, func(t *testing.T) {
				err := write(c.path)
				if c.err == "" {
					require.NoError(t, err)
					if c.path != os.DevNull {
						b, err := os.ReadFile(c.path)
						require.NoError(t, err)
						assert.Equal(t, "new", string(b))
					}
					return
				}
				var se *Error
				require.ErrorAs(t, err, &se)
				assert.Equal(t, c.path+": "+se.Msg, err.Error(), "the error names the file")
				assert.Contains(t, se.Msg, c.err)
			})
		}
		// The link is still a link, the pipe still a pipe.
		li, err := os.Lstat(link)
		require.NoError(t, err)
		assert.Equal(t, os.ModeSymlink, li.Mode()&os.ModeSymlink, "%s keeps the link", name)
		assert.True(t, fifotest.IsPipe(t, fifo), "%s leaves the pipe", name)
	}
}

// A named pipe that a program reads is written to, not replaced.
func TestWriteAtomicToReadPipe(t *testing.T) {
	fifo := fifotest.Make(t, filepath.Join(t.TempDir(), "fifo"))
	r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	require.NoError(t, err)
	defer r.Close()
	require.NoError(t, WriteAtomic(fifo, 0o644, func(w io.Writer) error { _, err := io.WriteString(w, "job"); return err }))
	b := make([]byte, 16)
	n, _ := r.Read(b)
	assert.Equal(t, "job", string(b[:n]))
	assert.True(t, fifotest.IsPipe(t, fifo))
}
