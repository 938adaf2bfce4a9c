package games_test

import "github.com/matombo/matombo/host"

// tsoroPort plays Tsoro (docs/rules/tsoro.md T1-T13) on the script's
// sites: ak is k-1, bk N+k-1, ck 2N+k-1 and dk 3N+k-1.
type tsoroPort struct {
	names    []string
	n, bonus int
	head     []bool
	heads    int      // heads per player
	track    [2][]int // T4's circuits
	next     [2][]int // the next site on each circuit, -1 off it
	side     [2][]int // each player's holes in board order
	across   []int    // T8: the opponent's inner hole of an inner hole's column, -1 for none
	behind   []int    // T8: the opponent's outer hole of that column
	counts   []int
	scratch  []int
	captured [2]int
	pending  int // 0, a head waiting for continue or stop, or -k bonus captures to take
	toMove   int
	done     bool
	win      int
	legal    []tsoroMove
	reps     repetitions
}

type tsoroKind uint8

const (
	tsoroSow tsoroKind = iota
	tsoroContinue
	tsoroStop
	tsoroTake
)

type tsoroMove struct {
	kind tsoroKind
	site int
}

const tsoroMaxLaps = 1000 // T10

func newTsoroPort(g *host.Game) port {
	n := intParam(g, "holes")
	t := &tsoroPort{names: siteNames(g), n: n, bonus: intParam(g, "bonus"), heads: intParam(g, "heads"), reps: newRepetitions()}
	a, b, c, d := 0, n, 2*n, 3*n
	t.head = make([]bool, 4*n)
	if t.heads == 1 {
		t.head[a+n-1], t.head[d] = true, true
	} else {
		t.head[a+n-2], t.head[a+n-1], t.head[d+1], t.head[d] = true, true, true, true
	}
	for p := range 2 {
		t.next[p] = make([]int, 4*n)
		for i := range t.next[p] {
			t.next[p][i] = -1
		}
	}
	for k := range n {
		t.track[0] = append(t.track[0], a+k)
		t.track[1] = append(t.track[1], d+n-1-k)
	}
	for k := range n {
		t.track[0] = append(t.track[0], b+n-1-k)
		t.track[1] = append(t.track[1], c+k)
	}
	for p := range 2 {
		tr := t.track[p]
		for i, s := range tr {
			t.next[p][s] = tr[(i+1)%len(tr)]
		}
	}
	for s := range 2 * n {
		t.side[0] = append(t.side[0], s)
		t.side[1] = append(t.side[1], 2*n+s)
	}
	t.across = make([]int, 4*n)
	t.behind = make([]int, 4*n)
	for i := range t.across {
		t.across[i], t.behind[i] = -1, -1
	}
	for k := range n {
		t.across[b+k], t.behind[b+k] = c+k, d+k
		t.across[c+k], t.behind[c+k] = b+k, a+k
	}
	t.counts = make([]int, 4*n)
	t.scratch = make([]int, 4*n)
	return t
}

func (t *tsoroPort) reset() {
	clear(t.counts)
	n := t.n
	for k := range n {
		t.counts[k], t.counts[3*n+k] = 2, 2
	}
	if t.heads == 1 {
		t.counts[n-1], t.counts[3*n] = 3, 3
	}
	t.captured, t.pending, t.toMove, t.done, t.win = [2]int{}, 0, 1, false, 0
	t.reps.clear()
	t.reps.bytes = t.key(t.reps.bytes[:0])
	t.reps.add()
	t.list()
}

func (t *tsoroPort) key(b []byte) []byte {
	for _, c := range t.counts {
		b = append(b, byte(c))
	}
	return append(b, byte(t.captured[0]), byte(t.captured[1]), byte(t.pending), byte(t.pending>>8), byte(t.toMove))
}

// relay sows the counters of from along p's circuit and relays (T5, T7)
// on counts; it returns the last hole and how the sowing ended: 'e' in an
// empty hole, 's' on an occupied head, 'l' at the lap limit.
func (t *tsoroPort) relay(counts []int, p, from int) (int, byte) {
	next := t.next[p-1]
	pos := from
	for laps := 0; ; laps++ {
		if laps >= tsoroMaxLaps {
			return pos, 'l'
		}
		k := counts[pos]
		counts[pos] = 0
		for ; k > 0; k-- {
			pos = next[pos]
			counts[pos]++
		}
		switch {
		case counts[pos] == 1:
			return pos, 'e'
		case t.head[pos]:
			return pos, 's'
		}
	}
}

// bounded reports whether every sowing of p surely ends within T10's lap
// limit (docs/rules/tsoro.md, "Why every sowing ends").
func (t *tsoroPort) bounded(p int) bool {
	c := 0
	for _, s := range t.side[p-1] {
		c += t.counts[s]
	}
	h := t.heads
	return (c+h)*2*t.n <= 2*tsoroMaxLaps*h
}

// ends is T10: whether a sowing of p from from ends within the limit.
func (t *tsoroPort) ends(p, from int, bounded bool) bool {
	if bounded {
		return true
	}
	copy(t.scratch, t.counts)
	_, how := t.relay(t.scratch, p, from)
	return how != 'l'
}

// list is the legal tokens of the decision that is next (T5-T7, T9).
func (t *tsoroPort) list() {
	t.legal = t.legal[:0]
	if t.done {
		return
	}
	p := t.toMove
	switch {
	case t.pending == 0:
		bounded := t.bounded(p)
		big := false
		for _, s := range t.side[p-1] {
			if t.counts[s] >= 2 {
				big = true
				if t.ends(p, s, bounded) {
					t.legal = append(t.legal, tsoroMove{tsoroSow, s})
				}
			}
		}
		if !big { // T6
			next := t.next[p-1]
			for _, s := range t.side[p-1] {
				if t.counts[s] == 1 && t.counts[next[s]] == 0 {
					t.legal = append(t.legal, tsoroMove{tsoroSow, s})
				}
			}
		}
	case t.pending > 0: // T7c
		if t.ends(p, t.pending-1, t.bounded(p)) {
			t.legal = append(t.legal, tsoroMove{kind: tsoroContinue})
		}
		t.legal = append(t.legal, tsoroMove{kind: tsoroStop})
	default: // T9
		for _, s := range t.side[2-p] {
			if t.counts[s] > 0 {
				t.legal = append(t.legal, tsoroMove{tsoroTake, s})
			}
		}
	}
	if len(t.legal) == 0 { // T11
		t.done, t.win = true, 3-p
	}
}

func (t *tsoroPort) moves() int  { return len(t.legal) }
func (t *tsoroPort) over() bool  { return t.done }
func (t *tsoroPort) winner() int { return t.win }

func (t *tsoroPort) token(i int) string {
	m := t.legal[i]
	switch m.kind {
	case tsoroContinue:
		return "continue"
	case tsoroStop:
		return "stop"
	case tsoroTake:
		return "x" + t.names[m.site]
	}
	return t.names[m.site]
}

func (t *tsoroPort) play(i int) {
	p := t.toMove
	t.toMove = 3 - p
	m := t.legal[i]
	switch m.kind {
	case tsoroSow:
		t.sow(p, m.site)
	case tsoroContinue:
		head := t.pending - 1
		t.pending = 0
		t.sow(p, head)
	case tsoroStop:
		t.pending = 0
	case tsoroTake:
		t.captured[p-1] += t.counts[m.site]
		t.counts[m.site] = 0
		t.bonusCaptures(p, -t.pending-1)
	}
	t.reps.bytes = t.key(t.reps.bytes[:0])
	seen := t.reps.add()
	t.list()
	if !t.done && seen >= 3 { // T13
		t.done, t.win = true, 0
		t.legal = t.legal[:0]
	}
}

// sow is T5/T7 and then T8's capture.
func (t *tsoroPort) sow(p, from int) {
	last, how := t.relay(t.counts, p, from)
	if how == 's' {
		t.pending = last + 1
		t.toMove = p
		return
	}
	across := t.across[last]
	if across < 0 || t.counts[across] == 0 {
		return
	}
	t.captured[p-1] += t.counts[across] + t.counts[t.behind[last]]
	t.counts[across], t.counts[t.behind[last]] = 0, 0
	t.bonusCaptures(p, t.bonus)
}

// bonusCaptures is T9: left more captures while the opponent has counters.
func (t *tsoroPort) bonusCaptures(p, left int) {
	t.pending = 0
	if left <= 0 {
		return
	}
	for _, s := range t.side[2-p] {
		if t.counts[s] > 0 {
			t.pending = -left
			t.toMove = p
			return
		}
	}
}
