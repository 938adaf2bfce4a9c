package host

import (
	"fmt"
	"strings"
)

// decl collects what a script declares while its chunk runs.
type decl struct {
	declared    bool
	name, title string
	description string
	players     int
	specs       []ParamSpec
	params      []Param
	conserve    bool
	maxPlies    int
	repetition  int // occurrences of a position that call repeated; 0 for none
	hasEvaluate bool
	hasScore    bool
	hasPrompt   bool
	scoreLabel  string   // declare's score_label; "" for the default
	rulePoints  []string // matombo.rule names, in order
	replaced    []string // rule points an extending script replaced

	board *Board
	kinds []MoveKind
	vars  []varSpec

	cfgErr error // a configuration error raised through Lua, returned as is
}

// varSpec is a script variable: a small integer kept in every state.
type varSpec struct {
	name     string
	position bool // part of the position (repetition key)
	cell     int  // index in State.cells, set when the layout is known
}

// fingerprint summarizes a declaration so that the declarations of two
// machines of the same game can be compared.
func (d *decl) fingerprint() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s|%d|%v|%d|", d.name, d.players, d.params, d.repetition)
	if b := d.board; b != nil {
		for _, s := range b.sites {
			fmt.Fprintf(&sb, "%s,", s.Name)
		}
		fmt.Fprintf(&sb, "|%v|%v|%v|", b.tags, b.tagMask, b.lines)
		for _, t := range b.tracks {
			fmt.Fprintf(&sb, "%s%v%v;", t.Name, t.Sites, t.Loop)
		}
	}
	for _, k := range d.kinds {
		fmt.Fprintf(&sb, "%s=%s;", k.Name, k.Template)
	}
	for _, v := range d.vars {
		fmt.Fprintf(&sb, "%s:%v;", v.name, v.position)
	}
	return sb.String()
}

// finish installs the first machine's declaration in the game, or checks
// that a later machine declared the same.
func (d *decl) finish(g *Game) error {
	if len(d.kinds) == 0 {
		return &ScriptError{Pos: Pos{File: g.file}, Func: "load", Msg: "the script declared no move kinds (matombo.move)"}
	}
	if g.board == nil {
		g.install(d)
		return nil
	}
	if d.fingerprint() != g.fingerprint {
		return &ScriptError{Pos: Pos{File: g.file}, Func: "load", Msg: "the script declared a different board, moves or variables when loaded a second time: a script must declare the same things every time it runs"}
	}
	return nil
}
