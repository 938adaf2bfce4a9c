package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/matombo/matombo/docs"
	"github.com/matombo/matombo/host"
)

const rulesAbout = `
Shows the rules page of a game: for a shipped game the page of docs/rules
(embedded in matombo), for a game from a --games folder its rules.md.`

// runRules is `matombo rules GAME`.
func runRules(e *env, args []string) int {
	c := newCLI(e, "rules", "GAME [--games DIR]", rulesAbout)
	var gf gameFlags
	gf.register(c.fs, true)
	name, _, status, ok := c.parseGame(args, false)
	if !ok {
		return status
	}
	g, err := gf.open(name)
	if err != nil {
		return c.fail(err)
	}
	page := g.Rules()
	if page == "" && sourceOf(g, gf.dirs) == "shipped" {
		page, _ = docs.Rules(name)
	}
	if page == "" {
		if sourceOf(g, gf.dirs) == "shipped" {
			fmt.Fprintf(e.stderr, "matombo rules: the shipped game %s has no rules page yet\n", name)
		} else {
			fmt.Fprintf(e.stderr, "matombo rules: game %s from folder %s has no rules page (%s)\n", name, g.Source(), rulesPath(g))
		}
		return exitFail
	}
	fmt.Fprint(e.stdout, page)
	if !strings.HasSuffix(page, "\n") {
		fmt.Fprintln(e.stdout)
	}
	return exitOK
}

// rulesPath is where the rules page of a game from a folder belongs: rules.md
// in the game's own folder.
func rulesPath(g *host.Game) string {
	dir := filepath.Dir(g.File())
	if filepath.Base(dir) != g.Name() {
		dir = filepath.Join(dir, g.Name())
	}
	return filepath.Join(dir, "rules.md")
}
