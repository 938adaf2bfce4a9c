// Package docs holds the project's documentation. The rules pages of the
// shipped games (docs/rules/NAME.md) are embedded, so that `matombo rules`
// shows them wherever the binary runs.
package docs

import (
	"embed"
	"io/fs"
	"sort"
	"strings"
)

//go:embed rules/*.md
var rules embed.FS

// Rules returns the rules page of the shipped game with the given name, and
// false when there is none.
func Rules(game string) (string, bool) {
	if game == "" || strings.ContainsAny(game, `/\.`) {
		return "", false
	}
	b, err := fs.ReadFile(rules, "rules/"+game+".md")
	if err != nil {
		return "", false
	}
	return string(b), true
}

// RulesGames returns the names of the games that have a rules page, sorted.
func RulesGames() []string {
	entries, _ := fs.ReadDir(rules, "rules")
	var out []string
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ".md"); ok && !e.IsDir() {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}
