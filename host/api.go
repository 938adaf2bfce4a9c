package host

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// installAPI creates the read-only global table matombo with the
// primitives. See docs/lua-api.md; games/matombo.d.lua is the same list for
// editors.
func (vm *machine) installAPI() error {
	L := vm.L
	api := L.NewTable()
	fns := map[string]lua.LGFunction{
		// Declarations, while the script loads.
		"declare": vm.apiDeclare, "board": vm.apiBoard, "tag": vm.apiTag, "mark": vm.apiMark,
		"track": vm.apiTrack, "move": vm.apiMove, "var": vm.apiVar, "filter": vm.apiFilter,
		"max_plies": vm.apiMaxPlies, "data_error": vm.apiDataError,
		// The board.
		"site": vm.apiSite, "name": vm.apiName, "row": vm.apiRow, "col": vm.apiCol, "size": vm.apiSize,
		"has_tag": vm.apiHasTag, "next": vm.apiNext, "prev": vm.apiPrev, "on_track": vm.apiOnTrack,
		"opposite": vm.apiOpposite, "adjacent": vm.apiAdjacent, "jumps": vm.apiJumps, "lines": vm.apiLines,
		"players": vm.apiPlayers, "next_player": vm.apiNextPlayer,
		// The state.
		"count": vm.apiCount, "set_count": vm.apiSetCount, "add": vm.apiAdd, "take": vm.apiTake,
		"owner": vm.apiOwner, "set_owner": vm.apiSetOwner,
		"captured": vm.apiCaptured, "capture": vm.apiCapture, "pay": vm.apiPay,
		"hand": vm.apiHand, "set_hand": vm.apiSetHand, "place": vm.apiPlace, "move_piece": vm.apiMovePiece,
		"to_move": vm.apiToMove, "set_to_move": vm.apiSetToMove, "ply": vm.apiPly,
		"get": vm.apiGet, "set": vm.apiSet,
		// Sowing and capturing.
		"sow": vm.apiSow, "relay": vm.apiRelay, "relay_ends": vm.apiRelayEnds,
		"capture_run": vm.apiCaptureRun, "sweep": vm.apiSweep,
		// Filters and lines.
		"count_sites": vm.apiCountSites, "sum": vm.apiSum, "first": vm.apiFirst, "sites": vm.apiSites,
		"in_a_row": vm.apiInARow,
		// Legal moves.
		"emit": vm.apiEmit, "emit_each": vm.apiEmitEach, "emit_subsets": vm.apiEmitSubsets,
		"emit_steps": vm.apiEmitSteps, "emit_jumps": vm.apiEmitJumps, "emit_sowings": vm.apiEmitSowings,
		// Repetition and the end.
		"repetitions": vm.apiRepetitions, "key": vm.apiKey, "finish": vm.apiFinish, "over": vm.apiOver,
	}
	for name, fn := range fns {
		api.RawSetString(name, L.NewFunction(fn))
	}
	for name, fn := range vm.g.extra {
		api.RawSetString(name, L.NewFunction(fn))
	}
	vm.dataPos = map[*lua.LTable]Pos{}
	var data lua.LValue = L.NewTable()
	if vm.g.data != nil {
		count := 0
		d, err := vm.yamlToLua(vm.g.data, 0, &count)
		if err != nil {
			return err
		}
		data = d
	}
	api.RawSetString("data", data)
	globals := L.Get(lua.GlobalsIndex).(*lua.LTable)
	globals.RawSetString("matombo", vm.readOnly(L, api, "matombo"))
	return nil
}

// ---- argument helpers ----

func (vm *machine) board(L *lua.LState) *Board {
	b := vm.dcl.board
	if b == nil {
		L.RaiseError("the board is not declared yet (call matombo.board first)")
	}
	return b
}

func (vm *machine) state(L *lua.LState) *State {
	if vm.st == nil {
		L.RaiseError("this primitive works on a state: use it inside setup, legal, play or blocked, not while the script loads")
	}
	return vm.st
}

// mutable returns the state for a primitive that changes it.
func (vm *machine) mutable(L *lua.LState) *State {
	s := vm.state(L)
	if vm.emitting {
		L.RaiseError("legal must not change the state")
	}
	vm.keyValid = false
	return s
}

func (vm *machine) mustLoad(L *lua.LState, what string) {
	if !vm.loading {
		L.RaiseError("%s can only be declared while the script loads", what)
	}
}

func (vm *machine) argInt(L *lua.LState, n int) int {
	v := L.Get(n)
	f, ok := v.(lua.LNumber)
	if !ok || float64(f) != math.Trunc(float64(f)) || math.Abs(float64(f)) > 1<<31 {
		L.ArgError(n, "integer expected, got "+describeLua(v))
	}
	return int(f)
}

func (vm *machine) optInt(L *lua.LState, n, def int) int {
	if L.Get(n) == lua.LNil {
		return def
	}
	return vm.argInt(L, n)
}

// site reads a site argument: an index from 1 or a site name. It returns
// the 0-based index.
func (vm *machine) site(L *lua.LState, n int) int {
	b := vm.board(L)
	switch v := L.Get(n).(type) {
	case lua.LNumber:
		i := int(v)
		if float64(i) == float64(v) && i >= 1 && i <= len(b.sites) {
			return i - 1
		}
		L.ArgError(n, fmt.Sprintf("site %v is not on the board (sites are 1..%d)", v, len(b.sites)))
	case lua.LString:
		if i, ok := b.byName[string(v)]; ok {
			return i
		}
		L.ArgError(n, fmt.Sprintf("no site is named %q", string(v)))
	default:
		L.ArgError(n, "site expected, got "+describeLua(v))
	}
	return 0
}

func (vm *machine) optSite(L *lua.LState, n int) int {
	if L.Get(n) == lua.LNil {
		return -1
	}
	return vm.site(L, n)
}

func (vm *machine) player(L *lua.LState, n int) int {
	p := vm.argInt(L, n)
	if p < 1 || p > vm.dcl.players {
		L.ArgError(n, fmt.Sprintf("player %d does not exist (players are 1..%d)", p, vm.dcl.players))
	}
	return p
}

func (vm *machine) track(L *lua.LState, n int) *Track {
	b := vm.board(L)
	t := vm.argInt(L, n)
	if t < 1 || t > len(b.tracks) {
		L.ArgError(n, fmt.Sprintf("track %d does not exist (declare tracks with matombo.track)", t))
	}
	return &b.tracks[t-1]
}

func (vm *machine) tagMask(L *lua.LState, n int) uint64 {
	if L.Get(n) == lua.LNil {
		return 0
	}
	b := vm.board(L)
	t := vm.argInt(L, n)
	if t < 1 || t > len(b.tags) {
		L.ArgError(n, fmt.Sprintf("tag %d does not exist (declare tags with matombo.tag)", t))
	}
	return 1 << uint(t-1)
}

func (vm *machine) kind(L *lua.LState, n int) int {
	k := vm.argInt(L, n)
	if k < 1 || k > len(vm.dcl.kinds) {
		L.ArgError(n, fmt.Sprintf("move kind %d does not exist (declare kinds with matombo.move)", k))
	}
	return k - 1
}

func (vm *machine) filterArg(L *lua.LState, n int) *filter {
	if ud, ok := L.Get(n).(*lua.LUserData); ok {
		if f, ok := ud.Value.(*filter); ok {
			return f
		}
	}
	L.ArgError(n, "filter expected (make one with matombo.filter), got "+describeLua(L.Get(n)))
	return nil
}

func describeLua(v lua.LValue) string {
	switch x := v.(type) {
	case lua.LString:
		if len(x) > 40 {
			x = x[:40] + "..."
		}
		return fmt.Sprintf("string %q", string(x))
	case lua.LNumber:
		return "number " + x.String()
	case *lua.LNilType:
		return "nil"
	default:
		return v.Type().String()
	}
}

func pushBool(L *lua.LState, b bool) {
	if b {
		L.Push(lua.LTrue)
	} else {
		L.Push(lua.LFalse)
	}
}

func (vm *machine) pushSite(L *lua.LState, i int) {
	if i < 0 {
		L.Push(lua.LNil)
		return
	}
	L.Push(luaInt(i + 1))
}

// stringList reads a list of strings from a table field.
func stringList(L *lua.LState, v lua.LValue, what string) []string {
	t, ok := v.(*lua.LTable)
	if !ok {
		L.RaiseError("%s must be a list, got %s", what, describeLua(v))
	}
	var out []string
	for i := 1; i <= t.Len(); i++ {
		s, ok := t.RawGetInt(i).(lua.LString)
		if !ok {
			L.RaiseError("%s[%d] must be a string, got %s", what, i, describeLua(t.RawGetInt(i)))
		}
		out = append(out, string(s))
	}
	return out
}

// siteList reads a list of sites (indices from 1 or names).
func (vm *machine) siteList(L *lua.LState, v lua.LValue, what string) []int {
	b := vm.board(L)
	t, ok := v.(*lua.LTable)
	if !ok {
		L.RaiseError("%s must be a list of sites, got %s", what, describeLua(v))
	}
	var out []int
	for i := 1; i <= t.Len(); i++ {
		switch x := t.RawGetInt(i).(type) {
		case lua.LNumber:
			k := int(x)
			if float64(k) != float64(x) || k < 1 || k > len(b.sites) {
				L.RaiseError("%s[%d]: site %v is not on the board", what, i, x)
			}
			out = append(out, k-1)
		case lua.LString:
			k, ok := b.byName[string(x)]
			if !ok {
				L.RaiseError("%s[%d]: no site is named %q", what, i, string(x))
			}
			out = append(out, k)
		default:
			L.RaiseError("%s[%d] must be a site, got %s", what, i, describeLua(x))
		}
	}
	return out
}

// checkFields raises an error for keys of t outside known.
func checkFields(L *lua.LState, t *lua.LTable, what string, known ...string) {
	var bad []string
	t.ForEach(func(k, _ lua.LValue) {
		ks, ok := k.(lua.LString)
		if !ok {
			bad = append(bad, k.String())
			return
		}
		for _, n := range known {
			if string(ks) == n {
				return
			}
		}
		bad = append(bad, string(ks))
	})
	if len(bad) > 0 {
		sort.Strings(bad)
		L.RaiseError("%s: unknown field %s (known: %s)", what, strings.Join(bad, ", "), strings.Join(known, ", "))
	}
}

// ---- declarations ----

func (vm *machine) apiDeclare(L *lua.LState) int {
	vm.mustLoad(L, "the game")
	d := vm.dcl
	if d.declared {
		L.RaiseError("matombo.declare is called twice")
	}
	t := L.CheckTable(1)
	checkFields(L, t, "matombo.declare", "name", "title", "description", "players", "params", "conserve", "max_plies", "repetition")
	name, ok := t.RawGetString("name").(lua.LString)
	if !ok || name == "" {
		L.RaiseError("matombo.declare needs a name")
	}
	d.name = string(name)
	if d.name != vm.g.name {
		L.RaiseError("the script declares the game %q but is loaded as %q (name the file or folder after the game)", d.name, vm.g.name)
	}
	d.title = d.name
	if s, ok := t.RawGetString("title").(lua.LString); ok {
		d.title = string(s)
	}
	if s, ok := t.RawGetString("description").(lua.LString); ok {
		d.description = string(s)
	}
	d.players = 2
	if v := t.RawGetString("players"); v != lua.LNil {
		f, ok := v.(lua.LNumber)
		if !ok || f < 1 || f > 8 || float64(f) != math.Trunc(float64(f)) {
			L.RaiseError("players must be a whole number from 1 to 8, got %s", describeLua(v))
		}
		d.players = int(f)
	}
	d.conserve = true
	if v := t.RawGetString("conserve"); v != lua.LNil {
		b, ok := v.(lua.LBool)
		if !ok {
			L.RaiseError("conserve must be true or false")
		}
		d.conserve = bool(b)
	}
	if v := t.RawGetString("max_plies"); v != lua.LNil {
		f, ok := v.(lua.LNumber)
		if !ok || f < 1 || float64(f) != math.Trunc(float64(f)) {
			L.RaiseError("max_plies must be a positive whole number")
		}
		d.maxPlies = int(f)
	}
	if v := t.RawGetString("repetition"); v != lua.LNil {
		f, ok := v.(lua.LNumber)
		if !ok || f < 1 || float64(f) != math.Trunc(float64(f)) {
			L.RaiseError("repetition must be a positive whole number: the occurrence of a position that ends the game")
		}
		d.repetition = int(f)
	}
	if v := t.RawGetString("params"); v != lua.LNil {
		pt, ok := v.(*lua.LTable)
		if !ok {
			L.RaiseError("params must be a list of parameter declarations")
		}
		for i := 1; i <= pt.Len(); i++ {
			d.specs = append(d.specs, vm.paramSpec(L, pt.RawGetInt(i), i))
		}
	}
	params, err := resolveParams(d.specs, vm.g.variants, vm.g.chosen, vm.g.overrides)
	if err != nil {
		d.cfgErr = err
		L.RaiseError("%s", err.Error())
	}
	d.params = params
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
	L.Push(out)
	return 1
}

func (vm *machine) paramSpec(L *lua.LState, v lua.LValue, i int) ParamSpec {
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
	spec := ParamSpec{Name: string(name)}
	if d, ok := t.RawGetString("doc").(lua.LString); ok {
		spec.Doc = string(d)
	}
	conv := func(v lua.LValue, what string) any {
		switch x := v.(type) {
		case lua.LNumber:
			if float64(x) != math.Trunc(float64(x)) {
				L.RaiseError("parameter %s: %s must be a whole number, got %v", name, what, x)
			}
			return int(x)
		case lua.LBool:
			return bool(x)
		case lua.LString:
			return string(x)
		}
		L.RaiseError("parameter %s: %s must be a number, boolean or string, got %s", name, what, describeLua(v))
		return nil
	}
	dv := t.RawGetString("default")
	if dv == lua.LNil {
		L.RaiseError("parameter %s needs a default", name)
	}
	spec.Default = conv(dv, "default")
	switch spec.Default.(type) {
	case bool:
		spec.Kind = BoolParam
	case string:
		spec.Kind = StringParam
	}
	if vv := t.RawGetString("values"); vv != lua.LNil {
		vt, ok := vv.(*lua.LTable)
		if !ok {
			L.RaiseError("parameter %s: values must be a list", name)
		}
		for k := 1; k <= vt.Len(); k++ {
			val := conv(vt.RawGetInt(k), "each value")
			if _, err := spec.normalize(val); err != nil {
				L.RaiseError("parameter %s: value %v: %v", name, val, err)
			}
			spec.Values = append(spec.Values, val)
		}
		if _, err := spec.check(spec.Default); err != nil {
			L.RaiseError("parameter %s: the default %v is not among its values", name, spec.Default)
		}
	}
	for _, s := range vm.dcl.specs {
		if s.Name == spec.Name {
			L.RaiseError("parameter %s is declared twice", name)
		}
	}
	return spec
}

func (vm *machine) apiBoard(L *lua.LState) int {
	vm.mustLoad(L, "the board")
	if !vm.dcl.declared {
		L.RaiseError("call matombo.declare before matombo.board")
	}
	if vm.dcl.board != nil {
		L.RaiseError("the board is declared twice")
	}
	t := L.CheckTable(1)
	vm.checkDataFields(L, t, "matombo.board", "rows", "columns", "points", "lines", "style", "picture")
	spec := boardSpec{}
	if v := t.RawGetString("rows"); v != lua.LNil {
		spec.rows = stringList(L, v, "rows")
		if len(spec.rows) == 0 {
			L.RaiseError("rows must list at least one row label")
		}
		spec.columns = vm.fieldInt(L, t, "columns")
	}
	if v := t.RawGetString("points"); v != lua.LNil {
		pt, ok := v.(*lua.LTable)
		if !ok {
			vm.dataError(L, t, "points must map point names to drawing positions")
		}
		spec.points = map[string]int{}
		pt.ForEach(func(k, v lua.LValue) {
			ks, ok1 := k.(lua.LString)
			f, ok2 := v.(lua.LNumber)
			if !ok1 || !ok2 || float64(f) != math.Trunc(float64(f)) {
				vm.dataError(L, pt, fmt.Sprintf("points: %s = %s: want a point name and a whole drawing position", luaText(k), luaText(v)))
			}
			spec.points[string(ks)] = int(f)
			spec.order = append(spec.order, string(ks))
		})
		sort.Strings(spec.order)
	}
	var lineTables []*lua.LTable
	if v := t.RawGetString("lines"); v != lua.LNil {
		lt, ok := v.(*lua.LTable)
		if !ok {
			vm.dataError(L, t, "lines must be a list of lists of site names")
		}
		for i := 1; i <= lt.Len(); i++ {
			line, ok := lt.RawGetInt(i).(*lua.LTable)
			if !ok {
				vm.dataError(L, lt, fmt.Sprintf("lines[%d] must be a list of site names", i))
			}
			var names []string
			for k := 1; k <= line.Len(); k++ {
				s, ok := line.RawGetInt(k).(lua.LString)
				if !ok {
					vm.dataError(L, line, fmt.Sprintf("lines[%d][%d] must be a site name", i, k))
				}
				names = append(names, string(s))
			}
			spec.lines = append(spec.lines, names)
			lineTables = append(lineTables, line)
		}
	}
	switch v := t.RawGetString("style"); v {
	case lua.LNil, lua.LString("counts"):
	case lua.LString("pieces"):
		spec.style = Pieces
	default:
		vm.dataError(L, t, fmt.Sprintf("style must be \"counts\" or \"pieces\", got %s", describeLua(v)))
	}
	if v, ok := t.RawGetString("picture").(lua.LString); ok {
		spec.picture = strings.Trim(string(v), "\n")
	}
	b, err := newBoard(spec)
	if err != nil {
		var le *lineError
		if errors.As(err, &le) && le.line < len(lineTables) {
			vm.dataError(L, lineTables[le.line], "board: "+err.Error())
		}
		vm.dataError(L, t, "board: "+err.Error())
	}
	vm.dcl.board = b
	return 0
}

// dataError raises an error about a table; when the table came from a
// variants file the error names that file and line.
func (vm *machine) dataError(L *lua.LState, t *lua.LTable, msg string) {
	if pos, ok := vm.dataPos[t]; ok {
		vm.dcl.cfgErr = &ConfigError{Pos: pos, Msg: msg}
	}
	L.RaiseError("%s", msg)
}

// checkDataFields is checkFields for a table that may come from a
// variants file: the error then names the file and line.
func (vm *machine) checkDataFields(L *lua.LState, t *lua.LTable, what string, known ...string) {
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
func (vm *machine) apiDataError(L *lua.LState) int {
	t := L.CheckTable(1)
	msg := L.CheckString(2)
	vm.dataError(L, t, msg)
	return 0
}

// apiMaxPlies: max_plies(n) declares, after declare, the number of
// decisions by which every game ends, when it depends on the parameters.
func (vm *machine) apiMaxPlies(L *lua.LState) int {
	vm.mustLoad(L, "the ply cap")
	if !vm.dcl.declared {
		L.RaiseError("call matombo.declare before matombo.max_plies")
	}
	n := vm.argInt(L, 1)
	if n < 1 {
		L.ArgError(1, "the cap must be at least 1")
	}
	vm.dcl.maxPlies = n
	return 0
}

func (vm *machine) fieldInt(L *lua.LState, t *lua.LTable, name string) int {
	v := t.RawGetString(name)
	f, ok := v.(lua.LNumber)
	if !ok || float64(f) != math.Trunc(float64(f)) {
		vm.dataError(L, t, fmt.Sprintf("%s must be a whole number, got %s", name, describeLua(v)))
	}
	return int(f)
}

// checkName raises an error for a declared name that is empty or long.
func checkName(L *lua.LState, what, name string) {
	if name == "" || len(name) > 64 {
		L.RaiseError("a %s name has 1 to 64 characters, got %d", what, len(name))
	}
}

func (vm *machine) apiTag(L *lua.LState) int {
	vm.mustLoad(L, "a tag")
	b := vm.board(L)
	name := L.CheckString(1)
	checkName(L, "tag", name)
	sites := vm.siteList(L, L.Get(2), "tag "+name)
	t, err := b.addTag(name, sites)
	if err != nil {
		L.RaiseError("%s", err.Error())
	}
	L.Push(luaInt(t + 1))
	return 1
}

func (vm *machine) apiMark(L *lua.LState) int {
	vm.mustLoad(L, "a mark")
	b := vm.board(L)
	t := vm.tagMask(L, 1)
	if t == 0 {
		L.ArgError(1, "tag expected")
	}
	m := L.CheckString(2)
	if len(m) != 1 || strings.ContainsAny(m, "0123456789.@-|/\\{} \t") || m[0] < 0x21 || m[0] > 0x7e {
		L.ArgError(2, "a mark is one printable character other than a digit, space, '.', '@', '-', '|', '/', '\\', '{' or '}'")
	}
	for _, x := range b.marks {
		if x.mark == m[0] {
			L.ArgError(2, fmt.Sprintf("mark %q is already used", m))
		}
	}
	tag := 0
	for t>>uint(tag) != 1 {
		tag++
	}
	b.marks = append(b.marks, tagMark{tag: tag, mark: m[0]})
	return 0
}

func (vm *machine) apiTrack(L *lua.LState) int {
	vm.mustLoad(L, "a track")
	b := vm.board(L)
	name := L.CheckString(1)
	checkName(L, "track", name)
	sites := vm.siteList(L, L.Get(2), "track "+name)
	loop := L.OptBool(3, false)
	t, err := b.addTrack(name, sites, loop)
	if err != nil {
		L.RaiseError("%s", err.Error())
	}
	L.Push(luaInt(t + 1))
	return 1
}

func (vm *machine) apiMove(L *lua.LState) int {
	vm.mustLoad(L, "a move kind")
	name := L.CheckString(1)
	checkName(L, "move kind", name)
	tmpl := L.CheckString(2)
	for _, k := range vm.dcl.kinds {
		if k.Name == name {
			L.RaiseError("move kind %q is declared twice", name)
		}
	}
	if len(vm.dcl.kinds) == 255 {
		L.RaiseError("a game may declare at most 255 move kinds")
	}
	if len(tmpl) > 64 {
		L.RaiseError("move kind %s: a token template has at most 64 characters", name)
	}
	parts, arity, err := parseTemplate(tmpl)
	if err != nil {
		L.RaiseError("move kind %s: %v", name, err)
	}
	vm.dcl.kinds = append(vm.dcl.kinds, MoveKind{Name: name, Template: tmpl, parts: parts, arity: arity})
	L.Push(luaInt(len(vm.dcl.kinds)))
	return 1
}

func (vm *machine) apiVar(L *lua.LState) int {
	vm.mustLoad(L, "a variable")
	name := L.CheckString(1)
	checkName(L, "variable", name)
	v := varSpec{name: name, position: true}
	if opts, ok := L.Get(2).(*lua.LTable); ok {
		checkFields(L, opts, "matombo.var options", "position")
		if p, ok := opts.RawGetString("position").(lua.LBool); ok {
			v.position = bool(p)
		}
	}
	for _, x := range vm.dcl.vars {
		if x.name == name {
			L.RaiseError("variable %q is declared twice", name)
		}
	}
	if len(vm.dcl.vars) == 64 {
		L.RaiseError("a game may declare at most 64 variables")
	}
	vm.dcl.vars = append(vm.dcl.vars, v)
	L.Push(luaInt(len(vm.dcl.vars)))
	return 1
}

// ---- the board ----

func (vm *machine) apiSite(L *lua.LState) int {
	vm.pushSite(L, vm.site(L, 1))
	return 1
}

func (vm *machine) apiName(L *lua.LState) int {
	i := vm.site(L, 1)
	if vm.strs.names != nil {
		L.Push(vm.strs.names[i])
	} else {
		L.Push(lua.LString(vm.dcl.board.sites[i].Name))
	}
	return 1
}

func (vm *machine) apiRow(L *lua.LState) int {
	L.Push(luaInt(vm.board(L).sites[vm.site(L, 1)].Row + 1))
	return 1
}

func (vm *machine) apiCol(L *lua.LState) int {
	L.Push(luaInt(vm.board(L).sites[vm.site(L, 1)].Col))
	return 1
}

func (vm *machine) apiSize(L *lua.LState) int {
	L.Push(luaInt(len(vm.board(L).sites)))
	return 1
}

func (vm *machine) apiHasTag(L *lua.LState) int {
	s := vm.site(L, 1)
	if L.Get(2) == lua.LNil {
		L.ArgError(2, "tag expected")
	}
	pushBool(L, vm.dcl.board.tagMask[s]&vm.tagMask(L, 2) != 0)
	return 1
}

func (vm *machine) apiNext(L *lua.LState) int {
	t := vm.track(L, 1)
	s := vm.site(L, 2)
	vm.pushSite(L, t.step(s, vm.optInt(L, 3, 1)))
	return 1
}

func (vm *machine) apiPrev(L *lua.LState) int {
	t := vm.track(L, 1)
	s := vm.site(L, 2)
	vm.pushSite(L, t.step(s, -vm.optInt(L, 3, 1)))
	return 1
}

func (vm *machine) apiOnTrack(L *lua.LState) int {
	t := vm.track(L, 1)
	pushBool(L, t.pos[vm.site(L, 2)] >= 0)
	return 1
}

func (vm *machine) apiOpposite(L *lua.LState) int {
	b := vm.board(L)
	s := vm.site(L, 1)
	r := vm.argInt(L, 2)
	if r < 1 || r > len(b.rows) {
		L.ArgError(2, fmt.Sprintf("row %d does not exist (rows are 1..%d)", r, len(b.rows)))
	}
	vm.pushSite(L, b.at(r-1, b.sites[s].Col))
	return 1
}

func (vm *machine) apiAdjacent(L *lua.LState) int {
	s := vm.site(L, 1)
	t := L.NewTable()
	for _, a := range vm.dcl.board.adj[s] {
		t.Append(luaInt(int(a) + 1))
	}
	L.Push(t)
	return 1
}

func (vm *machine) apiJumps(L *lua.LState) int {
	s := vm.site(L, 1)
	t := L.NewTable()
	for _, j := range vm.dcl.board.jumps[s] {
		p := L.NewTable()
		p.RawSetString("over", luaInt(int(j.over)+1))
		p.RawSetString("to", luaInt(int(j.to)+1))
		t.Append(p)
	}
	L.Push(t)
	return 1
}

func (vm *machine) apiLines(L *lua.LState) int {
	b := vm.board(L)
	s := vm.optSite(L, 1)
	out := L.NewTable()
	add := func(li int32) {
		t := L.NewTable()
		for _, x := range b.lines[li] {
			t.Append(luaInt(int(x) + 1))
		}
		out.Append(t)
	}
	if s < 0 {
		for i := range b.lines {
			add(int32(i))
		}
	} else {
		for _, li := range b.linesAt[s] {
			add(li)
		}
	}
	L.Push(out)
	return 1
}

func (vm *machine) apiPlayers(L *lua.LState) int {
	L.Push(luaInt(vm.dcl.players))
	return 1
}

func (vm *machine) apiNextPlayer(L *lua.LState) int {
	L.Push(luaInt(vm.player(L, 1)%vm.dcl.players + 1))
	return 1
}

// ---- the state ----

func (vm *machine) apiCount(L *lua.LState) int {
	s := vm.state(L)
	L.Push(luaInt(int(s.cells[vm.site(L, 1)])))
	return 1
}

// checkCount raises an error for a count the state cannot hold.
func checkCount(L *lua.LState, what string, n int) int32 {
	if n < 0 || n > math.MaxInt32/2 {
		countError(L, what, n)
	}
	return int32(n)
}

// checkSiteCount is checkCount for the count of site i; it builds no
// message unless there is an error.
func (vm *machine) checkSiteCount(L *lua.LState, i, n int) int32 {
	if n < 0 || n > math.MaxInt32/2 {
		countError(L, "the count of "+vm.dcl.board.sites[i].Name, n)
	}
	return int32(n)
}

func countError(L *lua.LState, what string, n int) {
	if n < 0 {
		L.RaiseError("%s would become %d: counts cannot be negative", what, n)
	}
	L.RaiseError("%s would become %d: too large", what, n)
}

func (vm *machine) apiSetCount(L *lua.LState) int {
	s := vm.mutable(L)
	i := vm.site(L, 1)
	s.cells[i] = vm.checkSiteCount(L, i, vm.argInt(L, 2))
	return 0
}

func (vm *machine) apiAdd(L *lua.LState) int {
	s := vm.mutable(L)
	i := vm.site(L, 1)
	n := vm.checkSiteCount(L, i, int(s.cells[i])+vm.argInt(L, 2))
	s.cells[i] = n
	L.Push(luaInt(int(n)))
	return 1
}

func (vm *machine) apiTake(L *lua.LState) int {
	s := vm.mutable(L)
	i := vm.site(L, 1)
	n := s.cells[i]
	s.cells[i] = 0
	L.Push(luaInt(int(n)))
	return 1
}

func (vm *machine) apiOwner(L *lua.LState) int {
	s := vm.state(L)
	L.Push(luaInt(int(s.cells[vm.g.lay.owners+vm.site(L, 1)])))
	return 1
}

func (vm *machine) apiSetOwner(L *lua.LState) int {
	s := vm.mutable(L)
	i := vm.site(L, 1)
	p := vm.argInt(L, 2)
	if p < 0 || p > vm.dcl.players {
		L.ArgError(2, fmt.Sprintf("owner %d does not exist (0 for nobody, players 1..%d)", p, vm.dcl.players))
	}
	s.cells[vm.g.lay.owners+i] = int32(p)
	return 0
}

func (vm *machine) apiCaptured(L *lua.LState) int {
	s := vm.state(L)
	L.Push(luaInt(int(s.cells[vm.g.lay.captured+vm.player(L, 1)-1])))
	return 1
}

// apiCapture moves the counters of a site (all, or n of them) to a player's
// captured total and returns how many moved.
func (vm *machine) apiCapture(L *lua.LState) int {
	s := vm.mutable(L)
	i := vm.site(L, 1)
	p := vm.player(L, 2)
	n := int(s.cells[i])
	if L.Get(3) != lua.LNil {
		k := vm.argInt(L, 3)
		if k < 0 || k > n {
			L.ArgError(3, fmt.Sprintf("cannot capture %d counters from %s, which holds %d", k, vm.dcl.board.sites[i].Name, n))
		}
		n = k
	}
	s.cells[i] -= int32(n)
	c := &s.cells[vm.g.lay.captured+p-1]
	*c = checkCount(L, "a captured total", int(*c)+n)
	L.Push(luaInt(n))
	return 1
}

// apiPay moves n counters from a player's captured total onto a site.
func (vm *machine) apiPay(L *lua.LState) int {
	s := vm.mutable(L)
	p := vm.player(L, 1)
	i := vm.site(L, 2)
	n := vm.argInt(L, 3)
	c := &s.cells[vm.g.lay.captured+p-1]
	if n < 0 || int(*c) < n {
		L.ArgError(3, fmt.Sprintf("player %d cannot pay %d counters with %d captured", p, n, *c))
	}
	*c -= int32(n)
	s.cells[i] = vm.checkSiteCount(L, i, int(s.cells[i])+n)
	return 0
}

func (vm *machine) apiHand(L *lua.LState) int {
	s := vm.state(L)
	L.Push(luaInt(int(s.cells[vm.g.lay.hand+vm.player(L, 1)-1])))
	return 1
}

func (vm *machine) apiSetHand(L *lua.LState) int {
	s := vm.mutable(L)
	p := vm.player(L, 1)
	s.cells[vm.g.lay.hand+p-1] = checkCount(L, "a hand", vm.argInt(L, 2))
	return 0
}

// apiPlace puts one counter from a player's hand on a site the player then
// owns: dropping a piece.
func (vm *machine) apiPlace(L *lua.LState) int {
	s := vm.mutable(L)
	p := vm.player(L, 1)
	i := vm.site(L, 2)
	h := &s.cells[vm.g.lay.hand+p-1]
	if *h < 1 {
		L.RaiseError("player %d has nothing in hand to place on %s", p, vm.dcl.board.sites[i].Name)
	}
	*h--
	s.cells[i]++
	s.cells[vm.g.lay.owners+i] = int32(p)
	return 0
}

// apiMovePiece moves everything on one site, counters and owner, to an
// empty site.
func (vm *machine) apiMovePiece(L *lua.LState) int {
	s := vm.mutable(L)
	from, to := vm.site(L, 1), vm.site(L, 2)
	o := vm.g.lay.owners
	if s.cells[to] != 0 || s.cells[o+to] != 0 {
		L.RaiseError("move_piece: %s is not empty", vm.dcl.board.sites[to].Name)
	}
	if s.cells[from] == 0 && s.cells[o+from] == 0 {
		L.RaiseError("move_piece: %s is empty: there is nothing to move", vm.dcl.board.sites[from].Name)
	}
	s.cells[to], s.cells[from] = s.cells[from], 0
	s.cells[o+to], s.cells[o+from] = s.cells[o+from], 0
	return 0
}

func (vm *machine) apiToMove(L *lua.LState) int {
	L.Push(luaInt(vm.state(L).ToMove()))
	return 1
}

func (vm *machine) apiSetToMove(L *lua.LState) int {
	s := vm.mutable(L)
	s.cells[vm.g.lay.toMove] = int32(vm.player(L, 1))
	vm.toMoveSet = true
	return 0
}

func (vm *machine) apiPly(L *lua.LState) int {
	L.Push(luaInt(vm.state(L).ply))
	return 1
}

func (vm *machine) varCell(L *lua.LState, n int) int {
	v := vm.argInt(L, n)
	if v < 1 || v > len(vm.dcl.vars) {
		L.ArgError(n, fmt.Sprintf("variable %d does not exist (declare variables with matombo.var)", v))
	}
	return vm.g.vars[v-1].cell
}

func (vm *machine) apiGet(L *lua.LState) int {
	s := vm.state(L)
	L.Push(luaInt(int(s.cells[vm.varCell(L, 1)])))
	return 1
}

func (vm *machine) apiSet(L *lua.LState) int {
	s := vm.mutable(L)
	c := vm.varCell(L, 1)
	v := vm.argInt(L, 2)
	if v < math.MinInt32 || v > math.MaxInt32 {
		L.ArgError(2, "value out of range")
	}
	s.cells[c] = int32(v)
	return 0
}

func (vm *machine) apiOver(L *lua.LState) int {
	pushBool(L, vm.state(L).over)
	return 1
}

func (vm *machine) apiFinish(L *lua.LState) int {
	s := vm.mutable(L)
	w := vm.argInt(L, 1)
	if w < 0 || w > vm.dcl.players {
		L.ArgError(1, fmt.Sprintf("winner %d does not exist (0 for a draw, players 1..%d)", w, vm.dcl.players))
	}
	reason := ""
	if v := L.Get(2); v != lua.LNil {
		reason = L.CheckString(2)
	}
	if len(reason) > 200 || L.GetTop() > 2+16 {
		L.RaiseError("finish: a reason has at most 200 characters and there are at most 16 notes")
	}
	var notes []string
	for i := 3; i <= L.GetTop(); i++ {
		n := L.CheckString(i)
		if len(n) > 200 {
			L.ArgError(i, "a note has at most 200 characters")
		}
		notes = append(notes, n)
	}
	s.over, s.winner, s.reason, s.notes = true, w, reason, notes
	return 0
}

// apiRepetitions counts the occurrences of the current position. During
// play the position being made is not in the history yet, so it counts
// once more.
func (vm *machine) apiRepetitions(L *lua.LState) int {
	s := vm.state(L)
	k := s.Key()
	n := s.hist.count(k)
	if vm.playing {
		n++
		vm.key, vm.keyValid = k, true
	}
	L.Push(luaInt(n))
	return 1
}

func (vm *machine) apiKey(L *lua.LState) int {
	L.Push(lua.LString(fmt.Sprintf("%016x", vm.state(L).Key())))
	return 1
}
