package games_test

import (
	"strconv"

	"github.com/matombo/matombo/host"
)

// draughtsPort plays English draughts (docs/rules/draughts.md E1-E12) on
// squares numbered 1-32 as the rules page numbers them: Player 1's men
// start on 1-12, square n is in row (n-1)/4 from Player 1's side. It
// lists moves in the script's order, the board's order of its sites (row
// by row from Player 1's side, each row from the left as the board draws
// it: 4 3 2 1, 8 7 6 5, ...), each piece's moves by the square moved to
// in that order (directions down-left, down-right, up-left, up-right),
// writes the script's tokens (11-15, 22x15, x8), and counts repetitions
// with a map of position hashes since the last man's move or capture.
type draughtsPort struct {
	quietLimit int  // decisions without progress that draw; 0 for none
	menReset   bool // a man's move is progress
	threefold  bool

	next, jump [4][33]int // neighbour and the square beyond, 0 off the board
	between    [33][33]int

	owner  [33]int8 // 0 empty, 1 or 2
	king   [33]bool
	toMove int
	jumper int // the square of the piece that must jump again, 0 for none
	quiet  int
	done   bool
	win    int
	legal  []draughtsMove
	reps   repetitions
}

// draughtsMove is a step, a jump or a jump's continuation (on).
type draughtsMove struct {
	from, to int
	jump, on bool
}

func newDraughtsPort(g *host.Game) port {
	d := &draughtsPort{
		quietLimit: 2 * intParam(g, "quiet_moves"),
		menReset:   paramBool(g, "men_reset"),
		threefold:  paramBool(g, "threefold"),
		reps:       newRepetitions(),
	}
	file := func(n int) int {
		k, j := (n-1)/4, (n-1)%4
		if k%2 == 0 {
			return 6 - 2*j
		}
		return 7 - 2*j
	}
	var at [8][8]int // [rank][file] -> square
	for n := 1; n <= 32; n++ {
		at[(n-1)/4][file(n)] = n
	}
	get := func(f, r int) int {
		if f < 0 || f > 7 || r < 0 || r > 7 {
			return 0
		}
		return at[r][f]
	}
	df, dr := [4]int{1, -1, 1, -1}, [4]int{1, 1, -1, -1}
	for n := 1; n <= 32; n++ {
		f, r := file(n), (n-1)/4
		for dir := range 4 {
			d.next[dir][n] = get(f+df[dir], r+dr[dir])
			d.jump[dir][n] = get(f+2*df[dir], r+2*dr[dir])
			if d.jump[dir][n] != 0 {
				d.between[n][d.jump[dir][n]] = d.next[dir][n]
			}
		}
	}
	return d
}

func paramBool(g *host.Game, name string) bool {
	v, _ := g.Param(name)
	b, _ := v.(bool)
	return b
}

func (d *draughtsPort) reset() {
	d.owner, d.king = [33]int8{}, [33]bool{}
	for n := 1; n <= 12; n++ {
		d.owner[n], d.owner[33-n] = 1, 2
	}
	d.toMove, d.jumper, d.quiet, d.done, d.win = 1, 0, 0, false, 0
	d.irreversible()
	d.list()
}

func (d *draughtsPort) key(b []byte) []byte {
	for n := 1; n <= 32; n++ {
		c := byte(d.owner[n])
		if d.king[n] {
			c += 4
		}
		b = append(b, c)
	}
	return append(b, byte(d.toMove), byte(d.jumper))
}

// irreversible forgets the positions before this one (a capture or a
// man's move), as m.irreversible does.
func (d *draughtsPort) irreversible() {
	d.reps.clear()
	d.reps.bytes = d.key(d.reps.bytes[:0])
	d.reps.add()
}

// The directions of a king and of each player's men, in the board's
// order of the squares they lead to.
var (
	kingDirs = []int{3, 2, 1, 0}
	manDirs  = [3][]int{nil, {1, 0}, {3, 2}}
)

// boardOrder is the squares in the board's order of its sites.
var boardOrder = func() (out [32]int) {
	for i := range out {
		k, j := i/4, i%4
		out[i] = 4*k + 4 - j
	}
	return out
}()

func (d *draughtsPort) dirs(n int) []int {
	if d.king[n] {
		return kingDirs
	}
	return manDirs[d.owner[n]]
}

func (d *draughtsPort) jumps(n int, on bool) int {
	k, q := 0, int8(3-d.owner[n])
	for _, dir := range d.dirs(n) {
		over, to := d.next[dir][n], d.jump[dir][n]
		if to != 0 && d.owner[to] == 0 && d.owner[over] == q {
			d.legal = append(d.legal, draughtsMove{from: n, to: to, jump: true, on: on})
			k++
		}
	}
	return k
}

// list is E6: the jumper's next jumps, else the captures, else the steps;
// a player without any loses (E9).
func (d *draughtsPort) list() {
	d.legal = d.legal[:0]
	if d.done {
		return
	}
	p := int8(d.toMove)
	if d.jumper != 0 {
		d.jumps(d.jumper, true)
		return
	}
	for _, n := range boardOrder {
		if d.owner[n] == p {
			d.jumps(n, false)
		}
	}
	if len(d.legal) == 0 {
		for _, n := range boardOrder {
			if d.owner[n] != p {
				continue
			}
			for _, dir := range d.dirs(n) {
				if to := d.next[dir][n]; to != 0 && d.owner[to] == 0 {
					d.legal = append(d.legal, draughtsMove{from: n, to: to})
				}
			}
		}
	}
	if len(d.legal) == 0 {
		d.done, d.win = true, 3-d.toMove
	}
}

func (d *draughtsPort) moves() int  { return len(d.legal) }
func (d *draughtsPort) over() bool  { return d.done }
func (d *draughtsPort) winner() int { return d.win }

func (d *draughtsPort) token(i int) string {
	m := d.legal[i]
	switch {
	case m.on:
		return "x" + strconv.Itoa(m.to)
	case m.jump:
		return strconv.Itoa(m.from) + "x" + strconv.Itoa(m.to)
	}
	return strconv.Itoa(m.from) + "-" + strconv.Itoa(m.to)
}

// crown is E8: a man on the far row becomes a king.
func (d *draughtsPort) crown(n int) bool {
	if d.king[n] || (d.owner[n] == 1 && n < 29) || (d.owner[n] == 2 && n > 4) {
		return false
	}
	d.king[n] = true
	return true
}

func (d *draughtsPort) play(i int) {
	m := d.legal[i]
	p := d.toMove
	man := !d.king[m.from]
	d.owner[m.to], d.king[m.to] = d.owner[m.from], d.king[m.from]
	d.owner[m.from], d.king[m.from] = 0, false
	d.toMove = 3 - p
	if !m.jump {
		if man {
			d.crown(m.to)
		}
		progress := man && d.menReset
		if progress {
			d.quiet = 0
		} else {
			d.quiet++
		}
		if man {
			d.irreversible()
		} else {
			d.reps.bytes = d.key(d.reps.bytes[:0])
			if n := d.reps.add(); d.threefold && n >= 3 && !(d.quietLimit > 0 && d.quiet >= d.quietLimit) {
				d.done = true
			}
		}
		if d.quietLimit > 0 && d.quiet >= d.quietLimit {
			d.done = true
		}
		d.list()
		return
	}
	over := d.between[m.from][m.to]
	d.owner[over], d.king[over] = 0, false
	crowned := man && d.crown(m.to)
	d.jumper = 0
	if !crowned {
		d.jumper = m.to
		d.toMove = p
		if d.jumps(m.to, true) == 0 {
			d.jumper, d.toMove = 0, 3-p
		}
		d.legal = d.legal[:0]
	}
	d.quiet = 0
	d.irreversible()
	d.list()
}
