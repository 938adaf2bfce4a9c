//go:build unix

package fifotest

import (
	"os"
	"syscall"
	"testing"
)

// Make makes a named pipe at path, which no program reads or writes, and
// returns path. It fails the test when the pipe cannot be made.
func Make(t testing.TB, path string) string {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatalf("making the named pipe %s: %v", path, err)
	}
	return path
}

// IsPipe reports whether path itself (not what a link leads to) is a
// named pipe: a command refused it and left it as it was. It fails the
// test when path cannot be read.
func IsPipe(t testing.TB, path string) bool {
	t.Helper()
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatalf("reading %s: %v", path, err)
	}
	return fi.Mode()&os.ModeNamedPipe != 0
}
