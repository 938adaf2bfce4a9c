//go:build unix

package main

import (
	"path/filepath"
	"testing"

	"github.com/matombo/matombo/host/fifotest"
	"github.com/stretchr/testify/assert"
)

// --merge reads only plain files: /dev/zero and a named pipe are refused
// at once (they used to flood memory or hang).
func TestMergeRefusesSpecialFiles(t *testing.T) {
	fifo := fifotest.Make(t, filepath.Join(t.TempDir(), "shard.fifo"))
	for _, f := range []struct{ path, want string }{
		{"/dev/zero", "not a regular file (a character device)"},
		{fifo, "not a regular file (a named pipe)"},
		{t.TempDir(), "not a regular file (a folder)"},
	} {
		r := matombo(t, "", "analyze", "--merge", f.path)
		assert.Equal(t, exitFail, r.code)
		assert.Contains(t, r.stderr, f.path+": "+f.want)
	}
}
