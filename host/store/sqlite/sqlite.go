// Package sqlite is the SQLite backend of package store (modernc.org/sqlite,
// pure Go): one server process, or a few on one machine sharing a file.
// Importing it registers it with store.Open for file paths, ":memory:"
// and "sqlite://" names; Open opens one directly.
package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/matombo/matombo/host/store"
	"github.com/matombo/matombo/host/store/internal/hub"
	"github.com/matombo/matombo/host/store/internal/sqlbase"
)

func init() { store.Register("sqlite", open) }

// Open opens (creating and migrating when needed) the SQLite database at
// path, or a private in-memory one for ":memory:".
func Open(ctx context.Context, path string, opts ...store.Option) (store.Store, error) {
	return open(ctx, path, store.NewConfig(opts...))
}

func open(ctx context.Context, dsn string, cfg store.Config) (store.Store, error) {
	if rest, ok := strings.CutPrefix(dsn, "sqlite://"); ok {
		dsn = rest
	}
	return openSQLite(ctx, dsn, cfg)
}

// sqliteStore keeps games in a SQLite file (or in memory).
//
// Durability: WAL journal, synchronous=FULL (every commit's WAL frames are
// fsynced before Append returns, so an acknowledged move survives a kill -9
// and a power cut), foreign keys on, busy_timeout for other processes on
// the same file. Writes go through one connection opened with BEGIN
// IMMEDIATE, so a transaction never has to upgrade a read lock (the
// upgrade is what can fail with SQLITE_BUSY at once), and one writer
// goroutine takes the writes waiting into one transaction (group commit:
// one fsync for all); reads use a pool and each read is one statement,
// hence one consistent snapshot.
type sqliteStore struct {
	cfg    store.Config
	path   string
	memory bool
	wdb    *sql.DB // one connection, BEGIN IMMEDIATE
	rdb    *sql.DB // readers; the same as wdb in memory

	writes  chan *writeReq // to the writer
	stopped chan struct{}  // closed when the store closes
	writer  chan struct{}  // closed when the writer has stopped
	outage  outage         // whether the database takes writes now
	file    os.FileInfo    // the database file as opened; nil in memory

	hub  *hub.Hub[store.Change]
	kick chan struct{} // wakes the poller after a local change
	stop context.CancelFunc
	done chan struct{} // closed when the poller has stopped

	closeOnce sync.Once
	closeErr  error
}

func openSQLite(ctx context.Context, path string, cfg store.Config) (store.Store, error) {
	if path == "" {
		return nil, &store.Error{Op: "open", Detail: "empty database path: give a SQLite file path, \":memory:\", or a postgres:// URL"}
	}
	if strings.ContainsRune(path, '?') {
		return nil, &store.Error{Op: "open", Detail: fmt.Sprintf("SQLite path %q contains '?', which is not allowed", path)}
	}
	memory := path == ":memory:"
	if !memory {
		if why := unwritable(path); why != "" {
			return nil, &store.Error{Op: "open", Kind: store.ErrUnavailable, Detail: fmt.Sprintf("SQLite database %s: %s", path, why)}
		}
		if err := checkSQLiteOwner(ctx, path, cfg.BusyTimeout); err != nil {
			return nil, err
		}
	}
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", cfg.BusyTimeout.Milliseconds()))
	q.Add("_pragma", "foreign_keys(1)")
	if !memory {
		q.Add("_pragma", "journal_mode(WAL)")
		q.Add("_pragma", "synchronous(FULL)")
	}
	readDSN := path + "?" + q.Encode()
	q.Set("_txlock", "immediate")
	writeDSN := path + "?" + q.Encode()

	s := &sqliteStore{cfg: cfg, path: path, memory: memory, hub: hub.New[store.Change](cfg.WatchBuffer), kick: make(chan struct{}, 1)}
	var err error
	if s.wdb, err = sql.Open("sqlite", writeDSN); err != nil {
		return nil, &store.Error{Op: "open", Detail: path, Err: err}
	}
	s.wdb.SetMaxOpenConns(1)
	s.wdb.SetMaxIdleConns(1)
	s.wdb.SetConnMaxLifetime(0) // in memory, closing the connection would lose the database
	s.wdb.SetConnMaxIdleTime(0)
	if memory {
		s.rdb = s.wdb
	} else {
		if s.rdb, err = sql.Open("sqlite", readDSN); err != nil {
			s.wdb.Close()
			return nil, &store.Error{Op: "open", Detail: path, Err: err}
		}
		n := cfg.MaxConns
		if n <= 0 {
			n = 4
		}
		s.rdb.SetMaxOpenConns(n)
		s.rdb.SetMaxIdleConns(n)
	}
	if err := s.migrateWaiting(ctx); err != nil {
		s.closeDBs()
		return nil, s.openError(err)
	}
	last, err := s.lastSeq(ctx)
	if err != nil {
		s.closeDBs()
		return nil, s.openError(s.fail(ctx, "open", "", err))
	}
	if !memory {
		if s.file, err = os.Stat(path); err != nil {
			s.closeDBs()
			return nil, &store.Error{Op: "open", Detail: fmt.Sprintf("SQLite database %s", path), Err: err}
		}
	}
	pctx, stop := context.WithCancel(context.Background())
	s.stop, s.done = stop, make(chan struct{})
	s.writes, s.stopped, s.writer = make(chan *writeReq), make(chan struct{}), make(chan struct{})
	go s.writeLoop()
	go s.poll(pctx, last)
	return s, nil
}

// openError names the database file in an error of Open.
func (s *sqliteStore) openError(err error) error {
	var se *store.Error
	if errors.As(err, &se) && se.Detail == "" {
		se.Op, se.Detail = "open", fmt.Sprintf("SQLite database %s", s.path)
		if se.Kind == store.ErrUnavailable {
			se.Detail += " (" + se.Kind.Error() + ")"
		}
	}
	return err
}

func (s *sqliteStore) closeDBs() {
	s.wdb.Close()
	if s.rdb != s.wdb {
		s.rdb.Close()
	}
}

// migrateWaiting is migrate, tried again for up to the busy timeout while
// another process holds the file: switching a new file to WAL takes it for
// itself, and SQLite refuses that at once (SQLITE_BUSY) rather than
// waiting, whatever busy_timeout says.
func (s *sqliteStore) migrateWaiting(ctx context.Context) error {
	return retryBusy(ctx, s.cfg.BusyTimeout, func() error { return s.migrate(ctx) })
}

// retryBusy runs f until it returns something other than SQLite's busy
// error, with pauses growing to 200ms, for up to timeout or until ctx
// ends; it returns f's last error.
func retryBusy(ctx context.Context, timeout time.Duration, f func() error) error {
	deadline := time.Now().Add(timeout)
	for pause := 5 * time.Millisecond; ; pause = min(2*pause, 200*time.Millisecond) {
		err := f()
		if err == nil || !busy(err) || !time.Now().Add(pause).Before(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(pause):
		}
	}
}

// busy reports whether err is SQLite's "another connection holds the lock".
func busy(err error) bool {
	var le *sqlite.Error
	if !errors.As(err, &le) {
		return false
	}
	code := le.Code() & 0xff
	return code == sqlite3.SQLITE_BUSY || code == sqlite3.SQLITE_LOCKED
}

// migrate brings the schema to schemaVersion, each step in a transaction
// that holds the write lock, so processes opening one file at once apply
// each step once.
func (s *sqliteStore) migrate(ctx context.Context) error {
	parent := ctx
	ctx, cancel := s.cfg.WithTimeout(ctx)
	defer cancel()
	if _, err := s.wdb.ExecContext(ctx, sqlbase.SQLite.Expand(sqlbase.MigrationsTable)); err != nil {
		return s.fail(parent, "migrate", "", err)
	}
	for _, m := range sqlbase.Migrations {
		err := s.tx(ctx, func(tx *sql.Tx) error {
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM schema_migrations WHERE version = ?`, m.Version).Scan(&n); err != nil {
				return err
			}
			if n > 0 {
				return nil
			}
			for _, stmt := range m.Statements(sqlbase.SQLite) {
				if _, err := tx.ExecContext(ctx, stmt); err != nil {
					return fmt.Errorf("migration %d (%s): %w", m.Version, m.Name, err)
				}
			}
			_, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, name, applied) VALUES (?, ?, ?)`,
				m.Version, m.Name, time.Now().UnixMicro())
			return err
		})
		if err != nil {
			return s.fail(parent, "migrate", "", err)
		}
	}
	var newest sql.NullInt64
	if err := s.wdb.QueryRowContext(ctx, `SELECT max(version) FROM schema_migrations`).Scan(&newest); err != nil {
		return s.fail(parent, "migrate", "", err)
	}
	if int(newest.Int64) > sqlbase.SchemaVersion() {
		return &store.Error{Op: "open", Detail: fmt.Sprintf("the database %s has schema version %d, newer than this program's %d; use a newer matombo", s.path, newest.Int64, sqlbase.SchemaVersion())}
	}
	return nil
}

// tx runs f in a write transaction (BEGIN IMMEDIATE) and commits it.
func (s *sqliteStore) tx(ctx context.Context, f func(*sql.Tx) error) error {
	tx, err := s.wdb.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := f(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}

// writeReq is one write waiting for the writer.
type writeReq struct {
	ctx  context.Context
	f    func(context.Context, *sql.Tx) error
	done chan error
}

// retryOutage is how often, at most, a write tries again a database that
// failed the last one (or every busy timeout, when shorter): the writes in
// between fail at once.
const retryOutage = time.Second

// maxBatch bounds how many writes share one transaction.
const maxBatch = 128

// write runs f in a write transaction, possibly shared with other writes
// of this process (group commit: one fsync for all of them). Each write
// runs in a savepoint of its own, so one that fails leaves the others'
// changes; write returns once the transaction holding f's changes has
// committed, or with f's error.
//
// During an outage (see outage) write fails at once with the reason of the
// last failure, rather than waiting for the database in turn.
func (s *sqliteStore) write(ctx context.Context, f func(context.Context, *sql.Tx) error) error {
	if err := s.outage.check(time.Now()); err != nil {
		return err
	}
	req := &writeReq{ctx: ctx, f: f, done: make(chan error, 1)}
	select {
	case s.writes <- req:
	case <-ctx.Done():
		return ctx.Err()
	case <-s.stopped:
		return &store.Error{Op: "write", Kind: store.ErrUnavailable, Detail: "the store is closed"}
	}
	return <-req.done // the writer always answers, soon: each write has ctx's deadline
}

// writeLoop is the writer: it takes every write waiting (up to maxBatch)
// into one transaction, and commits.
func (s *sqliteStore) writeLoop() {
	defer close(s.writer)
	for {
		var batch []*writeReq
		select {
		case req := <-s.writes:
			batch = append(batch, req)
		case <-s.stopped:
			return
		}
	more:
		for len(batch) < maxBatch {
			select {
			case req := <-s.writes:
				batch = append(batch, req)
			default:
				break more
			}
		}
		if err := s.commit(batch); err != nil {
			s.refuseWaiting(err)
		}
	}
}

// refuseWaiting answers err to the writes waiting for the writer now: they
// waited through the failure of the database already.
func (s *sqliteStore) refuseWaiting(err error) {
	for {
		select {
		case req := <-s.writes:
			req.done <- err
		default:
			return
		}
	}
}

// commit runs a batch of writes in one transaction and answers each. It
// returns the error of an outage it found (see outage), else nil.
func (s *sqliteStore) commit(batch []*writeReq) (outage error) {
	errs := make([]error, len(batch))
	answer := func(shared error) {
		if shared != nil && (unavailable(shared) || errors.Is(shared, context.DeadlineExceeded)) {
			outage = s.fail(context.Background(), "write", "", shared)
		}
		for i, r := range batch {
			if errs[i] == nil {
				errs[i] = shared
			} else if outage == nil && unavailable(errs[i]) {
				outage = s.fail(context.Background(), "write", "", errs[i])
			}
			r.done <- errs[i]
		}
		if outage != nil {
			s.outage.failed(outage, time.Now(), min(s.cfg.BusyTimeout, retryOutage))
		} else if shared == nil {
			s.outage.ok()
		}
	}
	if err := s.checkFile(); err != nil {
		answer(err)
		return err
	}
	ctx, cancel := s.cfg.WithTimeout(context.Background())
	defer cancel()
	tx, err := s.wdb.BeginTx(ctx, nil)
	if err != nil {
		answer(err)
		return outage
	}
	ok := 0
	for i, r := range batch {
		if err := r.ctx.Err(); err != nil {
			errs[i] = err
			continue
		}
		if _, err := tx.ExecContext(ctx, "SAVEPOINT w"); err != nil {
			errs[i] = err
			continue
		}
		if err := r.f(r.ctx, tx); err != nil {
			errs[i] = err
			if _, err := tx.ExecContext(ctx, "ROLLBACK TO w"); err != nil {
				_ = tx.Rollback()
				answer(err)
				return outage
			}
		} else {
			ok++
		}
		if _, err := tx.ExecContext(ctx, "RELEASE w"); err != nil {
			_ = tx.Rollback()
			answer(err)
			return outage
		}
	}
	if ok == 0 {
		answer(tx.Rollback())
		return outage
	}
	if err := tx.Commit(); err != nil {
		answer(err)
		return outage
	}
	// Committed to the file opened: if that file is no longer the path's,
	// nobody will read the changes again, so they are not acknowledged.
	if err := s.checkFile(); err != nil {
		answer(err)
		return err
	}
	answer(nil)
	return outage
}

// checkFile returns an error of kind ErrUnavailable, for good, once the
// database file is deleted or replaced.
func (s *sqliteStore) checkFile() error {
	if s.file == nil {
		return nil
	}
	if err := s.outage.lostErr(); err != nil {
		return err
	}
	if err := sameFile(s.path, s.file); err != nil {
		s.outage.lose(err)
		return err
	}
	return nil
}

// fail wraps err from operation op into an *store.Error with its kind.
func (s *sqliteStore) fail(parent context.Context, op, id string, err error) error {
	var se *store.Error
	if errors.As(err, &se) {
		return err
	}
	if errors.Is(err, sql.ErrNoRows) {
		return &store.Error{Op: op, ID: id, Kind: store.ErrNotFound}
	}
	if e, ok := sqlbase.CtxError(parent, op, id, err); ok {
		return e
	}
	// A file deleted under the store: a new reading connection opens an
	// empty database in its place, whose errors ("no such table") are
	// not the cause.
	if lost := s.checkFile(); lost != nil {
		var le *store.Error
		errors.As(lost, &le)
		return &store.Error{Op: op, ID: id, Kind: le.Kind, Detail: le.Detail, Err: err}
	}
	var le *sqlite.Error
	if errors.As(err, &le) {
		switch le.Code() & 0xff {
		case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
			return &store.Error{Op: op, ID: id, Kind: store.ErrUnavailable, Detail: "the database file is locked by another writer", Err: err}
		case sqlite3.SQLITE_IOERR, sqlite3.SQLITE_FULL, sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_READONLY:
			return &store.Error{Op: op, ID: id, Kind: store.ErrUnavailable, Err: err}
		case sqlite3.SQLITE_CONSTRAINT:
			if le.Code() == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY || le.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE {
				return &store.Error{Op: op, ID: id, Kind: store.ErrConflict, Err: err}
			}
		}
	}
	if errors.Is(err, sql.ErrConnDone) || s.isClosed() { // database/sql's "database is closed" has no exported error
		return &store.Error{Op: op, ID: id, Kind: store.ErrUnavailable, Detail: "the store is closed", Err: err}
	}
	return &store.Error{Op: op, ID: id, Err: err}
}

// bump is the SQL that notes a change of a game: its time, its claim
// cleared, and the next seq, which other processes poll.
const bump = `updated = ?, lease_owner = NULL, lease_until = NULL, seq = (SELECT coalesce(max(seq), 0) + 1 FROM games)`

func (s *sqliteStore) Create(ctx context.Context, g *store.Game) error {
	parent := ctx
	ctx, cancel := s.cfg.WithTimeout(ctx)
	defer cancel()
	c, err := sqlbase.Encode(g)
	if err != nil {
		return &store.Error{Op: "create", ID: g.ID, Detail: err.Error()}
	}
	id := g.ID
	if id == "" {
		id = store.NewID()
	}
	now := time.Now().UTC().Truncate(time.Microsecond)
	err = s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO games
			(id, game, fingerprint, variants, params, seats, plies, over, result, computer_due, clock, deadline, request,
			 rematch_of, created, updated, seq)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, (SELECT coalesce(max(seq), 0) + 1 FROM games))`,
			id, g.Game, g.Fingerprint, string(c.Variants), string(c.Params), string(c.Seats), len(g.Record),
			g.Over(), sqlbase.Nullable(c.Result), g.ComputerDue, sqlbase.Nullable(c.Clock), micros(sqlbase.Deadline(g.Clock, g.Over())),
			sqlbase.Nullable(c.Request), nullText(g.RematchOf), now.UnixMicro(), now.UnixMicro()); err != nil {
			return err
		}
		for ply, tok := range g.Record {
			if _, err := tx.ExecContext(ctx, `INSERT INTO moves (game_id, ply, token, created) VALUES (?, ?, ?, ?)`,
				id, ply, tok, now.UnixMicro()); err != nil {
				return err
			}
		}
		if g.RematchOf == "" {
			return nil
		}
		res, err := tx.ExecContext(ctx, `UPDATE games SET rematch = ?, `+bump+` WHERE id = ? AND rematch IS NULL`,
			id, now.UnixMicro(), g.RematchOf)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 1 {
			return err
		}
		var rematch string
		if err := tx.QueryRowContext(ctx, `SELECT coalesce(rematch, '') FROM games WHERE id = ?`, g.RematchOf).Scan(&rematch); err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		return sqlbase.RematchConflict(id, g.RematchOf, rematch)
	})
	if err != nil {
		err = s.fail(parent, "create", id, err)
		var se *store.Error
		if errors.As(err, &se) && se.Kind == store.ErrConflict && se.Detail == "" {
			return &store.Error{Op: "create", ID: id, Kind: store.ErrConflict, Detail: "a game with this ID exists already"}
		}
		return err
	}
	g.ID, g.Created, g.Updated, g.Rematch = id, now, now, ""
	if g.Record == nil {
		g.Record = []string{}
	}
	s.wake()
	return nil
}

// micros is a nullable time column's value.
func micros(t *time.Time) any {
	if t == nil {
		return nil
	}
	return t.UnixMicro()
}

func nullText(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// gameQuery reads a game and its record in one statement, hence one
// consistent snapshot.
const sqliteGameQuery = `SELECT id, game, fingerprint, variants, params, seats, result, computer_due, clock, request,
	coalesce(rematch_of, ''), coalesce(rematch, ''), created, updated,
	(SELECT json_group_array(token) FROM (SELECT token FROM moves WHERE game_id = games.id ORDER BY ply))
	FROM games WHERE id = ?`

type queryer interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func sqliteGet(ctx context.Context, q queryer, id string) (*store.Game, error) {
	var (
		g                               store.Game
		variants, params, seats, record string
		result, clock, request          sql.NullString
		created, updated                int64
	)
	err := q.QueryRowContext(ctx, sqliteGameQuery, id).Scan(&g.ID, &g.Game, &g.Fingerprint, &variants, &params, &seats,
		&result, &g.ComputerDue, &clock, &request, &g.RematchOf, &g.Rematch, &created, &updated, &record)
	if err != nil {
		return nil, err
	}
	c := sqlbase.Columns{Variants: []byte(variants), Params: []byte(params), Seats: []byte(seats),
		Result: nullBytes(result), Clock: nullBytes(clock), Request: nullBytes(request)}
	if err := sqlbase.Decode(&g, c, []byte(record)); err != nil {
		return nil, err
	}
	g.Created, g.Updated = time.UnixMicro(created).UTC(), time.UnixMicro(updated).UTC()
	return &g, nil
}

func nullBytes(s sql.NullString) []byte {
	if !s.Valid {
		return nil
	}
	return []byte(s.String)
}

func (s *sqliteStore) Get(ctx context.Context, id string) (*store.Game, error) {
	parent := ctx
	ctx, cancel := s.cfg.WithTimeout(ctx)
	defer cancel()
	g, err := sqliteGet(ctx, s.rdb, id)
	if err != nil {
		return nil, s.fail(parent, "get", id, err)
	}
	return g, nil
}

func (s *sqliteStore) Append(ctx context.Context, id string, m store.Move) (*store.Game, error) {
	if err := store.CheckMove(m); err != nil {
		return nil, &store.Error{Op: "append", ID: id, Detail: err.Error()}
	}
	return s.change(ctx, "append", id, m.Ply, m.Ply, func(ctx context.Context, tx *sql.Tx, now int64) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO moves (game_id, ply, token, created) VALUES (?, ?, ?, ?)`, id, m.Ply, m.Token, now)
		if err != nil {
			return err
		}
		return s.setState(ctx, tx, id, now, m.Ply+1, m.Result, m.ComputerDue, m.Clock, nil)
	})
}

func (s *sqliteStore) Update(ctx context.Context, id string, u store.Update) (*store.Game, error) {
	if err := store.CheckUpdate(u); err != nil {
		return nil, &store.Error{Op: "update", ID: id, Detail: err.Error()}
	}
	return s.change(ctx, "update", id, u.Ply, u.To, func(ctx context.Context, tx *sql.Tx, now int64) error {
		if u.To < u.Ply {
			if _, err := tx.ExecContext(ctx, `DELETE FROM moves WHERE game_id = ? AND ply >= ?`, id, u.To); err != nil {
				return err
			}
		}
		if u.Seats != nil {
			var stored string
			if err := tx.QueryRowContext(ctx, `SELECT seats FROM games WHERE id = ?`, id).Scan(&stored); err != nil {
				return err
			}
			seats, err := sqlbase.ChangeSeats(id, []byte(stored), u)
			if err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `UPDATE games SET seats = ? WHERE id = ?`, string(seats), id); err != nil {
				return err
			}
		}
		return s.setState(ctx, tx, id, now, u.To, u.Result, u.ComputerDue, u.Clock, u.Request)
	})
}

// change runs one change of game id decided at ply, leaving to moves, in
// a write transaction after the ply check, and returns the game after it.
func (s *sqliteStore) change(ctx context.Context, op, id string, ply, to int, f func(context.Context, *sql.Tx, int64) error) (*store.Game, error) {
	parent := ctx
	ctx, cancel := s.cfg.WithTimeout(ctx)
	defer cancel()
	var g *store.Game
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var plies int
		var isOver bool
		if err := tx.QueryRowContext(ctx, `SELECT plies, over FROM games WHERE id = ?`, id).Scan(&plies, &isOver); err != nil {
			return err
		}
		if err := store.CheckPly(op, id, ply, to, plies, isOver); err != nil {
			return err
		}
		if err := f(ctx, tx, time.Now().UnixMicro()); err != nil {
			return err
		}
		var err error
		g, err = sqliteGet(ctx, tx, id)
		return err
	})
	if err != nil {
		return nil, s.fail(parent, op, id, err)
	}
	s.wake()
	return g, nil
}

// setState sets what a move or an update leaves of a game.
func (s *sqliteStore) setState(ctx context.Context, tx *sql.Tx, id string, now int64, plies int,
	r *store.Result, computerDue bool, c *store.Clock, q *store.Request) error {
	result, clock, request, err := sqlbase.EncodeState(r, c, q)
	if err != nil {
		return &store.Error{Op: "write", ID: id, Detail: err.Error()}
	}
	_, err = tx.ExecContext(ctx, `UPDATE games SET plies = ?, over = ?, result = ?, computer_due = ?, clock = ?, deadline = ?,
		request = ?, `+bump+` WHERE id = ?`,
		plies, r != nil, sqlbase.Nullable(result), computerDue, sqlbase.Nullable(clock), micros(sqlbase.Deadline(c, r != nil)),
		sqlbase.Nullable(request), now, id)
	return err
}

func (s *sqliteStore) Claim(ctx context.Context, owner string, lease time.Duration) (*store.Game, error) {
	parent := ctx
	ctx, cancel := s.cfg.WithTimeout(ctx)
	defer cancel()
	var g *store.Game
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		now := time.Now()
		var id string
		if err := tx.QueryRowContext(ctx, `SELECT id FROM games
			WHERE over = 0 AND (computer_due = 1 OR deadline <= ?) AND (lease_until IS NULL OR lease_until <= ?)
			ORDER BY updated LIMIT 1`, now.UnixMicro(), now.UnixMicro()).Scan(&id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE games SET lease_owner = ?, lease_until = ? WHERE id = ?`,
			owner, now.Add(lease).UnixMicro(), id); err != nil {
			return err
		}
		var err error
		g, err = sqliteGet(ctx, tx, id)
		return err
	})
	if err != nil {
		err = s.fail(parent, "claim", "", err)
		if errors.Is(err, store.ErrNotFound) {
			return nil, &store.Error{Op: "claim", Kind: store.ErrNotFound, Detail: "no game waits for a computer move or a clock"}
		}
		return nil, err
	}
	return g, nil
}

func (s *sqliteStore) Release(ctx context.Context, id, owner string) error {
	parent := ctx
	ctx, cancel := s.cfg.WithTimeout(ctx)
	defer cancel()
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE games SET lease_owner = NULL, lease_until = NULL
			WHERE id = ? AND lease_owner = ?`, id, owner)
		return err
	})
	if err != nil {
		return s.fail(parent, "release", id, err)
	}
	return nil
}

func (s *sqliteStore) List(ctx context.Context, limit int) ([]store.Summary, error) {
	parent := ctx
	ctx, cancel := s.cfg.WithTimeout(ctx)
	defer cancel()
	rows, err := s.rdb.QueryContext(ctx, `SELECT id, game, variants, seats, plies, over, computer_due, created, updated
		FROM games ORDER BY updated DESC LIMIT ?`, max(limit, 0))
	if err != nil {
		return nil, s.fail(parent, "list", "", err)
	}
	defer rows.Close()
	var out []store.Summary
	for rows.Next() {
		var (
			sm               store.Summary
			variants, seats  string
			created, updated int64
		)
		if err := rows.Scan(&sm.ID, &sm.Game, &variants, &seats, &sm.Plies, &sm.Over, &sm.ComputerDue, &created, &updated); err != nil {
			return nil, s.fail(parent, "list", "", err)
		}
		if err := json.Unmarshal([]byte(variants), &sm.Variants); err != nil {
			return nil, s.fail(parent, "list", sm.ID, err)
		}
		if sm.Seats, err = sqlbase.SeatPlayers([]byte(seats)); err != nil {
			return nil, s.fail(parent, "list", sm.ID, err)
		}
		sm.Created, sm.Updated = time.UnixMicro(created).UTC(), time.UnixMicro(updated).UTC()
		out = append(out, sm)
	}
	if err := rows.Err(); err != nil {
		return nil, s.fail(parent, "list", "", err)
	}
	return out, nil
}

func (s *sqliteStore) Count(ctx context.Context) (int, error) {
	parent := ctx
	ctx, cancel := s.cfg.WithTimeout(ctx)
	defer cancel()
	var n int
	if err := s.rdb.QueryRowContext(ctx, `SELECT count(*) FROM games`).Scan(&n); err != nil {
		return 0, s.fail(parent, "count", "", err)
	}
	return n, nil
}

// Prune implements store.Pruner. The moves of a deleted game go with it
// (the schema's ON DELETE CASCADE, foreign keys being on): one statement,
// so that the games whose moves are deleted are the games deleted, even
// among games updated in the same microsecond.
func (s *sqliteStore) Prune(ctx context.Context, before time.Time, limit int) (int, error) {
	parent := ctx
	ctx, cancel := s.cfg.WithTimeout(ctx)
	defer cancel()
	var n int64
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM games WHERE id IN (
			SELECT id FROM games WHERE updated < ? ORDER BY updated LIMIT ?)`, before.UnixMicro(), max(limit, 0))
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	if err != nil {
		return 0, s.fail(parent, "prune", "", err)
	}
	return int(n), nil
}

func (s *sqliteStore) Ping(ctx context.Context) error {
	parent := ctx
	ctx, cancel := s.cfg.WithTimeout(ctx)
	defer cancel()
	var n int
	if err := s.rdb.QueryRowContext(ctx, `SELECT count(*) FROM schema_migrations`).Scan(&n); err != nil {
		return s.fail(parent, "ping", "", err)
	}
	return s.checkFile()
}

func (s *sqliteStore) Watch(ctx context.Context) (<-chan store.Change, error) {
	ch, ok := s.hub.Subscribe(ctx)
	if !ok {
		return nil, &store.Error{Op: "watch", Kind: store.ErrUnavailable, Detail: "the store is closed"}
	}
	return ch, nil
}

// wake makes the poller look for new changes now.
func (s *sqliteStore) wake() {
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

func (s *sqliteStore) lastSeq(ctx context.Context) (int64, error) {
	var last sql.NullInt64
	err := s.rdb.QueryRowContext(ctx, `SELECT max(seq) FROM games`).Scan(&last)
	return last.Int64, err
}

// poll publishes the changes committed after seq last, in commit order
// (SQLite serialises writers, and every change sets its game's seq to one
// more than the largest), whenever a local change wakes it and every poll
// interval for the changes of other processes. Several changes of one
// game between two polls are delivered as one.
func (s *sqliteStore) poll(ctx context.Context, last int64) {
	defer close(s.done)
	tick := time.NewTicker(s.cfg.PollInterval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.kick:
		case <-tick.C:
		}
		for {
			n, next, err := s.pollOnce(ctx, last)
			if err != nil {
				break // the database is busy or closing: try again later
			}
			last = next
			if n < pollBatch {
				break
			}
		}
	}
}

const pollBatch = 500

func (s *sqliteStore) pollOnce(ctx context.Context, last int64) (int, int64, error) {
	ctx, cancel := s.cfg.WithTimeout(ctx)
	defer cancel()
	rows, err := s.rdb.QueryContext(ctx, `SELECT seq, id, plies FROM games WHERE seq > ? ORDER BY seq LIMIT ?`, last, pollBatch)
	if err != nil {
		return 0, last, err
	}
	defer rows.Close()
	var changes []store.Change
	for rows.Next() {
		var c store.Change
		if err := rows.Scan(&last, &c.ID, &c.Ply); err != nil {
			return 0, last, err
		}
		changes = append(changes, c)
	}
	if err := rows.Err(); err != nil {
		return 0, last, err
	}
	for _, c := range changes {
		s.hub.Publish(c)
	}
	return len(changes), last, nil
}

// isClosed reports whether Close has begun.
func (s *sqliteStore) isClosed() bool {
	select {
	case <-s.stopped:
		return true
	default:
		return false
	}
}

func (s *sqliteStore) Close() error {
	s.closeOnce.Do(func() {
		close(s.stopped)
		<-s.writer
		s.stop()
		<-s.done
		s.hub.Close()
		err := s.wdb.Close()
		if s.rdb != s.wdb {
			err = errors.Join(err, s.rdb.Close())
		}
		if err != nil {
			s.closeErr = &store.Error{Op: "close", Err: err}
		}
	})
	return s.closeErr
}
