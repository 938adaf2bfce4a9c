package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/params"
)

const listAbout = `
Lists every game: its name and title, where its script was loaded from
(shipped with matombo, or a --games folder), its parameters (type, default,
allowed values and what they mean) and its named variants (their titles
for players, and what each sets).
Use the name with the other commands, a variant with --variant NAME and a
parameter with --param key=value.`

// gameInfo is what list shows of one game.
type gameInfo struct {
	Name        string        `json:"name"`
	Title       string        `json:"title,omitempty"`
	Description string        `json:"description,omitempty"`
	Source      string        `json:"source"` // "shipped" or the folder
	File        string        `json:"file,omitempty"`
	Players     int           `json:"players,omitempty"`
	Extends     string        `json:"extends,omitempty"`     // the game it extends
	Replaces    []string      `json:"replaces,omitempty"`    // the rule points it replaces
	RulePoints  []string      `json:"rule_points,omitempty"` // the rules an extending script may replace
	Params      []paramInfo   `json:"params"`
	Variants    []variantInfo `json:"variants"`
	Error       string        `json:"error,omitempty"` // when the game does not load
}

type paramInfo struct {
	Name    string   `json:"name"`
	Type    string   `json:"type"`
	Default any      `json:"default"`
	Allowed []string `json:"allowed"` // empty: any value of the type
	Doc     string   `json:"doc,omitempty"`
}

type variantInfo struct {
	Name string `json:"name"`
	// Title is the variant in a player's words: its title, or its name
	// made into words.
	Title       string         `json:"title"`
	Description string         `json:"description,omitempty"`
	Sets        map[string]any `json:"sets"`
	setsText    string
}

// runList is `matombo list`.
func runList(e *env, args []string) int {
	c := newCLI(e, "list", "[--games DIR] [--json]", listAbout)
	var dirs stringList
	c.fs.Var(&dirs, "games", "add or override games from the folder `DIR` (repeatable)")
	asJSON := c.fs.Bool("json", false, "write the list as one JSON object")
	pos, status, ok := c.parse(args)
	if !ok {
		return status
	}
	if len(pos) > 0 {
		return c.usageError("unexpected argument %q: list takes no arguments", pos[0])
	}
	lib, err := libraryWith(dirs)
	if err != nil {
		return c.fail(err)
	}
	var infos []gameInfo
	broken := false
	for _, name := range lib.Games() {
		info := describeGame(lib, name, dirs)
		broken = broken || info.Error != ""
		infos = append(infos, info)
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(map[string]any{"games": infos}); err != nil {
			return c.fail(err)
		}
	} else {
		writeGameList(escaping{e.stdout}, infos, e.width) // paths are shown, never run by the terminal
	}
	if broken {
		return exitFail
	}
	return exitOK
}

// describeGame loads a game with its defaults and describes it.
func describeGame(lib *host.Library, name string, dirs []string) gameInfo {
	info := gameInfo{Name: name, Params: []paramInfo{}, Variants: []variantInfo{}}
	g, err := lib.Load(name)
	if err != nil {
		info.Source = "?"
		info.Error = oneLine(err.Error())
		return info
	}
	// A folder of 10,000 games is listed one game at a time: each
	// holds script machines and a watchdog until closed.
	defer g.Close()
	info.Title, info.Description, info.File, info.Players = g.Title(), g.Description(), g.File(), g.Players()
	info.Source = sourceOf(g, dirs)
	if ext, ok := g.Extends(); ok {
		info.Extends, info.Replaces = ext.Base, ext.Replaced
	}
	info.RulePoints = g.RulePoints()
	for _, p := range g.ParamSpecs() {
		info.Params = append(info.Params, paramInfo{Name: p.Name, Type: p.Kind.String(), Default: p.Default, Allowed: nonNil(p.Allowed()), Doc: p.Doc})
	}
	for _, v := range g.Variants() {
		vi := variantInfo{Name: v.Name, Title: v.Label(), Description: v.Description, Sets: map[string]any{}}
		var parts []string
		for _, p := range v.Params {
			vi.Sets[p.Name] = p.Value
			parts = append(parts, fmt.Sprintf("%s=%v", p.Name, p.Value))
		}
		vi.setsText = strings.Join(parts, " ")
		info.Variants = append(info.Variants, vi)
	}
	return info
}

// sourceOf says where a game's script came from: "shipped", or the --games
// folder that holds it.
func sourceOf(g *host.Game, dirs []string) string {
	if slices.Contains(dirs, g.Source()) {
		// A folder may be given with the same name as the shipped games'
		// root ("games"); it is the source only if the script is there.
		if _, err := os.Stat(g.File()); err == nil {
			return g.Source()
		}
	}
	return "shipped"
}

func orNone(names []string) string {
	if len(names) == 0 {
		return "no rule"
	}
	return strings.Join(names, ", ")
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// writeGameList writes the games for people, wrapped to width.
func writeGameList(w io.Writer, infos []gameInfo, width int) {
	for i, info := range infos {
		if i > 0 {
			fmt.Fprintln(w)
		}
		if info.Error != "" {
			fmt.Fprintf(w, "%s: does not load: %s\n", info.Name, info.Error)
			continue
		}
		fmt.Fprintf(w, "%s: %s\n", info.Name, info.Title)
		from := "shipped with matombo"
		if info.Source != "shipped" {
			from = "folder " + info.Source
		}
		fmt.Fprintf(w, "  from: %s (%s), %d players\n", from, info.File, info.Players)
		if info.Extends != "" {
			fmt.Fprintf(w, "  extends: %s, replacing %s\n", info.Extends, orNone(info.Replaces))
		}
		fmt.Fprint(w, wrapText(width, info.Description, "  "))
		if len(info.RulePoints) > 0 {
			fmt.Fprint(w, wrapText(width, "rule points: "+strings.Join(info.RulePoints, ", "), "  "))
		}
		writeParams(w, info.Params, width)
		writeVariants(w, info.Variants, width)
	}
}

func writeParams(w io.Writer, params []paramInfo, width int) {
	if len(params) == 0 {
		fmt.Fprintln(w, "  parameters: none")
		return
	}
	fmt.Fprintln(w, "  parameters:")
	for _, p := range params {
		allowed := "any " + p.Type
		if len(p.Allowed) > 0 {
			allowed = "allowed " + strings.Join(p.Allowed, ", ")
		}
		fmt.Fprintf(w, "    %s (%s, default %v; %s)\n", p.Name, p.Type, p.Default, allowed)
		fmt.Fprint(w, wrapText(width, p.Doc, "        "))
	}
}

func writeVariants(w io.Writer, variants []variantInfo, width int) {
	if len(variants) == 0 {
		fmt.Fprintln(w, "  variants: none")
		return
	}
	fmt.Fprintln(w, "  variants:")
	for _, v := range variants {
		sets := v.setsText
		if sets == "" {
			sets = "sets nothing"
		}
		name := v.Name
		if !strings.EqualFold(v.Title, params.NameTitle(v.Name)) {
			name += " (" + v.Title + ")" // how players read it, where the name does not say it
		}
		fmt.Fprintf(w, "    %s: %s\n", name, sets)
		fmt.Fprint(w, wrapText(width, v.Description, "        "))
	}
}
