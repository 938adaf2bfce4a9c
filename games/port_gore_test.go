package games_test

import (
	"strings"

	"github.com/matombo/matombo/host"
)

// gorePort plays Goré (docs/rules/gore.md G1-G10) on the script's sites:
// a1..a4 are 0..3, b1..b4 are 4..7.
type gorePort struct {
	names    []string
	trading  bool
	counts   [8]int
	owners   [8]int
	captured [2]int
	offer    [3]int // offered holes + 1; 0 for none
	declined [2]bool
	toMove   int
	done     bool
	win      int
	legal    []goreMove
	reps     repetitions
}

type goreKind uint8

const (
	goreSow goreKind = iota
	gorePass
	goreOffer
	goreAccept
	goreDecline
)

type goreMove struct {
	kind  goreKind
	n     int
	sites [3]int
}

// goreRing is G2's ring: a1 a2 a3 a4 b4 b3 b2 b1.
var goreRing = [8]int{0, 1, 2, 3, 7, 6, 5, 4}

// goreNext and gorePrev step along the ring.
var goreNext, gorePrev [8]int

func init() {
	for k, s := range goreRing {
		goreNext[s] = goreRing[(k+1)%8]
		gorePrev[s] = goreRing[(k+7)%8]
	}
}

const goreSeeds = 6

func newGorePort(g *host.Game) port {
	v, _ := g.Param("trading")
	return &gorePort{names: siteNames(g), trading: v.(bool), reps: newRepetitions()}
}

func (o *gorePort) reset() {
	for s := range 8 {
		o.counts[s] = goreSeeds
		o.owners[s] = 1 + s/4
	}
	o.captured, o.offer, o.declined = [2]int{}, [3]int{}, [2]bool{}
	o.toMove, o.done, o.win = 1, false, 0
	o.reps.clear()
	o.reps.bytes = o.key(o.reps.bytes[:0])
	o.reps.add()
	o.list()
}

func (o *gorePort) key(b []byte) []byte {
	for s := range 8 {
		b = append(b, byte(o.counts[s]), byte(o.owners[s]))
	}
	return append(b, byte(o.captured[0]), byte(o.captured[1]),
		byte(o.offer[0]), byte(o.offer[1]), byte(o.offer[2]), byte(o.toMove))
}

// list is G5-G7's choices.
func (o *gorePort) list() {
	o.legal = o.legal[:0]
	if o.done {
		return
	}
	p := o.toMove
	if o.offer[0] != 0 {
		o.legal = append(o.legal, goreMove{kind: goreAccept}, goreMove{kind: goreDecline})
		return
	}
	var owned []int
	var buf [8]int
	owned = buf[:0]
	for s := range 8 {
		if o.owners[s] == p {
			owned = append(owned, s)
			if o.counts[s] > 0 {
				o.legal = append(o.legal, goreMove{kind: goreSow, n: 1, sites: [3]int{s}})
			}
		}
	}
	if len(o.legal) == 0 {
		o.legal = append(o.legal, goreMove{kind: gorePass})
	}
	if !o.trading {
		return
	}
	afford := o.captured[2-p] / goreSeeds
	kmax := min(3, len(owned)-1, afford)
	for k := 1; k <= kmax; k++ {
		o.subsets(owned, k, 0, goreMove{kind: goreOffer})
	}
}

// subsets lists the offers of k more of owned[from:], in board order.
func (o *gorePort) subsets(owned []int, k, from int, m goreMove) {
	if k == 0 {
		o.legal = append(o.legal, m)
		return
	}
	for i := from; i <= len(owned)-k; i++ {
		next := m
		next.sites[next.n] = owned[i]
		next.n++
		o.subsets(owned, k-1, i+1, next)
	}
}

func (o *gorePort) moves() int  { return len(o.legal) }
func (o *gorePort) over() bool  { return o.done }
func (o *gorePort) winner() int { return o.win }

func (o *gorePort) token(i int) string {
	m := o.legal[i]
	switch m.kind {
	case goreSow:
		return o.names[m.sites[0]]
	case gorePass:
		return "pass"
	case goreAccept:
		return "accept"
	case goreDecline:
		return "decline"
	}
	var b strings.Builder
	b.WriteString("offer:")
	for k := range m.n {
		if k > 0 {
			b.WriteByte(',')
		}
		b.WriteString(o.names[m.sites[k]])
	}
	return b.String()
}

func (o *gorePort) play(i int) {
	p := o.toMove
	o.toMove = 3 - p
	m := o.legal[i]
	switch m.kind {
	case goreSow:
		o.sow(p, m.sites[0])
	case goreOffer:
		for k := range 3 {
			o.offer[k] = 0
			if k < m.n {
				o.offer[k] = m.sites[k] + 1
			}
		}
	case goreAccept:
		for _, s := range o.offer {
			if s != 0 {
				o.owners[s-1] = p
				o.captured[p-1] -= goreSeeds
				o.counts[s-1] += goreSeeds
			}
		}
		o.offer = [3]int{}
		o.toMove = p
	case goreDecline:
		o.declined[p-1] = true
		o.offer = [3]int{}
		o.toMove = p
	}
	o.reps.bytes = o.key(o.reps.bytes[:0])
	seen := o.reps.add()
	o.list()
	if !o.done && seen >= 3 {
		o.result() // G9
	}
}

// sow is G3 and G4, then G8's end.
func (o *gorePort) sow(p, from int) {
	n := o.counts[from]
	o.counts[from] = 0
	last := from
	for ; n > 0; n-- {
		last = goreNext[last]
		o.counts[last]++
	}
	if c := o.counts[last]; o.owners[last] == 3-p && (c == 2 || c == 4) {
		o.captured[p-1] += c
		o.counts[last] = 0
		for _, step := range [2]*[8]int{&goreNext, &gorePrev} {
			s := last
			for range 8 {
				s = step[s]
				c := o.counts[s]
				if c != 2 && c != 4 {
					break
				}
				o.captured[p-1] += c
				o.counts[s] = 0
			}
		}
	}
	for s := range 8 {
		if o.counts[s] >= 3 {
			return
		}
	}
	o.result()
}

// result is G8: each hole's counters go to its owner, more captured wins.
func (o *gorePort) result() {
	for s := range 8 {
		if o.owners[s] != 0 {
			o.captured[o.owners[s]-1] += o.counts[s]
			o.counts[s] = 0
		}
	}
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
