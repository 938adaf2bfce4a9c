package luavm

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/matombo/matombo/host/diag"
	"github.com/matombo/matombo/host/internal/watchdog"
	"github.com/matombo/matombo/host/kernel"
	"github.com/matombo/matombo/host/rules"
	lua "github.com/yuin/gopher-lua"
)

// The Lua side of the rule parts (package rules): a constructor for each
// registered kind of part (matombo.sow_rule, ...), which decodes the
// script's table by the part's fields; the function it returns, which
// calls the part as its slot says; the turns the host runs itself when a
// script's legal or play is a part; and the script functions parts call
// (the machine is their kernel.Hooks).
//
// The parts are made once, by the game's first machine, and shared: a
// later machine runs the same declarations and gets the first machine's
// parts back, in the order the script declared them, with its own Lua
// functions in their hooks (a hook is known by its number).

// partRef is a part a script declared, as the machine knows it.
type partRef struct {
	spec *rules.Spec
	part any
	pos  diag.Pos // the line of the script that made it
}

// installParts adds the constructor of every kind of part to the API
// table.
func (vm *Machine) installParts(api *lua.LTable) {
	L := vm.L
	for _, spec := range rules.All() {
		api.RawSetString(spec.Name, L.NewFunction(func(L *lua.LState) int {
			return vm.declare(L, func(L *lua.LState) int { return vm.declarePart(L, spec) },
				func(L *lua.LState) { vm.pushBrokenPart(L, spec) })
		}))
	}
}

// declarePart runs a part's constructor, while the script loads.
func (vm *Machine) declarePart(L *lua.LState, spec *rules.Spec) int {
	vm.mustLoad(L, "a native rule ("+spec.Name+")")
	vm.board(L)
	t := L.CheckTable(1)
	a := rules.NewArgs(vm.def, spec)
	vm.decodeTable(L, t, spec.Name, spec.Fields, a)
	part, err := spec.New(a)
	if err != nil {
		L.RaiseError("%s: %s", spec.Name, err.Error())
	}
	// A later machine of the game shares the first one's parts.
	if n := len(vm.partSeq); vm.g.Def != nil {
		if n >= len(vm.g.parts) || vm.g.parts[n].spec != spec {
			L.RaiseError("%s: the script declared different rules when loaded a second time: a script must declare the same things every time it runs", spec.Name)
		}
		part = vm.g.parts[n].part
	}
	pos := vm.declPos
	if pos.Line == 0 {
		pos = vm.callerPos(L)
	}
	ref := &partRef{spec: spec, part: part, pos: pos}
	vm.partSeq = append(vm.partSeq, ref)
	fn := L.NewFunction(func(L *lua.LState) int { return vm.callPart(L, ref) })
	if vm.parts == nil {
		vm.parts = map[*lua.LFunction]*partRef{}
	}
	vm.parts[fn] = ref
	L.Push(fn)
	return 1
}

// ---- decoding a part's table ----

// decodeTable decodes the fields of t into a.
func (vm *Machine) decodeTable(L *lua.LState, t *lua.LTable, what string, fields []rules.Field, a *rules.Args) {
	var known []string
	list, items := false, false
	for _, f := range fields {
		if f.Name == rules.List {
			list = true
			items = f.Type == rules.FieldTables || f.Type == rules.FieldParts
		} else {
			known = append(known, f.Name)
		}
	}
	if items {
		t = withoutCallCopy(L, t)
	}
	if list {
		t.ForEach(func(k, _ lua.LValue) {
			if _, ok := k.(lua.LNumber); ok {
				return
			}
			if ks, ok := k.(lua.LString); ok && containsString(known, string(ks)) {
				return
			}
			L.RaiseError("%s: unknown field %s (a list of items, and %s)", what, k.String(), strings.Join(known, ", "))
		})
	} else {
		checkFields(L, t, what, known...)
	}
	for i := range fields {
		f := &fields[i]
		var v lua.LValue
		if f.Name == rules.List {
			v = t
		} else {
			v = t.RawGetString(f.Name)
		}
		if v == lua.LNil || f.Name == rules.List && t.Len() == 0 && f.Type != rules.FieldKindMap {
			if f.Required {
				switch {
				case f.Name == rules.List:
					L.RaiseError("%s: give at least one item (%s)", what, f.Doc)
				case f.Type == rules.FieldParts:
					L.RaiseError("%s: %s must be a list of %d to %d functions (%s)", what, f.Name, max(f.Min, 1), f.Max, f.Doc)
				}
				L.RaiseError("%s: %s is required (%s)", what, f.Name, f.Doc)
			}
			continue
		}
		if f.PerPlayer && f.Type == rules.FieldTracks {
			a.Set(f.Name, vm.decodeTrackLists(L, v, what, f))
			continue
		}
		if f.PerPlayer && f.Type == rules.FieldSiteLists {
			a.Set(f.Name, vm.decodeSiteListsPer(L, v, what, f))
			continue
		}
		if f.PerPlayer && f.Type != rules.FieldSites {
			a.Set(f.Name, vm.decodePerPlayer(L, v, what, f))
			continue
		}
		a.Set(f.Name, vm.decodeValue(L, v, what, f))
	}
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// decodeTrackLists reads a list of tracks for every player, or one list
// per player (a list of lists).
func (vm *Machine) decodeTrackLists(L *lua.LState, v lua.LValue, what string, f *rules.Field) [][]*kernel.Track {
	n := vm.dcl.Players
	lt, ok := v.(*lua.LTable)
	if !ok || lt.Len() == 0 {
		L.RaiseError("%s: %s must be a list of tracks, or one list per player, got %s", what, f.Name, vm.describe(v, trackSlot))
	}
	one := &rules.Field{Name: f.Name, Type: rules.FieldTrack}
	list := func(t *lua.LTable) []*kernel.Track {
		var out []*kernel.Track
		for i, count := 1, vm.tableLen(L, t); i <= count; i++ {
			out = append(out, vm.decodeValue(L, t.RawGetInt(i), what, one).(*kernel.Track))
		}
		return out
	}
	out := make([][]*kernel.Track, n)
	if _, nested := lt.RawGetInt(1).(*lua.LTable); nested {
		if lt.Len() != n {
			L.RaiseError("%s: %s lists %d lists; give one list, or one per player (%d)", what, f.Name, lt.Len(), n)
		}
		for p := range out {
			pt, ok := lt.RawGetInt(p + 1).(*lua.LTable)
			if !ok || pt.Len() == 0 {
				L.RaiseError("%s: %s[%d] must be a list of tracks", what, f.Name, p+1)
			}
			out[p] = list(pt)
		}
		return out
	}
	all := list(lt)
	for p := range out {
		out[p] = all
	}
	return out
}

// decodeSiteListsPer reads a list of lists of sites for every player, or
// one such list per player: a list whose items are lists of lists (or
// empty lists, for a player with none).
func (vm *Machine) decodeSiteListsPer(L *lua.LState, v lua.LValue, what string, f *rules.Field) [][][]int {
	n := vm.dcl.Players
	one := &rules.Field{Name: f.Name, Type: rules.FieldSiteLists}
	lt, ok := v.(*lua.LTable)
	if !ok {
		L.RaiseError("%s: %s must be a list of lists of sites, or one such list per player, got %s", what, f.Name, vm.describe(v, anySlot))
	}
	out := make([][][]int, n)
	if first, ok := lt.RawGetInt(1).(*lua.LTable); ok {
		if inner := first.RawGetInt(1); first.Len() == 0 || inner.Type() == lua.LTTable {
			if lt.Len() != n {
				L.RaiseError("%s: %s lists %d lists of lines; give one, or one per player (%d)", what, f.Name, lt.Len(), n)
			}
			for p := range out {
				out[p] = vm.decodeValue(L, lt.RawGetInt(p+1), fmt.Sprintf("%s: %s[%d]", what, f.Name, p+1), one).([][]int)
			}
			return out
		}
	}
	all := vm.decodeValue(L, v, what, one).([][]int)
	for p := range out {
		out[p] = all
	}
	return out
}

// decodePerPlayer reads a field given for every player or one per
// player, as a slice of one value per player.
func (vm *Machine) decodePerPlayer(L *lua.LState, v lua.LValue, what string, f *rules.Field) any {
	n := vm.dcl.Players
	lt, isList := v.(*lua.LTable)
	isList = isList && lt.Len() > 0
	one := func(i int) lua.LValue {
		if isList {
			return lt.RawGetInt(i + 1)
		}
		return v
	}
	if isList && lt.Len() != n {
		L.RaiseError("%s: %s lists %d values; give one, or one per player (%d)", what, f.Name, lt.Len(), n)
	}
	switch f.Type {
	case rules.FieldTrack:
		out := make([]*kernel.Track, n)
		for p := range out {
			out[p] = vm.decodeValue(L, one(p), what, f).(*kernel.Track)
		}
		return out
	case rules.FieldFilter:
		out := make([]*kernel.Filter, n)
		for p := range out {
			out[p] = vm.decodeValue(L, one(p), what, f).(*kernel.Filter)
		}
		return out
	case rules.FieldWord:
		out := make([]string, n)
		for p := range out {
			out[p] = vm.decodeValue(L, one(p), what, f).(string)
		}
		return out
	case rules.FieldSite, rules.FieldRow, rules.FieldInt, rules.FieldVar, rules.FieldKind:
		out := make([]int, n)
		for p := range out {
			out[p] = vm.decodeValue(L, one(p), what, f).(int)
		}
		return out
	}
	L.RaiseError("%s: field %s cannot be given per player", what, f.Name)
	return nil
}

// decodeValue reads one value of field f.
func (vm *Machine) decodeValue(L *lua.LState, v lua.LValue, what string, f *rules.Field) any {
	b := vm.def.Board
	switch f.Type {
	case rules.FieldInt:
		lo, hi := f.Min, f.Max
		if lo == 0 && hi == 0 {
			lo, hi = math.MinInt32, math.MaxInt32
		}
		n, ok := v.(lua.LNumber)
		if !ok || float64(n) != math.Trunc(float64(n)) || float64(n) < float64(lo) || float64(n) > float64(hi) {
			L.RaiseError("%s: %s must be a whole number from %d to %d, got %s", what, f.Name, lo, hi, vm.describe(v, plainSlot))
		}
		return int(n)
	case rules.FieldBool:
		x, ok := v.(lua.LBool)
		if !ok {
			L.RaiseError("%s: %s must be true or false, got %s", what, f.Name, vm.describe(v, plainSlot))
		}
		return bool(x)
	case rules.FieldWord:
		if s, ok := v.(lua.LString); ok && containsString(f.Words, string(s)) {
			return string(s)
		}
		L.RaiseError("%s: %s must be %s, got %s", what, f.Name, quotedChoices(f.Words), vm.describe(v, plainSlot))
	case rules.FieldText:
		s, ok := v.(lua.LString)
		if !ok || len(s) > 200 {
			L.RaiseError("%s: %s must be a text of at most 200 characters, got %s", what, f.Name, vm.describe(v, plainSlot))
		}
		checkText(L, what+": "+f.Name, string(s), false)
		return string(s)
	case rules.FieldSite:
		switch x := v.(type) {
		case lua.LNumber:
			if i := int(x); float64(i) == float64(x) && i >= 1 && i <= b.NumSites() {
				return i - 1
			}
		case lua.LString:
			if i, ok := b.Index(string(x)); ok {
				return i
			}
		}
		L.RaiseError("%s: %s must be a site of the board, got %s", what, f.Name, vm.describe(v, siteSlot))
	case rules.FieldSites:
		if !f.PerPlayer {
			return vm.siteList(L, v, what+": "+f.Name)
		}
		lt, ok := v.(*lua.LTable)
		if !ok || lt.Len() != vm.dcl.Players {
			L.RaiseError("%s: %s must list one list of sites per player", what, f.Name)
		}
		var out [][]int
		for p, count := 1, vm.tableLen(L, lt); p <= count; p++ {
			out = append(out, vm.siteList(L, lt.RawGetInt(p), what+": "+f.Name))
		}
		return out
	case rules.FieldTrack:
		return vm.trackValue(L, v, what, f.Name)
	case rules.FieldFilter:
		if ud, ok := v.(*lua.LUserData); ok {
			if flt, ok := ud.Value.(*kernel.Filter); ok {
				return flt
			}
		}
		L.RaiseError("%s: %s must be a filter (from matombo.filter), got %s", what, f.Name, vm.describe(v, filterSlot))
	case rules.FieldTag:
		return uint64(1) << uint(vm.tagValue(L, v, what, f.Name))
	case rules.FieldVar:
		return vm.varValue(L, v, what, f.Name)
	case rules.FieldVars:
		lt, ok := v.(*lua.LTable)
		lo, hi := max(f.Min, 1), f.Max
		if !ok || lt.Len() < lo || hi > 0 && lt.Len() > hi {
			L.RaiseError("%s: %s must be a list of %d to %d variables (from matombo.var), got %s", what, f.Name, lo, hi, vm.describeList(v, anySlot))
		}
		var out []int
		for i, count := 1, vm.tableLen(L, lt); i <= count; i++ {
			out = append(out, vm.varValue(L, lt.RawGetInt(i), what, f.Name))
		}
		return out
	case rules.FieldKind:
		return vm.kindField(L, v, what, f)
	case rules.FieldKinds:
		lt, ok := v.(*lua.LTable)
		lo, hi := max(f.Min, 1), f.Max
		if !ok || lt.Len() < lo || hi > 0 && lt.Len() > hi {
			L.RaiseError("%s: %s must be a list of %d to %d move kinds, got %s", what, f.Name, lo, hi, vm.describeList(v, anySlot))
		}
		var out []int
		for i, count := 1, vm.tableLen(L, lt); i <= count; i++ {
			k := vm.kindValue(L, lt.RawGetInt(i), what, f.Name)
			if a := vm.def.Kinds[k].Arity(); f.Arity != rules.AnyArity && a != f.Arity {
				takes := "that take " + rules.ArityText(f.Arity)
				if f.Arity == 0 {
					takes = "without sites"
				}
				L.RaiseError("%s: %s lists kinds of moves %s; %s takes %s", what, f.Name, takes, vm.def.Kinds[k].Name, rules.ArityText(a))
			}
			out = append(out, k)
		}
		return out
	case rules.FieldCounts:
		lt, ok := v.(*lua.LTable)
		if !ok || lt.Len() < 1 || lt.Len() > rules.MaxCounts {
			L.RaiseError("%s: %s must be a list of 1 to %d counts, got %s", what, f.Name, rules.MaxCounts, vm.describeList(v, plainSlot))
		}
		var out []int32
		for i, count := 1, vm.tableLen(L, lt); i <= count; i++ {
			n, ok := lt.RawGetInt(i).(lua.LNumber)
			if !ok || float64(n) != math.Trunc(float64(n)) || n < 1 || n > kernel.MaxCount {
				L.RaiseError("%s: %s[%d] must be a count of at least 1, got %s", what, f.Name, i, vm.describe(lt.RawGetInt(i), plainSlot))
			}
			out = append(out, int32(n))
		}
		return out
	case rules.FieldRow:
		n, ok := v.(lua.LNumber)
		if !ok || int(n) < 1 || int(n) > b.NumRows() || float64(int(n)) != float64(n) {
			L.RaiseError("%s: %s must be a row (1..%d) or one per player, got %s", what, f.Name, b.NumRows(), vm.describe(v, plainSlot))
		}
		return int(n) - 1
	case rules.FieldPart:
		if f.Or != rules.SlotNone {
			if fn, ok := v.(*lua.LFunction); ok {
				if ref := vm.parts[fn]; ref != nil && rules.Fits(ref.part, f.Or) {
					return ref.part
				}
			}
		}
		return vm.partValue(L, v, what, f.Name, f.Slot)
	case rules.FieldParts:
		lo, hi := max(f.Min, 1), f.Max
		if _, lone := v.(*lua.LFunction); lone && lo == 1 {
			return []any{vm.partValue(L, v, what, listName(f), f.Slot)} // a list of one
		}
		lt, ok := v.(*lua.LTable)
		if !ok || lt.Len() < lo || hi > 0 && lt.Len() > hi {
			L.RaiseError("%s: %s must be a list of %d to %d functions (%s), got %s", what, listName(f), lo, hi, f.Doc, vm.describeList(v, anySlot))
		}
		var out []any
		for i, count := 1, vm.tableLen(L, lt); i <= count; i++ {
			out = append(out, vm.partValue(L, lt.RawGetInt(i), what, fmt.Sprintf("%s[%d]", listName(f), i), f.Slot))
		}
		return out
	case rules.FieldTable:
		lt, ok := v.(*lua.LTable)
		if !ok {
			L.RaiseError("%s: %s must be a table, got %s", what, f.Name, vm.describe(v, anySlot))
		}
		sub := rules.NewArgs(vm.def, subSpec(f))
		vm.decodeTable(L, lt, what+": "+f.Name, f.Fields, sub)
		return sub
	case rules.FieldTables:
		lt, ok := v.(*lua.LTable)
		lo, hi := max(f.Min, 1), f.Max
		if !ok || lt.Len() < lo || hi > 0 && lt.Len() > hi {
			L.RaiseError("%s: %s must be a list of %d to %d tables, got %s", what, listName(f), lo, hi, vm.describeList(v, anySlot))
		}
		var out []*rules.Args
		for i, count := 1, vm.tableLen(L, lt); i <= count; i++ {
			one, ok := lt.RawGetInt(i).(*lua.LTable)
			if !ok {
				L.RaiseError("%s: %s[%d] must be a table, got %s", what, listName(f), i, vm.describe(lt.RawGetInt(i), anySlot))
			}
			sub := rules.NewArgs(vm.def, subSpec(f))
			vm.decodeTable(L, one, fmt.Sprintf("%s: %s[%d]", what, listName(f), i), f.Fields, sub)
			out = append(out, sub)
		}
		return out
	case rules.FieldSiteLists:
		lt, ok := v.(*lua.LTable)
		if !ok {
			L.RaiseError("%s: %s must be a list of lists of sites, got %s", what, f.Name, vm.describe(v, anySlot))
		}
		var out [][]int
		for i, count := 1, vm.tableLen(L, lt); i <= count; i++ {
			out = append(out, vm.siteList(L, lt.RawGetInt(i), fmt.Sprintf("%s: %s[%d]", what, f.Name, i)))
		}
		return out
	case rules.FieldKindMap:
		lt, ok := v.(*lua.LTable)
		if !ok {
			L.RaiseError("%s: give a table from move kinds to functions", what)
		}
		out := map[int]any{}
		lt.ForEach(func(k, x lua.LValue) {
			kind := vm.kindValue(L, k, what, "a key")
			if b, ok := x.(lua.LBool); ok {
				if b {
					L.RaiseError("%s: kind %s: give a function, or false for a move that changes nothing", what, vm.def.Kinds[kind].Name)
				}
				out[kind] = nil
				return
			}
			out[kind] = vm.partValue(L, x, what, "kind "+vm.def.Kinds[kind].Name, f.Slot)
		})
		return out
	}
	L.RaiseError("%s: field %s has a type the host cannot read", what, f.Name)
	return nil
}

// withoutCallCopy returns t without the copy gopher-lua's table
// constructor makes of a last field that is named and given by a call:
// { {...}, result = m.winner_rule {...} } holds the result function at
// index 2 too, as if it were a second item of the list. In a list of
// tables or of parts, a last item that is a function and the value of one
// of t's named fields is that copy (no such list holds a function that is
// also one of its fields): the table is copied without it, the script's
// own table left as it is.
func withoutCallCopy(L *lua.LState, t *lua.LTable) *lua.LTable {
	n := t.Len()
	last, ok := t.RawGetInt(n).(*lua.LFunction)
	if n == 0 || !ok {
		return t
	}
	copied := false
	t.ForEach(func(k, v lua.LValue) {
		if _, named := k.(lua.LString); named && v == last {
			copied = true
		}
	})
	if !copied {
		return t
	}
	out := L.NewTable()
	t.ForEach(func(k, v lua.LValue) {
		if k != lua.LNumber(n) {
			out.RawSet(k, v)
		}
	})
	return out
}

func listName(f *rules.Field) string {
	if f.Name == rules.List {
		return "the list"
	}
	return f.Name
}

// subSpec is the spec of a nested table, for its Args' defaults.
func subSpec(f *rules.Field) *rules.Spec { return &rules.Spec{Name: f.Name, Fields: f.Fields} }

// kindField reads a move kind field and checks the sites its moves name.
func (vm *Machine) kindField(L *lua.LState, v lua.LValue, what string, f *rules.Field) int {
	k := vm.kindValue(L, v, what, f.Name)
	kd := &vm.def.Kinds[k]
	if a := kd.Arity(); f.Arity != rules.AnyArity && a != f.Arity {
		owner := "kind"
		if f.Name != "kind" && f.Arity != 0 {
			owner = f.Name + "'s kind"
		}
		switch {
		case f.Arity < 0:
			L.RaiseError("%s: %s %s names fixed sites; it needs a kind whose template uses {sites}", what, owner, kd.Name)
		case f.Arity == 0:
			L.RaiseError("%s: %s %s must take no site, not %s", what, owner, kd.Name, arityText(a))
		default:
			L.RaiseError("%s: %s %s must take %s", what, owner, kd.Name, arityText(f.Arity))
		}
	}
	return k
}

// kindValue reads a move kind: its handle or its name; it returns its
// index.
func (vm *Machine) kindValue(L *lua.LState, v lua.LValue, what, field string) int {
	return vm.handleValue(L, v, what, field, kindSlot)
}

// varValue reads a script variable: its handle or its name; it returns
// its index.
func (vm *Machine) varValue(L *lua.LState, v lua.LValue, what, field string) int {
	return vm.handleValue(L, v, what, field, varSlot)
}

// trackValue reads a track: its handle or its name.
func (vm *Machine) trackValue(L *lua.LState, v lua.LValue, what, field string) *kernel.Track {
	return vm.def.Board.TrackAt(vm.handleValue(L, v, what, field, trackSlot))
}

// tagValue reads a tag: its handle or its name; it returns its index.
func (vm *Machine) tagValue(L *lua.LState, v lua.LValue, what, field string) int {
	return vm.handleValue(L, v, what, field, tagSlot)
}

// handleValue reads field of what, a declaration of sort s given by its
// handle or its name, and returns its index from 0.
func (vm *Machine) handleValue(L *lua.LState, v lua.LValue, what, field string, s slotSort) int {
	switch x := v.(type) {
	case lua.LNumber:
		if i := int(x); float64(i) == float64(x) && i >= 1 && i <= vm.numDeclared(s) {
			return i - 1
		}
	case lua.LString:
		if i, ok := vm.indexNamed(s, string(x)); ok {
			return i
		}
	}
	L.RaiseError("%s: %s must be a %s (from %s, or its name), got %s", what, field, s.noun(), s.maker(), vm.describe(v, s))
	return 0
}

// quotedChoices writes the words a field allows as a script writes them:
// "mover", "next" or "draw".
func quotedChoices(words []string) string {
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = fmt.Sprintf("%q", w)
	}
	return diag.OrList(quoted)
}

// partValue reads a part field: a part that fits slot s, or a script
// function, which becomes a hook in the slot.
func (vm *Machine) partValue(L *lua.LState, v lua.LValue, what, field string, s rules.Slot) any {
	fn, ok := v.(*lua.LFunction)
	if !ok {
		L.RaiseError("%s: %s must be a function, got %s", what, field, vm.describe(v, anySlot))
	}
	if ref := vm.parts[fn]; ref != nil {
		if _, broken := ref.part.(brokenPart); !broken && !rules.Fits(ref.part, s) {
			L.RaiseError("%s: %s must fit the %s slot %s; %s does not", what, field, s, s.Call(), ref.spec.Name)
		}
		return ref.part
	}
	id := len(vm.hooks)
	vm.hooks = append(vm.hooks, fn)
	return rules.Hook{ID: id, Slot: s}
}

// ---- calling parts ----

// diag.Call calls the script function of hook id for a part (kernel.Hooks):
// with the arguments in c.Args, its results into c.Out. Inside a part
// called from Lua the call is a plain Lua call, so an error unwinds as
// the script's own; inside a turn the host runs, it is protected and its
// error returned.
func (vm *Machine) Call(c *kernel.Ctx, id, nargs, nret int) error {
	if id < 0 || id >= len(vm.hooks) {
		return kernel.Failf("no script function %d", id)
	}
	if vm.bare {
		vm.stopped = true // even if a part drops the error: see bare.go
		return ErrScriptNeeded
	}
	if vm.native && !vm.watched { // a native turn runs a script function: watch it from now on
		vm.g.wd.Watch(vm.trip, vm.cancel)
		vm.watched = true
	}
	L := vm.L
	vm.calls++
	L.Push(vm.hooks[id])
	for _, a := range c.Args[:nargs] {
		L.Push(luaOfValue(a))
	}
	if vm.luaDepth > 0 {
		L.Call(nargs, nret)
	} else if err := L.PCall(nargs, nret, nil); err != nil {
		return err
	}
	for i := 0; i < nret; i++ {
		c.Out[i] = vm.hookValue(L.Get(-nret + i))
	}
	L.Pop(nret)
	return nil
}

// luaOfValue is a hook argument as Lua sees it: sites count from 1.
func luaOfValue(v kernel.Value) lua.LValue {
	switch v.Kind {
	case kernel.IntKind:
		return luaInt(v.N)
	case kernel.SiteKind:
		return luaInt(v.N + 1)
	case kernel.BoolKind:
		return lua.LBool(v.N != 0)
	case kernel.TextKind:
		return lua.LString(v.S)
	}
	return lua.LNil
}

// hookValue is what a script function returned, for a part.
func (vm *Machine) hookValue(v lua.LValue) kernel.Value {
	switch x := v.(type) {
	case *lua.LNilType:
		return kernel.Value{}
	case lua.LNumber:
		if f := float64(x); f == math.Trunc(f) && math.Abs(f) <= 1<<53 && f >= math.MinInt && f <= math.MaxInt {
			return kernel.IntValue(int(f))
		}
	case lua.LBool:
		return kernel.BoolValue(bool(x))
	case lua.LString:
		return kernel.TextValue(string(x))
	}
	return kernel.Value{Kind: kernel.OtherKind, S: vm.describe(v, anySlot)}
}

// callPart runs a part called from Lua as a function, with the arguments
// and results its slot says.
func (vm *Machine) callPart(L *lua.LState, ref *partRef) int {
	s := ref.spec.Slot
	switch {
	case emitsMoves(s):
		if !vm.emitting {
			L.RaiseError("moves can only be emitted inside legal")
		}
		vm.state(L)
	case ref.spec.Mutates || ref.spec.Ends && vm.finishMethod() == kernel.MethodRule:
		vm.mutable(L)
	default:
		vm.state(L)
	}
	vm.luaDepth++
	defer func() { vm.luaDepth-- }()
	c := &vm.ctx
	x := ref.part
	var err error
	nret := 0
	switch s {
	case rules.SlotEmit:
		var n int
		n, err = x.(rules.Emitter).Emit(c, vm.player(L, 1))
		L.Push(luaInt(n))
		nret = 1
	case rules.SlotChoices:
		var n int
		n, err = rules.AsChoices(x).EmitAt(c, vm.player(L, 1), vm.site(L, 2))
		L.Push(luaInt(n))
		nret = 1
	case rules.SlotCount:
		var n int
		n, err = rules.AsChoices(x).EmitAt(c, vm.player(L, 1), vm.argInt(L, 2))
		L.Push(luaInt(n))
		nret = 1
	case rules.SlotPlay:
		p := vm.player(L, 1)
		var m kernel.Move
		m.Kind = uint8(vm.kind(L, 2))
		for j := 3; j <= L.GetTop() && int(m.N) < kernel.MaxMoveSites; j++ {
			m.Sites[m.N] = uint16(vm.site(L, j))
			m.N++
		}
		err = x.(rules.Player).Play(c, p, m)
	case rules.SlotKindPlay:
		p := vm.player(L, 1)
		var m kernel.Move
		for j := 2; j <= L.GetTop() && int(m.N) < kernel.MaxMoveSites && L.Get(j) != lua.LNil; j++ {
			m.Sites[m.N] = uint16(vm.site(L, j))
			m.N++
		}
		err = x.(rules.Player).Play(c, p, m)
	case rules.SlotSow:
		var last int
		var empty bool
		last, empty, err = x.(rules.Sower).Sow(c, vm.player(L, 1), vm.site(L, 2))
		vm.pushSite(L, last)
		pushBool(L, empty)
		nret = 2
	case rules.SlotRelay:
		var last, laps int
		var how kernel.How
		last, how, laps, err = x.(rules.Relayer).Relay(c, vm.player(L, 1), vm.site(L, 2))
		vm.pushSite(L, last)
		L.Push(vm.howValue(how))
		L.Push(luaInt(laps))
		nret = 3
	case rules.SlotCapture:
		var n int
		n, err = x.(rules.Capturer).Capture(c, vm.player(L, 1), vm.site(L, 2), L.ToBool(3))
		L.Push(luaInt(n))
		nret = 1
	case rules.SlotSiteTest:
		var ok bool
		ok, err = x.(rules.SiteTester).TestSite(c, vm.player(L, 1), vm.optSite(L, 2))
		pushBool(L, ok)
		nret = 1
	case rules.SlotUnless:
		var ok bool
		ok, err = x.(rules.SiteTester).TestSite(c, vm.player(L, 2), vm.site(L, 1))
		pushBool(L, ok)
		nret = 1
	case rules.SlotMoveTest:
		p := vm.player(L, 1)
		m := kernel.Move{Kind: uint8(vm.kind(L, 2))}
		for j := 3; j <= L.GetTop() && int(m.N) < kernel.MaxMoveSites && L.Get(j) != lua.LNil; j++ {
			m.Sites[m.N] = uint16(vm.site(L, j))
			m.N++
		}
		var ok bool
		ok, err = x.(rules.MoveTester).TestMove(c, p, m)
		pushBool(L, ok)
		nret = 1
	case rules.SlotArrive:
		var ok bool
		ok, err = x.(rules.Arriver).Arrive(c, vm.player(L, 1), vm.site(L, 2))
		pushBool(L, ok)
		nret = 1
	case rules.SlotAfter:
		err = x.(rules.Follower).After(c, vm.player(L, 1), vm.optInt(L, 2, 0))
	case rules.SlotResult:
		err = x.(rules.Resulter).Result(c, L.CheckString(1))
	case rules.SlotCond:
		var ok bool
		ok, err = x.(rules.Condition).Holds(c, vm.player(L, 1))
		pushBool(L, ok)
		nret = 1
	case rules.SlotAmount:
		var n int
		n, err = x.(rules.Amount).Value(c, vm.player(L, 1))
		L.Push(luaInt(n))
		nret = 1
	case rules.SlotScore:
		var out []int
		if out, err = x.(rules.Scorer).Score(c, L.ToBool(1), nil); err == nil {
			for _, v := range out {
				L.Push(luaInt(v))
			}
			nret = len(out)
		}
	case rules.SlotLap:
		var end kernel.LapEnd
		end, err = x.(rules.LapRule).Lap(c, vm.player(L, 1), vm.site(L, 2), vm.track(L, 3), vm.argInt(L, 4))
		nret = vm.pushLapEnd(L, end)
	}
	if err != nil {
		L.Pop(nret)
		vm.raisePart(L, ref.spec.Name, err)
	}
	return nret
}

// pushLapEnd pushes a lap's answer as a script function would give it.
func (vm *Machine) pushLapEnd(L *lua.LState, end kernel.LapEnd) int {
	switch end.Act {
	case kernel.LapEndHere:
		L.Push(lua.LFalse)
	case kernel.LapRelay:
		L.Push(lua.LTrue)
	case kernel.LapResow:
		L.Push(luaInt(vm.def.Board.TrackIndex(end.Track) + 1))
		vm.pushSite(L, end.After)
		vm.pushSite(L, end.From)
		return 3
	default:
		L.Push(lua.LNil)
	}
	return 1
}

// raisePart raises the error of a part called from Lua.
func (vm *Machine) raisePart(L *lua.LState, name string, err error) {
	var over *kernel.BudgetExceeded
	switch {
	case err == kernel.ErrSteps:
		L.RaiseError("%s", "matombo: step budget exceeded")
	case errors.As(err, &over):
		vm.overBudget(L, diag.Budget(over.Budget), over.Limit, over.Detail)
	}
	var arg *kernel.ArgError
	if errors.As(err, &arg) {
		L.RaiseError("%s: %s", name, arg.Msg)
	}
	var rule *kernel.RuleError
	if errors.As(err, &rule) {
		if fn, ok := vm.hook(rule.Hook); ok {
			L.RaiseError("%s: %s (the function at %s)", name, rule.Msg, vm.funcPos(fn))
		}
	}
	L.RaiseError("%s: %s", name, err.Error())
}

// ---- running turns ----

// runTurn runs the native play (move m of player p), legal (for player
// p) or score (into vm.scores) on vm.st as one call of the script. The call runs Go alone
// until a part calls a script function (see Call): it begins with a
// fresh step budget but without the watchdog, which only a script needs
// (the parts are bounded by their steps), and the watchdog watches it
// from the first script function it calls.
func (vm *Machine) runTurn(name diag.Call, p int, m kernel.Move) error {
	if err := vm.gameFailed(); err != nil {
		return err
	}
	if vm.cancel.Done() {
		vm.broken = true
		return diag.Canceled(vm.cancel.Context(), diag.Pos{File: vm.g.File}, name)
	}
	vm.budgetHit = nil
	vm.ctx.NewCall()
	seq := vm.trip.Restart()
	outer := vm.phase
	vm.phase = name
	vm.native = true
	c := &vm.ctx
	c.Ending = kernel.MethodRule
	var err error
	switch name {
	case diag.CallPlay:
		err = vm.natPlay.Play(c, p, m)
		vm.keyValid = false // parts change the state without mutable
	case diag.CallScore:
		vm.scores, err = vm.natScore.Score(c, c.S.Result.Over, vm.scores)
	default:
		_, err = vm.natLegal.Emit(c, p)
	}
	vm.phase = outer
	vm.native = false
	if vm.watched {
		vm.g.wd.End(vm.trip)
		vm.watched = false
	}
	if err == nil {
		return nil
	}
	if vm.bare && vm.stopped {
		return ErrScriptNeeded // no script ran that could break the machine
	}
	vm.broken = true
	var rule *kernel.RuleError
	var arg *kernel.ArgError
	var over *kernel.BudgetExceeded
	fired := vm.trip.FiredFor(seq)
	switch {
	case errors.As(err, &over):
		vm.budgetHit = &diag.BudgetError{Budget: diag.Budget(over.Budget), Limit: over.Limit, Detail: over.Detail}
		err = errors.New(over.Error())
	case fired == watchdog.None && errors.As(err, &rule):
		return &diag.ScriptError{Pos: vm.rulePos(name, rule), Func: name, Msg: rule.Msg}
	case fired == watchdog.None && errors.As(err, &arg):
		return &diag.ScriptError{Pos: vm.turnPos(name), Func: name, Msg: arg.Msg}
	}
	return vm.convertError(err, name, seq)
}

// rulePos is where a rule's failure is the script's doing: the script
// function whose result the rule refused, or else the turn that failed.
func (vm *Machine) rulePos(name diag.Call, rule *kernel.RuleError) diag.Pos {
	if fn, ok := vm.hook(rule.Hook); ok {
		return vm.funcPos(fn)
	}
	return vm.turnPos(name)
}

// hook is the script function a rule error's Hook numbers (from 1), if
// it numbers one.
func (vm *Machine) hook(n int) (lua.LValue, bool) {
	if n < 1 || n > len(vm.hooks) {
		return nil, false
	}
	return vm.hooks[n-1], true
}

// turnPos is where the script made the turn that failed: its legal, its
// play or its score.
func (vm *Machine) turnPos(name diag.Call) diag.Pos {
	switch name {
	case diag.CallPlay:
		return vm.funcPos(vm.fnPlay)
	case diag.CallScore:
		return vm.funcPos(vm.fnScore)
	}
	return vm.funcPos(vm.fnLegal)
}
