package games_test

import (
	"slices"
	"strconv"

	"github.com/matombo/matombo/host"
)

// draftiPort plays draughts with flying kings (docs/rules/drafti.md
// D1-D13) on squares numbered as the rules page numbers them, from the far
// left as Player 1 sees the board. It lists moves in the script's order
// (the board's order of its sites, row a first and each row from the
// left, by the square moved from, then by the square moved to), writes the script's tokens, and counts
// repetitions with a map of position hashes since the last man's move or
// capture.
type draftiPort struct {
	n, half, squares, men int
	menBack, most         bool
	crowning              string // end, continue or stop
	kingLimit             int    // decisions of kings alone that draw; 0 for none
	endgames              bool

	rank   [51]int
	ray    [4][51][]int // directions up-right, up-left, down-right, down-left
	site   [51]int      // each square's place in the board's order
	bySite []int        // the squares in the board's order

	owner  [51]int8
	king   [51]bool
	taken  [51]bool
	takes  []int // the squares jumped in this move, in order
	toMove int
	jumper int
	quiet  int
	ending int
	sig    int
	done   bool
	win    int
	legal  []draftiMove
	reps   repetitions
}

type draftiMove struct {
	from, to int
	jump, on bool
}

var draftiOrder = [4]int{1, 0, 3, 2} // up-left, up-right, down-left, down-right

func newDraftiPort(g *host.Game) port {
	d := &draftiPort{
		n:         intParam(g, "size"),
		menBack:   boolParam(g, "men_back"),
		kingLimit: 2 * intParam(g, "king_moves"),
		endgames:  boolParam(g, "endgames"),
		reps:      newRepetitions(),
	}
	capture, _ := g.Param("capture")
	d.most = capture == "most"
	crowning, _ := g.Param("crowning")
	d.crowning = crowning.(string)
	d.half = d.n / 2
	d.squares = d.n * d.half
	d.men = (d.n/2 - 1) * d.half
	var file [51]int
	at := map[[2]int]int{}
	for sq := 1; sq <= d.squares; sq++ {
		t, j := (sq-1)/d.half, (sq-1)%d.half
		r := d.n - 1 - t
		f := 2*j + 1
		if r%2 == 0 {
			f = 2 * j
		}
		d.rank[sq], file[sq] = r, f
		at[[2]int{f, r}] = sq
		d.site[sq] = r*d.n + f
		d.bySite = append(d.bySite, sq)
	}
	slices.SortFunc(d.bySite, func(a, b int) int { return d.site[a] - d.site[b] })
	df, dr := [4]int{1, -1, 1, -1}, [4]int{1, 1, -1, -1}
	for sq := 1; sq <= d.squares; sq++ {
		for dir := range 4 {
			f, r := file[sq]+df[dir], d.rank[sq]+dr[dir]
			for f >= 0 && f < d.n && r >= 0 && r < d.n {
				d.ray[dir][sq] = append(d.ray[dir][sq], at[[2]int{f, r}])
				f, r = f+df[dir], r+dr[dir]
			}
		}
	}
	return d
}

func (d *draftiPort) farRow(p, sq int) bool {
	if p == 1 {
		return d.rank[sq] == d.n-1
	}
	return d.rank[sq] == 0
}

func (d *draftiPort) forward(p, dir int) bool {
	if p == 1 {
		return dir < 2
	}
	return dir >= 2
}

func (d *draftiPort) reset() {
	d.owner, d.king, d.taken = [51]int8{}, [51]bool{}, [51]bool{}
	for i := 1; i <= d.men; i++ {
		d.owner[i], d.owner[d.squares+1-i] = 2, 1
	}
	d.takes = d.takes[:0]
	d.toMove, d.jumper, d.quiet, d.ending, d.sig, d.done, d.win = 1, 0, 0, 0, 0, false, 0
	d.irreversible()
	d.list()
}

func (d *draftiPort) key(b []byte) []byte {
	for sq := 1; sq <= d.squares; sq++ {
		c := byte(d.owner[sq])
		if d.king[sq] {
			c += 4
		}
		b = append(b, c)
	}
	b = append(b, byte(d.toMove), byte(d.jumper))
	for _, t := range d.takes {
		b = append(b, byte(t))
	}
	return b
}

func (d *draftiPort) irreversible() {
	d.reps.clear()
	d.reps.bytes = d.key(d.reps.bytes[:0])
	d.reps.add()
}

// jumps calls found for each jump of p's piece on sq (a king if king):
// D5 and D6, the pieces taken in this move blocking.
func (d *draftiPort) jumps(p, sq int, king bool, found func(over, land int)) {
	q := int8(3 - p)
	for _, dir := range draftiOrder {
		ray := d.ray[dir][sq]
		if king {
			i := 0
			for i < len(ray) && d.owner[ray[i]] == 0 {
				i++
			}
			if i < len(ray) && d.owner[ray[i]] == q && !d.taken[ray[i]] {
				for j := i + 1; j < len(ray) && d.owner[ray[j]] == 0; j++ {
					found(ray[i], ray[j])
				}
			}
			continue
		}
		if !d.menBack && !d.forward(p, dir) {
			continue
		}
		if len(ray) >= 2 && d.owner[ray[1]] == 0 && d.owner[ray[0]] == q && !d.taken[ray[0]] {
			found(ray[0], ray[1])
		}
	}
}

func (d *draftiPort) kingAfter(p, sq int, king bool) bool {
	return king || d.crowning == "continue" && d.farRow(p, sq)
}

func (d *draftiPort) stopsOn(p, sq int, king bool) bool {
	return !king && d.crowning == "stop" && d.farRow(p, sq)
}

// try moves p's piece from sq over a piece to land, runs f, and puts it back.
func (d *draftiPort) try(p, sq, over, land int, f func()) {
	d.owner[land], d.owner[sq] = int8(p), 0
	d.taken[over] = true
	f()
	d.taken[over] = false
	d.owner[sq], d.owner[land] = int8(p), 0
}

func (d *draftiPort) mostFrom(p, sq int, king bool) int {
	if d.stopsOn(p, sq, king) {
		return 0
	}
	best := 0
	d.jumps(p, sq, king, func(over, land int) {
		d.try(p, sq, over, land, func() {
			best = max(best, 1+d.mostFrom(p, land, d.kingAfter(p, land, king)))
		})
	})
	return best
}

// sequences adds the legal jumps of p's piece on sq (D7, D8).
func (d *draftiPort) sequences(p, sq int, king, on bool, best int) {
	add := func(land int) { d.legal = append(d.legal, draftiMove{from: sq, to: land, jump: true, on: on}) }
	if d.most {
		d.jumps(p, sq, king, func(over, land int) {
			d.try(p, sq, over, land, func() {
				if 1+d.mostFrom(p, land, d.kingAfter(p, land, king)) == best {
					add(land)
				}
			})
		})
		return
	}
	type jump struct {
		over, land int
		goesOn     bool
	}
	var js []jump
	d.jumps(p, sq, king, func(over, land int) { js = append(js, jump{over: over, land: land}) })
	canGoOn := map[int]bool{}
	for i := range js {
		j := &js[i]
		if d.stopsOn(p, j.land, king) {
			continue
		}
		d.try(p, sq, j.over, j.land, func() {
			d.jumps(p, j.land, d.kingAfter(p, j.land, king), func(int, int) { j.goesOn = true })
		})
		canGoOn[j.over] = canGoOn[j.over] || j.goesOn
	}
	for _, j := range js {
		if j.goesOn || !canGoOn[j.over] {
			add(j.land)
		}
	}
}

// list is D7's captures, else D3 and D4's steps; a player without any
// loses (D10).
func (d *draftiPort) list() {
	d.legal = d.legal[:0]
	if d.done {
		return
	}
	p := d.toMove
	if d.jumper != 0 {
		best := 0
		if d.most {
			best = d.mostFrom(p, d.jumper, d.king[d.jumper])
		}
		d.sequences(p, d.jumper, d.king[d.jumper], true, best)
		d.byLanding(0)
		return
	}
	best, any := 0, false
	for sq := 1; sq <= d.squares; sq++ {
		if int(d.owner[sq]) != p {
			continue
		}
		if d.most {
			best = max(best, d.mostFrom(p, sq, d.king[sq]))
		} else {
			d.jumps(p, sq, d.king[sq], func(int, int) { any = true })
		}
	}
	if best > 0 || any {
		for _, sq := range d.bySite {
			if int(d.owner[sq]) == p {
				start := len(d.legal)
				d.sequences(p, sq, d.king[sq], false, best)
				d.byLanding(start)
			}
		}
		return
	}
	for _, sq := range d.bySite {
		if int(d.owner[sq]) != p {
			continue
		}
		start := len(d.legal)
		for _, dir := range draftiOrder {
			ray := d.ray[dir][sq]
			if !d.king[sq] {
				if d.forward(p, dir) && len(ray) > 0 && d.owner[ray[0]] == 0 {
					d.legal = append(d.legal, draftiMove{from: sq, to: ray[0]})
				}
				continue
			}
			for _, t := range ray {
				if d.owner[t] != 0 {
					break
				}
				d.legal = append(d.legal, draftiMove{from: sq, to: t})
			}
		}
		d.byLanding(start)
	}
	if len(d.legal) == 0 {
		d.done, d.win = true, 3-p
	}
}

// byLanding orders the moves listed from start on, one piece's, by the
// square moved to in the board's order.
func (d *draftiPort) byLanding(start int) {
	slices.SortStableFunc(d.legal[start:], func(a, b draftiMove) int { return d.site[a.to] - d.site[b.to] })
}

func (d *draftiPort) moves() int  { return len(d.legal) }
func (d *draftiPort) over() bool  { return d.done }
func (d *draftiPort) winner() int { return d.win }

func (d *draftiPort) token(i int) string {
	m := d.legal[i]
	switch {
	case m.on:
		return "x" + strconv.Itoa(m.to)
	case m.jump:
		return strconv.Itoa(m.from) + "x" + strconv.Itoa(m.to)
	}
	return strconv.Itoa(m.from) + "-" + strconv.Itoa(m.to)
}

// draws is D11 and D12 after a whole move: kingsOnly, a king's step, the
// one move that can repeat a position (the others are irreversible).
func (d *draftiPort) draws(kingsOnly bool) {
	if kingsOnly {
		d.quiet++
		if d.kingLimit > 0 && d.quiet >= d.kingLimit {
			d.done = true
			return
		}
	} else {
		d.quiet = 0
	}
	if d.endgames {
		var k, m [3]int
		for sq := 1; sq <= d.squares; sq++ {
			if o := d.owner[sq]; o != 0 {
				if d.king[sq] {
					k[o]++
				} else {
					m[o]++
				}
			}
		}
		limit := func(ka, ma, kb, mb int) int {
			switch {
			case kb != 1 || mb != 0 || ka < 1:
				return 0
			case ka+ma == 3:
				return 32
			case ka+ma <= 2:
				return 10
			}
			return 0
		}
		l := max(limit(k[1], m[1], k[2], m[2]), limit(k[2], m[2], k[1], m[1]))
		sig := ((k[1]*32+m[1])*32+k[2])*32 + m[2]
		if l == 0 || sig != d.sig {
			d.sig, d.ending = 0, 0
			if l > 0 {
				d.sig = sig
			}
		}
		if l > 0 {
			d.ending++
			if d.ending >= l {
				d.done = true
				return
			}
		}
	}
	if !kingsOnly {
		return // irreversible: the position occurs for the first time
	}
	d.reps.bytes = d.key(d.reps.bytes[:0])
	if d.reps.add() >= 3 {
		d.done = true
	}
}

func (d *draftiPort) crown(p, sq int) {
	if !d.king[sq] && d.farRow(p, sq) {
		d.king[sq] = true
	}
}

func (d *draftiPort) takeOff() {
	for _, t := range d.takes {
		d.owner[t], d.king[t], d.taken[t] = 0, false, false
	}
	d.takes = d.takes[:0]
	d.jumper = 0
}

func (d *draftiPort) play(i int) {
	mv := d.legal[i]
	p := d.toMove
	from := mv.from
	king := d.king[from]
	d.owner[mv.to], d.king[mv.to] = d.owner[from], d.king[from]
	d.owner[from], d.king[from] = 0, false
	d.toMove = 3 - p
	if !mv.jump {
		if !king {
			d.crown(p, mv.to)
			d.irreversible()
		}
		d.draws(king)
		d.list()
		return
	}
	var over int
	for dir := range 4 {
		ray := d.ray[dir][from]
		for k, sq := range ray {
			if sq == mv.to {
				for _, b := range ray[:k] {
					if d.owner[b] != 0 {
						over = b
					}
				}
			}
		}
	}
	d.takes = append(d.takes, over)
	d.taken[over] = true
	if !king && d.farRow(p, mv.to) && d.crowning != "end" {
		d.king[mv.to], king = true, true
		if d.crowning == "stop" {
			d.takeOff()
			d.irreversible()
			d.draws(false)
			d.list()
			return
		}
	}
	more := false
	d.jumps(p, mv.to, king, func(int, int) { more = true })
	if more {
		d.jumper, d.toMove = mv.to, p
		d.list()
		return
	}
	d.takeOff()
	d.crown(p, mv.to)
	d.irreversible()
	d.draws(false)
	d.list()
}
