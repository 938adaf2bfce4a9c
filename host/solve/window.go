package solve

import "fmt"

// Threshold is a value and margin for Player 1 that a search compares a
// position's worth with, in the order the solver optimizes: the result
// first (a loss, a draw, a win), then the margin.
type Threshold struct {
	Value  Value // for Player 1
	Margin int   // Player 1's score minus Player 2's at the end; 0 in games without a score
}

// String writes t as "win +12", "draw 0" or "loss -3".
func (t Threshold) String() string { return fmt.Sprintf("%s %+d", t.Value, t.Margin) }

// Less reports whether t is worth less than u to Player 1: the result
// first, then the margin.
func (t Threshold) Less(u Threshold) bool { return t.score() < u.score() }

// threshold is s as a Threshold.
func (s score) threshold() Threshold { return Threshold{Value: Value(s.outcome()), Margin: s.margin()} }

// score is t as the solver's score.
func (t Threshold) score() score { return makeScore(int(t.Value), t.Margin) }

// Bound says how much a PositionResult's entry tells of the position.
type Bound int

const (
	// Exact: the entry is the position's value.
	Exact Bound = iota
	// AtMost: the position is worth at most the entry to its player to
	// move.
	AtMost
	// AtLeast: the position is worth at least the entry to its player to
	// move.
	AtLeast
)

// String returns "exact", "at most" or "at least".
func (b Bound) String() string {
	switch b {
	case AtMost:
		return "at most"
	case AtLeast:
		return "at least"
	}
	return "exact"
}

// Flip returns the bound for the other player: what is at most a value
// for one is at least its opposite for the other.
func (b Bound) Flip() Bound {
	switch b {
	case AtMost:
		return AtLeast
	case AtLeast:
		return AtMost
	}
	return Exact
}

// WithAbove has SolvePosition settle only whether the position is worth
// more than t to Player 1: when it is worth t or less, its result may be
// a bound (for Player 1 at most t or less) instead of the exact value,
// which one null-window search proves at a fraction of the cost. It is
// alpha-beta's window split over machines: a job whose position cannot
// beat what another job's position is known to be worth needs no exact
// value. Solve refuses it.
func WithAbove(t Threshold) Option {
	return func(c *config) { c.window.lo, c.window.loSet = t.score(), true }
}

// WithBelow is WithAbove's other side: SolvePosition settles only whether
// the position is worth less than t to Player 1, and a position worth t
// or more may get a bound (for Player 1 at least t or more).
func WithBelow(t Threshold) Option {
	return func(c *config) { c.window.hi, c.window.hiSet = t.score(), true }
}

// window is what WithAbove and WithBelow set: scores for Player 1 at or
// beyond which a search may stop with a bound.
type window struct {
	lo, hi       score
	loSet, hiSet bool
}

// limits returns the window's scores, those of a side not set beyond
// every score.
func (w window) limits() (lo, hi score) {
	lo, hi = minScore-1, maxScore+1
	if w.loSet {
		lo = w.lo
	}
	if w.hiSet {
		hi = w.hi
	}
	return lo, hi
}

// set reports whether either side is set.
func (w window) set() bool { return w.loSet || w.hiSet }

// bounded is the result of a search within a window: the score's bounds
// for Player 1, equal when it is exact.
type bounded struct {
	lo, hi score
}

// exact reports whether the bounds meet.
func (b bounded) exact() bool { return b.lo == b.hi }
