package games_test

import "github.com/matombo/matombo/host"

// morrisPort plays Tsoro Yemutwelve (docs/rules/yemutwelve.md M1-M12) and
// its variants, Nine Men's Morris and Morabaraba among them, on the board
// of the loaded game: its points and lines.
type morrisPort struct {
	lineBoard
	pieces     int  // M2
	flying     bool // M10
	morabaraba bool // M12
	owner      []int
	hand       [2]int
	removed    [2]int    // the pieces each player has removed (M6)
	removing   bool      // M6: the mover has made a mill and removes a piece
	back       [2][2]int // M12: the piece each player may not move straight back, and where to; -1 for none
	quiet      int       // M12: decisions at three pieces each without a removal (not part of the position)
	toMove     int
	done       bool
	win        int
	legal      []morrisMove
	reps       repetitions
}

type morrisKind uint8

const (
	morrisPlacing morrisKind = iota
	morrisStep
	morrisRemoval
)

type morrisMove struct {
	kind     morrisKind
	from, to int // a placing or a removal names its point in to
}

func newMorrisPort(g *host.Game) port {
	b := newLineBoard(g)
	return &morrisPort{
		lineBoard: b, pieces: intParam(g, "pieces"),
		flying: boolParam(g, "flying"), morabaraba: boolParam(g, "morabaraba"),
		owner: make([]int, len(b.names)), reps: newRepetitions(),
	}
}

func (m *morrisPort) reset() {
	clear(m.owner)
	m.hand = [2]int{m.pieces, m.pieces}
	m.removed, m.removing, m.quiet = [2]int{}, false, 0
	m.back = [2][2]int{{-1, -1}, {-1, -1}}
	m.toMove, m.done, m.win = 1, false, 0
	m.reps.clear()
	m.reps.bytes = m.key(m.reps.bytes[:0])
	m.reps.add()
	m.list()
}

// key is M9's position: the pieces, the hands, the removed pieces, the
// player to move and what they must do (M12's move back included).
func (m *morrisPort) key(b []byte) []byte {
	for _, o := range m.owner {
		b = append(b, byte(o))
	}
	b = append(b, byte(m.hand[0]), byte(m.hand[1]), byte(m.removed[0]), byte(m.removed[1]), byte(m.toMove))
	if m.removing {
		b = append(b, 1)
	} else {
		b = append(b, 0)
	}
	for _, bk := range m.back {
		b = append(b, byte(bk[0]+1), byte(bk[1]+1))
	}
	return b
}

// left is the pieces p has on the board and in hand.
func (m *morrisPort) left(p int) int { return m.pieces - m.removed[2-p] }

// mill is M5: p owns a line of three through s.
func (m *morrisPort) mill(p, s int) bool { return m.inRow(m.owner, p, s, 3) }

func (m *morrisPort) add(kind morrisKind, from, to int) {
	m.legal = append(m.legal, morrisMove{kind, from, to})
}

// list is M6's removals after a mill, M3's placings, M4's steps or M10's
// flights; a player without any loses, or draws on a full board (M8).
func (m *morrisPort) list() {
	m.legal = m.legal[:0]
	if m.done {
		return
	}
	p := m.toMove
	switch {
	case m.removing: // M6: a piece in no mill if there is one
		for s, o := range m.owner {
			if o == 3-p && !m.mill(o, s) {
				m.add(morrisRemoval, -1, s)
			}
		}
		if len(m.legal) == 0 {
			for s, o := range m.owner {
				if o == 3-p {
					m.add(morrisRemoval, -1, s)
				}
			}
		}
	case m.hand[p-1] > 0:
		for s, o := range m.owner {
			if o == 0 {
				m.add(morrisPlacing, -1, s)
			}
		}
	case m.flying && m.left(p) == 3:
		for s, o := range m.owner {
			if o == p {
				for t, o := range m.owner {
					if o == 0 {
						m.add(morrisStep, s, t)
					}
				}
			}
		}
	default:
		barred := m.barred(p)
		for s, o := range m.owner {
			if o != p {
				continue
			}
			for _, t := range m.adj[s] {
				if m.owner[t] == 0 && !(barred && s == m.back[p-1][0] && t == m.back[p-1][1]) {
					m.add(morrisStep, s, t)
				}
			}
		}
	}
	if len(m.legal) == 0 { // M8
		m.done, m.win = true, 3-p
		for _, o := range m.owner {
			if o == 0 {
				return
			}
		}
		m.win = 0
	}
}

// barred is M12: whether p's move back would make a mill again.
func (m *morrisPort) barred(p int) bool {
	from, to := m.back[p-1][0], m.back[p-1][1]
	if from < 0 || m.owner[from] != p || m.owner[to] != 0 {
		return false
	}
	m.owner[from], m.owner[to] = 0, p
	made := m.mill(p, to)
	m.owner[from], m.owner[to] = p, 0
	return made
}

func (m *morrisPort) moves() int  { return len(m.legal) }
func (m *morrisPort) over() bool  { return m.done }
func (m *morrisPort) winner() int { return m.win }

func (m *morrisPort) token(i int) string {
	mv := m.legal[i]
	switch mv.kind {
	case morrisRemoval:
		return "x" + m.names[mv.to]
	case morrisStep:
		return m.names[mv.from] + "-" + m.names[mv.to]
	}
	return m.names[mv.to]
}

func (m *morrisPort) play(i int) {
	p := m.toMove
	m.toMove = 3 - p
	mv := m.legal[i]
	switch mv.kind {
	case morrisRemoval: // M6, M7; a removal is never undone
		m.owner[mv.to] = 0
		m.removed[p-1]++
		m.removing = false
		m.reps.clear()
		if m.left(3-p) <= 2 {
			m.end(p)
			return
		}
		m.quiet = 0
	case morrisPlacing: // M3; a placing is never undone
		m.hand[p-1]--
		m.owner[mv.to] = p
		m.reps.clear()
		m.arrive(p, mv.to)
	case morrisStep: // M4, M12
		broke := m.morabaraba && m.mill(p, mv.from)
		m.owner[mv.from], m.owner[mv.to] = 0, p
		made := m.arrive(p, mv.to)
		if m.morabaraba {
			m.back[p-1] = [2]int{-1, -1}
			if broke && made {
				m.back[p-1] = [2]int{mv.to, mv.from}
			}
			if !made && m.threeCows() {
				m.end(0)
				return
			}
		}
	}
	m.reps.bytes = m.key(m.reps.bytes[:0])
	seen := m.reps.add()
	m.list()
	if !m.done && seen >= 3 { // M9
		m.end(0)
	}
}

// arrive is M5: a mill makes p remove a piece next, if the opponent has
// one on the board.
func (m *morrisPort) arrive(p, s int) bool {
	if !m.mill(p, s) {
		return false
	}
	for _, o := range m.owner {
		if o == 3-p {
			m.removing, m.toMove = true, p
			return true
		}
	}
	return false
}

// threeCows is M12: whether twenty decisions have passed without a removal
// with three pieces each.
func (m *morrisPort) threeCows() bool {
	if m.left(1) != 3 || m.left(2) != 3 {
		m.quiet = 0
		return false
	}
	m.quiet++
	return m.quiet >= 20
}

func (m *morrisPort) end(winner int) {
	m.done, m.win = true, winner
	m.legal = m.legal[:0]
}

// boolParam returns g's boolean parameter name.
func boolParam(g *host.Game, name string) bool {
	v, ok := g.Param(name)
	if !ok {
		panic(g.Name() + " has no parameter " + name)
	}
	return v.(bool)
}
