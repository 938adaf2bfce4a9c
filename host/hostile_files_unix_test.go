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
// both are refused at once with a ConfigError naming the file. A file that
// is there but is no file at all (a folder, a link that leads nowhere or
// to itself) is refused alike: it used to be taken for absent, so the
// game loaded without it (without its variants, or with a shipped script
// of the same name in place of the folder's).
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
	folder := func(t *testing.T, p string) { require.NoError(t, os.Mkdir(p, 0o755)) }
	dangling := func(t *testing.T, p string) { require.NoError(t, os.Symlink("/nonexistent/gone", p)) }
	loop := func(t *testing.T, p string) { require.NoError(t, os.Symlink(filepath.Base(p), p)) }
	toFolder := func(t *testing.T, p string) { require.NoError(t, os.Symlink(t.TempDir(), p)) }
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
		{"script folder", "g.lua", folder, "not a regular file (a folder)"},
		{"script link to nothing", "g.lua", dangling, "a symbolic link to /nonexistent/gone, which does not exist"},
		{"script link to itself", "g.lua", loop, "too many levels of symbolic links"},
		{"script link to a folder", "g.lua", toFolder, "not a regular file (a folder)"},
		{"variants folder", "variants.yaml", folder, "not a regular file (a folder)"},
		{"variants link to nothing", "variants.yaml", dangling, "a symbolic link to /nonexistent/gone, which does not exist"},
		{"variants link to itself", "variants.yaml", loop, "too many levels of symbolic links"},
		{"rules folder", "rules.md", folder, "not a regular file (a folder)"},
		{"rules link to nothing", "rules.md", dangling, "a symbolic link to /nonexistent/gone, which does not exist"},
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
