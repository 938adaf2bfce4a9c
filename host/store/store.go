// Package store keeps the games of `matombo serve`: who sits where, the
// record of tokens, the clocks and the result. It is one interface, Store,
// with backends in packages of their own, so a program links only the
// ones it imports:
//
//   - package host/store/sqlite: SQLite (modernc.org/sqlite, pure Go), for
//     one server process;
//   - package host/store/postgres: PostgreSQL (pgx), for several server
//     processes sharing one database;
//   - NewMemory, here: in memory, for tests and programs that keep nothing.
//
// Open picks the backend from the data source name ("postgres://...",
// a SQLite file path, "memory:") among those linked into the program; a
// backend registers itself when its package is imported, as database/sql
// drivers do. Package host/store/storetest is the contract every backend
// passes, and any other backend can run it.
//
// A stored game is its name, the game's fingerprint, variants, parameters,
// seats and the record of move tokens; a state is rebuilt from its record
// by the caller, so the store knows nothing of any game's rules. The ply
// check of a change is transactional: of two changes made for the same ply,
// exactly one is stored and the other gets ErrConflict, whichever process
// made them.
package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Seat is one seat of a stored game.
type Seat struct {
	// Player is "human" or a computer player spec such as "mcts:time=1s".
	Player string `json:"player"`
	// Secret is the 128-bit random hex token that lets its holder move for
	// a human seat; "" for computer seats.
	Secret string `json:"secret,omitempty"`
	// Invite is the 128-bit random hex token of a person's seat that no
	// one holds yet: whoever claims the seat with it gets the seat's
	// Secret, once; "" once claimed (or for a seat held from the start).
	Invite string `json:"invite,omitempty"`
}

// Result is how a game ended.
type Result struct {
	Winner int       `json:"winner"`         // the winning seat, 1-based; 0 for a draw
	Method string    `json:"method"`         // how it ended: a rule of the game's, or "time" (a seat's clock ran out)
	Reason string    `json:"reason"`         // in words, for people
	Notes  []string  `json:"notes"`          // what the rules attach to the result
	Scores []float64 `json:"scores"`         // each seat's share of the result: 1 for the winner, 0.5 each in a two-seat draw
	Seat   int       `json:"seat,omitempty"` // the seat whose act ended the game: who resigned, aborted or ran out of time; 0 for the rules' ends and an agreement
}

// Clone returns a deep copy of r (nil for nil).
func (r *Result) Clone() *Result {
	if r == nil {
		return nil
	}
	c := *r
	c.Notes = slices.Clone(r.Notes)
	c.Scores = slices.Clone(r.Scores)
	return &c
}

// Clock is a game's time control: each seat has a bank of time that runs
// down while the seat is to move and gains Increment after each of its
// moves. The store keeps it as its callers compute it; Deadline is what
// Claim compares with the store's clock.
type Clock struct {
	Initial   time.Duration   `json:"initial"`   // each seat's bank at the opening
	Increment time.Duration   `json:"increment"` // added to a seat's bank after each of its moves
	Remaining []time.Duration `json:"remaining"` // each seat's bank at Since
	Running   int             `json:"running"`   // the seat whose bank runs down from Since, 1-based; 0 for none
	// Since is when Running's bank starts to run down: when its turn
	// began, or later, when the caller gives the seat time to see the
	// move that began it (a server's animation of the move).
	Since time.Time `json:"since"`
}

// Clone returns a deep copy of c (nil for nil).
func (c *Clock) Clone() *Clock {
	if c == nil {
		return nil
	}
	d := *c
	d.Remaining = slices.Clone(c.Remaining)
	return &d
}

// Deadline is when the running seat's bank runs out; the zero time when c
// is nil or no seat's bank runs.
func (c *Clock) Deadline() time.Time {
	if c == nil || c.Running < 1 || c.Running > len(c.Remaining) {
		return time.Time{}
	}
	return c.Since.Add(c.Remaining[c.Running-1])
}

// Left is seat's time left at now (1-based; negative once it has run out).
// The running seat's bank runs down from Since, not before.
func (c *Clock) Left(seat int, now time.Time) time.Duration {
	if c == nil || seat < 1 || seat > len(c.Remaining) {
		return 0
	}
	left := c.Remaining[seat-1]
	if seat == c.Running && now.After(c.Since) {
		left -= now.Sub(c.Since)
	}
	return left
}

// Request is a pending proposal of one seat to the others, such as taking
// moves back; the others accept or decline it.
type Request struct {
	Kind string `json:"kind"` // what is proposed: "takeback"
	Seat int    `json:"seat"` // who proposes, 1-based
	To   int    `json:"to"`   // takeback: the record's length after it
}

// Game is one stored game.
type Game struct {
	ID          string         // assigned by Create when empty
	Game        string         // the game's name in the library
	Fingerprint string         // the rules it is played by (host.Game.Fingerprint), "" when not known
	Variants    []string       // variants, in the order they were applied
	Params      map[string]any // parameters set on top of the variants
	Seats       []Seat         // one per player, in player order
	Record      []string       // move tokens from the opening, Record[ply]
	Result      *Result        // how the game ended; nil while it goes on
	// ComputerDue is set when the seat to move is a computer; such games
	// are handed out by Claim.
	ComputerDue bool
	Clock       *Clock   // the time control; nil for an untimed game
	Request     *Request // a pending proposal; nil when there is none
	RematchOf   string   // the game this one is a rematch of, "" for none
	Rematch     string   // the rematch of this game, once one is created (set by Create)
	Created     time.Time
	Updated     time.Time
}

// Ply is the number of moves in the record, which is the ply the next
// move must name.
func (g *Game) Ply() int { return len(g.Record) }

// Over reports whether the game has ended.
func (g *Game) Over() bool { return g.Result != nil }

// Clone returns a deep copy of g.
func (g *Game) Clone() *Game {
	c := *g
	c.Variants = slices.Clone(g.Variants)
	c.Params = cloneParams(g.Params)
	c.Seats = slices.Clone(g.Seats)
	c.Record = slices.Clone(g.Record)
	c.Result = g.Result.Clone()
	c.Clock = g.Clock.Clone()
	if g.Request != nil {
		r := *g.Request
		c.Request = &r
	}
	return &c
}

func cloneParams(p map[string]any) map[string]any {
	if p == nil {
		return nil
	}
	c := make(map[string]any, len(p))
	for k, v := range p {
		c[k] = v
	}
	return c
}

// Move is one move appended to a game's record, with what it leads to.
type Move struct {
	Ply         int     // the record's length before the move: the ply the mover saw
	Token       string  // the move's token
	Result      *Result // how the game ended with this move; nil while it goes on
	ComputerDue bool    // the seat to move next is a computer
	Clock       *Clock  // the clocks after the move; nil for an untimed game
}

// Update is a change to a game other than a move: taking moves back,
// ending the game without a move (a seat's clock ran out), or making or
// answering a proposal.
type Update struct {
	Ply         int      // the record's length the change was decided at
	To          int      // the record's length after it: Ply, or less to take back the moves from To on
	Result      *Result  // how the game ended; nil while it goes on
	ComputerDue bool     // the seat to move after the change is a computer
	Clock       *Clock   // the clocks after the change; nil for an untimed game
	Request     *Request // the pending proposal after the change; nil for none
	// Seats are the seats after the change (a seat claimed through its
	// invitation); nil leaves them as they are. There are as many as the
	// game has.
	Seats []Seat
}

// Change is a change to a stored game delivered by Watch: a move, a
// takeback, a proposal, the end of the game, or a rematch made of it.
type Change struct {
	ID  string
	Ply int // the number of moves in the game's record after the change
}

// Summary is one row of List.
type Summary struct {
	ID          string
	Game        string
	Variants    []string
	Seats       []string // the players, without secrets
	Plies       int
	Over        bool
	ComputerDue bool
	Created     time.Time
	Updated     time.Time
}

// Store keeps games. Implementations are safe for concurrent use, and
// pass the contract tests of package storetest.
type Store interface {
	// Create stores a new game with an empty or given record, assigning an
	// ID when g.ID is empty and setting Created and Updated. When
	// g.RematchOf names a game, that game's Rematch is set to the new one
	// in the same transaction; ErrNotFound when there is no such game,
	// ErrConflict when it has a rematch already.
	Create(ctx context.Context, g *Game) error
	// Get returns the game with its record; ErrNotFound when there is none.
	Get(ctx context.Context, id string) (*Game, error)
	// List returns up to limit games, most recently updated first, as
	// summaries (no record, no seat secrets; use Get for those).
	List(ctx context.Context, limit int) ([]Summary, error)
	// Append records m.Token as move number m.Ply in one transaction and
	// returns the game after it, with m's Result, ComputerDue and Clock;
	// ErrConflict when the record's length is not m.Ply or the game is
	// over. It clears the game's claim and its pending request.
	Append(ctx context.Context, id string, m Move) (*Game, error)
	// Update makes the change u in one transaction and returns the game
	// after it: the moves from u.To on are taken back, and the game gets
	// u's Result, ComputerDue, Clock and Request, and u's Seats when they
	// are not nil (as many as the game's). ErrConflict when the
	// record's length is not u.Ply, or the game is over and u takes back
	// nothing. It clears the game's claim.
	Update(ctx context.Context, id string, u Update) (*Game, error)
	// Claim leases, for owner until now+lease, one game that is not over,
	// whose lease is free or expired, and whose seat to move is a
	// computer (ComputerDue) or whose clock's deadline has passed by the
	// store's clock; ErrNotFound when there is none.
	Claim(ctx context.Context, owner string, lease time.Duration) (*Game, error)
	// Release frees the claim of owner on game id (a no-op when owner does
	// not hold it), so that another claimer may take the game at once.
	Release(ctx context.Context, id, owner string) error
	// Watch delivers a Change for every change made from now on, by any
	// process sharing the database, until ctx ends or the store closes;
	// then the channel is closed. A receiver more than a buffer behind is
	// dropped (its channel closed) rather than slowing the store: it
	// should re-Watch and re-read what it shows. A change may be
	// delivered twice, late (after a Get that shows it already), or
	// merged with the next change of the same game; receivers re-read.
	Watch(ctx context.Context) (<-chan Change, error)
	// Count returns the number of stored games.
	Count(ctx context.Context) (int, error)
	// Ping checks that the database answers; ErrUnavailable when not.
	Ping(ctx context.Context) error
	// Close releases the database; pending Watch channels are closed.
	Close() error
}

// Pruner is a Store that deletes games nobody has changed for a while
// (matombo serve --expire). The stores of this module are Pruners; a
// Store of an embedder's own need not be.
type Pruner interface {
	// Prune deletes up to limit games whose Updated is before before,
	// the least recently updated first, with their records, and returns
	// how many it deleted. A game whose Rematch or RematchOf names a
	// deleted game keeps the name (Get of it is ErrNotFound). Deleting
	// makes no Change.
	Prune(ctx context.Context, before time.Time, limit int) (int, error)
}

// The kinds of error a store returns, wrapped in *Error; test with
// errors.Is.
var (
	// ErrNotFound: no game with that ID, or no game to claim.
	ErrNotFound = errors.New("not found")
	// ErrConflict: the ply of a change is not the record's length, the
	// game is over, a game with that ID exists already, or a game has a
	// rematch already.
	ErrConflict = errors.New("conflict")
	// ErrUnavailable: the database does not answer (down, restarting,
	// too busy or too slow), or the store is closed; retry later. A
	// server maps it to 503.
	ErrUnavailable = errors.New("database unavailable")
	// ErrGone: the database the store opened is gone for good (its file
	// was deleted or replaced): nothing more is stored until its
	// operator restarts the server, and retrying does not help. It is
	// ErrUnavailable too.
	ErrGone = fmt.Errorf("database gone, restart needed: %w", ErrUnavailable)
)

// Error is the error type of every store operation. Kind is ErrNotFound,
// ErrConflict, ErrUnavailable, ErrGone or nil; Err is the underlying cause.
type Error struct {
	Op     string // the operation: "create", "get", "append", ...
	ID     string // the game, when there is one
	Kind   error
	Detail string // what happened, for people
	Err    error
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("store: ")
	b.WriteString(e.Op)
	if e.ID != "" {
		fmt.Fprintf(&b, " game %q", e.ID)
	}
	if e.Detail != "" {
		b.WriteString(": ")
		b.WriteString(e.Detail)
	} else if e.Kind != nil {
		b.WriteString(": ")
		b.WriteString(e.Kind.Error())
	}
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap returns the kind and the cause, so errors.Is sees both.
func (e *Error) Unwrap() []error {
	var errs []error
	if e.Kind != nil {
		errs = append(errs, e.Kind)
	}
	if e.Err != nil {
		errs = append(errs, e.Err)
	}
	return errs
}

// Check returns an error naming what is wrong with g for Create: no game
// name, an empty token in the record, seats or a clock that do not agree.
// Backends call it before storing g.
func Check(g *Game) error {
	if g.Game == "" {
		return errors.New("the game's name is empty")
	}
	for i, tok := range g.Record {
		if tok == "" {
			return fmt.Errorf("token %d of the record is empty", i)
		}
	}
	if err := checkClock(g.Clock, len(g.Seats)); err != nil {
		return err
	}
	return checkRequest(g.Request, len(g.Seats), len(g.Record))
}

// CheckMove returns an error naming what is wrong with m for Append.
func CheckMove(m Move) error {
	if m.Token == "" {
		return errors.New("empty move token")
	}
	return checkClock(m.Clock, -1)
}

// CheckUpdate returns an error naming what is wrong with u for Update.
func CheckUpdate(u Update) error {
	if u.To < 0 || u.To > u.Ply {
		return fmt.Errorf("a change at ply %d cannot leave %d moves", u.Ply, u.To)
	}
	if err := checkClock(u.Clock, -1); err != nil {
		return err
	}
	return checkRequest(u.Request, -1, u.To)
}

func checkClock(c *Clock, seats int) error {
	switch {
	case c == nil:
		return nil
	case seats >= 0 && len(c.Remaining) != seats:
		return fmt.Errorf("the clock has %d banks for %d seats", len(c.Remaining), seats)
	case c.Running < 0 || c.Running > len(c.Remaining):
		return fmt.Errorf("the clock runs for seat %d of %d", c.Running, len(c.Remaining))
	case c.Initial < 0 || c.Increment < 0:
		return errors.New("the clock's times are negative")
	}
	return nil
}

func checkRequest(r *Request, seats, plies int) error {
	switch {
	case r == nil:
		return nil
	case r.Kind == "":
		return errors.New("the request has no kind")
	case r.Seat < 1 || seats >= 0 && r.Seat > seats:
		return fmt.Errorf("the request is made by seat %d", r.Seat)
	case r.To < 0 || r.To > plies:
		return fmt.Errorf("the request is for ply %d of %d", r.To, plies)
	}
	return nil
}

// CheckSeats returns an error when u changes the seats of a game of n
// seats to another number of seats.
func CheckSeats(u Update, n int) error {
	if u.Seats != nil && len(u.Seats) != n {
		return fmt.Errorf("the change has %d seats for a game of %d", len(u.Seats), n)
	}
	return nil
}

// CheckPly is the ply check of Append and Update: ErrConflict when the
// stored game, with plies moves and over or not, is not at ply, or is
// over and the change takes nothing back (to == ply).
func CheckPly(op, id string, ply, to, plies int, over bool) error {
	switch {
	case over && to == ply:
		return &Error{Op: op, ID: id, Kind: ErrConflict, Detail: fmt.Sprintf("the game is over (after %d moves)", plies)}
	case ply != plies:
		return &Error{Op: op, ID: id, Kind: ErrConflict, Detail: fmt.Sprintf("change for ply %d, but the game is at ply %d", ply, plies)}
	}
	return nil
}
