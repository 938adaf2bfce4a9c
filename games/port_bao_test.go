package games_test

import (
	"fmt"

	"github.com/matombo/matombo/host"
)

// baoPort plays Bao la Kujifunza (docs/rules/bao.md B1-B9) on the
// script's sites, found by name: a1..a8 and b1..b8 are Player 1's back
// and front rows, c1..c8 and d1..d8 Player 2's front and back rows.
//
// B8 forbids a move of more than 1,000 laps, so every move is tried before
// it is listed, as the script tries it; the port keeps the board each
// trial ends with and plays a move by taking that board.
type baoPort struct {
	names   []string
	must    bool                // B6: must_capture
	ring    [2][2][baoRing]int  // B3: each player's holes, baoCW and baoACW
	next    [2][2][baoSites]int // the hole after each hole on those rings
	before  [2][2]int           // B5: the hole before the kichwa a capture sows from
	facing  [baoSites]int       // B1: the facing hole of a front hole, -1 for a back hole
	front   [baoSites]int       // the player whose front row a hole is in, 0 for a back hole
	nearest [baoSites]int       // B5: the direction of a kichwa or kimbi's nearest kichwa, -1 for others
	holes   [2][]int            // each player's holes in board order
	board   baoBoard
	toMove  int
	done    bool
	win     int
	legal   []baoMove
	reps    repetitions
}

const (
	baoSites   = 32
	baoRing    = 16
	baoSeeds   = 2    // B2
	baoMaxLaps = 1000 // B8
	baoCW      = 0    // clockwise
	baoACW     = 1    // anticlockwise
)

// baoBoard holds the seeds of every hole.
type baoBoard [baoSites]uint8

// baoMove is a legal move and the board it leaves.
type baoMove struct {
	from, dir int
	after     baoBoard
}

func newBaoPort(g *host.Game) port {
	names := siteNames(g)
	if len(names) != baoSites {
		panic(fmt.Sprintf("bao has %d sites, the port knows %d", len(names), baoSites))
	}
	b := &baoPort{names: names, must: boolParam(g, "must_capture"), reps: newRepetitions()}
	at := func(row string, col int) int { return siteIndex(g, fmt.Sprintf("%s%d", row, col)) }
	// B3: Player 1 clockwise b1 -> b8 -> a8 -> a1, Player 2 clockwise
	// c8 -> c1 -> d1 -> d8; anticlockwise the other way round.
	for k := range 8 {
		b.ring[0][baoCW][k], b.ring[0][baoCW][8+k] = at("b", k+1), at("a", 8-k)
		b.ring[1][baoCW][k], b.ring[1][baoCW][8+k] = at("c", 8-k), at("d", k+1)
	}
	// B5: a capture sows in from the left kichwa clockwise (b1, c8), from
	// the right one anticlockwise (b8, c1).
	kichwa := [2][2]int{{at("b", 1), at("b", 8)}, {at("c", 8), at("c", 1)}}
	for p := range 2 {
		for k := range baoRing {
			b.ring[p][baoACW][k] = b.ring[p][baoCW][baoRing-1-k]
		}
		for d := range 2 {
			r := b.ring[p][d]
			for k, s := range r {
				b.next[p][d][s] = r[(k+1)%baoRing]
				if r[(k+1)%baoRing] == kichwa[p][d] {
					b.before[p][d] = s
				}
			}
		}
	}
	for s := range b.facing {
		b.facing[s], b.nearest[s] = -1, -1
	}
	for k := 1; k <= 8; k++ {
		bs, cs := at("b", k), at("c", k)
		b.facing[bs], b.facing[cs] = cs, bs
		b.front[bs], b.front[cs] = 1, 2
	}
	// B5: Player 1's left kichwa and kimbi are b1 and b2, their right ones
	// b8 and b7; Player 2's left ones c8 and c7, their right ones c1 and c2.
	for _, s := range []int{at("b", 1), at("b", 2), at("c", 8), at("c", 7)} {
		b.nearest[s] = baoCW
	}
	for _, s := range []int{at("b", 8), at("b", 7), at("c", 1), at("c", 2)} {
		b.nearest[s] = baoACW
	}
	for s, name := range names { // B1: rows a and b are Player 1's, c and d Player 2's
		p := 1
		if name[0] == 'c' || name[0] == 'd' {
			p = 2
		}
		b.holes[p-1] = append(b.holes[p-1], s)
	}
	return b
}

func (b *baoPort) reset() {
	for s := range b.board {
		b.board[s] = baoSeeds
	}
	b.toMove, b.done, b.win = 1, false, 0
	b.reps.clear()
	b.reps.bytes = b.key(b.reps.bytes[:0])
	b.reps.add()
	b.list()
}

// key is B9's position: the seeds of every hole and the player to move.
func (b *baoPort) key(k []byte) []byte {
	return append(append(k, b.board[:]...), byte(b.toMove))
}

// sow drops n seeds one per hole along ring r, starting with the hole
// after after, all round the ring as many times as n holds sixteen; it
// returns the last hole sown and whether it was empty before.
func (b *baoPort) sow(bd *baoBoard, r *[baoRing]int, next *[baoSites]int, after, n int) (int, bool) {
	if q := n / baoRing; q > 0 {
		for _, s := range r {
			bd[s] += uint8(q)
		}
		n -= q * baoRing
		if n == 0 {
			return after, bd[after] == 1
		}
	}
	s := after
	for ; n > 0; n-- {
		s = next[s]
		bd[s]++
	}
	return s, bd[s] == 1
}

// frontSeeds is the seeds in p's front row.
func (b *baoPort) frontSeeds(bd *baoBoard, p int) int {
	n := 0
	for s, f := range b.front {
		if f == p {
			n += int(bd[s])
		}
	}
	return n
}

// move plays B3's move of p from from in direction d on bd, with B4's
// relays and B5's captures; it reports false when the move goes over B8's
// lap limit.
func (b *baoPort) move(bd *baoBoard, p, from, d int) bool {
	pickup, after := from, from
	for laps := 0; ; laps++ {
		if laps >= baoMaxLaps {
			return false
		}
		n := int(bd[pickup])
		bd[pickup] = 0
		last, empty := b.sow(bd, &b.ring[p-1][d], &b.next[p-1][d], after, n)
		switch {
		case empty: // B4: the move ends
			return true
		case b.front[last] == p && bd[b.facing[last]] > 0: // B4: a capture
			if b.nearest[last] >= 0 { // B5: from a kichwa or kimbi, the nearest kichwa
				d = b.nearest[last]
			}
			facing := b.facing[last]
			if b.frontSeeds(bd, 3-p) == int(bd[facing]) { // B7: the opponent's last front seeds
				n := int(bd[facing])
				bd[facing] = 0
				b.sow(bd, &b.ring[p-1][d], &b.next[p-1][d], b.before[p-1][d], n)
				return true
			}
			pickup, after = facing, b.before[p-1][d]
		default: // B4: a relay
			pickup, after = last, last
		}
	}
}

// capturesFirst is B6: whether the first lap of the move captures.
func (b *baoPort) capturesFirst(p, from, d int) bool {
	bd := b.board
	n := int(bd[from])
	bd[from] = 0
	last, empty := b.sow(&bd, &b.ring[p-1][d], &b.next[p-1][d], from, n)
	return !empty && b.front[last] == p && bd[b.facing[last]] > 0
}

// list is B3's moves, each hole of two or more seeds in board order,
// clockwise first; with B6 only the moves whose first lap captures when
// there are any; B8 drops the endless ones. A player without a move has
// lost (B7).
func (b *baoPort) list() {
	b.legal = b.legal[:0]
	if b.done {
		return
	}
	p := b.toMove
	capturing := false
	if b.must {
		for _, s := range b.holes[p-1] {
			if b.board[s] >= 2 && (b.capturesFirst(p, s, baoCW) || b.capturesFirst(p, s, baoACW)) {
				capturing = true
				break
			}
		}
	}
	for _, s := range b.holes[p-1] {
		if b.board[s] < 2 {
			continue
		}
		for d := range 2 {
			if capturing && !b.capturesFirst(p, s, d) {
				continue
			}
			m := baoMove{from: s, dir: d, after: b.board}
			if b.move(&m.after, p, s, d) {
				b.legal = append(b.legal, m)
			}
		}
	}
	if len(b.legal) == 0 {
		b.done, b.win = true, 3-p
	}
}

func (b *baoPort) moves() int  { return len(b.legal) }
func (b *baoPort) over() bool  { return b.done }
func (b *baoPort) winner() int { return b.win }

// token is the hole and the first hole sown (B3).
func (b *baoPort) token(i int) string {
	m := b.legal[i]
	return b.names[m.from] + "-" + b.names[b.next[b.toMove-1][m.dir][m.from]]
}

func (b *baoPort) play(i int) {
	p := b.toMove
	b.toMove = 3 - p
	b.board = b.legal[i].after
	// B7: the opponent's front row first, then the mover's own.
	switch {
	case b.frontSeeds(&b.board, 3-p) == 0:
		b.done, b.win = true, p
	case b.frontSeeds(&b.board, p) == 0:
		b.done, b.win = true, 3-p
	}
	if b.done {
		b.legal = b.legal[:0]
		return
	}
	b.reps.bytes = b.key(b.reps.bytes[:0])
	seen := b.reps.add()
	b.list()
	if !b.done && seen >= 3 { // B9
		b.done, b.win = true, 0
		b.legal = b.legal[:0]
	}
}
