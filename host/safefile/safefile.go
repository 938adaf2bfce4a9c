// Package safefile reads files a user supplies (scripts, variants files,
// rules pages, scenario files) without letting the file hang or exhaust the
// process: the file must be a regular file (not a named pipe, a device such
// as /dev/zero, a socket or a folder), it is opened without blocking, and
// it is read through a size limit. Every error names the file. The files
// ReadFile and ReadFS read are text: a byte-order mark at the start, which
// some editors write, is dropped (see TrimBOM).
package safefile

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Error is a file that could not be read safely.
type Error struct {
	Path string // the file as the caller showed it
	Msg  string // what is wrong, e.g. "not a regular file (a named pipe)"
	Err  error  // the underlying error, if any
}

func (e *Error) Error() string {
	if e.Path == "" {
		// An empty path (a shell variable that expanded to nothing) is
		// shown, not left out: ": no such file or directory" names nothing.
		return `"": ` + e.Msg
	}
	return e.Path + ": " + e.Msg
}

// Unwrap returns the underlying error (e.g. fs.ErrNotExist).
func (e *Error) Unwrap() error { return e.Err }

// ReadFile reads the operating-system text file at path, of at most
// limit bytes, without its byte-order mark. Symbolic links are followed;
// what they lead to must be a regular file.
func ReadFile(path string, limit int64) ([]byte, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, statError(path, err, func() (string, error) { return os.Readlink(path) })
	}
	if err := checkMode(path, info.Mode()); err != nil {
		return nil, err
	}
	// O_NONBLOCK: if the file was replaced by a named pipe since the
	// check, opening it does not wait for a writer; the check of the
	// opened file below refuses it.
	f, err := os.OpenFile(path, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, openError(path, err)
	}
	defer f.Close()
	return readOpened(path, f, limit)
}

// ReadFS reads the text file name of fsys, of at most limit bytes,
// without its byte-order mark; shown is how the file is named in errors.
// A file system cannot be asked to open without blocking, so the type is
// checked before opening and again on the opened file.
func ReadFS(fsys fs.FS, name, shown string, limit int64) ([]byte, error) {
	info, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, statError(shown, err, func() (string, error) { return fs.ReadLink(fsys, name) })
	}
	if err := checkMode(shown, info.Mode()); err != nil {
		return nil, err
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, openError(shown, err)
	}
	defer f.Close()
	return readOpened(shown, f, limit)
}

// IsRegular reports whether path leads to a regular file, without opening
// it.
func IsRegular(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular()
}

func readOpened(path string, f fs.File, limit int64) ([]byte, error) {
	info, err := f.Stat()
	if err != nil {
		return nil, &Error{Path: path, Msg: err.Error(), Err: err}
	}
	if err := checkMode(path, info.Mode()); err != nil {
		return nil, err
	}
	if info.Size() > limit {
		return nil, tooLarge(path, limit)
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, &Error{Path: path, Msg: "cannot read: " + err.Error(), Err: err}
	}
	if int64(len(b)) > limit {
		return nil, tooLarge(path, limit)
	}
	return TrimBOM(b), nil
}

// bom is the UTF-8 byte-order mark, U+FEFF.
const bom = "\uFEFF"

// TrimBOM returns text without the UTF-8 byte-order mark some editors put
// at its start (Notepad, for one): a YAML reader skips it, but Lua, JSON
// and Markdown would read it as a stray character before the first token
// or heading.
func TrimBOM(text []byte) []byte {
	return bytes.TrimPrefix(text, []byte(bom))
}

// SkipBOM reads past a UTF-8 byte-order mark at the start of r, for text
// read as a stream (see TrimBOM).
func SkipBOM(r *bufio.Reader) {
	if b, err := r.Peek(len(bom)); err == nil && string(b) == bom {
		r.Discard(len(bom))
	}
}

func tooLarge(path string, limit int64) error {
	return &Error{Path: path, Msg: fmt.Sprintf("file is larger than %s (the most this file may hold)", Size(limit))}
}

// statError is the error of a file that could not be looked at: for a
// symbolic link that leads nowhere, the link and what it leads to, not
// "no such file" of a file that is plainly there. readLink reads the link.
func statError(path string, err error, readLink func() (string, error)) error {
	if errors.Is(err, fs.ErrNotExist) {
		if target, lerr := readLink(); lerr == nil {
			return &Error{Path: path, Msg: fmt.Sprintf("a symbolic link to %s, which does not exist", target), Err: err}
		}
	}
	return openError(path, err)
}

func openError(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return &Error{Path: path, Msg: pe.Err.Error(), Err: err}
	}
	return &Error{Path: path, Msg: err.Error(), Err: err}
}

// checkMode refuses everything but regular files.
func checkMode(path string, m fs.FileMode) error {
	if m.IsRegular() {
		return nil
	}
	return &Error{Path: path, Msg: "not a regular file (" + Kind(m) + "): only a plain file can be read"}
}

// Kind names the kind of a file that is not a regular one: "a folder",
// "a named pipe", "a character device"...
func Kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeIrregular != 0:
		return "an irregular file"
	}
	return "not a plain file"
}

// Size shows a byte count in KiB or MiB when it is a whole number of them.
func Size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Open opens the operating-system file at path to be read as a stream,
// with the checks of ReadFile: it must be a regular file (what symbolic
// links lead to included), it is opened without blocking, and reading more
// than limit bytes from it fails with an *Error. Size is the file's size
// when it was opened. The caller closes the file.
func Open(path string, limit int64) (f *File, err error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, statError(path, err, func() (string, error) { return os.Readlink(path) })
	}
	if err := checkMode(path, info.Mode()); err != nil {
		return nil, err
	}
	osf, err := os.OpenFile(path, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, openError(path, err)
	}
	info, err = osf.Stat()
	if err != nil {
		osf.Close()
		return nil, &Error{Path: path, Msg: err.Error(), Err: err}
	}
	if err := checkMode(path, info.Mode()); err != nil {
		osf.Close()
		return nil, err
	}
	if info.Size() > limit {
		osf.Close()
		return nil, tooLarge(path, limit)
	}
	return &File{f: osf, path: path, limit: limit, left: limit, Size: info.Size()}, nil
}

// File is a file opened by Open.
type File struct {
	f     *os.File
	path  string
	limit int64
	left  int64 // bytes that may still be read
	Size  int64 // the file's size when it was opened
}

// Read reads from the file, failing once more than the limit was read.
func (f *File) Read(p []byte) (int, error) {
	if int64(len(p))-1 > f.left { // not len(p) > left+1: left may be math.MaxInt64
		p = p[:f.left+1]
	}
	n, err := f.f.Read(p)
	f.left -= int64(n)
	if f.left < 0 {
		return n, tooLarge(f.path, f.limit)
	}
	return n, err
}

// Close closes the file.
func (f *File) Close() error { return f.f.Close() }
