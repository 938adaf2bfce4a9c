package openspiel

import "fmt"

// kalah converts OpenSpiel's mancala and kalah, whose board_[14] is: 0
// Player 2's store, 1-6 Player 1's pits, 7 Player 1's store, 8-13 Player
// 2's pits (pit i faces pit 14-i). Matombo's Kalah names pit i (1-6) ai,
// pit 14-i bi, store 7 a7 and store 0 b7. An action is the pit's index.
type kalah struct{}

func newKalah(params []string) (rules, error) {
	if len(params) > 0 {
		return nil, &ConvertError{Msg: fmt.Sprintf("OpenSpiel's Kalah has no parameters, the playthrough gives %v", params)}
	}
	return kalah{}, nil
}

// site is the name of board index i.
func (kalah) site(i int) (string, error) {
	switch {
	case i == 0:
		return "b7", nil
	case i == 7:
		return "a7", nil
	case i >= 1 && i <= 6:
		return fmt.Sprintf("a%d", i), nil
	case i >= 8 && i <= 13:
		return fmt.Sprintf("b%d", 14-i), nil
	}
	return "", fmt.Errorf("board index %d is not on the board (0-13)", i)
}

func (k kalah) token(a Action) (string, error) {
	if a.ID == 0 || a.ID == 7 {
		return "", fmt.Errorf("a store is not a pit to sow from")
	}
	if a.Label != fmt.Sprint(a.ID) {
		return "", fmt.Errorf("label %q does not match the action number", a.Label)
	}
	return k.site(a.ID)
}

func (k kalah) position(s State) (position, error) {
	var p position
	if len(s.Tensor) < 14 {
		return p, fmt.Errorf("ObservationTensor(0) has %d values, want the 14 of the board first", len(s.Tensor))
	}
	var board [14]int
	for i := range board {
		n, err := count(s.Tensor[i])
		if err != nil {
			return p, fmt.Errorf("board[%d]: %v", i, err)
		}
		board[i] = n
	}
	// Row a is a1..a6 a7 = board[1..7]; row b is b1..b6 b7 = board[13..8], board[0].
	a := []int{board[1], board[2], board[3], board[4], board[5], board[6], board[7]}
	b := []int{board[13], board[12], board[11], board[10], board[9], board[8], board[0]}
	w := max(2, widest(a, b))
	p.board = row("b", b, w) + "\n" + row("a", a, w) + "\n" + row(" ", []int{1, 2, 3, 4, 5, 6, 7}, w) + "\n"
	if s.Terminal {
		p.over = true
		var err error
		p.winner, err = result(s)
		return p, err
	}
	var err error
	if p.toMove, err = turn(s); err != nil {
		return p, err
	}
	for _, id := range s.Legal {
		t, err := k.token(Action{Label: fmt.Sprint(id), ID: id})
		if err != nil {
			return p, fmt.Errorf("LegalActions(): %d: %v", id, err)
		}
		p.legal = append(p.legal, t)
	}
	return p, nil
}

func (kalah) points() []string { return []string{"K1", "K2", "K3", "K4", "K5", "K6"} }

func (kalah) params() []string { return nil }
