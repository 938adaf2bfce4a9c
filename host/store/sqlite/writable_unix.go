//go:build unix

package sqlite

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// unwritable says why this process cannot write the SQLite database at
// path, or returns "" when it can as far as the file system tells: the
// file, when there is one, and its folder, where SQLite creates the
// database and its -wal and -shm files (a read-only file or folder, one on
// a read-only file system, a folder that does not exist). A folder that
// cannot be written to will do when the three files are there already. SQLite's own
// error for these is "unable to open database file" or "attempt to write
// a readonly database", which names no cause.
func unwritable(path string) string {
	dir := filepath.Dir(path)
	if err := syscall.Access(dir, 2 /* W_OK */); err != nil && !(exists(path) && exists(path+"-wal") && exists(path+"-shm")) {
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return fmt.Sprintf("its folder %s does not exist", dir)
		case errors.Is(err, syscall.EROFS):
			return fmt.Sprintf("its folder %s is on a read-only file system", dir)
		default:
			return fmt.Sprintf("its folder %s cannot be written to (%v), and SQLite writes its -wal and -shm files there", dir, err)
		}
	}
	if err := syscall.Access(path, 2 /* W_OK */); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Sprintf("the file cannot be written to (%v)", err)
	}
	return ""
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
