package luavm

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/matombo/matombo/host/diag"
	"github.com/matombo/matombo/host/kernel"
	"github.com/matombo/matombo/host/params"
	lua "github.com/yuin/gopher-lua"
)

// Primitives that declare the game while the script's chunk runs.

// ---- declarations ----

func (vm *Machine) apiDeclare(L *lua.LState) int {
	vm.mustLoad(L, "the game")
	d := vm.dcl
	if d.declared {
		L.RaiseError("matombo.declare is called twice")
	}
	t := L.CheckTable(1)
	checkFields(L, t, "matombo.declare", "name", "title", "description", "players", "params", "conserve", "max_plies", "repetition", "score_label", "hand_label")
	name, ok := t.RawGetString("name").(lua.LString)
	if !ok || name == "" {
		L.RaiseError("matombo.declare needs a name")
	}
	d.Name = string(name)
	if want := vm.declaredName(); d.Name != want {
		L.RaiseError("the script declares the game %q but is loaded as %q (name the file or folder after the game)", d.Name, want)
	}
	d.Title = d.Name
	if s, ok := t.RawGetString("title").(lua.LString); ok {
		d.Title = string(s)
		checkText(L, "the title", d.Title, false)
	}
	if s, ok := t.RawGetString("description").(lua.LString); ok {
		d.Description = string(s)
		checkText(L, "the description", d.Description, true)
	}
	if v := t.RawGetString("score_label"); v != lua.LNil {
		s, ok := v.(lua.LString)
		if !ok || s == "" || len(s) > 32 {
			L.RaiseError("score_label must be a name of 1 to 32 characters for the score (e.g. \"seeds\"), got %s", vm.describe(v, plainSlot))
		}
		d.ScoreLabel = string(s)
		checkText(L, "the score label", d.ScoreLabel, false)
	}
	switch v := t.RawGetString("hand_label").(type) {
	case *lua.LNilType:
	case lua.LBool:
		if v {
			L.RaiseError("hand_label must be a name of 1 to 32 characters for what a player holds in hand (e.g. \"to place\"), or false for a hand not shown, got %s", vm.describe(v, plainSlot))
		}
		d.HandHidden = true
	case lua.LString:
		if v == "" || len(v) > 32 {
			L.RaiseError("hand_label must be a name of 1 to 32 characters for what a player holds in hand (e.g. \"to place\"), or false for a hand not shown, got %s", vm.describe(v, plainSlot))
		}
		d.HandLabel = string(v)
		checkText(L, "the hand label", d.HandLabel, false)
	default:
		L.RaiseError("hand_label must be a name of 1 to 32 characters for what a player holds in hand (e.g. \"to place\"), or false for a hand not shown, got %s", vm.describe(v, plainSlot))
	}
	d.Players = 2
	if v := t.RawGetString("players"); v != lua.LNil {
		f, ok := v.(lua.LNumber)
		if !ok || f < 1 || f > 8 || float64(f) != math.Trunc(float64(f)) {
			L.RaiseError("players must be a whole number from 1 to 8, got %s", vm.describe(v, plainSlot))
		}
		d.Players = int(f)
	}
	vm.def.Players = d.Players
	d.Conserve = true
	if v := t.RawGetString("conserve"); v != lua.LNil {
		b, ok := v.(lua.LBool)
		if !ok {
			L.RaiseError("conserve must be true or false")
		}
		d.Conserve = bool(b)
	}
	if v := t.RawGetString("max_plies"); v != lua.LNil {
		f, ok := v.(lua.LNumber)
		if !ok || f < 1 || f > kernel.MaxCount || float64(f) != math.Trunc(float64(f)) {
			L.RaiseError("max_plies must be a whole number from 1 to %d", kernel.MaxCount)
		}
		d.MaxPlies = int(f)
	}
	if v := t.RawGetString("repetition"); v != lua.LNil {
		f, ok := v.(lua.LNumber)
		if !ok || f < 1 || f > kernel.MaxCount || float64(f) != math.Trunc(float64(f)) {
			L.RaiseError("repetition must be a whole number from 1 to %d: the occurrence of a position that ends the game", kernel.MaxCount)
		}
		d.Repetition = int(f)
	}
	if v := t.RawGetString("params"); v != lua.LNil {
		pt, ok := v.(*lua.LTable)
		if !ok {
			L.RaiseError("params must be a list of parameter declarations")
		}
		for i := 1; i <= pt.Len(); i++ {
			d.Specs = append(d.Specs, vm.paramSpec(L, pt.RawGetInt(i), i))
		}
	}
	if vm.ext.depth > 0 {
		d.Specs = vm.addExtendsParams(L, d.Specs) // extends.go
	}
	if len(d.Specs) > MaxParams {
		L.RaiseError("a game may declare at most %d parameters, got %d", MaxParams, len(d.Specs))
	}
	params, err := params.Resolve(d.Specs, vm.g.Variants, vm.g.Chosen, vm.g.Overrides)
	if err != nil {
		d.cfgErr = err
		L.RaiseError("%s", err.Error())
	}
	d.Params = params
	d.declared = true
	out := L.NewTable()
	for _, p := range params {
		switch v := p.Value.(type) {
		case int:
			out.RawSetString(p.Name, lua.LNumber(v))
		case bool:
			out.RawSetString(p.Name, lua.LBool(v))
		case string:
			out.RawSetString(p.Name, lua.LString(v))
		}
	}
	strictFields(L, out, func(key string) (string, int) {
		names := make([]string, len(params))
		for i, p := range params {
			names[i] = p.Name
		}
		return fmt.Sprintf("the game has no parameter %q (parameters: %s)", key, orNoParams(names)), 8 * len(names)
	})
	L.Push(out)
	return 1
}

// Bounds of a game's parameters: every load keeps the declarations, and
// tools load a game once per variant and per allowed value (matombo
// check), so a script's thousands of values would be held thousands of
// times.
const (
	MaxParams      = 64  // parameters of a game, its base game's included
	MaxParamValues = 256 // allowed values listed for one parameter
)

// MaxLineSites is the most sites a board's lines hold, all lines
// together. The board's neighbours, jumps and runs are worked out from
// them in Go in one call: 200,000 lines of 4,096 sites each (the same
// Lua table 200,000 times) kept a load busy for more than ten minutes,
// which no budget could stop. The shipped boards' lines hold at most a
// few hundred.
const MaxLineSites = 1 << 20

func (vm *Machine) paramSpec(L *lua.LState, v lua.LValue, i int) params.Spec {
	t, ok := v.(*lua.LTable)
	if !ok {
		L.RaiseError("params[%d] must be a table with name, default and values", i)
	}
	checkFields(L, t, fmt.Sprintf("params[%d]", i), "name", "default", "values", "doc")
	name, ok := t.RawGetString("name").(lua.LString)
	if !ok || name == "" {
		L.RaiseError("params[%d] needs a name", i)
	}
	checkName(L, "parameter", string(name))
	spec := params.Spec{Name: string(name)}
	if d, ok := t.RawGetString("doc").(lua.LString); ok {
		spec.Doc = string(d)
		checkText(L, fmt.Sprintf("the doc of parameter %s", name), spec.Doc, true)
	}
	conv := func(v lua.LValue, what string) any {
		switch x := v.(type) {
		case lua.LNumber:
			if float64(x) != math.Trunc(float64(x)) || math.Abs(float64(x)) > math.MaxInt32 {
				L.RaiseError("parameter %s: %s must be a whole number (a 32-bit integer), got %v", name, what, x)
			}
			return int(x)
		case lua.LBool:
			return bool(x)
		case lua.LString:
			checkText(L, fmt.Sprintf("parameter %s: %s", name, what), string(x), false)
			return string(x)
		}
		L.RaiseError("parameter %s: %s must be a number, boolean or string, got %s", name, what, vm.describe(v, plainSlot))
		return nil
	}
	dv := t.RawGetString("default")
	if dv == lua.LNil {
		L.RaiseError("parameter %s needs a default", name)
	}
	spec.Default = conv(dv, "default")
	switch spec.Default.(type) {
	case bool:
		spec.Kind = params.Bool
	case string:
		spec.Kind = params.String
	}
	if vv := t.RawGetString("values"); vv != lua.LNil {
		vt, ok := vv.(*lua.LTable)
		if !ok {
			L.RaiseError("parameter %s: values must be a list", name)
		}
		if vt.Len() > MaxParamValues {
			L.RaiseError("parameter %s: at most %d values may be listed, got %d", name, MaxParamValues, vt.Len())
		}
		for k := 1; k <= vt.Len(); k++ {
			val := conv(vt.RawGetInt(k), "each value")
			if _, err := spec.Normalize(val); err != nil {
				L.RaiseError("parameter %s: value %v: %v", name, val, err)
			}
			spec.Values = append(spec.Values, val)
		}
		if _, err := spec.Check(spec.Default); err != nil {
			L.RaiseError("parameter %s: the default %v is not among its values", name, spec.Default)
		}
	}
	for _, s := range vm.dcl.Specs {
		if s.Name == spec.Name {
			L.RaiseError("parameter %s is declared twice", name)
		}
	}
	return spec
}

func (vm *Machine) apiBoard(L *lua.LState) int {
	vm.mustLoad(L, "the board")
	if !vm.dcl.declared {
		L.RaiseError("call matombo.declare before matombo.board")
	}
	if vm.def.Board != nil {
		L.RaiseError("the board is declared twice")
	}
	t := L.CheckTable(1)
	vm.checkDataFields(L, t, "matombo.board", "rows", "columns", "points", "lines", "style", "picture", "ends")
	spec := kernel.BoardSpec{}
	if v := t.RawGetString("rows"); v != lua.LNil {
		spec.Rows = stringList(L, v, "rows")
		if len(spec.Rows) == 0 {
			L.RaiseError("rows must list at least one row label")
		}
		spec.Columns = vm.fieldInt(L, t, "columns")
	}
	if v := t.RawGetString("points"); v != lua.LNil {
		pt, ok := v.(*lua.LTable)
		if !ok {
			vm.dataError(L, t, "points must map point names to drawing positions")
		}
		spec.Points = map[string]int{}
		pt.ForEach(func(k, v lua.LValue) {
			ks, ok1 := k.(lua.LString)
			f, ok2 := v.(lua.LNumber)
			if !ok1 || !ok2 || float64(f) != math.Trunc(float64(f)) || math.Abs(float64(f)) > kernel.MaxCount {
				vm.dataError(L, pt, fmt.Sprintf("points: %s = %s: want a point name and a whole drawing position", luaText(k), luaText(v)))
			}
			spec.Points[string(ks)] = int(f)
			spec.Order = append(spec.Order, string(ks))
		})
		sort.Strings(spec.Order)
	}
	var lineTables []*lua.LTable
	if v := t.RawGetString("lines"); v != lua.LNil {
		lt, ok := v.(*lua.LTable)
		if !ok {
			vm.dataError(L, t, "lines must be a list of lists of site names")
		}
		total := 0
		for i, n := 1, vm.tableLen(L, lt); i <= n; i++ {
			line, ok := lt.RawGetInt(i).(*lua.LTable)
			if !ok {
				vm.dataError(L, lt, fmt.Sprintf("lines[%d] must be a list of site names", i))
			}
			size := vm.tableLen(L, line)
			if total += size; total > MaxLineSites {
				vm.dataError(L, line, fmt.Sprintf("lines[%d]: the lines of a board hold at most %d sites in all", i, MaxLineSites))
			}
			names := make([]string, 0, size)
			for k := 1; k <= size; k++ {
				s, ok := line.RawGetInt(k).(lua.LString)
				if !ok {
					vm.dataError(L, line, fmt.Sprintf("lines[%d][%d] must be a site name", i, k))
				}
				names = append(names, string(s))
			}
			spec.Lines = append(spec.Lines, names)
			lineTables = append(lineTables, line)
		}
	}
	switch v := t.RawGetString("style"); v {
	case lua.LNil, lua.LString("counts"):
	case lua.LString("pieces"):
		spec.Style = kernel.Pieces
	case lua.LString("checkered"):
		spec.Style, spec.Checkered = kernel.Pieces, true
	default:
		vm.dataError(L, t, fmt.Sprintf("style must be \"counts\", \"pieces\" or \"checkered\", got %s", vm.describe(v, plainSlot)))
	}
	if v, ok := t.RawGetString("picture").(lua.LString); ok {
		spec.Picture = strings.Trim(string(v), "\n")
	}
	if v := t.RawGetString("ends"); v != lua.LNil {
		et, ok := v.(*lua.LTable)
		if !ok {
			vm.dataError(L, t, "ends must map site names to \"west\" or \"east\"")
		}
		spec.Ends = map[string]string{}
		et.ForEach(func(k, v lua.LValue) {
			ks, ok1 := k.(lua.LString)
			vs, ok2 := v.(lua.LString)
			if !ok1 || !ok2 || len(spec.Ends) >= 2 {
				vm.dataError(L, et, fmt.Sprintf("ends: %s = %s: want at most two sites, each mapped to \"west\" or \"east\"", luaText(k), luaText(v)))
			}
			spec.Ends[string(ks)] = string(vs)
		})
	}
	b, err := kernel.NewBoard(spec)
	if err != nil {
		var le *kernel.LineError
		if errors.As(err, &le) && le.Line < len(lineTables) {
			vm.dataError(L, lineTables[le.Line], "board: "+err.Error())
		}
		vm.dataError(L, t, "board: "+err.Error())
	}
	vm.def.Board = b
	return 0
}

// dataError raises an error about a table; when the table came from a
// variants file the error names that file and line.
func (vm *Machine) dataError(L *lua.LState, t *lua.LTable, msg string) {
	if pos, ok := vm.dataPos[t]; ok {
		vm.dcl.cfgErr = &diag.ConfigError{Pos: pos, Msg: msg}
	}
	L.RaiseError("%s", msg)
}

// checkDataFields is checkFields for a table that may come from a
// variants file: the error then names the file and line.
func (vm *Machine) checkDataFields(L *lua.LState, t *lua.LTable, what string, known ...string) {
	if _, ok := vm.dataPos[t]; !ok {
		checkFields(L, t, what, known...)
		return
	}
	var bad []string
	t.ForEach(func(k, _ lua.LValue) {
		ks := luaText(k)
		for _, n := range known {
			if ks == n {
				return
			}
		}
		bad = append(bad, ks)
	})
	if len(bad) > 0 {
		sort.Strings(bad)
		vm.dataError(L, t, fmt.Sprintf("%s: unknown field %s (known: %s)", what, strings.Join(bad, ", "), strings.Join(known, ", ")))
	}
}

// apiDataError: data_error(t, message) raises an error about a table of
// matombo.data; it names the variants file and line the table came from.
func (vm *Machine) apiDataError(L *lua.LState) int {
	t := L.CheckTable(1)
	msg := L.CheckString(2)
	vm.dataError(L, t, msg)
	return 0
}

// apiMaxPlies: max_plies(n) declares, after declare, the number of
// decisions by which every game ends, when it depends on the parameters.
func (vm *Machine) apiMaxPlies(L *lua.LState) int {
	vm.mustLoad(L, "the ply cap")
	if !vm.dcl.declared {
		L.RaiseError("call matombo.declare before matombo.max_plies")
	}
	n := vm.argInt(L, 1)
	if n < 1 {
		L.ArgError(1, "the cap must be at least 1")
	}
	vm.dcl.MaxPlies = n
	return 0
}

// apiRepetition: repetition(n) declares, after declare, the occurrence of
// a position that ends the game (the script's repeated function is asked
// then), when whether repetition ends a game depends on the parameters.
func (vm *Machine) apiRepetition(L *lua.LState) int {
	vm.mustLoad(L, "the repetition rule")
	if !vm.dcl.declared {
		L.RaiseError("call matombo.declare before matombo.repetition")
	}
	n := vm.argInt(L, 1)
	if n < 1 || n > kernel.MaxCount {
		L.ArgError(1, fmt.Sprintf("the occurrence must be a whole number from 1 to %d", kernel.MaxCount))
	}
	vm.dcl.Repetition = n
	return 0
}

func (vm *Machine) fieldInt(L *lua.LState, t *lua.LTable, name string) int {
	v := t.RawGetString(name)
	f, ok := v.(lua.LNumber)
	if !ok || float64(f) != math.Trunc(float64(f)) || math.Abs(float64(f)) > kernel.MaxCount {
		vm.dataError(L, t, fmt.Sprintf("%s must be a whole number, got %s", name, vm.describe(v, plainSlot)))
	}
	return int(f)
}

// checkText raises an error for text with control characters (see
// text.go).
func checkText(L *lua.LState, what, s string, multiline bool) {
	if msg := diag.TextProblem(what, s, multiline); msg != "" {
		L.RaiseError("%s", msg)
	}
}

// checkName raises an error for a declared name that is empty or long.
func checkName(L *lua.LState, what, name string) {
	if name == "" || len(name) > 64 {
		L.RaiseError("a %s name has 1 to 64 characters, got %d", what, len(name))
	}
	checkText(L, "the "+what+" name", name, false)
}

func (vm *Machine) apiTag(L *lua.LState) int {
	vm.mustLoad(L, "a tag")
	b := vm.board(L)
	name := L.CheckString(1)
	checkName(L, "tag", name)
	sites := vm.siteList(L, L.Get(2), "tag "+name)
	doc := vm.tagDoc(L, name)
	t, err := b.AddTag(name, sites)
	if err != nil {
		L.RaiseError("%s", err.Error())
	}
	b.SetTagDoc(t, doc)
	L.Push(luaInt(t + 1))
	return 1
}

func (vm *Machine) apiMark(L *lua.LState) int {
	vm.mustLoad(L, "a mark")
	b := vm.board(L)
	tag := vm.handleArg(L, 1, tagSlot)
	m := L.CheckString(2)
	if len(m) != 1 || strings.ContainsAny(m, "0123456789.@-|/\\{}[] \t") || m[0] < 0x21 || m[0] > 0x7e {
		L.ArgError(2, "a mark is one printable character other than a digit, space, '.', '@', '-', '|', '/', '\\', '{', '}', '[' or ']'")
	}
	_, marks := b.MarkedTags()
	for _, x := range marks {
		if x == m[0] {
			L.ArgError(2, fmt.Sprintf("mark %q is already used", m))
		}
	}
	b.AddMark(tag, m[0])
	return 0
}

func (vm *Machine) apiTrack(L *lua.LState) int {
	vm.mustLoad(L, "a track")
	b := vm.board(L)
	name := L.CheckString(1)
	checkName(L, "track", name)
	sites := vm.siteList(L, L.Get(2), "track "+name)
	loop := L.OptBool(3, false)
	t, err := b.AddTrack(name, sites, loop)
	if err != nil {
		L.RaiseError("%s", err.Error())
	}
	L.Push(luaInt(t + 1))
	return 1
}

func (vm *Machine) apiMove(L *lua.LState) int {
	vm.mustLoad(L, "a move kind")
	name := L.CheckString(1)
	checkName(L, "move kind", name)
	tmpl := L.CheckString(2)
	for _, k := range vm.def.Kinds {
		if k.Name == name {
			L.RaiseError("move kind %q is declared twice", name)
		}
	}
	if len(vm.def.Kinds) == 255 {
		L.RaiseError("a game may declare at most 255 move kinds")
	}
	if len(tmpl) > 64 {
		L.RaiseError("move kind %s: a token template has at most 64 characters", name)
	}
	checkText(L, "move kind "+name+": the token template", tmpl, false)
	kind, err := kernel.NewMoveKind(name, tmpl, "")
	if err != nil {
		L.RaiseError("move kind %s: %v", name, err)
	}
	if kind.Numbers() {
		if vm.def.Board == nil {
			L.RaiseError("move kind %s: the template writes sites by number, so the board must be declared first (call matombo.board before matombo.move)", name)
		}
		if err := vm.def.Board.EnableSiteNumbers(); err != nil {
			L.RaiseError("move kind %s: %v", name, err)
		}
	}
	prompt, doc := "", ""
	var why lua.LValue
	if v := L.Get(3); v != lua.LNil {
		opts, ok := v.(*lua.LTable)
		if !ok {
			L.ArgError(3, "options expected: a table such as { prompt = \"...\" }")
		}
		checkFields(L, opts, "matombo.move options", "prompt", "doc", "why")
		if p := opts.RawGetString("prompt"); p != lua.LNil {
			ps, ok := p.(lua.LString)
			if !ok || len(ps) == 0 || len(ps) > MaxPrompt {
				L.RaiseError("move kind %s: a prompt is a text of 1 to %d characters, got %s", name, MaxPrompt, vm.describe(p, plainSlot))
			}
			prompt = string(ps)
			checkText(L, "move kind "+name+": the prompt", prompt, false)
		}
		doc, why = vm.kindOptions(L, name, tmpl, opts)
	}
	kind.Prompt, kind.Doc = prompt, doc
	vm.whys = append(vm.whys, why)
	vm.def.Kinds = append(vm.def.Kinds, kind)
	L.Push(luaInt(len(vm.def.Kinds)))
	return 1
}

func (vm *Machine) apiVar(L *lua.LState) int {
	vm.mustLoad(L, "a variable")
	name := L.CheckString(1)
	checkName(L, "variable", name)
	v := kernel.Var{Name: name, Position: true}
	if opts, ok := L.Get(2).(*lua.LTable); ok {
		checkFields(L, opts, "matombo.var options", "position")
		if p, ok := opts.RawGetString("position").(lua.LBool); ok {
			v.Position = bool(p)
		}
	}
	for _, x := range vm.def.Vars {
		if x.Name == name {
			L.RaiseError("variable %q is declared twice", name)
		}
	}
	if len(vm.def.Vars) == 64 {
		L.RaiseError("a game may declare at most 64 variables")
	}
	vm.def.Vars = append(vm.def.Vars, v)
	L.Push(luaInt(len(vm.def.Vars)))
	return 1
}
