package safefile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// Create opens the operating-system file at path to be written, for an
// output a user names (-o FILE): a new or regular file is created or
// truncated, a character device such as /dev/null or a terminal is
// written to, a named pipe only when a program already reads it (an open
// that would wait for a reader fails at once instead), and a folder, a
// socket or a symbolic-link loop is refused. Every error names the file.
func Create(path string, perm fs.FileMode) (*os.File, error) {
	if err := CheckOutput(path); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|openFlags, perm)
	if err != nil {
		if errors.Is(err, syscall.ENXIO) {
			return nil, &Error{Path: path, Msg: "a named pipe that no program reads: nothing would take what is written", Err: err}
		}
		return nil, openError(path, err)
	}
	return f, nil
}

// WriteFile writes data to the file at path with the checks of Create.
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	f, err := Create(path, perm)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return &Error{Path: path, Msg: "cannot write: " + writeMsg(err), Err: err}
	}
	if err := f.Close(); err != nil {
		return &Error{Path: path, Msg: "cannot write: " + writeMsg(err), Err: err}
	}
	return nil
}

// WriteAtomic writes what write produces to path so that a write stopped
// half-way leaves no partial file: through a temporary file in the same
// folder, renamed over path. The rename replaces only a regular file or
// nothing: a symbolic link to a regular file keeps the link and replaces
// what it leads to, and a character device or a named pipe (/dev/null,
// /dev/stdout) is written to directly, not replaced by a file. A folder,
// a socket or a link loop is refused, as for Create.
func WriteAtomic(path string, perm fs.FileMode, write func(io.Writer) error) error {
	if err := CheckOutput(path); err != nil {
		return err
	}
	target := path
	info, err := os.Stat(path)
	switch {
	case err == nil && !info.Mode().IsRegular():
		// A device or a pipe: a stream, written in place.
		f, err := Create(path, perm)
		if err != nil {
			return err
		}
		if err := write(f); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return &Error{Path: path, Msg: "cannot write: " + writeMsg(err), Err: err}
		}
		return nil
	case err == nil:
		if t, err := filepath.EvalSymlinks(path); err == nil {
			target = t
		}
	}
	tmp, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".*")
	if err != nil {
		return openError(path, err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(perm); err != nil {
		tmp.Close()
		return openError(path, err)
	}
	if err := write(tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return &Error{Path: path, Msg: "cannot write: " + writeMsg(err), Err: err}
	}
	if err := os.Rename(tmp.Name(), target); err != nil {
		return openError(path, err)
	}
	return nil
}

// CheckOutput refuses an output path that leads to a folder, a socket, a
// loop of symbolic links or a link to nothing, as Create and WriteAtomic
// do: a command checks its output with it before long work.
func CheckOutput(path string) error {
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if _, lerr := os.Lstat(path); lerr == nil {
			// A symbolic link to nothing: creating would write where it
			// leads, somewhere the user did not name.
			return &Error{Path: path, Msg: "a symbolic link that leads to no file", Err: err}
		}
		return nil
	case err != nil:
		return openError(path, err)
	case info.IsDir(), info.Mode()&fs.ModeSocket != 0:
		return &Error{Path: path, Msg: "not a file that can be written (" + Kind(info.Mode()) + ")"}
	}
	return nil
}

// writeMsg is the reason of a failed write, without the path the
// operating system's error repeats.
func writeMsg(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
