package games_test

import (
	"fmt"
	"slices"

	"github.com/matombo/matombo/host"
)

// The three-in-a-row games and their reference point: Tic-tac-toe
// (docs/rules/tictactoe.md X1-X5), Tapatan (tapatan.md P1-P7), Achi
// (achi.md A1-A7), Nine Holes (nineholes.md N1-N7), Shisima (shisima.md
// S1-S7) and Tant Fant (tantfant.md F1-F6). All play on points joined by
// lines: pieces are dropped from a hand or start on the board, then step
// along a line (or go anywhere) to an empty point, and a line of three
// wins. One port, linePort, plays them all; each game's constructor says
// how its rules differ.

// lineBoard is a board of points and lines read from a loaded game.
type lineBoard struct {
	names []string
	lines [][]int
	at    [][]int // the lines through each point
	adj   [][]int // each point's neighbours along lines, ascending
}

func newLineBoard(g *host.Game) lineBoard {
	b := lineBoard{names: siteNames(g), lines: g.Board().Lines()}
	n := len(b.names)
	b.at = make([][]int, n)
	b.adj = make([][]int, n)
	for li, line := range b.lines {
		for k, s := range line {
			b.at[s] = append(b.at[s], li)
			for _, d := range []int{-1, 1} {
				if k+d >= 0 && k+d < len(line) && !slices.Contains(b.adj[s], line[k+d]) {
					b.adj[s] = append(b.adj[s], line[k+d])
				}
			}
		}
	}
	for _, a := range b.adj {
		slices.Sort(a)
	}
	return b
}

// inRow reports whether player p owns k consecutive points of a line
// through s, s among them (owner holds each point's owner, 0 for empty).
func (b *lineBoard) inRow(owner []int, p, s, k int) bool {
	for _, li := range b.at[s] {
		run, has := 0, false
		for _, x := range b.lines[li] {
			if owner[x] != p {
				run, has = 0, false
				continue
			}
			run++
			has = has || x == s
			if has && run >= k {
				return true
			}
		}
	}
	return false
}

// lineMoves is how a piece on the board moves.
type lineMoves uint8

const (
	stepMoves     lineMoves = iota // one step along a line to an empty neighbour
	anywhereMoves                  // to any empty point
)

// lineRules is what sets the games of linePort apart.
type lineRules struct {
	hands      [2]int                           // pieces in hand at the start
	start      [2][]int                         // the points each player's pieces start on
	firstDrop  []int                            // the points Player 1's first drop may go to; nil for any empty point
	moves      lineMoves                        // once both hands are empty
	pass       bool                             // a player with pieces and no move passes
	stuckLoses bool                             // a player without a legal move loses; otherwise the game is drawn
	won        func(l *linePort, p, s int) bool // whether p, whose piece just went to s, has won
	fullDraws  bool                             // a full board is a draw
	repetition bool                             // the third occurrence of a position is a draw
}

type linePort struct {
	lineBoard
	rules  lineRules
	owner  []int // 0 for an empty point
	hand   [2]int
	toMove int
	done   bool
	win    int
	legal  [][2]int // a drop is {point, -1}, a pass {-1, -1}
	reps   repetitions
}

func newLinePort(b lineBoard, r lineRules) *linePort {
	return &linePort{lineBoard: b, rules: r, owner: make([]int, len(b.names)), reps: newRepetitions()}
}

func (l *linePort) reset() {
	clear(l.owner)
	for p, points := range l.rules.start {
		for _, s := range points {
			l.owner[s] = p + 1
		}
	}
	l.hand = l.rules.hands
	l.toMove, l.done, l.win = 1, false, 0
	l.reps.clear()
	l.reps.bytes = l.key(l.reps.bytes[:0])
	l.reps.add()
	l.list()
}

// key is the position: the pieces, the hands and the player to move.
func (l *linePort) key(b []byte) []byte {
	for _, o := range l.owner {
		b = append(b, byte(o))
	}
	return append(b, byte(l.hand[0]), byte(l.hand[1]), byte(l.toMove))
}

// list is the drops while the player has pieces in hand, the moves once
// both hands are empty, a pass when the rules have one; a player left
// with nothing loses or draws.
func (l *linePort) list() {
	l.legal = l.legal[:0]
	if l.done {
		return
	}
	p := l.toMove
	switch {
	case l.hand[p-1] > 0:
		if p == 1 && l.hand[0] == l.rules.hands[0] && l.rules.firstDrop != nil {
			for _, s := range l.rules.firstDrop {
				l.legal = append(l.legal, [2]int{s, -1})
			}
			break
		}
		for s, o := range l.owner {
			if o == 0 {
				l.legal = append(l.legal, [2]int{s, -1})
			}
		}
	case l.hand[2-p] == 0:
		for s, o := range l.owner {
			if o != p {
				continue
			}
			if l.rules.moves == anywhereMoves {
				for to, o := range l.owner {
					if o == 0 {
						l.legal = append(l.legal, [2]int{s, to})
					}
				}
				continue
			}
			for _, to := range l.adj[s] {
				if l.owner[to] == 0 {
					l.legal = append(l.legal, [2]int{s, to})
				}
			}
		}
		if len(l.legal) == 0 && l.rules.pass {
			l.legal = append(l.legal, [2]int{-1, -1})
		}
	}
	if len(l.legal) == 0 {
		l.done, l.win = true, 0
		if l.rules.stuckLoses {
			l.win = 3 - p
		}
	}
}

func (l *linePort) moves() int  { return len(l.legal) }
func (l *linePort) over() bool  { return l.done }
func (l *linePort) winner() int { return l.win }

func (l *linePort) token(i int) string {
	m := l.legal[i]
	switch {
	case m[0] < 0:
		return "pass"
	case m[1] < 0:
		return l.names[m[0]]
	}
	return l.names[m[0]] + "-" + l.names[m[1]]
}

func (l *linePort) play(i int) {
	p := l.toMove
	l.toMove = 3 - p
	m := l.legal[i]
	to := m[1]
	switch {
	case m[0] < 0: // a pass
	case m[1] < 0: // a drop: no earlier position can come back
		to = m[0]
		l.hand[p-1]--
		l.owner[to] = p
		l.reps.clear()
	default:
		l.owner[m[0]], l.owner[to] = 0, p
	}
	if to >= 0 && l.rules.won(l, p, to) {
		l.end(p)
		return
	}
	if l.rules.fullDraws && !slices.Contains(l.owner, 0) {
		l.end(0)
		return
	}
	seen := 0
	if l.rules.repetition {
		l.reps.bytes = l.key(l.reps.bytes[:0])
		seen = l.reps.add()
	}
	l.list()
	if !l.done && seen >= 3 {
		l.end(0)
	}
}

func (l *linePort) end(winner int) {
	l.done, l.win = true, winner
	l.legal = l.legal[:0]
}

// threeInARow is the win of most of these games: three of the mover's
// pieces on a line through the point just taken.
func threeInARow(l *linePort, p, s int) bool { return l.inRow(l.owner, p, s, 3) }

// newTicTacToePort: X2 five marks and four, X3 a mark on any empty cell,
// X4 three in a row win, X5 a full grid draws. Marks never move.
func newTicTacToePort(g *host.Game) port {
	return newLinePort(newLineBoard(g), lineRules{hands: [2]int{5, 4}, won: threeInARow, fullDraws: true})
}

// newTapatanPort: P2 three pieces each in hand, P3 drops (first_drop),
// P4 steps (moves = anywhere), P5 three on a line win, P6 stalemate draws,
// P7 repetition.
func newTapatanPort(g *host.Game) port {
	r := lineRules{hands: [2]int{3, 3}, won: threeInARow, repetition: true}
	centre := siteIndex(g, "b2")
	switch stringParam(g, "first_drop") {
	case "centre":
		r.firstDrop = []int{centre}
	case "not_centre":
		for s := range g.Board().NumSites() {
			if s != centre {
				r.firstDrop = append(r.firstDrop, s)
			}
		}
	}
	if stringParam(g, "moves") == "anywhere" {
		r.moves = anywhereMoves
	}
	return newLinePort(newLineBoard(g), r)
}

// newAchiPort: A2 four pieces each (pieces), A3 drops, A4 steps, A5 three
// on a line win, A6 a blocked player passes (blocked = loses: loses), A7
// repetition.
func newAchiPort(g *host.Game) port {
	n := intParam(g, "pieces")
	r := lineRules{hands: [2]int{n, n}, won: threeInARow, pass: stringParam(g, "blocked") == "pass", stuckLoses: true, repetition: true}
	return newLinePort(newLineBoard(g), r)
}

// newNineHolesPort: N2 three pieces each, N3 drops, N4 steps along rows and
// columns (moves = anywhere), N5 three in a row win, N6 a blocked player
// loses, N7 repetition.
func newNineHolesPort(g *host.Game) port {
	r := lineRules{hands: [2]int{3, 3}, won: threeInARow, stuckLoses: true, repetition: true}
	if stringParam(g, "moves") == "anywhere" {
		r.moves = anywhereMoves
	}
	return newLinePort(newLineBoard(g), r)
}

// shisimaBoards are S2's and S7's starting points and centre of each
// board.
var shisimaBoards = map[string]struct {
	centre string
	start  [2][]string
}{
	"octagon": {"c1", [2][]string{{"a1", "a2", "b2"}, {"e2", "e1", "d1"}}},
	"square":  {"b2", [2][]string{{"a1", "a2", "a3"}, {"c1", "c2", "c3"}}},
}

// newShisimaPort: S2 the pieces start on the board, S3 steps, S4 three in a
// row through the centre win, S5 repetition, S6 a blocked player loses.
func newShisimaPort(g *host.Game) port {
	sb := shisimaBoards[stringParam(g, "board")]
	centre := siteIndex(g, sb.centre)
	r := lineRules{stuckLoses: true, repetition: true}
	r.won = func(l *linePort, p, _ int) bool { return l.owner[centre] == p && l.inRow(l.owner, p, centre, 3) }
	for p, names := range sb.start {
		for _, name := range names {
			r.start[p] = append(r.start[p], siteIndex(g, name))
		}
	}
	return newLinePort(newLineBoard(g), r)
}

// newTantFantPort: F2 the pieces start on the home rows, F3 steps, F4 three
// on a line win but not on one's own home row (wins), F5 a blocked player
// loses (blocked = draw: a draw), F6 repetition.
func newTantFantPort(g *host.Game) port {
	b := newLineBoard(g)
	r := lineRules{stuckLoses: stringParam(g, "blocked") == "loses", repetition: true}
	for p, row := range []string{"a", "c"} {
		for c := 1; c <= 3; c++ {
			r.start[p] = append(r.start[p], siteIndex(g, fmt.Sprintf("%s%d", row, c)))
		}
	}
	// F4: the lines of three that win for each player.
	wins := stringParam(g, "wins")
	winning := [2][]bool{make([]bool, len(b.lines)), make([]bool, len(b.lines))}
	for li, line := range b.lines {
		first, last := b.names[line[0]], b.names[line[len(line)-1]]
		diagonal := first[0] != last[0] && first[1] != last[1]
		homeOf := 0 // the player whose home row the line is
		for q, home := range r.start {
			if slices.Equal(line, home) {
				homeOf = q + 1
			}
		}
		for p := range 2 {
			switch wins {
			case "diagonals":
				winning[p][li] = diagonal
			case "not_home_rows":
				winning[p][li] = homeOf == 0
			default:
				winning[p][li] = homeOf != p+1
			}
		}
	}
	r.won = func(l *linePort, p, s int) bool {
		for _, li := range l.at[s] {
			if winning[p-1][li] && !slices.ContainsFunc(l.lines[li], func(x int) bool { return l.owner[x] != p }) {
				return true
			}
		}
		return false
	}
	return newLinePort(b, r)
}

// stringParam returns g's string parameter name.
func stringParam(g *host.Game, name string) string {
	v, ok := g.Param(name)
	if !ok {
		panic(g.Name() + " has no parameter " + name)
	}
	return v.(string)
}
