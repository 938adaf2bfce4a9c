package host

import (
	"fmt"
	"math"
	"slices"

	"github.com/matombo/matombo/host/kernel"
)

// AppendPositionValues appends the values AppendPosition encodes, as
// numbers: the counts and owners of the sites, the captured totals, the
// hands, the position variables and the player to move, in that order.
// It does not allocate when dst has room.
func (s *State) AppendPositionValues(dst []int) []int {
	for _, c := range s.k.Cells[:s.g.def.Layout.KeyLen] {
		dst = append(dst, int(c))
	}
	return dst
}

// SetPositionValues is SetPosition from the values of a position
// (AppendPositionValues) instead of their encoding, for a loop that sets
// up many positions it makes itself: dst becomes the state of that
// position, checked as SetPosition checks it. On error dst is unchanged.
func (r *Runner) SetPositionValues(dst *State, vals []int) error {
	if err := r.check(dst); err != nil {
		return err
	}
	vm, err := r.machine()
	if err != nil {
		return err
	}
	n := r.g.def.Layout.KeyLen
	cells := slices.Grow(vm.CellBuffer(), n)[:n]
	err = r.g.valueCells(cells, vals)
	vm.KeepCellBuffer(cells)
	if err != nil {
		return err
	}
	return vm.SetCells(&dst.k, cells)
}

// valueCells writes vals, the values of a position (AppendPositionValues),
// into cells, a position's key cells, and checks them as a position's.
func (g *Game) valueCells(cells []int32, vals []int) error {
	n := g.def.Layout.KeyLen
	if len(vals) != n {
		return &PositionError{Source: "position", Msg: fmt.Sprintf("%d values, want %d", len(vals), n)}
	}
	for i, v := range vals {
		c := int32(v)
		if int(c) != v {
			return &PositionError{Source: "position", Msg: fmt.Sprintf("value %d of %d is out of range (%d to %d allowed)", i+1, n, math.MinInt32, math.MaxInt32)}
		}
		cells[i] = c
	}
	return g.checkCells(cells)
}

// changeCells is valueCells for cells that hold values it checked, whose
// counters (on the board, captured and in hand) total *total: only the
// values of vals that differ from them are converted and checked, and the
// total follows them. It reports false when a value or the total is out
// of range, cells then holding some of vals: valueCells gives the error.
func (g *Game) changeCells(cells []int32, total *int, vals []int) bool {
	lay := &g.def.Layout
	if len(vals) != len(cells) {
		return false
	}
	t := *total
	for i, v := range vals {
		old := cells[i]
		if int(old) == v {
			continue
		}
		lo, hi, counted := g.cellRange(lay, i)
		if v < lo || v > hi {
			return false
		}
		if counted {
			t += v - int(old)
		}
		cells[i] = int32(v)
	}
	if g.conserve && g.opening != nil && t != g.total {
		return false
	}
	*total = t
	return true
}

// cellRange is the range checkCells allows the i-th key cell (after
// valueCells' conversion to int32), and whether it counts counters.
func (g *Game) cellRange(lay *kernel.Layout, i int) (lo, hi int, counted bool) {
	switch {
	case i < lay.Owners:
		return 0, maxCount, true
	case i < lay.Captured:
		return 0, g.players, false
	case i < lay.Vars:
		return 0, maxCount, true
	case i < lay.ToMove:
		return math.MinInt32, math.MaxInt32, false
	}
	return 1, g.players, false
}
