package host

import (
	"fmt"

	lua "github.com/yuin/gopher-lua"
)

// More sowing and capture primitives: a sowing that never drops into the
// site it starts from, and a dry run of capture_run that reports what it
// would take without taking it (for rules that forbid a capture by what it
// would take, such as a capture that would leave the opponent nothing).

// sowSkipping drops n counters one per site along t, starting with the site
// after from and never into from itself, however many laps the sowing
// makes. It returns the last site sown and whether that site was empty
// before the last counter fell in; last is -1 when a track that does not
// loop ran out of sites. On a looping track the other sites get n / (L-1)
// counters each at once (L sites on the track). The caller checks that no
// count passes maxCount.
func sowSkipping(counts []int32, t *Track, from int, n int) (last int, wasEmpty bool) {
	if !t.Loop {
		last, wasEmpty, _ = sowInto(counts, t, from, n)
		return last, wasEmpty
	}
	others := len(t.Sites) - 1
	if others < 1 {
		return -1, false
	}
	if q := n / others; q > 0 {
		for _, s := range t.Sites {
			if s != from {
				counts[s] += int32(q)
			}
		}
		n -= q * others
		if n == 0 {
			last = t.step(from, -1)
			return last, counts[last] == 1
		}
	}
	pos := from
	for ; n > 0; n-- {
		pos = int(t.next[pos])
		if pos == from {
			pos = int(t.next[pos])
		}
		counts[pos]++
	}
	return pos, counts[pos] == 1
}

// apiSowSkip: sow_skip(track, from, n) drops n counters one per site along
// the track, starting after from and skipping from on every lap. Returns
// the last site and whether it was empty before the last counter fell in.
func (vm *machine) apiSowSkip(L *lua.LState) int {
	s, t, from := vm.sowArgs(L)
	n := vm.argInt(L, 3)
	if n < 1 || n > maxCount {
		L.ArgError(3, fmt.Sprintf("cannot sow %d counters (1 to %d)", n, maxCount))
	}
	vm.charge(L, min(n, len(t.Sites))/8+1)
	if t.Loop && len(t.Sites) < 2 {
		L.ArgError(1, fmt.Sprintf("track %s has no site but %s to sow into", t.Name, vm.dcl.board.sites[from].Name))
	}
	cells := s.cells[:vm.g.lay.sites]
	room := n
	if t.Loop {
		room = n/(len(t.Sites)-1) + 1
	}
	for _, site := range t.Sites {
		vm.checkSiteCount(L, site, int(cells[site])+room)
	}
	last, empty := sowSkipping(cells, t, from, n)
	if last < 0 {
		L.RaiseError("sowing %d counters from %s runs off the end of track %s", n, vm.dcl.board.sites[from].Name, t.Name)
	}
	vm.recordSowing(t, from, n, true)
	vm.pushSite(L, last)
	pushBool(L, empty)
	return 2
}

// runOf walks t from the site after from, step places at a time, over the
// sites whose count is one of values, stopping at the first that is not,
// at the end of a track that does not loop, or after one trip round. It
// returns the counters on those sites and how many sites there are.
func runOf(counts []int32, t *Track, from, step int, values []int32) (counters, sites int) {
	site := from
	for k := 0; k < len(t.Sites); k++ {
		site = t.step(site, step)
		if site < 0 {
			break
		}
		n := counts[site]
		hit := false
		for _, v := range values {
			if v == n {
				hit = true
				break
			}
		}
		if !hit {
			break
		}
		counters += int(n)
		sites++
	}
	return counters, sites
}

// apiCaptureCount: capture_count(track, from, step, v1, v2, ...) reports
// what capture_run(p, track, from, step, v1, v2, ...) would capture, without
// changing the state: the number of counters and the number of sites.
func (vm *machine) apiCaptureCount(L *lua.LState) int {
	s := vm.state(L)
	var buf [8]int32
	t, from, step, values := vm.runArgs(L, 1, "capture_count", &buf)
	vm.charge(L, len(t.Sites)/8+1)
	counters, sites := runOf(s.cells[:vm.g.lay.sites], t, from, step, values)
	L.Push(luaInt(counters))
	L.Push(luaInt(sites))
	return 2
}
