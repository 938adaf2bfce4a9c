package luavm

import (
	"fmt"
	"math"

	"github.com/matombo/matombo/host/kernel"
	lua "github.com/yuin/gopher-lua"
)

// The primitives of filters, lines and legal moves: each reads its
// arguments from Lua and calls the kernel (host/kernel), which holds the
// mechanics the native rule parts call too.

// apiFilterOrProblem is apiFilter recording its problem while loading.
func (vm *Machine) apiFilterOrProblem(L *lua.LState) int {
	return vm.declare(L, vm.apiFilter, vm.pushBrokenFilter)
}

// apiFilter: filter{owner=, min=, max=, tag=, not_tag=, row=, track=,
// next_empty=, supported=, in_row=, not_in_row=} makes a filter, while
// the script loads.
func (vm *Machine) apiFilter(L *lua.LState) int {
	vm.mustLoad(L, "a filter")
	b := vm.board(L)
	t := L.CheckTable(1)
	checkFields(L, t, "matombo.filter", "owner", "min", "max", "tag", "not_tag", "row", "track", "next_empty", "supported", "in_row", "not_in_row")
	spec := kernel.FilterSpec{Owner: -1, Max: -1, Row: -1}
	intField := func(name string) (int, bool) {
		v := t.RawGetString(name)
		if v == lua.LNil {
			return 0, false
		}
		n, ok := v.(lua.LNumber)
		if !ok || float64(n) != math.Trunc(float64(n)) {
			L.RaiseError("filter: %s must be a whole number, got %s", name, vm.describe(v, plainSlot))
		}
		if math.Abs(float64(n)) > kernel.MaxCount { // past any count, site or tag, and past an int
			L.RaiseError("filter: %s %v is out of range (at most %d)", name, n, kernel.MaxCount)
		}
		return int(n), true
	}
	switch v := t.RawGetString("owner").(type) {
	case *lua.LNilType:
	case lua.LString:
		switch v {
		case "mover":
			spec.Rel = kernel.OwnerMover
		case "opponent":
			spec.Rel = kernel.OwnerOpponent
		case "nobody":
			spec.Owner = 0
		default:
			L.RaiseError("filter: owner must be a player number, \"mover\", \"opponent\" or \"nobody\", got %q", string(v))
		}
	case lua.LNumber:
		p := int(v)
		if float64(p) != float64(v) || p < 0 || p > vm.dcl.Players {
			L.RaiseError("filter: owner %v does not exist", v)
		}
		spec.Owner = p
	default:
		L.RaiseError("filter: owner must be a player number or a word, got %s", vm.describe(v, plainSlot))
	}
	if n, ok := intField("min"); ok {
		spec.Min = n
	}
	if n, ok := intField("max"); ok {
		if n < 0 {
			L.RaiseError("filter: max must be at least 0")
		}
		spec.Max = n
	}
	if v := t.RawGetString("tag"); v != lua.LNil {
		spec.Tag = 1 << uint(vm.tagValue(L, v, "filter", "tag"))
	}
	if v := t.RawGetString("not_tag"); v != lua.LNil {
		spec.NotTag = 1 << uint(vm.tagValue(L, v, "filter", "not_tag"))
	}
	if n, ok := intField("row"); ok {
		if n < 1 || n > b.NumRows() {
			L.RaiseError("filter: row %d does not exist", n)
		}
		spec.Row = n - 1
	}
	if v := t.RawGetString("track"); v != lua.LNil {
		spec.Track = vm.trackValue(L, v, "filter", "track")
	}
	if v := t.RawGetString("next_empty"); v != lua.LNil {
		spec.NextEmpty = vm.trackValue(L, v, "filter", "next_empty")
	}
	switch v := t.RawGetString("supported").(type) {
	case *lua.LNilType:
	case lua.LBool:
		spec.Supported = bool(v)
	default:
		L.RaiseError("filter: supported must be true or false, got %s", vm.describe(v, plainSlot))
	}
	for _, name := range []string{"in_row", "not_in_row"} {
		v := t.RawGetString(name)
		if v == lua.LNil {
			continue
		}
		n, ok := v.(lua.LNumber)
		if !ok || float64(n) != math.Trunc(float64(n)) || n < 1 || n > kernel.MaxSites {
			L.RaiseError("filter: %s must be a whole number of sites from 1 (the length of the run), got %s", name, vm.describe(v, plainSlot))
		}
		if spec.InRow > 0 || spec.NotInRow > 0 {
			L.RaiseError("filter: in_row and not_in_row exclude each other")
		}
		if name == "in_row" {
			spec.InRow = int(n)
		} else {
			spec.NotInRow = int(n)
		}
	}
	f := kernel.NewFilter(b, spec)
	// Making a filter visits every site in Go, and the filter is kept
	// for the game's life: a loop making filters on a board of 4,096
	// sites kept 5 GB and ran 14 s before its steps ran out.
	vm.charge(L, f.BuildCost(b))
	ud := L.NewUserData()
	ud.Value = f
	vm.filters = append(vm.filters, f)
	L.Push(ud)
	return 1
}

func (vm *Machine) apiCountSites(L *lua.LState) int {
	s := vm.state(L)
	f := vm.filterArg(L, 1)
	L.Push(luaInt(f.Count(s.Cells, &vm.def.Layout, vm.ctx.Mover)))
	return 1
}

func (vm *Machine) apiSum(L *lua.LState) int {
	s := vm.state(L)
	f := vm.filterArg(L, 1)
	L.Push(luaInt(f.Sum(s.Cells, &vm.def.Layout, vm.ctx.Mover)))
	return 1
}

func (vm *Machine) apiFirst(L *lua.LState) int {
	s := vm.state(L)
	f := vm.filterArg(L, 1)
	if i := f.First(s.Cells, &vm.def.Layout, vm.ctx.Mover); i >= 0 {
		vm.pushSite(L, i)
	} else {
		L.Push(lua.LNil)
	}
	return 1
}

// apiSites returns a new table of the matching sites; it allocates, so hot
// paths should prefer the emitters and counters.
func (vm *Machine) apiSites(L *lua.LState) int {
	s := vm.state(L)
	f := vm.filterArg(L, 1)
	var buf [64]int32
	sites := f.AppendSites(buf[:0], s.Cells, &vm.def.Layout, vm.ctx.Mover)
	vm.chargeBuilt(L, len(sites), 1)
	t := L.CreateTable(len(sites), 0)
	for _, i := range sites {
		t.Append(luaInt(int(i) + 1))
	}
	L.Push(t)
	return 1
}

// apiInARow: in_a_row(player, site, k) reports whether the player owns k or
// more consecutive sites of a line through site (of any line when site is
// nil).
func (vm *Machine) apiInARow(L *lua.LState) int {
	line, _, run := vm.inARow(L)
	pushBool(L, line != nil && run > 0)
	return 1
}

// apiRowSites: row_sites(player, site, k) is in_a_row that returns the
// sites of the run, or nil: what finish { sites = ... } names as the sites
// that made a result. Unlike in_a_row it makes a table, so a script calls
// it once it knows the run is there.
func (vm *Machine) apiRowSites(L *lua.LState) int {
	line, end, run := vm.inARow(L)
	if line == nil {
		L.Push(lua.LNil)
		return 1
	}
	vm.chargeBuilt(L, run, 1)
	t := L.CreateTable(run, 0)
	for _, x := range line[end-run : end] {
		t.Append(luaInt(int(x) + 1))
	}
	L.Push(t)
	return 1
}

// inARow reads the arguments of in_a_row and row_sites and finds the run.
func (vm *Machine) inARow(L *lua.LState) (line []int32, end, run int) {
	vm.state(L)
	p := vm.player(L, 1)
	site := vm.optSite(L, 2)
	k := vm.argInt(L, 3)
	if k < 1 {
		// As the native rules' length: a run has at least one site.
		L.ArgError(3, fmt.Sprintf("a run of at least 1 site expected, got %d", k))
	}
	line, end, run, err := vm.ctx.InARow(p, site, k, false)
	vm.check(L, err)
	return line, end, run
}

// apiOpenLines: open_lines(p) -> how many lines of the board p holds but
// for one point, which is empty: the lines p completes with one piece
// (an evaluation's threats, counted in one call rather than a Lua loop
// over the lines per position searched).
func (vm *Machine) apiOpenLines(L *lua.LState) int {
	vm.state(L)
	n, err := vm.ctx.OpenLines(vm.player(L, 1))
	vm.check(L, err)
	L.Push(luaInt(n))
	return 1
}

// ---- emitting legal moves ----

// emitter checks that moves may be emitted now and reads the kind of
// argument 1, which must name arity sites (-1: any).
func (vm *Machine) emitter(L *lua.LState, arity int) int {
	if !vm.emitting {
		if vm.ctx.Trying() {
			L.RaiseError("moves cannot be emitted inside matombo.try")
		}
		L.RaiseError("moves can only be emitted inside legal")
	}
	k := vm.kind(L, 1)
	a := vm.def.Kinds[k].Arity()
	if arity >= 0 && a != arity && !(a < 0 && arity <= kernel.MaxMoveSites) {
		L.ArgError(1, fmt.Sprintf("move kind %s takes %s, not %d", vm.def.Kinds[k].Name, arityText(a), arity))
	}
	return k
}

func arityText(a int) string {
	switch {
	case a < 0:
		return "a list of sites"
	case a == 1:
		return "1 site"
	default:
		return fmt.Sprintf("%d sites", a)
	}
}

// filterNoCharge reads filter argument n; the kernel's emitters charge
// for its sites themselves.
func (vm *Machine) filterNoCharge(L *lua.LState, n int) *kernel.Filter {
	if ud, ok := L.Get(n).(*lua.LUserData); ok {
		if f, ok := ud.Value.(*kernel.Filter); ok {
			return f
		}
	}
	L.ArgError(n, "filter expected (make one with matombo.filter), got "+vm.describe(L.Get(n), filterSlot))
	return nil
}

// apiEmit: emit(kind, site, ...) adds one legal move.
func (vm *Machine) apiEmit(L *lua.LState) int {
	n := L.GetTop() - 1
	if n > kernel.MaxMoveSites {
		L.RaiseError("a move names at most %d sites", kernel.MaxMoveSites)
	}
	k := vm.emitter(L, n)
	if vm.def.Kinds[k].Arity() < 0 && n == 0 {
		L.ArgError(2, fmt.Sprintf("move kind %s needs at least one site", vm.def.Kinds[k].Name))
	}
	m := kernel.Move{Kind: uint8(k), N: uint8(n)}
	for i := 0; i < n; i++ {
		m.Sites[i] = uint16(vm.site(L, i+2))
	}
	vm.check(L, vm.ctx.Push(m))
	return 0
}

// apiEmitEach: emit_each(kind, filter) adds a move for each matching site.
func (vm *Machine) apiEmitEach(L *lua.LState) int {
	k := vm.emitter(L, 1)
	n, err := vm.ctx.EmitEach(k, vm.filterNoCharge(L, 2))
	vm.check(L, err)
	L.Push(luaInt(n))
	return 1
}

// apiEmitSubsets: emit_subsets(kind, filter, kmin, kmax) adds a move for
// each set of kmin..kmax matching sites, smaller sets first, each set in
// board order.
func (vm *Machine) apiEmitSubsets(L *lua.LState) int {
	k := vm.emitter(L, -1)
	if vm.def.Kinds[k].Arity() >= 0 {
		L.ArgError(1, fmt.Sprintf("move kind %s names fixed sites; emit_subsets needs a kind whose template uses {sites}", vm.def.Kinds[k].Name))
	}
	f := vm.filterArg(L, 2)
	lo, hi := vm.argInt(L, 3), vm.argInt(L, 4)
	if lo < 1 || hi > kernel.MaxMoveSites || lo > hi {
		L.RaiseError("emit_subsets: sizes must satisfy 1 <= kmin <= kmax <= %d, got %d and %d", kernel.MaxMoveSites, lo, hi)
	}
	pool := f.AppendSites(nil, vm.st.Cells, &vm.def.Layout, vm.ctx.Mover)
	n, err := vm.ctx.EmitSubsets(k, pool, lo, hi)
	vm.check(L, err)
	L.Push(luaInt(n))
	return 1
}

// apiEmitSteps: emit_steps(kind, filter) adds a move (from, to) for each
// matching site and each empty neighbour along the board's lines, unless
// the decision lists that move already.
func (vm *Machine) apiEmitSteps(L *lua.LState) int {
	k := vm.emitter(L, 2)
	n, err := vm.ctx.EmitSteps(k, vm.filterNoCharge(L, 2))
	vm.check(L, err)
	L.Push(luaInt(n))
	return 1
}

// apiEmitJumps: emit_jumps(kind, filter) adds a move (from, to) for each
// matching site that can jump along a line over an occupied neighbour to
// the empty site just beyond, unless the decision lists that move already.
func (vm *Machine) apiEmitJumps(L *lua.LState) int {
	k := vm.emitter(L, 2)
	n, err := vm.ctx.EmitJumps(k, vm.filterNoCharge(L, 2))
	vm.check(L, err)
	L.Push(luaInt(n))
	return 1
}

// apiEmitPairs: emit_pairs(kind, from, to) adds a move (a, b) for every site
// a matching the filter from and every other site b matching the filter
// to, a in board order, then b in board order: "any of my pieces to any
// empty point" (flying pieces) in one call. Returns the moves added. It
// does not look for the same moves among those emitted before it.
func (vm *Machine) apiEmitPairs(L *lua.LState) int {
	k := vm.emitter(L, 2)
	n, err := vm.ctx.EmitPairs(k, vm.filterNoCharge(L, 2), vm.filterNoCharge(L, 3))
	vm.check(L, err)
	L.Push(luaInt(n))
	return 1
}
