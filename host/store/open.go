package store

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
)

// Opener opens a store of one backend from a data source name, with the
// options given to Open.
type Opener func(ctx context.Context, dsn string, cfg Config) (Store, error)

// registry holds the backends linked into the program, by scheme. It is
// written only by Register, from the backends' init functions.
var registry = struct {
	sync.RWMutex
	m map[string]Opener
}{m: map[string]Opener{"memory": openMemory}}

// Register makes Open use open for the data source names of scheme
// ("postgres" for "postgres://..."). Backend packages call it from their
// init function, so importing a backend is what links it in:
//
//	import _ "github.com/matombo/matombo/host/store/sqlite"
//
// Register panics when scheme is registered already.
func Register(scheme string, open Opener) {
	registry.Lock()
	defer registry.Unlock()
	if _, dup := registry.m[scheme]; dup {
		panic("store: Register called twice for scheme " + scheme)
	}
	registry.m[scheme] = open
}

// Schemes returns the schemes of the backends linked into the program.
func Schemes() []string {
	registry.RLock()
	defer registry.RUnlock()
	var out []string
	for s := range registry.m {
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

var (
	urlScheme   = regexp.MustCompile(`^([a-zA-Z][a-zA-Z0-9+.-]*):`)
	keyValueDSN = regexp.MustCompile(`^\s*[A-Za-z_]+\s*=`)
)

// Scheme returns the backend Open uses for dsn: the scheme of a URL
// ("postgres" for "postgres://..." and "postgresql://...", "sqlite" for
// "sqlite://games.db", "memory" for "memory:"); "postgres" for a libpq
// key=value string ("host=db dbname=matombo"); else "sqlite", for a file
// path or ":memory:".
func Scheme(dsn string) string {
	if m := urlScheme.FindStringSubmatch(dsn); m != nil && (m[1] == "memory" || strings.HasPrefix(dsn[len(m[0]):], "//")) {
		s := strings.ToLower(m[1])
		if s == "postgresql" {
			s = "postgres"
		}
		return s
	}
	if keyValueDSN.MatchString(dsn) {
		return "postgres"
	}
	return "sqlite"
}

// Open opens (creating and migrating when needed) the store named by dsn
// with the backend Scheme(dsn) names, which must be linked into the
// program (see Register): a PostgreSQL URL ("postgres://...") or libpq
// key=value string gives PostgreSQL; "memory:" a store in memory (always
// linked); anything else is a SQLite file path, or ":memory:" for a
// private in-memory SQLite database.
func Open(ctx context.Context, dsn string, opts ...Option) (Store, error) {
	scheme := Scheme(dsn)
	registry.RLock()
	open, ok := registry.m[scheme]
	registry.RUnlock()
	if !ok {
		detail := fmt.Sprintf("no %s backend is linked into this program (linked: %s)", scheme, strings.Join(Schemes(), ", "))
		switch scheme {
		case "sqlite", "postgres":
			detail += fmt.Sprintf("; import _ \"github.com/matombo/matombo/host/store/%s\"", scheme)
		}
		return nil, &Error{Op: "open", Detail: detail}
	}
	return open(ctx, dsn, NewConfig(opts...))
}

// Config is what the options of Open set, for backends to read. A zero
// value means the backend's default.
type Config struct {
	// MaxConns: PostgreSQL connections per process (default 10, or
	// pool_max_conns in the connection string); SQLite reading
	// connections (default 4).
	MaxConns int
	// MinConns: idle PostgreSQL connections kept open; -1 for the
	// connection string's pool_min_conns, else 1.
	MinConns int
	// StatementTimeout: PostgreSQL's statement_timeout and lock_timeout;
	// 0 for the connection string's, else 5s.
	StatementTimeout time.Duration
	// OpTimeout bounds every store call, connecting included.
	OpTimeout time.Duration
	// BusyTimeout: SQLite's busy_timeout.
	BusyTimeout time.Duration
	// PollInterval: how often a SQLite store looks for the changes of
	// other processes on its file.
	PollInterval time.Duration
	// WatchBuffer: how many changes a Watch channel buffers.
	WatchBuffer int
}

// NewConfig returns the defaults with opts applied.
func NewConfig(opts ...Option) Config {
	c := Config{
		MinConns:     -1,
		OpTimeout:    10 * time.Second,
		BusyTimeout:  5 * time.Second,
		PollInterval: 250 * time.Millisecond,
		WatchBuffer:  256,
	}
	for _, o := range opts {
		o(&c)
	}
	return c
}

// WithTimeout bounds one store call by the configured operation timeout.
func (c Config) WithTimeout(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, c.OpTimeout)
}

// Option sets an option of Open.
type Option func(*Config)

// WithMaxConns sets the connection pool size: PostgreSQL connections per
// process (default 10, or pool_max_conns in the connection string), SQLite
// reading connections (default 4; writes go through one at a time).
func WithMaxConns(n int) Option {
	return func(c *Config) {
		if n > 0 {
			c.MaxConns = n
		}
	}
}

// WithMinConns sets how many idle PostgreSQL connections the pool keeps
// open (default 1).
func WithMinConns(n int) Option {
	return func(c *Config) {
		if n >= 0 {
			c.MinConns = n
		}
	}
}

// WithStatementTimeout sets PostgreSQL's statement_timeout and
// lock_timeout for every connection: a statement that runs (or waits for
// a lock) longer fails with ErrUnavailable instead of holding a request.
// Without it they are those of the connection string
// ("?statement_timeout=2000", in milliseconds), else 5s.
func WithStatementTimeout(d time.Duration) Option {
	return func(c *Config) {
		if d > 0 {
			c.StatementTimeout = d
		}
	}
}

// WithOpTimeout bounds every store call, connecting included (default
// 10s); when it passes the call fails with ErrUnavailable.
func WithOpTimeout(d time.Duration) Option {
	return func(c *Config) {
		if d > 0 {
			c.OpTimeout = d
		}
	}
}

// WithBusyTimeout sets SQLite's busy_timeout (default 5s): how long a
// writer waits for another process's write before ErrUnavailable.
func WithBusyTimeout(d time.Duration) Option {
	return func(c *Config) {
		if d > 0 {
			c.BusyTimeout = d
		}
	}
}

// WithPollInterval sets how often a SQLite store's Watch looks for changes
// made by other processes on the same file (default 250ms); changes of
// its own process are delivered at once.
func WithPollInterval(d time.Duration) Option {
	return func(c *Config) {
		if d > 0 {
			c.PollInterval = d
		}
	}
}

// WithWatchBuffer sets how many changes a Watch channel buffers before a
// receiver that does not keep up is dropped (default 256).
func WithWatchBuffer(n int) Option {
	return func(c *Config) {
		if n > 0 {
			c.WatchBuffer = n
		}
	}
}

var keyValuePassword = regexp.MustCompile(`(password\s*=\s*)('(?:[^'\\]|\\.)*'|\S+)`)

// Redact returns dsn fit to print: a URL's or key=value string's password
// replaced by "xxxxx"; a file path unchanged.
func Redact(dsn string) string {
	if m := urlScheme.FindStringSubmatch(dsn); m != nil && strings.HasPrefix(dsn[len(m[0]):], "//") {
		u, err := url.Parse(dsn)
		if err != nil { // a URL that does not parse: keep only its scheme
			return m[1] + "://..."
		}
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
	if keyValueDSN.MatchString(dsn) {
		return keyValuePassword.ReplaceAllString(dsn, "${1}xxxxx")
	}
	return dsn
}

// NewID returns a fresh game ID: 64 random bits in hex.
func NewID() string { return randomHex(8) }

// NewSecret returns a fresh seat secret: 128 random bits in hex.
func NewSecret() string { return randomHex(16) }

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
	return hex.EncodeToString(b)
}
