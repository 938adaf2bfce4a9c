package host

import (
	"encoding/binary"
	"fmt"
)

// AppendPosition appends an exact, compact encoding of the position of s
// to dst and returns the extended slice: the counts and owners of the
// sites, the captured totals, the hands, the position variables and the
// player to move, as varints. It covers exactly what Key hashes and the
// repetition rule compares, without the ply, the history or the result.
// Two states of one game have equal encodings exactly when their
// positions are equal, so a solver can store, compare and hash them; the
// encoding is only meaningful with the same Game (compare Fingerprints).
// It does not allocate when dst has room.
func (s *State) AppendPosition(dst []byte) []byte {
	for _, c := range s.cells[:s.g.lay.keyLen] {
		dst = binary.AppendVarint(dst, int64(c))
	}
	return dst
}

// PositionError reports a position or a state that cannot be one of the
// game: values out of range, a total a conserving game does not have, an
// encoding that does not decode, state JSON of another game or that does
// not agree with the script.
type PositionError struct {
	Source string // what was read: "position", "encoding" or "state JSON"
	Field  string // the field concerned, when there is one, e.g. "a3" or "to_move"
	Msg    string // what is wrong
	Err    error  // the underlying error, e.g. of the JSON decoder
}

func (e *PositionError) Error() string {
	msg := e.Msg
	if e.Field != "" {
		msg = e.Field + ": " + msg
	}
	return e.Source + ": " + msg
}

func (e *PositionError) Unwrap() error { return e.Err }

// StateFromPosition returns a state at the position enc (made by
// AppendPosition), with the position as the first of its history, as
// NewState does: the script's result function, when it has one, says
// whether the position is decided, and otherwise lists the legal moves.
func (g *Game) StateFromPosition(enc []byte) (*State, error) {
	s := g.blank()
	vm, err := g.machine()
	if err != nil {
		return nil, err
	}
	defer g.release(vm)
	if err := g.setPosition(vm, s, enc); err != nil {
		return nil, err
	}
	return s, nil
}

// setPosition decodes enc into dst and settles it; dst is unchanged on
// error.
func (g *Game) setPosition(vm *machine, dst *State, enc []byte) error {
	lay := g.lay
	vm.scratch = vm.scratch[:0]
	for i := 0; i < lay.keyLen; i++ {
		v, n := binary.Varint(enc)
		if n <= 0 || v != int64(int32(v)) {
			return &PositionError{Source: "encoding", Msg: fmt.Sprintf("value %d of %d does not decode", i+1, lay.keyLen)}
		}
		enc = enc[n:]
		vm.scratch = append(vm.scratch, int32(v))
	}
	if len(enc) != 0 {
		return &PositionError{Source: "encoding", Msg: fmt.Sprintf("%d bytes left over after %d values", len(enc), lay.keyLen)}
	}
	if err := g.checkCells(vm.scratch); err != nil {
		return err
	}
	if dst.g != g {
		return fmt.Errorf("host: a state of %s given to set a position of %s", dst.g.name, g.name)
	}
	vm.save(dst)
	vm.savedHist.copyFrom(&dst.hist)
	copy(dst.cells, vm.scratch)
	for i := lay.keyLen; i < lay.size; i++ {
		dst.cells[i] = 0
	}
	dst.ply, dst.over, dst.winner, dst.reason, dst.method, dst.notes = 0, false, 0, "", MethodNone, nil
	if err := vm.start(dst); err != nil {
		vm.restore(dst)
		dst.hist.copyFrom(&vm.savedHist)
		return err
	}
	vm.done()
	return nil
}

// checkCells checks the position cells of a state as positionState
// checks a Position: counts, hands and captured totals in range, owners and
// the player to move in range, and a conserving game's total.
func (g *Game) checkCells(c []int32) error {
	lay := g.lay
	for i := 0; i < lay.sites; i++ {
		if c[i] < 0 || c[i] > maxCount {
			return &PositionError{Source: "position", Field: g.board.sites[i].Name, Msg: fmt.Sprintf("count %d (0 to %d allowed)", c[i], maxCount)}
		}
		if o := c[lay.owners+i]; o < 0 || int(o) > g.players {
			return &PositionError{Source: "position", Field: g.board.sites[i].Name, Msg: fmt.Sprintf("owner %d (0 to %d allowed)", o, g.players)}
		}
	}
	for p := 0; p < g.players; p++ {
		if x := c[lay.captured+p]; x < 0 || x > maxCount {
			return &PositionError{Source: "position", Field: fmt.Sprintf("player %d", p+1), Msg: fmt.Sprintf("captured total %d (0 to %d allowed)", x, maxCount)}
		}
		if x := c[lay.hand+p]; x < 0 || x > maxCount {
			return &PositionError{Source: "position", Field: fmt.Sprintf("player %d", p+1), Msg: fmt.Sprintf("hand %d (0 to %d allowed)", x, maxCount)}
		}
	}
	if t := c[lay.toMove]; t < 1 || int(t) > g.players {
		return &PositionError{Source: "position", Field: "to_move", Msg: fmt.Sprintf("player %d (1 to %d allowed)", t, g.players)}
	}
	if g.conserve && g.opening != nil {
		if want, got := g.opening.total(), lay.total(c); got != want {
			return &PositionError{Source: "position", Msg: fmt.Sprintf("the game conserves its counters: the opening has %d on the board, captured and in hand, this position %d", want, got)}
		}
	}
	return nil
}

// ReplayError reports a record that cannot be replayed: the move at Index
// (counting from 0) failed.
type ReplayError struct {
	Index int    // the failing token's index in the record
	Token string // the failing token
	Err   error  // why: usually an *IllegalMoveError
}

func (e *ReplayError) Error() string {
	return fmt.Sprintf("replay: move %d (%q): %v", e.Index+1, e.Token, e.Err)
}

func (e *ReplayError) Unwrap() error { return e.Err }

// Replay plays a record of tokens from the opening and returns the state
// after it, with its full history, so repetition rules count exactly as in
// the game that made the record. This is how a stored game is rebuilt.
func (g *Game) Replay(tokens []string) (*State, error) {
	s := g.Start()
	r := g.NewRunner()
	defer r.Close()
	for i, tok := range tokens {
		if err := r.Play(s, tok); err != nil {
			return nil, &ReplayError{Index: i, Token: tok, Err: err}
		}
	}
	return s, nil
}
