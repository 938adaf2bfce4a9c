package host

import (
	"math"

	lua "github.com/yuin/gopher-lua"

	"github.com/matombo/matombo/host/internal/luastr"
)

// lineRun is the filter test of the fields in_row = k and not_in_row = k:
// whether the site's owner owns k or more consecutive sites of a line
// through the site, the site among them (three in a row protecting its
// pieces, say). An empty site (owner 0) is in no run.
type lineRun struct {
	k     int // 0: no test
	in    bool
	board *Board
}

// lineRunFields reads in_row and not_in_row of a filter's table.
func (vm *machine) lineRunFields(L *lua.LState, t *lua.LTable, b *Board) lineRun {
	var r lineRun
	for _, name := range []string{"in_row", "not_in_row"} {
		v := t.RawGetString(name)
		if v == lua.LNil {
			continue
		}
		n, ok := v.(lua.LNumber)
		if !ok || float64(n) != math.Trunc(float64(n)) || n < 1 || n > maxSites {
			L.RaiseError("filter: %s must be a whole number of sites from 1 (the length of the run), got %s", name, describeLua(v))
		}
		if r.k > 0 {
			L.RaiseError("filter: in_row and not_in_row exclude each other")
		}
		r = lineRun{k: int(n), in: name == "in_row", board: b}
	}
	return r
}

// through reports whether owners[i] (not 0) also owns the sites next to i
// along some line through i, k sites in a row with i among them.
func (r *lineRun) through(owners []int32, i int32) bool {
	p := owners[i]
	if p == 0 {
		return false
	}
	return r.board.runThrough(owners, i, p, r.k)
}

// runThrough reports whether player p owns k consecutive sites of a line
// through site i, i among them.
func (b *Board) runThrough(owners []int32, i, p int32, k int) bool {
	for _, li := range b.linesAt[i] {
		run, has := 0, false
		for _, x := range b.lines[li] {
			if owners[x] != p {
				run, has = 0, false
				continue
			}
			run++
			has = has || x == i
			if has && run >= k {
				return true
			}
		}
	}
	return false
}

// apiOpenLines: open_lines(p) -> how many lines of the board p holds but
// for one point, which is empty: the lines p completes with one piece
// (an evaluation's threats, counted in one call rather than a Lua loop
// over the lines per position searched).
func (vm *machine) apiOpenLines(L *lua.LState) int {
	s := vm.state(L)
	p := vm.player(L, 1)
	owners := s.cells[vm.g.lay.owners:]
	n := 0
	for _, line := range vm.dcl.board.lines {
		vm.charge(L, 1+len(line)/luastr.ItemsPerStep)
		mine, empty := 0, 0
		for _, x := range line {
			switch int(owners[x]) {
			case p:
				mine++
			case 0:
				empty++
			}
		}
		if empty == 1 && mine == len(line)-1 {
			n++
		}
	}
	L.Push(lua.LNumber(n))
	return 1
}
