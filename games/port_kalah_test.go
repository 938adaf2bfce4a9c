package games_test

import "github.com/matombo/matombo/host"

// kalahPort plays Kalah (docs/rules/kalah.md K1-K7, K9; six pits) on the
// script's sites:
// a1..a6 and store a7 are indices 0..6, b1..b6 and store b7 7..13, and bk
// faces ak.
type kalahPort struct {
	names   []string
	seeds   int
	empty   bool // K9: empty captures
	pits    [14]int
	toMove  int
	ply     int
	done    bool
	win     int
	legal   [6]int
	nlegal  int
	circuit [2][13]int
}

func newKalahPort(g *host.Game) port {
	k := &kalahPort{names: siteNames(g), seeds: intParam(g, "seeds")}
	if v, ok := g.Param("empty_capture"); ok {
		k.empty, _ = v.(bool)
	}
	// K2's circuits: a1..a7 b6..b1 for Player 1, b6..b1 b7 a1..a6 for
	// Player 2.
	k.circuit[0] = [13]int{0, 1, 2, 3, 4, 5, 6, 12, 11, 10, 9, 8, 7}
	k.circuit[1] = [13]int{12, 11, 10, 9, 8, 7, 13, 0, 1, 2, 3, 4, 5}
	return k
}

func (k *kalahPort) reset() {
	for i := range k.pits {
		k.pits[i] = k.seeds
	}
	k.pits[6], k.pits[13] = 0, 0
	k.toMove, k.ply, k.done, k.win = 1, 0, false, 0
	k.list()
}

func (k *kalahPort) sideEmpty(p int) bool {
	for i := range 6 {
		if k.pits[7*(p-1)+i] > 0 {
			return false
		}
	}
	return true
}

// list is K2's choice; a side already empty lists nothing (K5), and the
// game ends.
func (k *kalahPort) list() {
	k.nlegal = 0
	if k.done {
		return
	}
	p := k.toMove
	if !k.sideEmpty(3 - p) {
		for i := range 6 {
			if k.pits[7*(p-1)+i] > 0 {
				k.legal[k.nlegal] = 7*(p-1) + i
				k.nlegal++
			}
		}
	}
	if k.nlegal == 0 {
		k.result()
	}
}

func (k *kalahPort) moves() int         { return k.nlegal }
func (k *kalahPort) token(i int) string { return k.names[k.legal[i]] }
func (k *kalahPort) over() bool         { return k.done }
func (k *kalahPort) winner() int        { return k.win }

func (k *kalahPort) play(i int) {
	p := k.toMove
	from := k.legal[i]
	k.ply++
	k.toMove = 3 - p
	// K2: sow along the circuit, never into the opponent's store.
	c := &k.circuit[p-1]
	pos := 0
	for c[pos] != from {
		pos++
	}
	n := k.pits[from]
	k.pits[from] = 0
	last := from
	for ; n > 0; n-- {
		pos++
		if pos == 13 {
			pos = 0
		}
		last = c[pos]
		k.pits[last]++
	}
	store := 7*(p-1) + 6
	if last == store {
		k.toMove = p // K3
	} else if k.pits[last] == 1 && last/7 == p-1 { // K4
		opp := (last + 7) % 14
		if k.pits[opp] > 0 || k.empty { // K9: even facing an empty pit
			k.pits[store] += k.pits[opp] + 1
			k.pits[opp], k.pits[last] = 0, 0
		}
	}
	// K5
	if k.sideEmpty(1) || k.sideEmpty(2) || k.ply > 1000 {
		k.result()
	}
	k.list()
}

// result is K6: pits and store, the larger total wins.
func (k *kalahPort) result() {
	t := [2]int{}
	for i := range 14 {
		t[i/7] += k.pits[i]
	}
	k.done = true
	switch {
	case t[0] > t[1]:
		k.win = 1
	case t[1] > t[0]:
		k.win = 2
	default:
		k.win = 0
	}
}
