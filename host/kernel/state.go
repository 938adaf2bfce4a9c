package kernel

import (
	"fmt"
	"math"
	"math/bits"
)

// MaxCount is the most counters one cell of a state (a site's count, a
// captured total, a hand) may hold. Counts are int32; keeping each below
// half the int32 range means adding two never overflows before the check.
const MaxCount = math.MaxInt32 / 2

// MaxLegal bounds the number of legal moves of one decision.
const MaxLegal = 100000

// MaxPly is the most plies a state may count: the largest integer a Lua
// number holds exactly (or the largest int, if smaller). No move is played
// from a state that has counted them, so every state a game reaches can
// be written as JSON and read back.
const MaxPly = min(1<<53, math.MaxInt)

// Layout gives the offsets of a game's state cells: the counts of the
// sites, their owners, the captured totals, the hands, the position
// variables, the player to move, then the variables outside the position.
// The position key covers the cells before Memo.
type Layout struct {
	Sites, Players int
	Owners         int // offset of the owners
	Captured       int // offset of the captured totals
	Hand           int // offset of the hands
	Vars           int // offset of the position variables
	ToMove         int // the cell of the player to move
	Memo           int // offset of the variables outside the position
	KeyLen         int // cells that make up the position key
	Size           int // cells in all
}

// NewLayout lays out the cells of a game with the given numbers of sites,
// players and variables inside and outside the position.
func NewLayout(sites, players, posVars, memoVars int) Layout {
	l := Layout{Sites: sites, Players: players}
	l.Owners = sites
	l.Captured = 2 * sites
	l.Hand = l.Captured + players
	l.Vars = l.Hand + players
	l.ToMove = l.Vars + posVars
	l.KeyLen = l.ToMove + 1
	l.Memo = l.KeyLen
	l.Size = l.Memo + memoVars
	return l
}

// OwnersOf returns the owners' cells of the state whose cells are c.
func (l *Layout) OwnersOf(c []int32) []int32 { return c[l.Owners : l.Owners+l.Sites] }

// Total is the counters on the board, captured and in hand.
func (l *Layout) Total(c []int32) int {
	n := 0
	for i := 0; i < l.Sites; i++ {
		n += int(c[i])
	}
	for p := 0; p < l.Players; p++ {
		n += int(c[l.Captured+p]) + int(c[l.Hand+p])
	}
	return n
}

// Method says which of the script's rule functions ended a game. The
// script's own words are in the reason.
type Method uint8

// The ways a game can end.
const (
	MethodNone        Method = iota // the game goes on
	MethodRule                      // the script ended it while playing a move (or in setup)
	MethodNoMoves                   // the script's blocked function: a player had no legal move
	MethodRepetition                // the script's repeated function: a position occurred too often
	MethodPosition                  // the script's result function judged a set-up position finished
	MethodResignation               // a player resigned (the players decided, not the rules)
	MethodAgreement                 // the players agreed to a draw
)

var methodNames = [...]string{"", "rule", "no moves", "repetition", "position", "resignation", "agreement"}

// String names the method: "rule", "no moves", "repetition", "position",
// "resignation", "agreement", or "" for MethodNone.
func (m Method) String() string {
	if int(m) < len(methodNames) {
		return methodNames[m]
	}
	return fmt.Sprintf("method(%d)", m)
}

// Result is how a game ended, or that it goes on.
type Result struct {
	Over   bool
	Winner int      // 0 for a draw
	Reason string   // in the script's words
	Method Method   // by which rule function
	Notes  []string // never modified in place; shared by copies
	Sites  []int    // the sites that made the result; never modified in place
}

// IsZero reports whether r is the zero Result, the result of a game that
// goes on: a copier skips the copy (and its write barriers) then.
func (r *Result) IsZero() bool {
	return !r.Over && r.Winner == 0 && r.Reason == "" && r.Method == 0 && r.Notes == nil && r.Sites == nil
}

// State is a position of a game with how it was reached: its cells (see
// Layout), the ply count, the result, the keys of the positions seen (for
// repetition rules), the position's key, the legal moves of the decision
// that is next and the effects of the ply that made it.
type State struct {
	Cells   []int32
	Ply     int
	Result  Result
	Hist    History
	Key     uint64
	Moves   []Move
	Effects *EffectList // nil when not recorded
	// Unlisted is set when a move was played without listing the next
	// decision's legal moves (Moves is empty until they are): the game
	// goes on unless listing them ends it (the script's blocked function).
	Unlisted bool
	// KeyStale is set when such a move also left the position's key to be
	// computed (a game without a repetition function, the ply not
	// recorded): Key is then not the position's and Hist lacks its key
	// until SettleKey, which listing the moves calls first. Only an
	// unlisted state is stale; CurrentKey reads the key either way.
	KeyStale bool
}

// EndBy ends s with a result the players decided rather than the rules
// (MethodResignation, MethodAgreement): its ply and position stay and it
// has no legal moves.
func (s *State) EndBy(l *Layout, m Method, winner int, reason string) {
	s.SettleKey(l)
	s.Result = Result{Over: true, Winner: winner, Reason: reason, Method: m}
	s.Moves, s.Unlisted = s.Moves[:0], false
}

// CopyFrom makes s a copy of src, reusing s's memory where it can.
func (s *State) CopyFrom(src *State) {
	cells, moves, hist := s.Cells, s.Moves, s.Hist
	*s = *src
	s.Cells = append(cells[:0], src.Cells...)
	s.Moves = append(moves[:0], src.Moves...)
	s.Hist = hist
	s.Hist.CopyFrom(&src.Hist)
}

// SettleKey computes the key a move played unlisted left to compute
// (KeyStale) and appends it to the history; it does nothing to a state
// whose key is set.
func (s *State) SettleKey(l *Layout) {
	if s.KeyStale {
		s.Key = s.ComputeKey(l)
		s.Hist.Push(s.Key)
		s.KeyStale = false
	}
}

// CurrentKey is the position's key, also when it is left to compute
// (KeyStale), without changing s: concurrent readers may call it.
func (s *State) CurrentKey(l *Layout) uint64 {
	if s.KeyStale {
		return s.ComputeKey(l)
	}
	return s.Key
}

// Occurrences is how many times the current position, whose key is k,
// has occurred: its count in the history, and once more when its key is
// left to compute (KeyStale), so not in the history yet.
func (s *State) Occurrences(k uint64) int {
	n := s.Hist.Count(k)
	if s.KeyStale {
		n++
	}
	return n
}

// ComputeKey hashes the position as it is now.
func (s *State) ComputeKey(l *Layout) uint64 { return HashCells(s.Cells[:l.KeyLen]) }

// HashCells hashes position cells with a fixed seed, so keys are the same
// in every run and on every machine.
func HashCells(c []int32) uint64 {
	const (
		k1 = 0x9E3779B97F4A7C15
		k2 = 0xC2B2AE3D27D4EB4F
		k3 = 0x165667B19E3779F9
	)
	h1, h2 := uint64(len(c))*k3, uint64(0x27D4EB2F165667C5)
	// Four cells at a time (eight per turn of the loop), the slice
	// shrinking as it goes: the compiler then proves every index in range
	// (no bounds checks) and reads two cells with one load.
	for len(c) >= 8 {
		a := uint64(uint32(c[0])) | uint64(uint32(c[1]))<<32
		b := uint64(uint32(c[2])) | uint64(uint32(c[3]))<<32
		h1 = bits.RotateLeft64(h1^(a*k2), 31) * k1
		h2 = bits.RotateLeft64(h2^(b*k1), 29) * k2
		a = uint64(uint32(c[4])) | uint64(uint32(c[5]))<<32
		b = uint64(uint32(c[6])) | uint64(uint32(c[7]))<<32
		h1 = bits.RotateLeft64(h1^(a*k2), 31) * k1
		h2 = bits.RotateLeft64(h2^(b*k1), 29) * k2
		c = c[8:]
	}
	if len(c) >= 4 {
		a := uint64(uint32(c[0])) | uint64(uint32(c[1]))<<32
		b := uint64(uint32(c[2])) | uint64(uint32(c[3]))<<32
		h1 = bits.RotateLeft64(h1^(a*k2), 31) * k1
		h2 = bits.RotateLeft64(h2^(b*k1), 29) * k2
		c = c[4:]
	}
	for _, x := range c {
		h1 = bits.RotateLeft64(h1^(uint64(uint32(x))*k2), 31) * k1
	}
	h := h1 ^ bits.RotateLeft64(h2, 17)
	h ^= h >> 33
	h *= k2
	h ^= h >> 29
	h *= k3
	h ^= h >> 32
	return h
}
