package games_test

import (
	"fmt"

	"github.com/matombo/matombo/host"
)

// owarePort plays Oware (docs/rules/oware.md O1-O9). Houses are numbered
// along the ring: 0..H-1 are a1..aH (Player 1's row), H..2H-1 are b1..bH.
type owarePort struct {
	h, seeds int
	names    []string // by ring position
	order    []int    // ring positions in board order
	counts   []int
	captured [2]int
	toMove   int
	done     bool
	win      int
	legal    []int
	reps     repetitions
}

func newOwarePort(g *host.Game) port {
	o := &owarePort{h: intParam(g, "houses"), seeds: intParam(g, "seeds"), reps: newRepetitions()}
	board := make([]int, 2*o.h) // ring position -> board index
	for k := 1; k <= o.h; k++ {
		board[k-1] = siteIndex(g, fmt.Sprint("a", k))
		board[o.h+k-1] = siteIndex(g, fmt.Sprint("b", k))
	}
	o.names = make([]string, 2*o.h)
	o.order = make([]int, 2*o.h)
	names := siteNames(g)
	for r, b := range board {
		o.names[r] = names[b]
		o.order[b] = r
	}
	o.counts = make([]int, 2*o.h)
	o.legal = make([]int, 0, o.h)
	return o
}

func (o *owarePort) reset() {
	for i := range o.counts {
		o.counts[i] = o.seeds
	}
	o.captured = [2]int{}
	o.toMove, o.done, o.win = 1, false, 0
	o.reps.clear()
	o.reps.bytes = o.key(o.reps.bytes[:0])
	o.reps.add()
	o.list()
}

func (o *owarePort) key(b []byte) []byte {
	for _, c := range o.counts {
		b = append(b, byte(c))
	}
	return append(b, byte(o.captured[0]), byte(o.captured[1]), byte(o.toMove))
}

func (o *owarePort) rowSum(p int) int {
	n := 0
	for _, c := range o.counts[(p-1)*o.h : p*o.h] {
		n += c
	}
	return n
}

// list is O2's choice and O5's feeding; no move ends the game (O7).
func (o *owarePort) list() {
	o.legal = o.legal[:0]
	if o.done {
		return
	}
	p := o.toMove
	lo, hi := (p-1)*o.h, p*o.h
	if o.rowSum(3-p) == 0 {
		for k := lo; k < hi; k++ {
			if o.counts[k] > hi-1-k {
				o.legal = append(o.legal, k)
			}
		}
	} else {
		for _, r := range o.order {
			if r >= lo && r < hi && o.counts[r] > 0 {
				o.legal = append(o.legal, r)
			}
		}
	}
	if len(o.legal) == 0 {
		o.result()
	}
}

func (o *owarePort) moves() int         { return len(o.legal) }
func (o *owarePort) token(i int) string { return o.names[o.legal[i]] }
func (o *owarePort) over() bool         { return o.done }
func (o *owarePort) winner() int        { return o.win }

func (o *owarePort) play(i int) {
	p := o.toMove
	o.toMove = 3 - p
	from := o.legal[i]
	ring := 2 * o.h
	// O2: sow, skipping the emptied house.
	n := o.counts[from]
	o.counts[from] = 0
	last := from
	for ; n > 0; n-- {
		last = (last + 1) % ring
		if last == from {
			last = (last + 1) % ring
		}
		o.counts[last]++
	}
	// O3, O4: captures in the opponent's row, backwards from the last house.
	opp := 3 - p
	lo := (opp - 1) * o.h
	took := 0
	if last >= lo && last < lo+o.h && (o.counts[last] == 2 || o.counts[last] == 3) {
		would := 0
		k := last
		for k >= lo && (o.counts[k] == 2 || o.counts[k] == 3) {
			would += o.counts[k]
			k--
		}
		if would != o.rowSum(opp) {
			for k := last; k >= lo && (o.counts[k] == 2 || o.counts[k] == 3); k-- {
				took += o.counts[k]
				o.counts[k] = 0
			}
			o.captured[p-1] += took
		}
	}
	if took > 0 {
		o.reps.clear() // O6: no position before a capture comes back
		half := o.h * o.seeds
		c1, c2 := o.captured[0], o.captured[1]
		if c1 > half || c2 > half || c1 == half && c2 == half {
			o.result()
		}
	}
	o.reps.bytes = o.key(o.reps.bytes[:0])
	seen := o.reps.add()
	o.list()
	if !o.done && seen >= 2 {
		o.result() // O6
	}
}

// result is O7's collection and O8.
func (o *owarePort) result() {
	o.captured[0] += o.rowSum(1)
	o.captured[1] += o.rowSum(2)
	clear(o.counts)
	o.done = true
	switch c1, c2 := o.captured[0], o.captured[1]; {
	case c1 > c2:
		o.win = 1
	case c2 > c1:
		o.win = 2
	default:
		o.win = 0
	}
	o.legal = o.legal[:0]
}
