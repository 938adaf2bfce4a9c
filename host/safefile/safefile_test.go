package safefile

import (
	"bufio"
	"errors"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain.txt")
	require.NoError(t, os.WriteFile(plain, []byte("hello"), 0o644))
	link := filepath.Join(dir, "link.txt")
	require.NoError(t, os.Symlink(plain, link))
	big := filepath.Join(dir, "big.txt")
	require.NoError(t, os.WriteFile(big, make([]byte, 2048), 0o644))
	zero := filepath.Join(dir, "zero.lua")
	require.NoError(t, os.Symlink("/dev/zero", zero))
	dangling := filepath.Join(dir, "dangling.lua")
	require.NoError(t, os.Symlink(filepath.Join(dir, "gone.lua"), dangling))

	for _, c := range []struct {
		name, path string
		want       string // content, or the error's message
		err        bool
	}{
		{"a regular file", plain, "hello", false},
		{"a link to a regular file", link, "hello", false},
		{"a folder", dir, "not a regular file (a folder)", true},
		{"a link to /dev/zero", zero, "not a regular file (a character device)", true},
		{"too large", big, "file is larger than 1 KiB", true},
		{"missing", filepath.Join(dir, "nope"), "no such file or directory", true},
		{"a link that leads nowhere", dangling, "a symbolic link to " + filepath.Join(dir, "gone.lua") + ", which does not exist", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			b, err := ReadFile(c.path, 1024)
			if !c.err {
				require.NoError(t, err)
				assert.Equal(t, c.want, string(b))
				return
			}
			var se *Error
			require.ErrorAs(t, err, &se)
			assert.Equal(t, c.path, se.Path, "the error names the file")
			assert.Contains(t, err.Error(), c.path+": ")
			assert.Contains(t, err.Error(), c.want)
		})
	}
	_, err := ReadFile(filepath.Join(dir, "nope"), 10)
	assert.True(t, errors.Is(err, fs.ErrNotExist), "a missing file is fs.ErrNotExist")
	_, err = ReadFile("", 10)
	assert.EqualError(t, err, `"": no such file or directory`, "an empty path is shown")
	_, err = ReadFile(dangling, 10)
	assert.True(t, errors.Is(err, fs.ErrNotExist), "a link that leads nowhere is fs.ErrNotExist")
	_, err = Open(dangling, 10)
	assert.ErrorContains(t, err, dangling+": a symbolic link to ", "Open says so too")
}

func TestReadFS(t *testing.T) {
	fsys := fstest.MapFS{
		"a.lua":     {Data: []byte("x = 1")},
		"big.lua":   {Data: make([]byte, 100)},
		"pipe.lua":  {Mode: fs.ModeNamedPipe},
		"dir/b.lua": {Data: []byte("y")},
	}
	b, err := ReadFS(fsys, "a.lua", "games/a.lua", 10)
	require.NoError(t, err)
	assert.Equal(t, "x = 1", string(b))
	for name, msg := range map[string]string{
		"big.lua":  "games/big.lua: file is larger than 10 bytes (the most this file may hold)",
		"pipe.lua": "games/pipe.lua: not a regular file (a named pipe): only a plain file can be read",
		"dir":      "games/dir: not a regular file (a folder): only a plain file can be read",
		"no.lua":   "games/no.lua: file does not exist",
	} {
		_, err := ReadFS(fsys, name, "games/"+name, 10)
		assert.EqualError(t, err, msg)
	}
}

func TestSize(t *testing.T) {
	assert.Equal(t, "1 MiB", Size(1<<20))
	assert.Equal(t, "64 KiB", Size(64<<10))
	assert.Equal(t, "1000 bytes", Size(1000))
}

func ExampleReadFile() {
	_, err := ReadFile("/dev/zero", 1<<20)
	os.Stdout.WriteString(err.Error() + "\n")
	// Output: /dev/zero: not a regular file (a character device): only a plain file can be read
}

// Open refuses what ReadFile refuses, and a file that grows past the
// limit while it is read fails when the limit is passed.
func TestOpenRefusesAndBounds(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain.txt")
	require.NoError(t, os.WriteFile(plain, []byte("hello"), 0o644))
	f, err := Open(plain, 5)
	require.NoError(t, err)
	b, err := io.ReadAll(f)
	require.NoError(t, err)
	assert.Equal(t, "hello", string(b))
	require.NoError(t, f.Close())

	_, err = Open(plain, 4)
	assert.ErrorContains(t, err, plain+": file is larger than 4 bytes")
	_, err = Open("/dev/zero", 1<<20)
	assert.ErrorContains(t, err, "/dev/zero: not a regular file (a character device)")
	_, err = Open(dir, 1<<20)
	assert.ErrorContains(t, err, "not a regular file (a folder)")
	_, err = Open(filepath.Join(dir, "nope"), 10)
	assert.ErrorIs(t, err, fs.ErrNotExist)

	// A file that grows past the limit while it is read fails when the
	// limit is passed, naming the file.
	f, err = Open(plain, 5)
	require.NoError(t, err)
	defer f.Close()
	w, err := os.OpenFile(plain, os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = w.WriteString(" world")
	require.NoError(t, err)
	require.NoError(t, w.Close())
	_, err = io.ReadAll(f)
	var se *Error
	require.ErrorAs(t, err, &se)
	assert.Contains(t, err.Error(), "file is larger than 5 bytes")
}

// Open streams a plain file and stops a read past its limit.
func TestOpenStreamsWithinItsLimit(t *testing.T) {
	p := filepath.Join(t.TempDir(), "data")
	require.NoError(t, os.WriteFile(p, []byte("0123456789"), 0o644))
	f, err := Open(p, 10)
	require.NoError(t, err)
	assert.Equal(t, int64(10), f.Size)
	b, err := io.ReadAll(f)
	require.NoError(t, err)
	assert.Equal(t, "0123456789", string(b))
	require.NoError(t, f.Close())

	_, err = Open(p, 9)
	assert.ErrorContains(t, err, "larger than")

	// The largest limit is no limit, and does not wrap around.
	f, err = Open(p, math.MaxInt64)
	require.NoError(t, err)
	b, err = io.ReadAll(f)
	require.NoError(t, err)
	assert.Equal(t, "0123456789", string(b))
	require.NoError(t, f.Close())

	_, err = Open(filepath.Join(t.TempDir(), "missing"), 10)
	assert.ErrorIs(t, err, fs.ErrNotExist)
}

// TestByteOrderMark: a text file is read without the byte-order mark at
// its start, as a stream too; one elsewhere in the text stays.
func TestByteOrderMark(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"\uFEFFgame: kalah\n", "game: kalah\n"},
		{"game: kalah\n", "game: kalah\n"},
		{"\uFEFF", ""},
		{"\uFEFF\uFEFFx", "\uFEFFx"},
		{"x\uFEFF", "x\uFEFF"},
		{"\xef\xbb", "\xef\xbb"},
	} {
		path := filepath.Join(t.TempDir(), "f.txt")
		require.NoError(t, os.WriteFile(path, []byte(c.text), 0o644))
		b, err := ReadFile(path, 100)
		require.NoError(t, err)
		assert.Equal(t, c.want, string(b), "ReadFile %q", c.text)
		b, err = ReadFS(fstest.MapFS{"f.txt": {Data: []byte(c.text)}}, "f.txt", "f.txt", 100)
		require.NoError(t, err)
		assert.Equal(t, c.want, string(b), "ReadFS %q", c.text)
		r := bufio.NewReader(strings.NewReader(c.text))
		SkipBOM(r)
		rest, err := io.ReadAll(r)
		require.NoError(t, err)
		assert.Equal(t, c.want, string(rest), "SkipBOM %q", c.text)
	}
}
