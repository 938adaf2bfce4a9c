//go:build unix

package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/matombo/matombo/host/fifotest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOutputFiles checks the outputs a user names (import -o, solve
// --out, the charts of analyze --plot) against the paths that used to
// hang the command (a named pipe no program reads) or be replaced by a
// renamed file (a device, a pipe, a symbolic link): each is refused at
// once, naming the file, or written through.
func TestOutputFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := fifotest.Make(t, filepath.Join(dir, "out.fifo"))
	plots := filepath.Join(dir, "plots")
	require.NoError(t, os.Mkdir(plots, 0o755))
	fifotest.Make(t, filepath.Join(plots, "lengths.png"))
	dangling := filepath.Join(dir, "dangling.json")
	require.NoError(t, os.Symlink(filepath.Join(dir, "nowhere"), dangling))
	playthrough := filepath.Join("..", "..", "host", "testdata", "openspiel", "oware.txt")
	for _, c := range []struct {
		name string
		args []string
		code int
		want string // in stderr; "" for none
	}{
		{"import -o a named pipe no program reads",
			[]string{"import", "openspiel", playthrough, "-o", fifo}, exitFail,
			fifo + ": a named pipe that no program reads"},
		{"import -o a folder",
			[]string{"import", "openspiel", playthrough, "-o", dir}, exitFail,
			dir + ": not a file that can be written (a folder)"},
		{"import -o /dev/null",
			[]string{"import", "openspiel", playthrough, "-o", os.DevNull}, exitOK, ""},
		{"solve --out a folder, before the solve",
			[]string{"solve", "kalah", "--param", "pits=3", "--param", "seeds=3", "--shard-depth", "1", "--job", "0", "--out", dir}, exitUsage,
			"--out " + dir + ": not a file that can be written (a folder)"},
		{"solve --out a link to nothing, before the solve",
			[]string{"solve", "kalah", "--param", "pits=3", "--param", "seeds=3", "--shard-depth", "1", "--job", "0", "--out", dangling}, exitUsage,
			"--out " + dangling + ": a symbolic link that leads to no file"},
		{"analyze --plot into a folder holding a named pipe",
			[]string{"analyze", "yematatu", "--games", "4", "--plot", plots}, exitFail,
			filepath.Join(plots, "lengths.png") + ": a named pipe that no program reads"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := matombo(t, "", c.args...)
			assert.Equal(t, c.code, r.code, "stderr: %s", r.stderr)
			if c.want != "" {
				assert.Contains(t, r.stderr, c.want)
			}
			assert.True(t, fifotest.IsPipe(t, fifo), "the pipe is still a pipe")
		})
	}
}
