package openspiel

import (
	"fmt"
	"strconv"
	"strings"
)

// checkers converts OpenSpiel's checkers (8x8, the defaults) to Matombo's
// English draughts with OpenSpiel's draw rule (the variant openspiel,
// docs/rules/draughts.md E12). OpenSpiel's player 0 ('o', '8' for a king)
// moves first from ranks 1-3, as Matombo's Player 1 from squares 1-12;
// player 1 is '+' ('*' for a king). Squares are numbered from Player 1's
// side, four a rank: rank 1 holds 1 (g1), 2 (e1), 3 (c1) and 4 (a1), rank
// 2 holds 5 (h2) to 8 (b2), and so on, so that c3d4 is 11-15. An action is
// ((row*8 + column)*4 + direction)*2 + type (type 1 a capture), row 0
// being rank 8, and its label the two squares, "c3d4".
//
// A jump that continues a capture is written x and the square (x8): the
// converter tells it from the action before it, so token must be called
// for the actions in order and position after the action that led to the
// state, as Convert does.
type checkers struct {
	last    Action // the action before the state being converted
	hasLast bool
}

func newCheckers(params []string) (rules, error) {
	for _, p := range params {
		name, val, _ := strings.Cut(p, "=")
		switch {
		case name == "rows" && val == "8", name == "columns" && val == "8", name == "egocentric":
		case name == "rows" || name == "columns":
			return nil, &ConvertError{Msg: fmt.Sprintf("parameter %s: Matombo's English draughts is played on 8x8", p)}
		default:
			return nil, &ConvertError{Msg: fmt.Sprintf("unknown parameter %s (OpenSpiel's checkers has rows, columns and egocentric)", p)}
		}
	}
	return &checkers{}, nil
}

// checkersSquare is the number of the dark square on file f (0 = a) and
// rank r (1-8), or an error for a light square or one off the board.
func checkersSquare(f, r int) (int, error) {
	if f < 0 || f > 7 || r < 1 || r > 8 || (f+r)%2 != 1 {
		return 0, fmt.Errorf("%c%d is not a dark square of the board", 'a'+f, r)
	}
	k := r - 1
	if k%2 == 0 {
		return 4*k + (6-f)/2 + 1, nil
	}
	return 4*k + (7-f)/2 + 1, nil
}

// checkersMove reads an action: its from and to squares and whether it
// captures; the label must agree with the number.
func checkersMove(a Action) (from, to int, capture bool, err error) {
	if a.ID < 0 || a.ID >= 512 {
		return 0, 0, false, fmt.Errorf("action %d is not one of checkers' 512", a.ID)
	}
	typ, dir, col, row := a.ID%2, (a.ID/2)%4, (a.ID/8)%8, a.ID/64
	dr, dc := [4]int{-1, -1, 1, 1}, [4]int{-1, 1, 1, -1}
	steps := typ + 1
	fromF, fromR := col, 8-row
	toF, toR := col+dc[dir]*steps, 8-(row+dr[dir]*steps)
	if from, err = checkersSquare(fromF, fromR); err != nil {
		return 0, 0, false, err
	}
	if to, err = checkersSquare(toF, toR); err != nil {
		return 0, 0, false, err
	}
	if a.Label != "" && a.Label != fmt.Sprintf("%c%d%c%d", 'a'+fromF, fromR, 'a'+toF, toR) {
		return 0, 0, false, fmt.Errorf("label %q does not match the action number", a.Label)
	}
	return from, to, typ == 1, nil
}

// continues tells whether action a, a capture from square from, goes on
// with the piece of the capture before it.
func (c *checkers) continues(from int) bool {
	if !c.hasLast {
		return false
	}
	_, to, capture, err := checkersMove(c.last)
	return err == nil && capture && to == from
}

func (c *checkers) tokenOf(a Action) (string, error) {
	from, to, capture, err := checkersMove(a)
	if err != nil {
		return "", err
	}
	switch {
	case capture && c.continues(from):
		return "x" + strconv.Itoa(to), nil
	case capture:
		return fmt.Sprintf("%dx%d", from, to), nil
	}
	return fmt.Sprintf("%d-%d", from, to), nil
}

func (c *checkers) token(a Action) (string, error) {
	t, err := c.tokenOf(a)
	c.last, c.hasLast = a, true
	return t, err
}

// position reads ObservationString(0): eight lines "8.+.+.+.+" from rank 8
// down, then the files.
func (c *checkers) position(s State) (position, error) {
	var p position
	lines := strings.Split(strings.TrimRight(s.Observation, "\n"), "\n")
	if len(lines) != 9 {
		return p, fmt.Errorf("ObservationString(0) = %q: want 8 ranks and the files", short(s.Observation))
	}
	var rows [8]string
	for i, l := range lines[:8] {
		r := 8 - i
		if len(l) != 9 || l[0] != byte('0'+r) {
			return p, fmt.Errorf("rank %d of ObservationString(0) is %q: want the rank and 8 squares", r, short(l))
		}
		var cells []string
		for f := 0; f < 8; f++ {
			ch := l[1+f]
			if (f+r)%2 != 1 {
				if ch != '.' {
					return p, fmt.Errorf("%c%d, a light square, holds %q", 'a'+f, r, ch)
				}
				continue
			}
			switch ch {
			case '.':
				cells = append(cells, ".")
			case 'o':
				cells = append(cells, "1")
			case '8':
				cells = append(cells, "11")
			case '+':
				cells = append(cells, "2")
			case '*':
				cells = append(cells, "22")
			default:
				return p, fmt.Errorf("%c%d holds %q, not a piece of checkers (o 8 + *) or .", 'a'+f, r, ch)
			}
		}
		rows[r-1] = fmt.Sprintf("%c  %s", 'a'+r-1, strings.Join(cells, " "))
	}
	var sb strings.Builder
	for r := 7; r >= 0; r-- {
		sb.WriteString(rows[r] + "\n")
	}
	p.board = sb.String()
	var err error
	if s.Terminal {
		p.over = true
		p.winner, err = result(s)
		return p, err
	}
	if p.toMove, err = turn(s); err != nil {
		return p, err
	}
	for _, id := range s.Legal {
		t, err := c.tokenOf(Action{ID: id})
		if err != nil {
			return p, fmt.Errorf("LegalActions(): %d: %v", id, err)
		}
		p.legal = append(p.legal, t)
	}
	return p, nil
}

func (*checkers) points() []string {
	return []string{"E1", "E2", "E3", "E4", "E5", "E6", "E7", "E8", "E9", "E12"}
}

func (*checkers) params() []string {
	return []string{"quiet_moves: 20", "men_reset: false", "threefold: false"}
}
