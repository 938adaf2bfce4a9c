package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/store"
)

// Time controls: each seat has a bank of time that runs down while the
// seat is to move, and gains the increment when its turn ends (a turn may
// be several decisions of one player in a row). The clocks start with the
// first move: until then no bank runs. A seat whose bank runs out loses on
// time; the server decides it when a move arrives late, when a page asks
// for the game after the deadline, and, when nobody is connected, in the
// computer workers, which claim games whose deadline has passed from the
// store (so one of several servers on one database decides it, once).

// The bounds of a time control, in seconds.
const (
	maxInitial   = 24 * 60 * 60
	maxIncrement = 60 * 60
)

// clockRequest is the time control of POST /api/games: seconds, whole or
// not.
type clockRequest struct {
	Initial   json.Number `json:"initial"`   // each seat's time, in seconds
	Increment json.Number `json:"increment"` // added after each of a seat's turns, in seconds
}

// seconds reads a number of seconds from 0 to most; field names it.
func seconds(n json.Number, field string, most float64) (time.Duration, error) {
	if n == "" {
		return 0, nil
	}
	f, err := n.Float64()
	if err != nil || math.IsNaN(f) || f < 0 || f > most {
		return 0, fmt.Errorf("clock %s: %s is not a number of seconds from 0 to %g", field, n, most)
	}
	return time.Duration(f * float64(time.Second)).Round(time.Millisecond), nil
}

// newClock returns the clocks of a new game with seats seats, or nil for
// an untimed game (no clock asked for).
func newClock(r *clockRequest, seats int) (*store.Clock, error) {
	if r == nil {
		return nil, nil
	}
	if r.Initial == "" {
		return nil, fmt.Errorf("clock initial: missing: give each seat's time, a number of seconds from 0.1 to %d", maxInitial)
	}
	initial, err := seconds(r.Initial, "initial", maxInitial)
	if err != nil {
		return nil, err
	}
	if initial < time.Second/10 {
		return nil, fmt.Errorf("clock initial: %s seconds is too little time (at least 0.1)", r.Initial)
	}
	inc, err := seconds(r.Increment, "increment", maxIncrement)
	if err != nil {
		return nil, err
	}
	c := &store.Clock{Initial: initial, Increment: inc, Remaining: make([]time.Duration, seats)}
	for i := range c.Remaining {
		c.Remaining[i] = initial
	}
	return c, nil
}

// freshClock is the clock of a rematch of a game with clock c: the same
// control, full banks, none running.
func freshClock(c *store.Clock) *store.Clock {
	if c == nil {
		return nil
	}
	n := &store.Clock{Initial: c.Initial, Increment: c.Increment, Remaining: make([]time.Duration, len(c.Remaining))}
	for i := range n.Remaining {
		n.Remaining[i] = c.Initial
	}
	return n
}

// afterMove returns the clocks after a move by seat mover at now, when the
// seat to move next is next (0 when the game is over), and whether the
// move came after mover's time had run out. The next seat's time runs
// from now+show: the pages show the move meanwhile (its animation), which
// no one is charged for.
func afterMove(c *store.Clock, mover, next int, now time.Time, show time.Duration) (*store.Clock, bool) {
	if c == nil {
		return nil, false
	}
	c = c.Clone()
	if c.Running >= 1 {
		left := c.Left(c.Running, now)
		if left <= 0 {
			return c, true
		}
		c.Remaining[c.Running-1] = left
	}
	if next != mover && c.Running == mover && mover >= 1 && mover <= len(c.Remaining) {
		c.Remaining[mover-1] += c.Increment
	}
	c.Running, c.Since = next, now.Add(show)
	if next < 1 || next > len(c.Remaining) {
		c.Running, c.Since = 0, now
	}
	return c, false
}

// What the pages take to show a move, which no clock is charged for: a
// little for the move itself and a step for each counter or piece that
// travels (the page's animation at its normal speed, which in a timed game
// it fits into this time), at most maxShow.
const (
	showBase = 300 * time.Millisecond
	showStep = 150 * time.Millisecond
	maxShow  = 3 * time.Second
)

// showTime is how long the pages take to show the move that led to st,
// from its effects.
func showTime(st *host.State) time.Duration {
	effects, _ := st.Effects()
	steps := 0
	for _, e := range effects {
		switch e.Kind {
		case host.EffectTake, host.EffectDrop, host.EffectCapture, host.EffectMove, host.EffectPlace:
			steps++
		}
	}
	return min(maxShow, showBase+time.Duration(steps)*showStep)
}

// restarted returns the clocks after a change that is not a move at now
// (a takeback): the time of the running seat is charged, and seat runs
// from now (0 for none).
func restarted(c *store.Clock, seat int, now time.Time) *store.Clock {
	if c == nil {
		return nil
	}
	c = c.Clone()
	if c.Running >= 1 {
		c.Remaining[c.Running-1] = max(c.Left(c.Running, now), 0)
	}
	if seat < 0 || seat > len(c.Remaining) || c.Since.IsZero() && c.Running == 0 {
		seat = 0 // a clock that never started stays stopped
	}
	c.Running, c.Since = seat, now
	return c
}

// flagged reports whether sg's running clock has run out at now.
func flagged(sg *store.Game, now time.Time) bool {
	d := sg.Clock.Deadline()
	return !sg.Over() && !d.IsZero() && !d.After(now)
}

// timeLoss is the result of a game whose seat ran out of time: the other
// seat wins a game of two; in a game of more, the others share the win.
func timeLoss(seat, seats int) *store.Result {
	r := &store.Result{Method: "time", Reason: fmt.Sprintf("player %d ran out of time", seat), Notes: []string{}, Scores: make([]float64, seats), Seat: seat}
	for p := 1; p <= seats; p++ {
		if p != seat {
			r.Scores[p-1] = 1 / float64(seats-1)
			if seats == 2 {
				r.Winner = p
			}
		}
	}
	return r
}

// flag ends sg on time when its running clock has run out, and returns
// the stored game after it (sg itself when nothing is to be done, or
// when another process decided first).
func (s *Server) flag(ctx context.Context, sg *store.Game) (*store.Game, error) {
	now := time.Now()
	if !flagged(sg, now) {
		return sg, nil
	}
	c := sg.Clock.Clone()
	seat := c.Running
	c.Remaining[seat-1], c.Running, c.Since = 0, 0, now
	got, err := s.store.Update(ctx, sg.ID, store.Update{Ply: sg.Ply(), To: sg.Ply(), Result: timeLoss(seat, len(sg.Seats)), Clock: c})
	if errors.Is(err, store.ErrConflict) {
		return s.store.Get(ctx, sg.ID) // a move or another server came first
	}
	return got, err
}
