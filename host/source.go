package host

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"sort"
	"time"

	"github.com/matombo/matombo/host/diag"
	"github.com/matombo/matombo/host/luavm"
)

// AddSource adds a game whose script (and variants file, "" for none) an
// embedding program holds in memory, as one more layer: an uploaded
// script, a script made by a program, a test. It is a game folder as any
// other: it overrides a game of the same name in earlier layers, a later
// layer overrides it, and it may extend other games of the library
// (matombo.extends). Messages name its files NAME/NAME.lua and
// NAME/variants.yaml. The name is 1 to 64 lower-case letters, digits, -
// and _; the script and the variants file are at most 1 MiB each, as files
// are. The texts are copied: the caller may reuse its buffers.
func (l *Library) AddSource(name, script, variants string) error {
	if !luavm.ValidGameName(name) {
		return &ConfigError{Msg: fmt.Sprintf("AddSource: the game's name %q must be 1 to 64 lower-case letters, digits, - and _", diag.ClipText(name, 100))}
	}
	files := memFS{name + ".lua": []byte(script)}
	if variants != "" {
		files["variants.yaml"] = []byte(variants)
	}
	for file, b := range files {
		switch {
		case len(b) == 0:
			return &ConfigError{Pos: Pos{File: name + "/" + file}, Msg: "AddSource: the script is empty"}
		case len(b) > maxScriptBytes:
			return &ConfigError{Pos: Pos{File: name + "/" + file}, Msg: fmt.Sprintf("AddSource: %d bytes, more than the limit of %d", len(b), maxScriptBytes)}
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.layers = append(l.layers, layer{fsys: files, root: name, game: name})
	return nil
}

// memFS is a folder of files held in memory, with no subfolders: the
// layer of AddSource.
type memFS map[string][]byte

func (m memFS) Open(name string) (fs.File, error) {
	if name == "." {
		return &memDir{m: m}, nil
	}
	b, ok := m[name]
	if !ok || !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return &memFile{info: memInfo{name: name, size: int64(len(b))}, r: bytes.NewReader(b)}, nil
}

// ReadDir lists the files of the folder, sorted by name.
func (m memFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if name != "." {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
	}
	var out []fs.DirEntry
	for n, b := range m {
		out = append(out, fs.FileInfoToDirEntry(memInfo{name: n, size: int64(len(b))}))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out, nil
}

type memFile struct {
	info memInfo
	r    *bytes.Reader
}

func (f *memFile) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *memFile) Read(p []byte) (int, error) { return f.r.Read(p) }
func (f *memFile) Close() error               { return nil }

type memDir struct{ m memFS }

func (d *memDir) Stat() (fs.FileInfo, error) { return memInfo{name: ".", dir: true}, nil }
func (d *memDir) Read([]byte) (int, error)   { return 0, io.EOF }
func (d *memDir) Close() error               { return nil }

// ReadDir lists the files of the folder (all of them: n is ignored).
func (d *memDir) ReadDir(int) ([]fs.DirEntry, error) { return d.m.ReadDir(".") }

type memInfo struct {
	name string
	size int64
	dir  bool
}

func (i memInfo) Name() string { return i.name }
func (i memInfo) Size() int64  { return i.size }
func (i memInfo) Mode() fs.FileMode {
	if i.dir {
		return fs.ModeDir | 0o555
	}
	return 0o444
}
func (i memInfo) ModTime() time.Time { return time.Time{} }
func (i memInfo) IsDir() bool        { return i.dir }
func (i memInfo) Sys() any           { return nil }
