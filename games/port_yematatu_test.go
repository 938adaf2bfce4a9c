package games_test

import (
	"slices"

	"github.com/matombo/matombo/host"
)

// yematatuPort plays Tsoro Yematatu (docs/rules/yematatu.md Y1-Y7) on the
// board of the loaded game: its points and lines.
type yematatuPort struct {
	lineBoard
	jumps  [][][2]int // over a neighbour to the point beyond, by that point
	owner  []int      // 0 for an empty point
	hand   [2]int
	toMove int
	done   bool
	win    int
	legal  [][2]int // a drop is {point, -1}
	reps   repetitions
}

func newYematatuPort(g *host.Game) port {
	y := &yematatuPort{lineBoard: newLineBoard(g), reps: newRepetitions()}
	n := len(y.names)
	y.jumps = make([][][2]int, n)
	for _, line := range y.lines {
		for k, s := range line {
			for _, d := range []int{-1, 1} {
				if k+2*d >= 0 && k+2*d < len(line) {
					y.jumps[s] = append(y.jumps[s], [2]int{line[k+d], line[k+2*d]})
				}
			}
		}
	}
	for s := range n {
		slices.SortStableFunc(y.jumps[s], func(a, b [2]int) int { return a[1] - b[1] })
	}
	y.owner = make([]int, n)
	return y
}

func (y *yematatuPort) reset() {
	clear(y.owner)
	y.hand = [2]int{3, 3}
	y.toMove, y.done, y.win = 1, false, 0
	y.reps.clear()
	y.reps.bytes = y.key(y.reps.bytes[:0])
	y.reps.add()
	y.list()
}

func (y *yematatuPort) key(b []byte) []byte {
	for _, o := range y.owner {
		b = append(b, byte(o))
	}
	return append(b, byte(y.hand[0]), byte(y.hand[1]), byte(y.toMove))
}

func (y *yematatuPort) add(from, to int) {
	m := [2]int{from, to}
	if !slices.Contains(y.legal, m) {
		y.legal = append(y.legal, m)
	}
}

// list is Y3's drops or Y4's steps and jumps; a player with neither loses.
func (y *yematatuPort) list() {
	y.legal = y.legal[:0]
	if y.done {
		return
	}
	p := y.toMove
	switch {
	case y.hand[p-1] > 0:
		for s, o := range y.owner {
			if o == 0 {
				y.legal = append(y.legal, [2]int{s, -1})
			}
		}
	case y.hand[2-p] == 0:
		for s, o := range y.owner {
			if o == p {
				for _, to := range y.adj[s] {
					if y.owner[to] == 0 {
						y.add(s, to)
					}
				}
			}
		}
		for s, o := range y.owner {
			if o == p {
				for _, j := range y.jumps[s] {
					if y.owner[j[0]] != 0 && y.owner[j[1]] == 0 {
						y.add(s, j[1])
					}
				}
			}
		}
	}
	if len(y.legal) == 0 {
		y.done, y.win = true, 3-p
	}
}

func (y *yematatuPort) moves() int  { return len(y.legal) }
func (y *yematatuPort) over() bool  { return y.done }
func (y *yematatuPort) winner() int { return y.win }

func (y *yematatuPort) token(i int) string {
	m := y.legal[i]
	if m[1] < 0 {
		return y.names[m[0]]
	}
	return y.names[m[0]] + "-" + y.names[m[1]]
}

func (y *yematatuPort) play(i int) {
	p := y.toMove
	y.toMove = 3 - p
	m := y.legal[i]
	to := m[0]
	if m[1] < 0 {
		y.hand[p-1]--
	} else {
		y.owner[m[0]] = 0
		to = m[1]
	}
	y.owner[to] = p
	// Y5: three on a line through the point just taken.
	for _, li := range y.at[to] {
		all := true
		for _, s := range y.lines[li] {
			all = all && y.owner[s] == p
		}
		if all {
			y.done, y.win = true, p
			y.legal = y.legal[:0]
			return
		}
	}
	y.reps.bytes = y.key(y.reps.bytes[:0])
	seen := y.reps.add()
	y.list()
	if !y.done && seen >= 3 { // Y6
		y.done, y.win = true, 0
		y.legal = y.legal[:0]
	}
}
