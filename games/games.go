// Package games holds the shipped games: one folder per game with its Lua
// rule script and its variants file, embedded in the binary.
package games

import (
	"embed"
	"io/fs"

	"github.com/matombo/matombo/host"
)

//go:embed */*.lua */*.yaml
var files embed.FS

// FS returns the shipped game folders.
func FS() fs.FS { return files }

// Root is how paths of shipped games are shown in messages.
const Root = "games"

// Library returns a library holding the shipped games, to which folders may
// be added with AddDir.
func Library() *host.Library {
	lib := host.NewLibrary()
	if err := lib.AddFS(files, Root); err != nil {
		panic("games: the embedded games cannot be read: " + err.Error())
	}
	return lib
}
