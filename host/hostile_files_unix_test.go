//go:build unix

package host

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/matombo/matombo/host/fifotest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Hostile files in a game folder: every file the library reads (NAME.lua,
// variants.yaml, rules.md) must be a plain file of at most 1 MiB. A named
// pipe would block the read forever, a link to /dev/zero would never end;
// both are refused at once with a ConfigError naming the file.
func TestHostileGameFiles(t *testing.T) {
	script := miniSource("g", "")
	type setup func(t *testing.T, path string)
	fifo := func(t *testing.T, p string) { fifotest.Make(t, p) }
	devZero := func(t *testing.T, p string) { require.NoError(t, os.Symlink("/dev/zero", p)) }
	huge := func(t *testing.T, p string) {
		f, err := os.Create(p)
		require.NoError(t, err)
		require.NoError(t, f.Truncate(100<<20))
		require.NoError(t, f.Close())
	}
	for _, c := range []struct {
		name, file string
		make       setup
		msg        string
	}{
		{"script fifo", "g.lua", fifo, "not a regular file (a named pipe)"},
		{"script /dev/zero", "g.lua", devZero, "not a regular file (a character device)"},
		{"script huge", "g.lua", huge, "file is larger than 1 MiB"},
		{"variants fifo", "variants.yaml", fifo, "not a regular file (a named pipe)"},
		{"variants /dev/zero", "variants.yaml", devZero, "not a regular file (a character device)"},
		{"rules fifo", "rules.md", fifo, "not a regular file (a named pipe)"},
		{"rules /dev/zero", "rules.md", devZero, "not a regular file (a character device)"},
		{"rules huge", "rules.md", huge, "file is larger than 1 MiB"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			gdir := filepath.Join(dir, "g")
			require.NoError(t, os.MkdirAll(gdir, 0o755))
			if c.file != "g.lua" {
				require.NoError(t, os.WriteFile(filepath.Join(gdir, "g.lua"), []byte(script), 0o644))
			}
			path := filepath.Join(gdir, c.file)
			c.make(t, path)
			lib := NewLibrary()
			require.NoError(t, lib.AddDir(dir))
			assert.Equal(t, []string{"g"}, lib.Games(), "listing the games reads no file")
			_, err := lib.Load("g")
			var ce *ConfigError
			require.ErrorAs(t, err, &ce)
			assert.Equal(t, path, ce.Pos.File, "the error names the file")
			assert.Contains(t, err.Error(), path+": "+c.msg)
		})
	}
}
