package host

import (
	"fmt"
	"math"
	"slices"

	lua "github.com/yuin/gopher-lua"
)

// maxCount is the most counters one cell of a state (a site's count, a
// captured total, a hand) may hold. Counts are int32; keeping each below
// half the int32 range means adding two never overflows before the check.
const maxCount = math.MaxInt32 / 2

// sowWork bounds the steps (sites visited) of one call of a sowing
// primitive on a board of the given number of sites: relay, relay_ends and
// emit_sowings loop in Go, where the time budget cannot interrupt them, and
// a script chooses their lap limit. The bound leaves room for a sowing of
// 1000 laps from every site of the board (a lap visits at most twice the
// sites), between 2^22 and 2^25 steps (about 10 to 250 ms). A sowing that
// runs longer is a sowing that does not end: the primitive fails, asking
// for a lower lap limit.
func sowWork(sites int) int {
	w := 2048 * sites * sites
	return min(max(w, 1<<22), 1<<25)
}

// sowInto drops n counters one per site along t, starting with the site
// after from. It returns the last site sown and whether that site was empty
// before the last counter fell in; last is -1 when a track that does not
// loop ran out of sites. The starting site is not skipped when a sowing laps
// the track. A site whose count would pass maxCount is returned as
// overflow (-1 when none): the counts are then partly sown.
func sowInto(counts []int32, t *Track, from int, n int) (last int, wasEmpty bool, overflow int) {
	if t.Loop && n >= len(t.Sites) {
		q := n / len(t.Sites)
		for _, s := range t.Sites {
			v := int(counts[s]) + q
			if v > maxCount {
				return from, false, s
			}
			counts[s] = int32(v)
		}
		n -= q * len(t.Sites)
		if n == 0 {
			return from, counts[from] == 1, -1
		}
	}
	pos := from
	for ; n > 0; n-- {
		pos = int(t.next[pos])
		if pos < 0 {
			return -1, false, -1
		}
		if counts[pos] >= maxCount {
			return pos, false, pos
		}
		counts[pos]++
	}
	return pos, counts[pos] == 1, -1
}

// sowCost is the number of steps a lap of n counters on t costs: the sites
// sowInto visits, plus lapOverhead for the lap itself (picking up, checking
// how it ended), which costs as much as visiting a few sites.
func sowCost(t *Track, n int) int {
	if t.Loop && n >= len(t.Sites) {
		return len(t.Sites) + n%len(t.Sites) + lapOverhead
	}
	return n + lapOverhead
}

const lapOverhead = 8

// How a relay sowing ended.
const (
	relayEmpty    = iota // the last counter fell into an empty site
	relayStop            // the last counter fell into an occupied site with the stop tag
	relayLaps            // the lap limit was reached
	relayOff             // a track that does not loop ran out of sites
	relayWork            // the work bound was reached (see sowWork)
	relayOverflow        // a count would pass maxCount
)

// relayInto picks up all counters of from and sows them along t; while the
// last counter falls into an occupied site without the stop tag, it picks
// up that site's counters and sows on. A sowing that would need more than
// maxLaps laps stops before the lap that would exceed the limit. Each lap
// is charged to *work; the sowing stops (relayWork) when it runs out, or
// when the call's time budget has tripped. Each lap is recorded in rec
// when it is not nil.
func relayInto(counts []int32, tagMask []uint64, t *Track, from int, stop uint64, maxLaps int, work *int, trip *tripwire, rec *recorder) (last, how, laps int) {
	pos := from
	for {
		if laps >= maxLaps {
			return pos, relayLaps, laps
		}
		n := int(counts[pos])
		*work -= sowCost(t, n)
		if *work < 0 || laps&255 == 255 && trip != nil && trip.Stopped() {
			return pos, relayWork, laps
		}
		counts[pos] = 0
		laps++
		if rec != nil {
			rec.lap(t, pos, n)
		}
		l, empty, over := sowInto(counts, t, pos, n)
		switch {
		case over >= 0:
			return over, relayOverflow, laps
		case l < 0:
			return pos, relayOff, laps
		case empty:
			return l, relayEmpty, laps
		case tagMask[l]&stop != 0:
			return l, relayStop, laps
		}
		pos = l
	}
}

// chargeSowing charges the site visits of a sowing to the call's step
// budget, at the rate of m.sow (eight visits a step).
func (vm *machine) chargeSowing(L *lua.LState, visits int) {
	vm.charge(L, max(visits, 0)/8+1)
}

// relayFailed raises the error of a relay that ran out of work or
// overflowed a count.
func (vm *machine) relayFailed(L *lua.LState, fn string, from, how, at, maxLaps int) {
	b := vm.dcl.board
	if how == relayOverflow {
		L.RaiseError("%s from %s: the count of %s would pass %d", fn, b.sites[from].Name, b.sites[at].Name, maxCount)
	}
	if vm.trip.Stopped() {
		L.RaiseError("%s from %s: the time budget ran out", fn, b.sites[from].Name)
	}
	w := sowWork(vm.g.lay.sites)
	vm.overBudget(L, BudgetSteps, fmt.Sprintf("%d site visits in one sowing call", w),
		fmt.Sprintf("%s from %s did not end within %d site visits (lap limit %d): a sowing that long does not end; lower the lap limit", fn, b.sites[from].Name, w, maxLaps))
}

func (vm *machine) sowArgs(L *lua.LState) (*State, *Track, int) {
	s := vm.mutable(L)
	t := vm.track(L, 1)
	from := vm.site(L, 2)
	if t.pos[from] < 0 {
		L.ArgError(2, fmt.Sprintf("%s is not on track %s", vm.dcl.board.sites[from].Name, t.Name))
	}
	return s, t, from
}

// apiSow: sow(track, from, n) drops n counters one per site along the track,
// starting after from. The counters come from wherever the script took them
// (usually take). Returns the last site and whether it was empty before.
func (vm *machine) apiSow(L *lua.LState) int {
	s, t, from := vm.sowArgs(L)
	n := vm.argInt(L, 3)
	if n < 1 || n > maxCount {
		L.ArgError(3, fmt.Sprintf("cannot sow %d counters (1 to %d)", n, maxCount))
	}
	vm.charge(L, min(n, len(t.Sites))/8+1)
	last, empty, over := sowInto(s.cells[:vm.g.lay.sites], t, from, n)
	if over >= 0 {
		L.RaiseError("sowing %d counters from %s: the count of %s would pass %d", n, vm.dcl.board.sites[from].Name, vm.dcl.board.sites[over].Name, maxCount)
	}
	if last < 0 {
		L.RaiseError("sowing %d counters from %s runs off the end of track %s", n, vm.dcl.board.sites[from].Name, t.Name)
	}
	vm.recordSowing(t, from, n, false)
	vm.pushSite(L, last)
	pushBool(L, empty)
	return 2
}

func (vm *machine) relayArgs(L *lua.LState) (*State, *Track, int, uint64, int) {
	s, t, from := vm.sowArgs(L)
	if s.cells[from] == 0 {
		L.ArgError(2, fmt.Sprintf("%s is empty: there is nothing to sow", vm.dcl.board.sites[from].Name))
	}
	stop := vm.tagMask(L, 3)
	maxLaps := vm.optInt(L, 4, 1000)
	if maxLaps < 1 {
		L.ArgError(4, "the lap limit must be at least 1")
	}
	return s, t, from, stop, maxLaps
}

// apiRelay: relay(track, from, stop_tag, max_laps) sows all counters of from
// and relays: returns the last site and how the sowing ended ("empty",
// "stop" or "laps") and the number of laps.
func (vm *machine) apiRelay(L *lua.LState) int {
	s, t, from, stop, maxLaps := vm.relayArgs(L)
	switch hook := L.Get(5).(type) {
	case *lua.LNilType:
	case *lua.LFunction:
		return vm.relayHooked(L, s, t, from, stop, maxLaps, hook) // lua_relay_hook.go
	default:
		L.ArgError(5, "the hook must be a function, got "+describeLua(hook))
	}
	work := sowWork(vm.g.lay.sites)
	last, how, laps := relayInto(s.cells[:vm.g.lay.sites], vm.dcl.board.tagMask, t, from, stop, maxLaps, &work, vm.trip, vm.rec)
	vm.chargeSowing(L, sowWork(vm.g.lay.sites)-work)
	switch how {
	case relayWork, relayOverflow:
		vm.relayFailed(L, "relay", from, how, last, maxLaps)
	case relayOff:
		L.RaiseError("a relay sowing from %s runs off the end of track %s", vm.dcl.board.sites[from].Name, t.Name)
	case relayEmpty:
		vm.pushSite(L, last)
		L.Push(vm.strs.empty)
	case relayStop:
		vm.pushSite(L, last)
		L.Push(vm.strs.stop)
	default:
		vm.pushSite(L, last)
		L.Push(vm.strs.laps)
	}
	L.Push(luaInt(laps))
	return 3
}

// relayBounded reports whether every relay sowing on the looping track t,
// with the counters now on it and the stop mask, surely ends within
// maxLaps laps, without trying it.
//
// While a relay runs, a counter dropped into a site with the stop tag stays
// there: a lap ending on such a site ends the sowing, and only the sites a
// lap ends on are picked up. Every L consecutive drops (L sites on the
// track) put one counter into each of the H stop sites, so with C counters
// on the track a sowing makes A < (C/H + 1) L + 1 drops. Every lap after the
// first picks up at least 2 counters (the site it ended on held one before
// the last drop), so it makes fewer than 1 + (C/H + 1) L / 2 laps: at most
// maxLaps when (C + H) L <= 2 maxLaps H.
func relayBounded(counts []int32, tagMask []uint64, t *Track, stop uint64, maxLaps int) bool {
	if stop == 0 || !t.Loop {
		return false
	}
	c, h := 0, 0
	for _, s := range t.Sites {
		c += int(counts[s])
		if tagMask[s]&stop != 0 {
			h++
		}
	}
	return h > 0 && (c+h)*len(t.Sites) <= 2*maxLaps*h
}

// relayEnds reports whether a relay sowing from site ends (in an empty
// site or at the stop tag) within maxLaps laps, trying it on a copy of the
// counts when the bound does not settle it.
// The steps it takes are charged to *work; a sowing that runs out of work
// or overflows a count raises an error in L.
func (vm *machine) relayEnds(L *lua.LState, fn string, s *State, t *Track, from int, stop uint64, maxLaps int, bounded bool, work *int) bool {
	if bounded {
		return true
	}
	vm.scratch = append(vm.scratch[:0], s.cells[:vm.g.lay.sites]...)
	before := *work
	at, how, _ := relayInto(vm.scratch, vm.dcl.board.tagMask, t, from, stop, maxLaps, work, vm.trip, nil)
	vm.chargeSowing(L, before-*work)
	if how == relayWork || how == relayOverflow {
		vm.relayFailed(L, fn, from, how, at, maxLaps)
	}
	return how == relayEmpty || how == relayStop
}

// apiEmitSowings: emit_sowings(kind, filter, track, stop_tag, max_laps)
// adds a move for each matching site from which a relay sowing (as relay
// plays it) ends within max_laps laps; it returns how many it added and how
// many sites matched. Sowings that would run longer, e.g. an endless one,
// are not legal in many mancala games.
func (vm *machine) apiEmitSowings(L *lua.LState) int {
	s, k := vm.emitter(L, 1)
	f := vm.filterArg(L, 2)
	t := vm.track(L, 3)
	stop := vm.tagMask(L, 4)
	maxLaps := vm.optInt(L, 5, 1000)
	if maxLaps < 1 {
		L.ArgError(5, "the lap limit must be at least 1")
	}
	bounded := relayBounded(s.cells, vm.dcl.board.tagMask, t, stop, maxLaps)
	added, matched := 0, 0
	work := sowWork(vm.g.lay.sites)
	for _, i := range f.cand {
		if !f.matches(s.cells, &vm.g.lay, vm.mover, i) {
			continue
		}
		matched++
		if t.pos[i] < 0 || s.cells[i] == 0 {
			L.RaiseError("emit_sowings: %s is not a site with counters on track %s", vm.dcl.board.sites[i].Name, t.Name)
		}
		if vm.relayEnds(L, "emit_sowings", s, t, int(i), stop, maxLaps, bounded, &work) {
			m := Move{Kind: uint8(k), N: 1}
			m.Sites[0] = uint16(i)
			vm.push(L, s, m)
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
func (vm *machine) apiRelayEnds(L *lua.LState) int {
	s := vm.state(L)
	t := vm.track(L, 1)
	from := vm.site(L, 2)
	if t.pos[from] < 0 {
		L.ArgError(2, fmt.Sprintf("%s is not on track %s", vm.dcl.board.sites[from].Name, t.Name))
	}
	if s.cells[from] == 0 {
		L.ArgError(2, fmt.Sprintf("%s is empty: there is nothing to sow", vm.dcl.board.sites[from].Name))
	}
	stop := vm.tagMask(L, 3)
	maxLaps := vm.optInt(L, 4, 1000)
	if maxLaps < 1 {
		L.ArgError(4, "the lap limit must be at least 1")
	}
	bounded := relayBounded(s.cells, vm.dcl.board.tagMask, t, stop, maxLaps)
	work := sowWork(vm.g.lay.sites)
	pushBool(L, vm.relayEnds(L, "relay_ends", s, t, from, stop, maxLaps, bounded, &work))
	return 1
}

// apiCaptureRun: capture_run(player, track, from, step, v1, v2, ...) walks
// the track from the site after from (step places at a time, negative to go
// back) and captures each site whose count is one of the values, stopping at
// the first that is not. Returns the number of counters captured.
func (vm *machine) apiCaptureRun(L *lua.LState) int {
	s := vm.mutable(L)
	p := vm.player(L, 1)
	var buf [8]int32
	t, from, step, values := vm.runArgs(L, 2, "capture_run", &buf)
	total := 0
	c := &s.cells[vm.g.lay.captured+p-1]
	site := from
	for k := 0; k < len(t.Sites); k++ {
		site = t.step(site, step)
		if site < 0 {
			break
		}
		n := s.cells[site]
		if !slices.Contains(values, n) {
			break
		}
		s.cells[site] = 0
		vm.emptied(s, site)
		total += int(n)
		if vm.rec != nil {
			vm.record(Effect{Kind: EffectCapture, Site: site, To: -1, Player: p, Count: int(n)})
		}
	}
	*c = checkCount(L, "a captured total", int(*c)+total)
	L.Push(luaInt(total))
	return 1
}

// apiSweep moves the counters of every owned site into its owner's captured
// total. Returns the number of counters moved.
func (vm *machine) apiSweep(L *lua.LState) int {
	s := vm.mutable(L)
	lay := vm.g.lay
	total := 0
	for i := 0; i < lay.sites; i++ {
		o := s.cells[lay.owners+i]
		if o == 0 || s.cells[i] == 0 {
			continue
		}
		c := &s.cells[lay.captured+int(o)-1]
		if n := int(*c) + int(s.cells[i]); n > maxCount { // the message only on error: it allocates
			countError(L, fmt.Sprintf("player %d's captured total", o), n)
		}
		*c += s.cells[i]
		total += int(s.cells[i])
		if vm.rec != nil {
			vm.record(Effect{Kind: EffectCapture, Site: i, To: -1, Player: int(o), Count: int(s.cells[i])})
		}
		s.cells[i] = 0
		vm.emptied(s, i)
	}
	L.Push(luaInt(total))
	return 1
}

// runArgs reads the arguments (track, from, step, v1, v2, ...) of
// capture_run and capture_count, the track being argument n; the values go
// into buf.
func (vm *machine) runArgs(L *lua.LState, n int, name string, buf *[8]int32) (t *Track, from, step int, values []int32) {
	t = vm.track(L, n)
	from = vm.site(L, n+1)
	if t.pos[from] < 0 {
		L.ArgError(n+1, fmt.Sprintf("%s is not on track %s", vm.dcl.board.sites[from].Name, t.Name))
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
