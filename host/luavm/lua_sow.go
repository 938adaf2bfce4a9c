package luavm

import (
	"fmt"

	"github.com/matombo/matombo/host/internal/luastr"
	"github.com/matombo/matombo/host/kernel"
	"github.com/matombo/matombo/host/rules"
	lua "github.com/yuin/gopher-lua"
)

// The primitives of sowing and capture: each reads its arguments and
// calls the kernel's mechanic (host/kernel), which the native rule parts
// call too.

// apiSow: sow(track, from, n) drops n counters one per site along the track,
// starting after from. The counters come from wherever the script took them
// (usually take). Returns the last site and whether it was empty before.
func (vm *Machine) apiSow(L *lua.LState) int {
	vm.mutable(L)
	t, from := vm.track(L, 1), vm.site(L, 2)
	last, empty, err := vm.ctx.Sow(t, from, vm.argInt(L, 3))
	vm.check(L, err)
	vm.pushSite(L, last)
	pushBool(L, empty)
	return 2
}

// apiSowSkip: sow_skip(track, from, n) drops n counters one per site along
// the track, starting after from and skipping from on every lap. Returns
// the last site and whether it was empty before the last counter fell in.
func (vm *Machine) apiSowSkip(L *lua.LState) int {
	vm.mutable(L)
	t, from := vm.track(L, 1), vm.site(L, 2)
	last, empty, err := vm.ctx.SowSkip(t, from, vm.argInt(L, 3))
	vm.check(L, err)
	vm.pushSite(L, last)
	pushBool(L, empty)
	return 2
}

// relayArgs reads the stop tag and lap limit of relay and relay_ends (at
// arguments n and n+1).
func (vm *Machine) relayArgs(L *lua.LState, n int) (stop uint64, maxLaps int) {
	stop = vm.tagMask(L, n)
	maxLaps = vm.optInt(L, n+1, 1000)
	if maxLaps < 1 {
		L.ArgError(n+1, "the lap limit must be at least 1")
	}
	return stop, maxLaps
}

// apiRelay: relay(track, from, stop_tag, max_laps [, on_lap, on_tag])
// sows all counters of from and relays: returns the last site and how the
// sowing ended ("empty", "stop", "laps", or "hook" when on_lap ended it)
// and the number of laps. on_lap(last, track, laps) hears the end of
// every lap (only of those ending on a site with the tag on_tag, when it
// is given) and says how the sowing goes on (see docs/lua-api.md).
func (vm *Machine) apiRelay(L *lua.LState) int {
	vm.mutable(L)
	t, from := vm.track(L, 1), vm.site(L, 2)
	stop, maxLaps := vm.relayArgs(L, 3)
	var last, laps int
	var how kernel.How
	var err error
	switch hook := L.Get(5).(type) {
	case *lua.LNilType:
		last, how, laps, err = vm.ctx.Relay("relay", t, from, stop, maxLaps, false)
	case *lua.LFunction:
		only := vm.tagMask(L, 6) // 0: the hook hears every lap
		outer := vm.lap.fn
		vm.lap.vm, vm.lap.fn = vm, hook
		last, how, laps, err = vm.ctx.RelayWith("relay", t, from, stop, maxLaps, only, &vm.lap)
		vm.lap.fn = outer
	default:
		L.ArgError(5, "the hook must be a function, got "+vm.describe(hook, anySlot))
	}
	vm.check(L, err)
	vm.pushSite(L, last)
	L.Push(vm.howValue(how))
	L.Push(luaInt(laps))
	return 3
}

// howValue is the word matombo.relay returns for how a relay ended.
func (vm *Machine) howValue(how kernel.How) lua.LValue {
	switch how {
	case kernel.RelayEmpty:
		return vm.strs.empty
	case kernel.RelayStop:
		return vm.strs.stop
	case kernel.RelayHook:
		return vm.strs.hook
	}
	return vm.strs.laps
}

// apiEmitSowings: emit_sowings(kind, filter, track, stop_tag, max_laps)
// adds a move for each matching site from which a relay sowing (as relay
// plays it) ends within max_laps laps; it returns how many it added and how
// many sites matched. Sowings that would run longer, e.g. an endless one,
// are not legal in many mancala games.
func (vm *Machine) apiEmitSowings(L *lua.LState) int {
	k := vm.emitter(L, 1)
	f := vm.filterArg(L, 2)
	t := vm.track(L, 3)
	stop, maxLaps := vm.relayArgs(L, 4)
	c := &vm.ctx
	bounded := c.RelayBounded(t, stop, maxLaps)
	added, matched := 0, 0
	work := kernel.SowWork(vm.def.Layout.Sites)
	var buf [64]int32
	for _, i := range f.AppendSites(buf[:0], c.S.Cells, &vm.def.Layout, c.Mover) {
		matched++
		if !t.On(int(i)) || c.S.Cells[i] == 0 {
			L.RaiseError("emit_sowings: %s is not a site with counters on track %s", vm.def.Board.SiteName(int(i)), t.Name)
		}
		ok, err := c.RelayEnds("emit_sowings", t, int(i), stop, maxLaps, false, bounded, &work)
		vm.check(L, err)
		if ok {
			m := kernel.Move{Kind: uint8(k), N: 1}
			m.Sites[0] = uint16(i)
			vm.check(L, c.Push(m))
			added++
		}
	}
	L.Push(luaInt(added))
	L.Push(luaInt(matched))
	return 2
}

// apiRelayEnds: relay_ends(track, from, stop_tag, max_laps) reports, without
// changing the state, whether a relay sowing from from ends (in an empty
// site or at the stop tag) within max_laps laps.
func (vm *Machine) apiRelayEnds(L *lua.LState) int {
	vm.state(L)
	t, from := vm.track(L, 1), vm.site(L, 2)
	stop, maxLaps := vm.relayArgs(L, 3)
	c := &vm.ctx
	work := kernel.SowWork(vm.def.Layout.Sites)
	ok, err := c.RelayEnds("relay_ends", t, from, stop, maxLaps, false, c.RelayBounded(t, stop, maxLaps), &work)
	vm.check(L, err)
	pushBool(L, ok)
	return 1
}

// apiCaptureRun: capture_run(player, track, from, step, v1, v2, ...) walks
// the track from the site after from (step places at a time, negative to go
// back) and captures each site whose count is one of the values, stopping at
// the first that is not. Returns the number of counters captured.
func (vm *Machine) apiCaptureRun(L *lua.LState) int {
	vm.mutable(L)
	p := vm.player(L, 1)
	var buf [8]int32
	t, from, step, values := vm.runArgs(L, 2, "capture_run", &buf)
	n, err := vm.ctx.CaptureRun(p, t, from, step, values)
	vm.check(L, err)
	L.Push(luaInt(n))
	return 1
}

// apiCaptureCount: capture_count(track, from, step, v1, v2, ...) reports
// what capture_run(p, track, from, step, v1, v2, ...) would capture, without
// changing the state: the number of counters and the number of sites.
func (vm *Machine) apiCaptureCount(L *lua.LState) int {
	s := vm.state(L)
	var buf [8]int32
	t, from, step, values := vm.runArgs(L, 1, "capture_count", &buf)
	vm.charge(L, len(t.Sites)/8+1)
	counters, sites := kernel.RunOf(s.Cells[:vm.def.Layout.Sites], t, from, step, values)
	L.Push(luaInt(counters))
	L.Push(luaInt(sites))
	return 2
}

// apiSweep moves the counters of every owned site into its owner's captured
// total. Returns the number of counters moved.
func (vm *Machine) apiSweep(L *lua.LState) int {
	vm.mutable(L)
	vm.charge(L, 1+vm.def.Layout.Sites/luastr.ItemsPerStep) // every site visited
	n, err := vm.ctx.Sweep()
	vm.check(L, err)
	L.Push(luaInt(n))
	return 1
}

// runArgs reads the arguments (track, from, step, v1, v2, ...) of
// capture_run and capture_count, the track being argument n; the values go
// into buf.
func (vm *Machine) runArgs(L *lua.LState, n int, name string, buf *[8]int32) (t *kernel.Track, from, step int, values []int32) {
	t = vm.track(L, n)
	from = vm.site(L, n+1)
	if !t.On(from) {
		L.ArgError(n+1, fmt.Sprintf("%s is not on track %s", vm.def.Board.SiteName(from), t.Name))
	}
	step = vm.argInt(L, n+2)
	if step == 0 {
		L.ArgError(n+2, "step must not be 0")
	}
	nv := L.GetTop() - (n + 2)
	if nv < 1 || nv > len(buf) {
		L.RaiseError("%s needs 1 to %d counts to capture", name, len(buf))
	}
	for i := 0; i < nv; i++ {
		v := vm.argInt(L, n+3+i)
		if v < 1 {
			L.ArgError(n+3+i, "counts to capture must be at least 1")
		}
		buf[i] = int32(v)
	}
	return t, from, step, buf[:nv]
}

// luaLap is the hook of matombo.relay as the kernel's relay calls it:
// fn(last, track, laps).
type luaLap struct {
	vm *Machine
	fn *lua.LFunction
}

func (h *luaLap) Lap(c *kernel.Ctx, last int, t *kernel.Track, laps int) (kernel.LapEnd, error) {
	L := h.vm.L
	L.Push(h.fn)
	L.Push(luaInt(last + 1))
	L.Push(luaInt(h.vm.def.Board.TrackIndex(t) + 1))
	L.Push(luaInt(laps))
	L.Call(3, 3)
	r1, r2, r3 := h.vm.hookValue(L.Get(-3)), h.vm.hookValue(L.Get(-2)), h.vm.hookValue(L.Get(-1))
	L.Pop(3)
	return rules.LapAnswer(c, r1, r2, r3)
}
