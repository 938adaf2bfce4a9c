package games_test

import (
	"math/rand/v2"
	"testing"

	"github.com/matombo/matombo/host"
)

// baoksPort plays Bao la Kiswahili (docs/rules/baokiswahili.md Z1-Z18) on
// the script's sites: a1..a8 are 0..7, b1..b8 8..15, c1..c8 16..23 and
// d1..d8 24..31. Players are 0 and 1 inside, directions 0 (clockwise) and
// 1 (anticlockwise).
type baoksPort struct {
	names   []string
	rules   baoksRules
	b       baoksState
	scratch baoksState
	toMove  int // 1 or 2
	legal   []baoksMove
	reps    repetitions
	endless int // takasa moves Z16 has refused, for TestBaoksPortCoverage
}

// baoksRules are the parameters (Z18), and Bawo's (docs/rules/bawo.md):
// the seeds of the opening house (W2) and a lone kichwa that may be sown
// into the back row, and so loses (W4).
type baoksRules struct {
	takasia, houseInMtaji, kichwaInward bool
	houseMin                            int
	house                               int  // seeds in the house at the start (W2)
	loneOut                             bool // a lone kichwa may be sown into the back row (W4)
}

// baoksState is what a move changes.
type baoksState struct {
	counts  [32]int
	hand    [2]int
	owns    [2]bool // Z9: the house never emptied
	pending int     // Z10: 0, or 1 + the direction of the lap that ended in the house
	takasia int     // Z14: 0, or 1 + the hole blocked for the player to move
	done    bool
	win     int
}

type baoksKind uint8

const (
	baoksSow baoksKind = iota
	baoksCapture
	baoksSafari
	baoksStop
)

type baoksMove struct {
	kind   baoksKind
	s1, s2 int
}

const baoksMaxLaps = 1000 // Z16

// The board's tables (Z1, Z3, Z6, Z13).
var (
	baoksNext, baoksPrev [2][2][32]int // along each player's circuit, each way; -1 off it
	baoksFront           [32]int       // 1 + the owner of a front hole, 0 for a back hole
	baoksFacing          [32]int       // the facing front hole, -1 for a back hole
	baoksKichwa          = [2][2]int{{8, 15}, {23, 16}}
	baoksNearest         [32]int // the direction of the nearest kichwa of a kichwa or kimbi, else -1
	baoksInward          [32]int // a kichwa's direction towards the centre, else -1
	baoksHouse           = [2]int{12, 19}
	baoksHoles           [2][]int
	baoksFrontHoles      [2][]int
	baoksBackHoles       [2][]int
)

func init() {
	for p := range 2 {
		var ring []int
		for k := range 8 {
			if p == 0 {
				ring = append(ring, 8+k)
			} else {
				ring = append(ring, 23-k)
			}
		}
		for k := range 8 {
			if p == 0 {
				ring = append(ring, 7-k)
			} else {
				ring = append(ring, 24+k)
			}
		}
		for d := range 2 {
			for s := range 32 {
				baoksNext[p][d][s], baoksPrev[p][d][s] = -1, -1
			}
		}
		for i, s := range ring {
			n, pr := ring[(i+1)%16], ring[(i+15)%16]
			baoksNext[p][0][s], baoksPrev[p][0][s] = n, pr
			baoksNext[p][1][s], baoksPrev[p][1][s] = pr, n
		}
	}
	for s := range 32 {
		baoksFacing[s], baoksNearest[s], baoksInward[s] = -1, -1, -1
		p := 0
		if s >= 16 {
			p = 1
		}
		baoksHoles[p] = append(baoksHoles[p], s)
		if s >= 8 && s < 24 {
			baoksFront[s] = p + 1
			if s < 16 {
				baoksFacing[s] = s + 8
			} else {
				baoksFacing[s] = s - 8
			}
			baoksFrontHoles[p] = append(baoksFrontHoles[p], s)
		} else {
			baoksBackHoles[p] = append(baoksBackHoles[p], s)
		}
	}
	for _, s := range []int{8, 9, 23, 22} {
		baoksNearest[s] = 0
	}
	for _, s := range []int{15, 14, 16, 17} {
		baoksNearest[s] = 1
	}
	for p := range 2 {
		for d := range 2 {
			k := baoksKichwa[p][d]
			if baoksFront[baoksNext[p][0][k]] == p+1 {
				baoksInward[k] = 0
			} else {
				baoksInward[k] = 1
			}
		}
	}
}

func newBaoksPort(g *host.Game) port {
	flag := func(name string) bool { v, _ := g.Param(name); return v.(bool) }
	r := baoksRules{flag("takasia"), flag("house_in_mtaji"), flag("kichwa_inward"), intParam(g, "house_min"), 6, false}
	if _, bawo := g.Param("kuu"); bawo { // Bawo: W2, W3, W4
		r.house = intParam(g, "kuu")
		r.houseMin = r.house
		r.loneOut = !r.kichwaInward
	}
	return &baoksPort{names: siteNames(g), rules: r, reps: newRepetitions()}
}

func (t *baoksPort) reset() {
	t.b = baoksState{}
	for p := range 2 {
		h := baoksHouse[p]
		t.b.counts[h] = t.rules.house
		t.b.counts[baoksNext[p][0][h]] = 2
		t.b.counts[baoksNext[p][0][baoksNext[p][0][h]]] = 2
		t.b.hand[p] = 28 - t.rules.house
		t.b.owns[p] = true
	}
	t.toMove = 1
	t.reps.clear()
	t.reps.bytes = t.key(t.reps.bytes[:0])
	t.reps.add()
	t.list()
}

func (t *baoksPort) key(b []byte) []byte {
	for _, c := range t.b.counts {
		b = append(b, byte(c))
	}
	var owns byte
	for p := range 2 {
		if t.b.owns[p] {
			owns |= 1 << p
		}
	}
	return append(b, byte(t.b.hand[0]), byte(t.b.hand[1]), owns, byte(t.b.pending), byte(t.b.takasia), byte(t.toMove))
}

func (t *baoksPort) moves() int  { return len(t.legal) }
func (t *baoksPort) over() bool  { return t.b.done }
func (t *baoksPort) winner() int { return t.b.win }

func (t *baoksPort) token(i int) string {
	m := t.legal[i]
	switch m.kind {
	case baoksCapture:
		return t.names[m.s1] + "x" + t.names[m.s2]
	case baoksSafari:
		return "safari"
	case baoksStop:
		return "stop"
	}
	return t.names[m.s1] + "-" + t.names[m.s2]
}

// list is the legal moves of the decision that is next (Z7, Z8, Z10-Z16).
func (t *baoksPort) list() {
	t.legal = t.legal[:0]
	b := &t.b
	if b.done {
		return
	}
	p := t.toMove - 1
	add := func(k baoksKind, s1, s2 int) { t.legal = append(t.legal, baoksMove{k, s1, s2}) }
	switch {
	case b.pending > 0: // Z10
		add(baoksSafari, 0, 0)
		add(baoksStop, 0, 0)
	case b.hand[p] > 0: // Z7, then Z8
		for _, s := range baoksFrontHoles[p] {
			if b.counts[s] > 0 && b.counts[baoksFacing[s]] > 0 {
				if d := baoksNearest[s]; d >= 0 {
					add(baoksCapture, s, baoksKichwa[p][d])
				} else {
					add(baoksCapture, s, baoksKichwa[p][0])
					add(baoksCapture, s, baoksKichwa[p][1])
				}
			}
		}
		if len(t.legal) == 0 {
			for _, s := range baoksFrontHoles[p] {
				if t.namuaTakasa(p, s) {
					tax := s == baoksHouse[p] && b.functional(&t.rules, p)
					t.takasaBothWays(p, s, true, tax)
				}
			}
		}
	default: // Z11, then Z12
		for _, s := range baoksHoles[p] {
			for d := range 2 {
				if b.firstLapCaptures(p, s, d) {
					add(baoksSow, s, baoksNext[p][d][s])
				}
			}
		}
		if len(t.legal) == 0 {
			holes := baoksBackHoles[p]
			if b.frontBig(p) > 0 {
				holes = baoksFrontHoles[p]
			}
			for _, s := range holes {
				if s != b.takasia-1 && b.counts[s] >= 2 {
					t.takasaBothWays(p, s, false, false)
				}
			}
		}
	}
	if len(t.legal) == 0 { // Z15
		b.done, b.win = true, 2-p
	}
}

// takasaBothWays lists the takasa sowings of s that Z13 and Z16 allow.
func (t *baoksPort) takasaBothWays(p, s int, namua, tax bool) {
	for d := range 2 {
		if t.directionAllowed(p, s, d) && t.ends(p, s, d, namua, tax) {
			t.legal = append(t.legal, baoksMove{baoksSow, s, baoksNext[p][d][s]})
		}
	}
}

// namuaTakasa is Z8: whether p may start a namua takasa from s.
func (t *baoksPort) namuaTakasa(p, s int) bool {
	b := &t.b
	n := b.counts[s]
	if n == 0 {
		return false
	}
	if b.functional(&t.rules, p) {
		return s != baoksHouse[p] || n == b.frontSum(p)
	}
	return n >= 2 || b.frontBig(p) == 0
}

// directionAllowed is Z13.
func (t *baoksPort) directionAllowed(p, s, d int) bool {
	in := baoksInward[s]
	if in < 0 || in == d {
		return true
	}
	return !t.rules.kichwaInward && (t.rules.loneOut || t.b.counts[s] != t.b.frontSum(p))
}

// ends is Z16: the takasa played out on a scratch copy.
func (t *baoksPort) ends(p, s, d int, namua, tax bool) bool {
	t.scratch = t.b
	if t.scratch.takasa(&t.rules, p, s, d, namua, tax) == 'l' {
		t.endless++
		return false
	}
	return true
}

func (t *baoksPort) play(i int) {
	m := t.legal[i]
	p := t.toMove - 1
	t.toMove = 2 - p
	b, r := &t.b, &t.rules
	namua := b.hand[p] > 0
	takasa := false
	how := byte('e')
	switch m.kind {
	case baoksStop:
		b.pending = 0
	case baoksSafari: // Z10
		d := b.pending - 1
		b.pending = 0
		h := baoksHouse[p]
		b.owns[p] = false
		n := b.counts[h]
		b.counts[h] = 0
		how = b.sowOn(r, true, true, p, d, h, n, false)
	case baoksCapture: // Z7
		b.hand[p]--
		b.counts[m.s1]++
		d := 1
		if baoksKichwa[p][0] == m.s2 {
			d = 0
		}
		if nd, after, from, ok := b.capture(p, m.s1, d); ok {
			n := b.counts[from]
			b.counts[from] = 0
			how = b.sowOn(r, true, true, p, nd, after, n, false)
		} else {
			how = 'h'
		}
	case baoksSow:
		d := 1
		if baoksNext[p][0][m.s1] == m.s2 {
			d = 0
		}
		switch {
		case r.loneOut && baoksInward[m.s1] >= 0 && baoksInward[m.s1] != d && b.counts[m.s1] == b.frontSum(p):
			// Bawo W4: the lone kichwa into the back row; its lap is sown
			// and the mover has lost.
			if namua {
				b.hand[p]--
				b.counts[m.s1]++
			}
			n := b.counts[m.s1]
			b.counts[m.s1] = 0
			b.sow(p, d, m.s1, n)
			b.done, b.win = true, 2-p
		case namua: // Z8
			takasa = true
			how = b.takasa(r, p, m.s1, d, true, m.s1 == baoksHouse[p] && b.functional(r, p))
		case b.firstLapCaptures(p, m.s1, d): // Z11
			how = b.sowFrom(r, true, false, p, m.s1, d, 0)
		default: // Z12
			takasa = true
			how = b.sowFrom(r, false, false, p, m.s1, d, 0)
		}
	}
	if m.kind != baoksStop {
		b.takasia = 0
	}
	if how == 'l' {
		panic("baoksPort: a move over the lap limit was listed")
	}
	if !b.done {
		switch {
		case how == 'h' && b.pending > 0:
			t.toMove = p + 1
		case takasa && !namua:
			b.takasia = b.takasiaHole(r, p)
		}
	}
	t.reps.bytes = t.key(t.reps.bytes[:0])
	seen := t.reps.add()
	t.list()
	if !b.done && seen >= 3 { // Z17
		b.done, b.win = true, 0
		t.legal = t.legal[:0]
	}
}

// functional is Z9.
func (b *baoksState) functional(r *baoksRules, p int) bool {
	return b.owns[p] && b.counts[baoksHouse[p]] >= r.houseMin
}

// lost is Z9: the house of p is lost when s, emptied, is it.
func (b *baoksState) lost(p, s int) {
	if s == baoksHouse[p] {
		b.owns[p] = false
	}
}

func (b *baoksState) frontSum(p int) int {
	n := 0
	for _, s := range baoksFrontHoles[p] {
		n += b.counts[s]
	}
	return n
}

// frontBig counts p's front holes of two seeds or more.
func (b *baoksState) frontBig(p int) int {
	k := 0
	for _, s := range baoksFrontHoles[p] {
		if b.counts[s] >= 2 {
			k++
		}
	}
	return k
}

// firstLapCaptures is Z11 (with the sixteen-seed rule).
func (b *baoksState) firstLapCaptures(p, s, d int) bool {
	n := b.counts[s]
	if n < 2 || n >= 16 {
		return false
	}
	e := s
	for range n {
		e = baoksNext[p][d][e]
	}
	return baoksFront[e] == p+1 && b.counts[e] > 0 && b.counts[baoksFacing[e]] > 0
}

// capture is Z6: the next lap of a capture at `at` (direction, the hole
// before the kichwa, the facing hole), or ok false when it emptied the
// opponent's front row and ended the game (Z15).
func (b *baoksState) capture(p, at, d int) (nd, after, from int, ok bool) {
	if n := baoksNearest[at]; n >= 0 {
		d = n
	}
	q, facing := 1-p, baoksFacing[at]
	b.lost(q, facing)
	before := baoksPrev[p][d][baoksKichwa[p][d]]
	if b.frontSum(q) == b.counts[facing] {
		n := b.counts[facing]
		b.counts[facing] = 0
		b.sow(p, d, before, n)
		b.done, b.win = true, p+1
		return 0, 0, 0, false
	}
	return d, before, facing, true
}

// sow drops n seeds one by one after `after`, and returns the last hole.
func (b *baoksState) sow(p, d, after, n int) int {
	s := after
	for range n {
		s = baoksNext[p][d][s]
		b.counts[s]++
	}
	return s
}

// takasa is a whole takasa move (Z8, Z12), a seed put in first in namua.
func (b *baoksState) takasa(r *baoksRules, p, from, d int, namua, tax bool) byte {
	if namua {
		b.hand[p]--
		b.counts[from]++
	}
	n := 0
	if tax {
		n = 2
	}
	return b.sowFrom(r, false, namua, p, from, d, n)
}

// sowFrom sows the seeds of from (n of them, or all) and plays the move on.
func (b *baoksState) sowFrom(r *baoksRules, capture, namua bool, p, from, d, n int) byte {
	fromHouse := from == baoksHouse[p] && b.functional(r, p)
	if n > 0 {
		b.counts[from] -= n
	} else {
		b.lost(p, from)
		n = b.counts[from]
		b.counts[from] = 0
	}
	return b.sowOn(r, capture, namua, p, d, from, n, fromHouse)
}

// sowOn sows and relays (Z3) until the move ends ('e'), stops ('h': the
// house, takasia, a pause or the end of the game) or passes the lap limit
// ('l').
func (b *baoksState) sowOn(r *baoksRules, capture, namua bool, p, d, after, n int, fromHouse bool) byte {
	for laps := 0; ; laps++ {
		if laps >= baoksMaxLaps {
			return 'l'
		}
		last := b.sow(p, d, after, n)
		if b.counts[last] == 1 {
			return 'e'
		}
		if capture {
			if baoksFront[last] == p+1 && b.counts[baoksFacing[last]] > 0 { // Z5
				nd, a, from, ok := b.capture(p, last, d)
				if !ok {
					return 'h'
				}
				d, after, n = nd, a, b.counts[from]
				b.counts[from] = 0
				continue
			}
			if last == baoksHouse[p] && (namua || r.houseInMtaji) && b.functional(r, p) { // Z10
				b.pending = d + 1
				return 'h'
			}
		} else {
			if last == baoksHouse[p] && (namua || r.houseInMtaji) && b.functional(r, p) { // Z8
				return 'h'
			}
			if last == b.takasia-1 && !(fromHouse && laps == 0) { // Z14
				return 'h'
			}
		}
		b.lost(p, last)
		after, n = last, b.counts[last]
		b.counts[last] = 0
	}
}

// canCapture: whether p has a mtaji capture move.
func (b *baoksState) canCapture(p int) bool {
	for _, s := range baoksHoles[p] {
		if b.firstLapCaptures(p, s, 0) || b.firstLapCaptures(p, s, 1) {
			return true
		}
	}
	return false
}

// takasiaHole is Z14: 1 + the hole of the opponent blocked after p's
// takasa, or 0.
func (b *baoksState) takasiaHole(r *baoksRules, p int) int {
	q := 1 - p
	if !r.takasia || b.hand[q] > 0 || b.canCapture(q) {
		return 0
	}
	threatened := -1
	for _, s := range baoksHoles[p] {
		for d := range 2 {
			if !b.firstLapCaptures(p, s, d) {
				continue
			}
			e := s
			for range b.counts[s] {
				e = baoksNext[p][d][e]
			}
			f := baoksFacing[e]
			if threatened >= 0 && threatened != f {
				return 0
			}
			threatened = f
		}
	}
	if threatened < 0 || b.functional(r, q) && threatened == baoksHouse[q] {
		return 0
	}
	n := b.counts[threatened]
	if n == b.frontSum(q) || n >= 2 && b.frontBig(q) == 1 {
		return 0
	}
	return threatened + 1
}

// baoksLongGames is how many random games TestBaoksPortAgreesLong plays
// on the standard game: enough to meet an endless takasa (Z16), which
// random games meet about once in a thousand.
const baoksLongGames = 3000

// TestBaoksPortAgreesLong plays more random games than TestPortsAgree,
// on the variants that change the most (Z18).
func TestBaoksPortAgreesLong(t *testing.T) {
	for _, v := range []string{"standard", "house-in-mtaji", "kichwa-inward"} {
		games := 1000
		if v == "standard" {
			games = baoksLongGames
		}
		if testing.Short() || raceEnabled {
			games = 20
		}
		g, err := gamesLibrary().Load("baokiswahili", host.WithVariant(v))
		if err != nil {
			t.Fatal(err)
		}
		t.Run(v, func(t *testing.T) {
			t.Parallel()
			portAgrees(t, g, newBaoksPort(g), games)
		})
	}
}

// TestBaoksPortCoverage replays with the port the standard games of
// TestBaoksPortAgreesLong (the same seeds, so the same games: the port and
// the script list the same moves) and checks that they meet every rule
// that few positions exercise, so that the agreement covers them.
func TestBaoksPortCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("replays the games of TestBaoksPortAgreesLong")
	}
	g, err := gamesLibrary().Load("baokiswahili")
	if err != nil {
		t.Fatal(err)
	}
	p := newBaoksPort(g).(*baoksPort)
	seen := map[string]int{}
	for i := range baoksLongGames {
		rng := rand.New(rand.NewPCG(uint64(i), 7))
		p.reset()
		for ply := 0; p.moves() > 0 && ply < g.MaxPlies(); ply++ {
			k := rng.IntN(p.moves())
			m, q, b := p.legal[k], p.toMove-1, &p.b
			switch {
			case m.kind == baoksCapture && baoksNearest[m.s1] < 0:
				seen["namua capture from a central hole (Z6)"]++
			case m.kind == baoksSafari:
				seen["safari (Z10)"]++
			case m.kind == baoksStop:
				seen["stop in the house (Z10)"]++
			case m.kind == baoksSow && b.hand[q] > 0 && m.s1 == baoksHouse[q] && b.functional(&p.rules, q):
				seen["tax (Z8)"]++
			case m.kind == baoksSow && b.hand[q] == 0 && b.counts[m.s1] >= 16:
				seen["a first lap of sixteen or more (Z11)"]++
			case m.kind == baoksSow && b.hand[q] == 0 && baoksFront[m.s1] == 0:
				seen["a move from the back row (Z11, Z12)"]++
			}
			p.play(k)
			if p.b.takasia > 0 {
				seen["takasia (Z14)"]++
			}
		}
		if p.b.done && p.b.win > 0 && len(p.legal) == 0 && p.b.frontSum(2-p.b.win) > 0 {
			seen["no legal move (Z15)"]++
		}
	}
	seen["an endless takasa refused (Z16)"] = p.endless
	for _, rule := range []string{
		"namua capture from a central hole (Z6)", "safari (Z10)", "stop in the house (Z10)", "tax (Z8)",
		"a first lap of sixteen or more (Z11)", "a move from the back row (Z11, Z12)", "takasia (Z14)",
		"no legal move (Z15)", "an endless takasa refused (Z16)",
	} {
		if seen[rule] == 0 {
			t.Errorf("no game met %s", rule)
		}
	}
	t.Log(seen)
}
