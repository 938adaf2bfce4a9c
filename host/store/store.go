// Package store keeps the games of `matombo serve`: who sits where, the
// record of tokens and the result. It has two backends behind one
// interface: SQLite (modernc.org/sqlite, pure Go) for one process, and
// PostgreSQL (pgx) for several server processes sharing one database.
//
// A stored game is its name, variants, parameters, seats and the record of
// move tokens; a state is rebuilt from its record by the caller, so the
// store knows nothing of any game's rules. The ply check of a move is
// transactional: of two moves appended for the same ply, exactly one is
// stored and the other gets ErrConflict, whichever process made them.
package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
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
}

// Game is one stored game.
type Game struct {
	ID       string          // assigned by Create when empty
	Game     string          // the game's name in the library
	Variants []string        // variants, in the order they were applied
	Params   map[string]any  // parameters set on top of the variants
	Seats    []Seat          // one per player, in player order
	Record   []string        // move tokens from the opening, Record[ply]
	Over     bool            // the game has ended
	Result   json.RawMessage // the outcome as JSON once Over, else nil
	// ComputerDue is set when the seat to move is a computer; such games
	// are handed out by Claim.
	ComputerDue bool
	Created     time.Time
	Updated     time.Time
}

// Ply is the number of moves in the record, which is the ply the next
// move must name.
func (g *Game) Ply() int { return len(g.Record) }

// Change is one appended move: the game and the ply of the move (the
// record's length before it).
type Change struct {
	ID  string
	Ply int
}

// Store keeps games. Implementations are safe for concurrent use.
type Store interface {
	// Create stores a new game with an empty or given record, assigning an
	// ID when g.ID is empty and setting Created and Updated.
	Create(ctx context.Context, g *Game) error
	// Get returns the game with its record; ErrNotFound when there is none.
	Get(ctx context.Context, id string) (*Game, error)
	// Append records token as move number ply (== len(Record) before it)
	// in one transaction and returns the game after it; ErrConflict when
	// the record's length is not ply or the game is over. over, result and
	// computerDue describe the new state. It clears the game's claim.
	Append(ctx context.Context, id string, ply int, token string, over bool, result json.RawMessage, computerDue bool) (*Game, error)
	// Claim leases one game whose ComputerDue is set, that is not over and
	// whose lease is free or expired, for owner until now+lease;
	// ErrNotFound when there is none.
	Claim(ctx context.Context, owner string, lease time.Duration) (*Game, error)
	// Watch delivers the ID and ply of every move appended from now on,
	// by any process sharing the database, until ctx ends or the store
	// closes; then the channel is closed. A receiver more than a buffer
	// behind is dropped (its channel closed) rather than slowing the
	// store: it should re-Watch and re-read what it shows. A change may
	// be delivered twice (after a reconnect) or shortly after a Get that
	// already shows it; receivers compare Ply with what they have.
	Watch(ctx context.Context) (<-chan Change, error)
	// Count returns the number of stored games.
	Count(ctx context.Context) (int, error)
	// Ping checks that the database answers; ErrUnavailable when not.
	Ping(ctx context.Context) error
	// Close releases the database; pending Watch channels are closed.
	Close() error
}

// Lister is implemented by both stores: the most recently updated games,
// for a lobby.
type Lister interface {
	// List returns up to limit games, most recently updated first, as
	// summaries (no record, no seat secrets; use Get for those).
	List(ctx context.Context, limit int) ([]Summary, error)
}

// Releaser is implemented by both stores: giving a claim back early.
type Releaser interface {
	// Release frees the claim of owner on game id (a no-op when owner does
	// not hold it), so that another claimer may take the game at once.
	Release(ctx context.Context, id, owner string) error
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

// The kinds of error a store returns, wrapped in *Error; test with
// errors.Is.
var (
	// ErrNotFound: no game with that ID, or no game to claim.
	ErrNotFound = errors.New("not found")
	// ErrConflict: the ply of a move is not the record's length, the game
	// is over, or a game with that ID exists already.
	ErrConflict = errors.New("conflict")
	// ErrUnavailable: the database does not answer (down, restarting,
	// too busy or too slow); retry later. A server maps it to 503.
	ErrUnavailable = errors.New("database unavailable")
)

// Error is the error type of every store operation. Kind is ErrNotFound,
// ErrConflict, ErrUnavailable or nil; Err is the underlying cause.
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

// Open opens (creating and migrating when needed) the store named by dsn:
// a PostgreSQL URL ("postgres://..." or "postgresql://...") or libpq
// key=value string ("host=db dbname=matombo") gives PostgreSQL; anything
// else is a SQLite file path, or ":memory:" for a private in-memory
// database.
func Open(ctx context.Context, dsn string, opts ...Option) (Store, error) {
	cfg := defaultConfig()
	for _, o := range opts {
		o(&cfg)
	}
	if IsPostgres(dsn) {
		return openPostgres(ctx, dsn, cfg)
	}
	return openSQLite(ctx, dsn, cfg)
}

var keyValueDSN = regexp.MustCompile(`^\s*[A-Za-z_]+\s*=`)

// IsPostgres reports whether Open takes dsn as a PostgreSQL connection
// string rather than a SQLite path.
func IsPostgres(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") ||
		keyValueDSN.MatchString(dsn)
}

// Option sets an option of Open.
type Option func(*config)

type config struct {
	maxConns         int32         // PostgreSQL pool size; SQLite readers
	minConns         int32         // PostgreSQL idle connections kept
	minSet           bool          // minConns given as an option
	statementTimeout time.Duration // PostgreSQL statement_timeout
	statementSet     bool          // statementTimeout given as an option: it wins over the connection string
	opTimeout        time.Duration // upper bound of one store call
	busyTimeout      time.Duration // SQLite busy_timeout
	pollInterval     time.Duration // SQLite: how often Watch looks for other processes' moves
	watchBuffer      int
}

func defaultConfig() config {
	return config{
		maxConns:         0, // backend default
		minConns:         1,
		statementTimeout: 5 * time.Second,
		opTimeout:        10 * time.Second,
		busyTimeout:      5 * time.Second,
		pollInterval:     250 * time.Millisecond,
		watchBuffer:      256,
	}
}

// WithMaxConns sets the connection pool size: PostgreSQL connections per
// process (default 10, or pool_max_conns in the connection string), SQLite
// reading connections (default 4; writes go through one at a time).
func WithMaxConns(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.maxConns = int32(n)
		}
	}
}

// WithMinConns sets how many idle PostgreSQL connections the pool keeps
// open (default 1).
func WithMinConns(n int) Option {
	return func(c *config) {
		if n >= 0 {
			c.minConns, c.minSet = int32(n), true
		}
	}
}

// WithStatementTimeout sets PostgreSQL's statement_timeout and
// lock_timeout for every connection: a statement that runs (or waits for
// a lock) longer fails with ErrUnavailable instead of holding a request.
// Without it they are those of the connection string
// ("?statement_timeout=2000", in milliseconds), else 5s.
func WithStatementTimeout(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.statementTimeout, c.statementSet = d, true
		}
	}
}

// WithOpTimeout bounds every store call, connecting included (default
// 10s); when it passes the call fails with ErrUnavailable.
func WithOpTimeout(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.opTimeout = d
		}
	}
}

// WithBusyTimeout sets SQLite's busy_timeout (default 5s): how long a
// writer waits for another process's write before ErrUnavailable.
func WithBusyTimeout(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.busyTimeout = d
		}
	}
}

// WithPollInterval sets how often a SQLite store's Watch looks for moves
// appended by other processes on the same file (default 250ms); moves of
// its own process are delivered at once.
func WithPollInterval(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.pollInterval = d
		}
	}
}

// WithWatchBuffer sets how many changes a Watch channel buffers before a
// receiver that does not keep up is dropped (default 256).
func WithWatchBuffer(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.watchBuffer = n
		}
	}
}

var keyValuePassword = regexp.MustCompile(`(password\s*=\s*)('(?:[^'\\]|\\.)*'|\S+)`)

// Redact returns dsn fit to print: a PostgreSQL connection string with its
// password replaced by "xxxxx"; a SQLite path unchanged.
func Redact(dsn string) string {
	if !IsPostgres(dsn) {
		return dsn
	}
	if u, err := url.Parse(dsn); err == nil && (u.Scheme == "postgres" || u.Scheme == "postgresql") {
		if _, ok := u.User.Password(); ok {
			u.User = url.UserPassword(u.User.Username(), "xxxxx")
		}
		q := u.Query()
		if q.Has("password") {
			q.Set("password", "xxxxx")
			u.RawQuery = q.Encode()
		}
		return u.String()
	}
	if strings.Contains(dsn, "://") { // a URL that does not parse: keep only its scheme
		scheme, _, _ := strings.Cut(dsn, "://")
		return scheme + "://..."
	}
	return keyValuePassword.ReplaceAllString(dsn, "${1}xxxxx")
}
