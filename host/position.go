package host

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"strings"

	"github.com/matombo/matombo/host/diag"
	"github.com/matombo/matombo/host/internal/watchdog"
	"github.com/matombo/matombo/host/luavm"
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
	for _, c := range s.k.Cells[:s.g.def.Layout.KeyLen] {
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
	Key    string // the field of Position at fault ("Counts", "Captured", "Hand", "ToMove", "Vars"), when one is; not in the message
	Msg    string // what is wrong
	Err    error  // the underlying error, e.g. of the JSON decoder
}

func (e *PositionError) Error() string {
	msg := e.Msg
	if e.Field != "" {
		msg = e.Field + ": " + msg
	}
	return diag.EscapeControls(e.Source + ": " + msg)
}

func (e *PositionError) Unwrap() error { return e.Err }

// Code returns "bad-position" (see CodeBadPosition).
func (e *PositionError) Code() string { return CodeBadPosition }

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
func (g *Game) setPosition(vm *luavm.Machine, dst *State, enc []byte) error {
	lay := g.def.Layout
	cells := vm.CellBuffer()
	for i := 0; i < lay.KeyLen; i++ {
		v, n := binary.Varint(enc)
		if n <= 0 || v != int64(int32(v)) {
			return &PositionError{Source: "encoding", Msg: fmt.Sprintf("value %d of %d does not decode", i+1, lay.KeyLen)}
		}
		enc = enc[n:]
		cells = append(cells, int32(v))
	}
	vm.KeepCellBuffer(cells)
	if len(enc) != 0 {
		return &PositionError{Source: "encoding", Msg: fmt.Sprintf("%d bytes left over after %d values", len(enc), lay.KeyLen)}
	}
	if err := g.checkCells(cells); err != nil {
		return err
	}
	if dst.g != g {
		return fmt.Errorf("host: a state of %s given to set a position of %s", dst.g.name, g.name)
	}
	return vm.SetCells(&dst.k, cells)
}

// checkCells checks the position cells of a state as positionState
// checks a Position: counts, hands and captured totals in range, owners and
// the player to move in range, and a conserving game's total.
// changeCells (SetBare's check of the values that changed) checks the same
// ranges and total value by value: a new check here needs one there.
func (g *Game) checkCells(c []int32) error {
	lay := g.def.Layout
	total := 0 // Layout.Total, summed on the way (a solver sets up many positions)
	counts, owners := c[:lay.Sites], c[lay.Owners:lay.Owners+lay.Sites]
	for i, n := range counts {
		if uint32(n) > maxCount { // negative counts too
			return &PositionError{Source: "position", Field: g.def.Board.Site(i).Name, Msg: fmt.Sprintf("count %d (0 to %d allowed)", n, maxCount)}
		}
		total += int(n)
		if o := owners[i]; uint32(o) > uint32(g.players) {
			return &PositionError{Source: "position", Field: g.def.Board.Site(i).Name, Msg: fmt.Sprintf("owner %d (0 to %d allowed)", o, g.players)}
		}
	}
	for p := 0; p < g.players; p++ {
		if x := c[lay.Captured+p]; x < 0 || x > maxCount {
			return &PositionError{Source: "position", Field: fmt.Sprintf("player %d", p+1), Msg: fmt.Sprintf("captured total %d (0 to %d allowed)", x, maxCount)}
		}
		if x := c[lay.Hand+p]; x < 0 || x > maxCount {
			return &PositionError{Source: "position", Field: fmt.Sprintf("player %d", p+1), Msg: fmt.Sprintf("hand %d (0 to %d allowed)", x, maxCount)}
		}
		total += int(c[lay.Captured+p]) + int(c[lay.Hand+p])
	}
	if t := c[lay.ToMove]; t < 1 || int(t) > g.players {
		return &PositionError{Source: "position", Field: "to_move", Msg: fmt.Sprintf("player %d (1 to %d allowed)", t, g.players)}
	}
	if g.conserve && g.opening != nil && total != g.total {
		return &PositionError{Source: "position", Msg: fmt.Sprintf("the game conserves its counters: the opening has %d on the board, captured and in hand, this position %d", g.total, total)}
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

// Code returns the code of the error that stopped the replay (usually
// "illegal-token"; "canceled" when its context was done).
func (e *ReplayError) Code() string {
	if c := ErrorCode(e.Err); c != "" {
		return c
	}
	return CodeIllegalToken
}

// Replay plays a record of tokens from the opening and returns the state
// after it, with its full history, so repetition rules count exactly as in
// the game that made the record. This is how a stored game is rebuilt.
func (g *Game) Replay(tokens []string) (*State, error) {
	return g.ReplayContext(context.Background(), tokens)
}

// ReplayContext is Replay, stopped when ctx is done: it returns a
// *ReplayError around a *CanceledError (see Runner.SetContext).
func (g *Game) ReplayContext(ctx context.Context, tokens []string) (*State, error) {
	s := g.Start()
	r := g.NewRunner()
	r.SetContext(ctx)
	defer r.Close()
	for i, tok := range tokens {
		if err := r.Play(s, tok); err != nil {
			return nil, &ReplayError{Index: i, Token: tok, Err: err}
		}
	}
	return s, nil
}

// Position returns the state's position.
func (s *State) Position() Position {
	g := s.g
	p := Position{ToMove: s.ToMove(), Vars: map[string]int{}}
	for i := 0; i < g.def.Layout.Sites; i++ {
		p.Counts = append(p.Counts, s.Count(i))
		p.Owners = append(p.Owners, s.Owner(i))
	}
	for pl := 1; pl <= g.players; pl++ {
		p.Captured = append(p.Captured, s.Captured(pl))
		p.Hand = append(p.Hand, s.Hand(pl))
	}
	for _, v := range g.def.Vars {
		p.Vars[v.Name] = int(s.k.Cells[v.Cell])
	}
	return p
}

// StateOption configures NewState.
type StateOption func(*stateConfig)

type stateConfig struct {
	anyTotal bool
}

// AnyTotal lets NewState accept a position whose total of counters (board,
// captured and hands) differs from the opening's in a game that declares
// that it conserves its counters. Such a position cannot arise in play; a
// test of a rule may set one up on purpose (e.g. a sowing of 1000 laps
// needs far more counters than the opening has).
func AnyTotal() StateOption { return func(c *stateConfig) { c.anyTotal = true } }

// NewState returns a state at the given position, with the position as the
// first of its history. The script lists the legal moves and, when there
// are none, decides the result. Counts, captured totals and hands are 0 to
// 1073741823; in a game that conserves its counters the position must hold
// the opening's total (unless AnyTotal is given).
func (g *Game) NewState(pos Position, opts ...StateOption) (*State, error) {
	return g.newState(nil, pos, opts)
}

// NewStateContext is NewState, stopped when ctx is done: the script's
// call (listing the moves, deciding the result) stops between two
// instructions with a *CanceledError.
func (g *Game) NewStateContext(ctx context.Context, pos Position, opts ...StateOption) (*State, error) {
	return g.newState(watchdog.NewCancel(ctx), pos, opts)
}

func (g *Game) newState(cancel *watchdog.Cancel, pos Position, opts []StateOption) (*State, error) {
	var cfg stateConfig
	for _, o := range opts {
		o(&cfg)
	}
	s, err := g.positionState(pos, !cfg.anyTotal)
	if err != nil {
		return nil, err
	}
	vm, err := g.machineWith(cancel)
	if err != nil {
		return nil, err
	}
	defer g.release(vm)
	if err := vm.Start(&s.k); err != nil {
		return nil, err
	}
	return s, nil
}

// positionState checks a position and builds a state of it, without
// running the script; with conserve, a conserving game's position must
// hold the opening's total.
func (g *Game) positionState(pos Position, conserve bool) (*State, error) {
	s := g.blank()
	lay := g.def.Layout
	if len(pos.Counts) != lay.Sites || len(pos.Owners) != lay.Sites {
		return nil, &PositionError{Source: "position", Key: "Counts", Msg: fmt.Sprintf("want %d counts and owners, got %d and %d", lay.Sites, len(pos.Counts), len(pos.Owners))}
	}
	if len(pos.Captured) != g.players || len(pos.Hand) != g.players {
		key := "Hand"
		if len(pos.Captured) != g.players {
			key = "Captured"
		}
		return nil, &PositionError{Source: "position", Key: key, Msg: fmt.Sprintf("want %d captured totals and hands, got %d and %d", g.players, len(pos.Captured), len(pos.Hand))}
	}
	for i := 0; i < lay.Sites; i++ {
		name := g.def.Board.Site(i).Name
		if pos.Counts[i] < 0 || pos.Counts[i] > maxCount {
			return nil, &PositionError{Source: "position", Key: "Counts", Msg: fmt.Sprintf("%s has count %d (0 to %d allowed)", name, pos.Counts[i], maxCount)}
		}
		if pos.Owners[i] < 0 || pos.Owners[i] > g.players {
			return nil, &PositionError{Source: "position", Key: "Counts", Msg: fmt.Sprintf("%s has owner %d (0 to %d allowed)", name, pos.Owners[i], g.players)}
		}
		s.k.Cells[i] = int32(pos.Counts[i])
		s.k.Cells[lay.Owners+i] = int32(pos.Owners[i])
	}
	for p := 0; p < g.players; p++ {
		if pos.Captured[p] < 0 || pos.Captured[p] > maxCount {
			return nil, &PositionError{Source: "position", Key: "Captured", Msg: fmt.Sprintf("player %d's captured total is %d (0 to %d allowed)", p+1, pos.Captured[p], maxCount)}
		}
		if pos.Hand[p] < 0 || pos.Hand[p] > maxCount {
			return nil, &PositionError{Source: "position", Key: "Hand", Msg: fmt.Sprintf("player %d's hand is %d (0 to %d allowed)", p+1, pos.Hand[p], maxCount)}
		}
		s.k.Cells[lay.Captured+p] = int32(pos.Captured[p])
		s.k.Cells[lay.Hand+p] = int32(pos.Hand[p])
	}
	if pos.ToMove < 1 || pos.ToMove > g.players {
		return nil, &PositionError{Source: "position", Key: "ToMove", Msg: fmt.Sprintf("to_move must be a player from 1 to %d, got %d", g.players, pos.ToMove)}
	}
	s.k.Cells[lay.ToMove] = int32(pos.ToMove)
	for name, v := range pos.Vars {
		found := false
		for _, vs := range g.def.Vars {
			if vs.Name == name {
				if v < math.MinInt32 || v > math.MaxInt32 {
					return nil, &PositionError{Source: "position", Key: "Vars", Msg: fmt.Sprintf("variable %s is %d (a 32-bit integer, %d to %d, allowed)", name, v, math.MinInt32, math.MaxInt32)}
				}
				s.k.Cells[vs.Cell] = int32(v)
				found = true
			}
		}
		if !found {
			var known []string
			for _, vs := range g.def.Vars {
				known = append(known, vs.Name)
			}
			return nil, &PositionError{Source: "position", Key: "Vars", Msg: fmt.Sprintf("the script declares no variable %q (it declares: %s)", name, strings.Join(known, ", "))}
		}
	}
	if conserve && g.conserve && g.opening != nil {
		if want, got := g.total, s.total(); got != want {
			return nil, &PositionError{Source: "position", Msg: fmt.Sprintf("the game conserves its counters: the opening has %d on the board, captured and in hand, this position %d", want, got)}
		}
	}
	return s, nil
}

// total is the number of counters on the board, captured and in hand.
func (s *State) total() int { return s.g.def.Layout.Total(s.k.Cells) }
