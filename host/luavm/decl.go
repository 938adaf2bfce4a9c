package luavm

import (
	"fmt"
	"strings"

	"github.com/matombo/matombo/host/diag"
	"github.com/matombo/matombo/host/kernel"
	"github.com/matombo/matombo/host/params"
)

// Decl collects what a script declares while its chunk runs.
type Decl struct {
	declared    bool
	Name, Title string
	Description string
	Players     int
	Specs       []params.Spec
	Params      []params.Value
	Conserve    bool
	MaxPlies    int
	Repetition  int // occurrences of a position that call repeated; 0 for none
	HasEvaluate bool
	HasScore    bool
	HasPrompt   bool
	ScoreLabel  string   // declare's score_label; "" for the default
	HandLabel   string   // declare's hand_label; "" for the default
	HandHidden  bool     // declare's hand_label = false: the hand is not shown to players
	RulePoints  []string // matombo.rule names, in order
	Replaced    []string // rule points an extending script replaced

	cfgErr error // a configuration error raised through Lua, returned as is
}

// fingerprint summarizes a declaration so that the declarations of two
// machines of the same game can be compared.
func (d *Decl) fingerprint(def *kernel.Def) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s|%d|%v|%d|", d.Name, d.Players, d.Params, d.Repetition)
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
func (d *Decl) finish(g *Program, def *kernel.Def) error {
	if len(def.Kinds) == 0 {
		return &diag.ScriptError{Pos: diag.Pos{File: g.File}, Func: "load", Msg: "the script declared no move kinds (matombo.move)"}
	}
	if g.Def == nil {
		g.install(d, def)
		return nil
	}
	if d.fingerprint(def) != g.fingerprint {
		return &diag.ScriptError{Pos: diag.Pos{File: g.File}, Func: "load", Msg: "the script declared a different board, moves or variables when loaded a second time: a script must declare the same things every time it runs"}
	}
	return nil
}

// install adopts the first machine's declarations: the layout of the
// game's states and the cells of its variables.
func (g *Program) install(d *Decl, def *kernel.Def) {
	posVars, memoVars := 0, 0
	for _, v := range def.Vars {
		if v.Position {
			posVars++
		} else {
			memoVars++
		}
	}
	def.Players = d.Players
	def.Layout = kernel.NewLayout(def.Board.NumSites(), d.Players, posVars, memoVars)
	pi, mi := def.Layout.Vars, def.Layout.Memo
	for i := range def.Vars {
		if def.Vars[i].Position {
			def.Vars[i].Cell = pi
			pi++
		} else {
			def.Vars[i].Cell = mi
			mi++
		}
	}
	g.fingerprint = d.fingerprint(def)
	g.Decl, g.Def = d, def
	if g.Installed != nil {
		g.Installed(d, def)
	}
}

// Fingerprint summarizes what the script declared (its name, players,
// parameters, board, move kinds and variables), once the first machine ran
// it.
func (g *Program) Fingerprint() string { return g.fingerprint }
