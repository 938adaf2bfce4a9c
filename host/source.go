package host

import (
	"fmt"

	"github.com/matombo/matombo/host/diag"
	"github.com/matombo/matombo/host/internal/memfs"
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
	files := memfs.FS{name + ".lua": []byte(script)}
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
