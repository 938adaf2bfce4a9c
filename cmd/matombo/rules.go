package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/matombo/matombo/docs"
	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/diag"
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
		page = baseRules(g, gf.dirs, e.width)
	}
	if page == "" {
		if sourceOf(g, gf.dirs) == "shipped" {
			fmt.Fprintf(e.stderr, "matombo rules: the shipped game %s has no rules page yet\n", name)
		} else {
			fmt.Fprintf(e.stderr, "matombo rules: %s\n", oneLine(fmt.Sprintf("game %s from folder %s has no rules page (%s)", name, g.Source(), rulesPath(g))))
		}
		return exitFail
	}
	fmt.Fprint(e.stdout, page)
	if !strings.HasSuffix(page, "\n") {
		fmt.Fprintln(e.stdout)
	}
	return exitOK
}

// baseRules is the rules page of the game g extends, after a note of what
// g changes (wrapped to width), or "" when g extends no game or its base
// has no page.
func baseRules(g *host.Game, dirs []string, width int) string {
	ext, ok := g.Extends()
	if !ok {
		return ""
	}
	page := ext.Rules
	if page == "" && baseIsShipped(ext, dirs) {
		page, _ = docs.Rules(ext.Base)
	}
	if page == "" {
		return ""
	}
	note := fmt.Sprintf("%s (%s, %s) has no rules page of its own: it is the game %s with these rules replaced: %s. The rules page of %s follows; see the script for the changes.\n\n",
		g.Name(), g.Title(), g.File(), ext.Base, orNone(ext.Replaced), ext.Base)
	// The note quotes the script's path: shown, never run by the terminal.
	return wrapText(width, diag.EscapeControls(note), "> ") + "\n" + page
}

// baseIsShipped tells whether the game a game extends is a shipped one.
func baseIsShipped(ext host.Extension, dirs []string) bool {
	if slices.Contains(dirs, ext.Source) {
		if _, err := os.Stat(ext.File); err == nil {
			return false
		}
	}
	return true
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
