package kernel

import (
	"fmt"
	"math"
)

// Ctx is what a rule part or a primitive works with: the game's
// definition, the state being played or listed, the meter that charges
// its steps, the recorder of the ply's effects and the player whose
// decision is made or listed. The mechanics of the games are its methods,
// written once: the Lua primitives and the native rule parts both call
// them. A Ctx is used by one goroutine at a time; a machine keeps one and
// points it at each state it works on.
type Ctx struct {
	Def   *Def
	S     *State
	Meter Meter
	// Steps is the counter Charge spends: the Meter's own (a Tripwire
	// shares its counter), or, as Reset leaves it, one of the Ctx's own
	// for a Meter that does not share one.
	Steps *Steps
	Rec   *Recorder // the effects of the ply being played; nil when not recorded
	Mover int       // the player whose decision is made or listed
	Hooks Hooks     // the script's functions that parts call; nil for none

	// Ending is how a game the rules end now ends: MethodRule while a
	// move is played, MethodNoMoves in blocked, and so on (see Finish).
	Ending Method
	// ToMoveSet is set when the rules chose the next decider themselves
	// (SetToMove), so the ply does not pass the turn.
	ToMoveSet bool
	// Irreversible is set when the ply makes every earlier position
	// impossible to reach again (see History).
	Irreversible bool

	// Args and Out carry the arguments and results of a hook call (see
	// Hooks): callers fill Args, then read Out at once.
	Args [MaxHookArgs]Value
	Out  [MaxHookOut]Value

	own     Steps // the counter of a Meter that shares none
	scratch []int32
	batches []Batch
	batchN  int
	tries   [][]int32 // the cells each running Try puts back
	tryN    int
	seen    map[Move]struct{} // moves of a long legal list (see PushNew)
	seenLen int               // how many of the state's moves are in seen; -1: seen is stale
}

// Reset points c at state s for a new call, with mover deciding, the
// steps charged to meter.
func (c *Ctx) Reset(s *State, meter Meter, mover int) {
	c.S, c.Meter, c.Mover = s, meter, mover
	c.own = Steps{Limit: math.MaxInt64}
	if m, ok := meter.(interface{ Counter() *Steps }); ok {
		c.Steps = m.Counter()
	} else {
		c.Steps = &c.own
	}
	c.Ending, c.ToMoveSet, c.Irreversible = MethodRule, false, false
	c.seenLen = -1
}

// NewCall starts a new call of the rules on the same state: the legal
// list of an earlier call is forgotten (see Listed).
func (c *Ctx) NewCall() { c.seenLen = -1 }

// Charge spends n steps: ErrSteps when the budget ran out. It is small
// enough to be inlined where the counter is shared.
func (c *Ctx) Charge(n int) error {
	s := c.Steps
	if s.Spent += int64(n); s.Spent > s.Limit {
		s.Over = true
		return ErrSteps
	}
	return nil
}

// ArgError is a mechanic called with an argument it cannot take; N is the
// argument's place (from 1) in the call of the primitive of the same name.
type ArgError struct {
	N   int
	Msg string
}

func (e *ArgError) Error() string { return e.Msg }

// SiteName names site i for messages.
func (c *Ctx) SiteName(i int) string { return c.Def.Board.SiteName(i) }

// Count is the count of site i.
func (c *Ctx) Count(i int) int { return int(c.S.Cells[i]) }

// Owner is the owner of site i, 0 for nobody.
func (c *Ctx) Owner(i int) int { return int(c.S.Cells[c.Def.Layout.Owners+i]) }

// Captured is player p's captured total.
func (c *Ctx) Captured(p int) int { return int(c.S.Cells[c.Def.Layout.Captured+p-1]) }

// Hand is the counters in player p's hand.
func (c *Ctx) Hand(p int) int { return int(c.S.Cells[c.Def.Layout.Hand+p-1]) }

// ToMove is the player whose decision is next.
func (c *Ctx) ToMove() int { return int(c.S.Cells[c.Def.Layout.ToMove]) }

// Var is the value of variable v (its index).
func (c *Ctx) Var(v int) int { return int(c.S.Cells[c.Def.Vars[v].Cell]) }

// SetVar sets variable v.
func (c *Ctx) SetVar(v, x int) { c.S.Cells[c.Def.Vars[v].Cell] = int32(x) }

// countError is the error of a count the state cannot hold.
func countError(what string, n int) error {
	if n < 0 {
		return Failf("%s would become %d: counts cannot be negative", what, n)
	}
	return Failf("%s would become %d: too large (at most %d)", what, n, MaxCount)
}

// checkSite returns an error unless n is a count site i can hold.
func (c *Ctx) checkSite(i, n int) error {
	if n < 0 || n > MaxCount {
		return countError("the count of "+c.SiteName(i), n)
	}
	return nil
}

// SetCount makes site i hold n counters.
func (c *Ctx) SetCount(i, n int) error {
	if err := c.checkSite(i, n); err != nil {
		return err
	}
	cells := c.S.Cells
	if c.Rec != nil && int32(n) != cells[i] {
		c.Rec.Site(EffectSet, i, n)
	}
	cells[i] = int32(n)
	c.Emptied(i)
	return nil
}

// Add adds n counters to site i (n < 0 takes) and returns its new count.
func (c *Ctx) Add(i, n int) (int, error) {
	cells := c.S.Cells
	v := int(cells[i]) + n
	if err := c.checkSite(i, v); err != nil {
		return 0, err
	}
	if c.Rec != nil {
		c.Rec.AddCount(i, v-int(cells[i]))
	}
	cells[i] = int32(v)
	c.Emptied(i)
	return v, nil
}

// Take picks up every counter of site i and returns how many.
func (c *Ctx) Take(i int) int {
	cells := c.S.Cells
	n := cells[i]
	cells[i] = 0
	if n != 0 {
		c.Rec.Site(EffectTake, i, int(n))
	}
	c.Emptied(i)
	return int(n)
}

// SetOwner makes p the owner of site i (0 for nobody).
func (c *Ctx) SetOwner(i, p int) {
	if o := &c.S.Cells[c.Def.Layout.Owners+i]; *o != int32(p) {
		*o = int32(p)
		c.Rec.Add(Effect{Kind: EffectOwner, Site: i, To: -1, Player: p})
	}
}

// Emptied clears the owner of site i when i holds nothing and the board
// is a board of pieces: there an empty point has count 0 and owner 0, so
// a point that a take, capture, sweep or new count empties reads as
// empty. On a board of counts an owner is the side a hole belongs to, and
// stays.
func (c *Ctx) Emptied(i int) {
	if o := &c.S.Cells[c.Def.Layout.Owners+i]; c.S.Cells[i] == 0 && *o != 0 && c.Def.Board.style == Pieces {
		*o = 0
		c.Rec.Add(Effect{Kind: EffectOwner, Site: i, To: -1, Player: 0})
	}
}

// Capture moves n counters of site i (all of them when n < 0) to player
// p's captured total and returns how many moved.
func (c *Ctx) Capture(i, p, n int) (int, error) {
	cells := c.S.Cells
	have := int(cells[i])
	if n < 0 {
		n = have
	} else if n > have {
		return 0, &ArgError{N: 3, Msg: fmt.Sprintf("cannot capture %d counters from %s, which holds %d", n, c.SiteName(i), have)}
	}
	total := &cells[c.Def.Layout.Captured+p-1]
	if int(*total)+n > MaxCount {
		return 0, countError("a captured total", int(*total)+n)
	}
	cells[i] -= int32(n)
	*total += int32(n)
	if n != 0 {
		c.Rec.Add(Effect{Kind: EffectCapture, Site: i, To: -1, Player: p, Count: n})
	}
	c.Emptied(i)
	return n, nil
}

// Pay moves n counters from player p's captured total onto site i.
func (c *Ctx) Pay(p, i, n int) error {
	cells := c.S.Cells
	total := &cells[c.Def.Layout.Captured+p-1]
	if n < 0 || int(*total) < n {
		return &ArgError{N: 3, Msg: fmt.Sprintf("player %d cannot pay %d counters with %d captured", p, n, *total)}
	}
	if err := c.checkSite(i, int(cells[i])+n); err != nil {
		return err
	}
	*total -= int32(n)
	cells[i] += int32(n)
	if n != 0 && c.Rec != nil {
		c.Rec.Player(EffectCaptured, p, int(*total))
		c.Rec.Site(EffectDrop, i, n)
	}
	return nil
}

// SetHand makes player p hold n counters in hand.
func (c *Ctx) SetHand(p, n int) error {
	if n < 0 || n > MaxCount {
		return countError("a hand", n)
	}
	if h := &c.S.Cells[c.Def.Layout.Hand+p-1]; int32(n) != *h {
		*h = int32(n)
		c.Rec.Player(EffectHand, p, n)
	}
	return nil
}

// Place puts one counter from player p's hand on site i, which p then
// owns: dropping a piece.
func (c *Ctx) Place(p, i int) error {
	cells, l := c.S.Cells, &c.Def.Layout
	h := &cells[l.Hand+p-1]
	if *h < 1 {
		return Failf("player %d has nothing in hand to place on %s", p, c.SiteName(i))
	}
	if err := c.checkSite(i, int(cells[i])+1); err != nil {
		return err
	}
	*h--
	cells[i]++
	cells[l.Owners+i] = int32(p)
	c.Rec.Add(Effect{Kind: EffectPlace, Site: i, To: -1, Player: p})
	return nil
}

// MovePiece moves everything on from, counters and owner, to the empty
// site to.
func (c *Ctx) MovePiece(from, to int) error {
	cells, o := c.S.Cells, c.Def.Layout.Owners
	if cells[to] != 0 || cells[o+to] != 0 {
		return Failf("move_piece: %s is not empty", c.SiteName(to))
	}
	if cells[from] == 0 && cells[o+from] == 0 {
		return Failf("move_piece: %s is empty: there is nothing to move", c.SiteName(from))
	}
	cells[to], cells[from] = cells[from], 0
	cells[o+to], cells[o+from] = cells[o+from], 0
	c.Rec.Add(Effect{Kind: EffectMove, Site: from, To: to})
	return nil
}

// SetToMove makes p decide next.
func (c *Ctx) SetToMove(p int) {
	c.S.Cells[c.Def.Layout.ToMove] = int32(p)
	c.ToMoveSet = true
}

// Finish ends the game: winner w (0 for a draw), the reason in the
// rules' words, notes and the sites that made the result (nil for none).
func (c *Ctx) Finish(w int, reason string, notes []string, sites []int) {
	c.S.Result = Result{Over: true, Winner: w, Reason: reason, Method: c.Ending, Notes: notes, Sites: sites}
}

// Push adds a legal move to the decision being listed.
func (c *Ctx) Push(m Move) error {
	if len(c.S.Moves) >= MaxLegal {
		return errTooMany()
	}
	m.game = c.Def.Tag
	c.S.Moves = append(c.S.Moves, m)
	return nil
}

// errTooMany is the error of a decision with too many legal moves.
func errTooMany() error { return Failf("more than %d legal moves in one decision", MaxLegal) }

// Keep cuts the decision's legal list to its first n moves (a rule that
// drops some of the moves it listed keeps the others in front).
func (c *Ctx) Keep(n int) {
	c.S.Moves = c.S.Moves[:n]
	if c.seenLen > n {
		c.seenLen = -1
	}
}

// PushNew adds a legal move unless the decision lists it already (on some
// boards the same from-to pair is both a step and a jump); it charges a
// step for each move tried, duplicates included.
func (c *Ctx) PushNew(m Move) (bool, error) {
	if err := c.Charge(1); err != nil {
		return false, err
	}
	m.game = c.Def.Tag
	if c.Listed(m) {
		return false, nil
	}
	return true, c.Push(m)
}

// Listed reports whether the decision's legal list has m already. Short
// lists are searched; long ones get a set, kept for the rest of the call.
func (c *Ctx) Listed(m Move) bool {
	moves := c.S.Moves
	if len(moves) <= 32 {
		for _, x := range moves {
			if x == m {
				return true
			}
		}
		return false
	}
	if c.seen == nil || c.seenLen < 0 || c.seenLen > len(moves) {
		if c.seen == nil {
			c.seen = map[Move]struct{}{}
		}
		clear(c.seen)
		c.seenLen = 0
	}
	for _, x := range moves[c.seenLen:] {
		c.seen[x] = struct{}{}
	}
	c.seenLen = len(moves)
	_, dup := c.seen[m]
	return dup
}

// Batch is what a test of many sites prepared for them all (see
// BeginBatch).
type Batch struct {
	Settled bool // every site passes without a test
	Work    int  // work left to the batch
}

// BeginBatch returns a cleared Batch for a test of many sites, kept in
// the Ctx (so preparing one allocates nothing); EndBatch gives it back.
// Batches nest.
func (c *Ctx) BeginBatch() *Batch {
	if c.batchN == len(c.batches) {
		c.batches = append(c.batches, Batch{})
	}
	b := &c.batches[c.batchN]
	*b = Batch{}
	c.batchN++
	return b
}

// EndBatch ends the batch BeginBatch returned last.
func (c *Ctx) EndBatch() { c.batchN-- }

// Scratch returns a copy of the site counts in the Ctx's scratch buffer,
// for trying a sowing without changing the state.
func (c *Ctx) Scratch() []int32 {
	c.scratch = append(c.scratch[:0], c.S.Cells[:c.Def.Layout.Sites]...)
	return c.scratch
}

// MaxTries is how deeply trials nest (Try, the script's matombo.try among
// them): each running trial keeps a copy of the state's cells.
const MaxTries = 8

// Try runs f on the state and then puts the state back as it was: its
// cells, ply, key, result and listed moves, and the Ctx's choice of the
// next decider and irreversibility. Nothing f does is recorded (the
// effects recorder is off while it runs), so a move tried to see what it
// would do leaves no trace. The copy is charged (a step per eight cells).
// Tries nest, at most MaxTries deep. It is the one trial of the host: the
// rule parts' and the script's.
func (c *Ctx) Try(f func() error) error {
	if c.tryN >= MaxTries {
		return Failf("tries nest at most %d deep", MaxTries)
	}
	if err := c.Charge(len(c.S.Cells)/8 + 1); err != nil {
		return err
	}
	if c.tryN == len(c.tries) {
		c.tries = append(c.tries, nil)
	}
	s := c.S
	saved := append(c.tries[c.tryN][:0], s.Cells...)
	c.tries[c.tryN] = saved
	c.tryN++
	ply, key, result, moves := s.Ply, s.Key, s.Result, len(s.Moves)
	rec, toMove, irrev := c.Rec, c.ToMoveSet, c.Irreversible
	c.Rec = nil
	err := f()
	c.tryN--
	copy(s.Cells, saved)
	s.Ply, s.Key, s.Result, s.Moves = ply, key, result, s.Moves[:moves]
	c.Rec, c.ToMoveSet, c.Irreversible = rec, toMove, irrev
	return err
}

// Trying reports whether a Try is running: the state is a trial's, free
// to change.
func (c *Ctx) Trying() bool { return c.tryN > 0 }
