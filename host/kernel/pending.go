package kernel

// A decision within a turn: a move that pauses for its player to decide
// how it goes on (continue or stop at a head, which of the opponent's
// holes to capture next, how to go on with a chain of jumps) keeps what it
// waits for in a script variable, the pending decision, so the wait is
// part of the position (its key, its JSON, a scenario's vars) and the
// next decision's legal moves are listed from it. One encoding serves
// every rule:
//
//	0    nothing is pending: the player starts a move
//	s+1  the move waits at site s (a stop of a relay, a piece in the middle of its jumps)
//	-k   the player still makes k choices (bonus captures, removals)

// Waiting is what a pending decision waits for.
type Waiting uint8

// The kinds of pending decisions.
const (
	NotWaiting   Waiting = iota // nothing is pending
	WaitingAt                   // the move waits at a site
	WaitingCount                // the player still makes some choices
)

// Pending reads the pending decision in variable v: what it waits for and
// its site or count.
func (c *Ctx) Pending(v int) (Waiting, int) {
	x := c.Var(v)
	switch {
	case x > 0:
		return WaitingAt, x - 1
	case x < 0:
		return WaitingCount, -x
	}
	return NotWaiting, 0
}

// WaitAt makes the move wait at site s for p's decision: p decides next.
func (c *Ctx) WaitAt(v, s, p int) {
	c.SetVar(v, s+1)
	c.SetToMove(p)
}

// WaitFor makes the move wait for k more choices of p: p decides next.
func (c *Ctx) WaitFor(v, k, p int) {
	c.SetVar(v, -k)
	c.SetToMove(p)
}

// Done clears the pending decision in variable v: the move is over.
func (c *Ctx) Done(v int) { c.SetVar(v, 0) }
