package host

import (
	"fmt"
	"strings"

	"github.com/matombo/matombo/host/kernel"
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

	cfgErr error // a configuration error raised through Lua, returned as is
}

// fingerprint summarizes a declaration so that the declarations of two
// machines of the same game can be compared.
func (d *decl) fingerprint(def *kernel.Def) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s|%d|%v|%d|", d.name, d.players, d.params, d.repetition)
	if b := def.Board; b != nil {
		sb.WriteString(b.Fingerprint())
	}
	for _, k := range def.Kinds {
		fmt.Fprintf(&sb, "%s=%s;", k.Name, k.Template)
	}
	for _, v := range def.Vars {
		fmt.Fprintf(&sb, "%s:%v;", v.Name, v.Position)
	}
	return sb.String()
}

// finish installs the first machine's declaration in the game, or checks
// that a later machine declared the same.
func (d *decl) finish(g *Game, def *kernel.Def) error {
	if len(def.Kinds) == 0 {
		return &ScriptError{Pos: Pos{File: g.file}, Func: "load", Msg: "the script declared no move kinds (matombo.move)"}
	}
	if g.def == nil {
		g.install(d, def)
		return nil
	}
	if d.fingerprint(def) != g.fingerprint {
		return &ScriptError{Pos: Pos{File: g.file}, Func: "load", Msg: "the script declared a different board, moves or variables when loaded a second time: a script must declare the same things every time it runs"}
	}
	return nil
}
