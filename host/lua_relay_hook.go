package host

import (
	"fmt"

	lua "github.com/yuin/gopher-lua"
)

// A relay sowing with a script hook: relay(track, from, stop_tag, max_laps,
// on_lap, on_tag) calls on_lap(last, track, laps) at the end of every lap
// (only of those ending on a site with the tag on_tag, when it is given),
// and the hook decides how the sowing goes on. Games whose relays capture in the
// middle of a move (captured counters sown in from an end hole, then
// relayed on) need it; every lap is still sown in Go.

// relayHooked runs a relay with the hook given as the fifth argument of
// matombo.relay (and the tag of the sixth); s, t, from, stop and maxLaps
// are the other arguments, read by apiRelay.
func (vm *machine) relayHooked(L *lua.LState, s *State, t *Track, from int, stop uint64, maxLaps int, hook *lua.LFunction) int {
	b := vm.dcl.board
	only := vm.tagMask(L, 6) // 0: the hook hears every lap
	sites := vm.g.lay.sites
	work := sowWork(sites)
	pickup, after, last, laps := from, from, from, 0
	for {
		if laps >= maxLaps {
			vm.pushSite(L, last)
			L.Push(vm.strs.laps)
			L.Push(luaInt(laps))
			return 3
		}
		counts := s.cells[:sites] // the hook may have changed the state
		n := int(counts[pickup])
		if n == 0 {
			L.RaiseError("relay: the hook names %s to sow from, but it is empty", b.sites[pickup].Name)
		}
		cost := sowCost(t, n)
		work -= cost
		if work < 0 || vm.trip.Stopped() {
			vm.relayFailed(L, "relay", from, relayWork, pickup, maxLaps)
		}
		vm.chargeSowing(L, cost)
		counts[pickup] = 0
		if vm.rec != nil { // the lap's effects: the pick-up, then the drops
			vm.recordSite(EffectTake, pickup, n)
			vm.recordSowing(t, after, n, false)
		}
		laps++
		l, empty, over := sowInto(counts, t, after, n)
		switch {
		case over >= 0:
			vm.relayFailed(L, "relay", from, relayOverflow, over, maxLaps)
		case l < 0:
			L.RaiseError("a relay sowing from %s runs off the end of track %s", b.sites[after].Name, t.Name)
		}
		last = l
		how := -1 // the relay goes on by default
		switch {
		case empty:
			how = relayEmpty
		case b.tagMask[l]&stop != 0:
			how = relayStop
		}
		var r1, r2, r3 lua.LValue = lua.LNil, lua.LNil, lua.LNil
		if only == 0 || b.tagMask[l]&only != 0 {
			L.Push(hook)
			L.Push(luaInt(l + 1))
			L.Push(luaInt(vm.trackHandle(t)))
			L.Push(luaInt(laps))
			L.Call(3, 3)
			r1, r2, r3 = L.Get(-3), L.Get(-2), L.Get(-1)
			L.Pop(3)
		}
		switch v := r1.(type) {
		case *lua.LNilType:
			if how == relayEmpty {
				vm.pushSite(L, l)
				L.Push(vm.strs.empty)
				L.Push(luaInt(laps))
				return 3
			}
			if how == relayStop {
				vm.pushSite(L, l)
				L.Push(vm.strs.stop)
				L.Push(luaInt(laps))
				return 3
			}
			pickup, after = l, l
		case lua.LBool:
			if !bool(v) {
				vm.pushSite(L, l)
				L.Push(lua.LString("hook"))
				L.Push(luaInt(laps))
				return 3
			}
			pickup, after = l, l
		case lua.LNumber:
			t, after, pickup = vm.hookNext(L, r1, r2, r3)
		default:
			L.RaiseError("relay: the hook returned %s; want nothing (go on as a relay does), false (end here), true (sow on from the last site) or a track and a site", describeLua(r1))
		}
	}
}

// hookNext reads a hook's answer track, after [, from]: the next lap picks
// up the counters of from (default: after) and sows them along track,
// starting with the site after after.
func (vm *machine) hookNext(L *lua.LState, tv, av, fv lua.LValue) (*Track, int, int) {
	b := vm.dcl.board
	n, ok := tv.(lua.LNumber)
	if !ok || float64(n) != float64(int(n)) || int(n) < 1 || int(n) > len(b.tracks) {
		L.RaiseError("relay: the hook returned track %s, which does not exist", describeLua(tv))
	}
	t := &b.tracks[int(n)-1]
	after := vm.hookSite(L, av, "the site to sow after")
	if t.pos[after] < 0 {
		L.RaiseError("relay: the hook names %s to sow after, which is not on track %s", b.sites[after].Name, t.Name)
	}
	from := after
	if fv != lua.LNil {
		from = vm.hookSite(L, fv, "the site to sow from")
	}
	return t, after, from
}

// hookSite reads a site a hook returned: a number from 1 or a name.
func (vm *machine) hookSite(L *lua.LState, v lua.LValue, what string) int {
	b := vm.dcl.board
	switch x := v.(type) {
	case lua.LNumber:
		if i := int(x); float64(i) == float64(x) && i >= 1 && i <= len(b.sites) {
			return i - 1
		}
	case lua.LString:
		if i, ok := b.byName[string(x)]; ok {
			return i
		}
	}
	L.RaiseError("relay: the hook returned %s as %s, which is not a site of the board", describeLua(v), what)
	return 0
}

// trackHandle is the handle scripts know track t by.
func (vm *machine) trackHandle(t *Track) int {
	for i := range vm.dcl.board.tracks {
		if &vm.dcl.board.tracks[i] == t {
			return i + 1
		}
	}
	panic(fmt.Sprintf("host: track %s is not a track of the board", t.Name))
}
