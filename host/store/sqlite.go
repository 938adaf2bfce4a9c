package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

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
	cfg    config
	path   string
	memory bool
	wdb    *sql.DB // one connection, BEGIN IMMEDIATE
	rdb    *sql.DB // readers; the same as wdb in memory

	writes  chan *writeReq // to the writer
	stopped chan struct{}  // closed when the store closes
	writer  chan struct{}  // closed when the writer has stopped

	hub  *hub
	kick chan struct{} // wakes the poller after a local append
	stop context.CancelFunc
	done chan struct{} // closed when the poller has stopped

	closeOnce sync.Once
	closeErr  error
}

func openSQLite(ctx context.Context, path string, cfg config) (Store, error) {
	if path == "" {
		return nil, &Error{Op: "open", Detail: "empty database path: give a SQLite file path, \":memory:\", or a postgres:// URL"}
	}
	if strings.ContainsRune(path, '?') {
		return nil, &Error{Op: "open", Detail: fmt.Sprintf("SQLite path %q contains '?', which is not allowed", path)}
	}
	memory := path == ":memory:"
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", cfg.busyTimeout.Milliseconds()))
	q.Add("_pragma", "foreign_keys(1)")
	if !memory {
		q.Add("_pragma", "journal_mode(WAL)")
		q.Add("_pragma", "synchronous(FULL)")
	}
	readDSN := path + "?" + q.Encode()
	q.Set("_txlock", "immediate")
	writeDSN := path + "?" + q.Encode()

	s := &sqliteStore{cfg: cfg, path: path, memory: memory, hub: newHub(cfg.watchBuffer), kick: make(chan struct{}, 1)}
	var err error
	if s.wdb, err = sql.Open("sqlite", writeDSN); err != nil {
		return nil, &Error{Op: "open", Detail: path, Err: err}
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
			return nil, &Error{Op: "open", Detail: path, Err: err}
		}
		n := int(cfg.maxConns)
		if n <= 0 {
			n = 4
		}
		s.rdb.SetMaxOpenConns(n)
		s.rdb.SetMaxIdleConns(n)
	}
	if err := s.migrate(ctx); err != nil {
		s.closeDBs()
		return nil, s.openError(err)
	}
	last, err := s.lastRowID(ctx)
	if err != nil {
		s.closeDBs()
		return nil, s.openError(s.fail(ctx, "open", "", err))
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
	var se *Error
	if errors.As(err, &se) && se.Detail == "" {
		se.Op, se.Detail = "open", fmt.Sprintf("SQLite database %s", s.path)
		if se.Kind == ErrUnavailable {
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

// migrate brings the schema to schemaVersion, each step in a transaction
// that holds the write lock, so processes opening one file at once apply
// each step once.
func (s *sqliteStore) migrate(ctx context.Context) error {
	parent := ctx
	ctx, cancel := s.cfg.withTimeout(ctx)
	defer cancel()
	if _, err := s.wdb.ExecContext(ctx, sqliteDialect.expand(migrationsTable)); err != nil {
		return s.fail(parent, "migrate", "", err)
	}
	for _, m := range migrations {
		err := s.tx(ctx, func(tx *sql.Tx) error {
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM schema_migrations WHERE version = ?`, m.version).Scan(&n); err != nil {
				return err
			}
			if n > 0 {
				return nil
			}
			for _, stmt := range m.sql {
				if _, err := tx.ExecContext(ctx, sqliteDialect.expand(stmt)); err != nil {
					return fmt.Errorf("migration %d (%s): %w", m.version, m.name, err)
				}
			}
			_, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, name, applied) VALUES (?, ?, ?)`,
				m.version, m.name, time.Now().UnixMicro())
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
	if int(newest.Int64) > schemaVersion() {
		return &Error{Op: "open", Detail: fmt.Sprintf("the database %s has schema version %d, newer than this program's %d; use a newer matombo", s.path, newest.Int64, schemaVersion())}
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

// maxBatch bounds how many writes share one transaction.
const maxBatch = 128

// write runs f in a write transaction, possibly shared with other writes
// of this process (group commit: one fsync for all of them). Each write
// runs in a savepoint of its own, so one that fails leaves the others'
// changes; write returns once the transaction holding f's changes has
// committed, or with f's error.
func (s *sqliteStore) write(ctx context.Context, f func(context.Context, *sql.Tx) error) error {
	req := &writeReq{ctx: ctx, f: f, done: make(chan error, 1)}
	select {
	case s.writes <- req:
	case <-ctx.Done():
		return ctx.Err()
	case <-s.stopped:
		return &Error{Op: "write", Kind: ErrUnavailable, Detail: "the store is closed"}
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
		s.commit(batch)
	}
}

// commit runs a batch of writes in one transaction and answers each.
func (s *sqliteStore) commit(batch []*writeReq) {
	errs := make([]error, len(batch))
	answer := func(shared error) {
		for i, r := range batch {
			if errs[i] == nil {
				errs[i] = shared
			}
			r.done <- errs[i]
		}
	}
	ctx, cancel := s.cfg.withTimeout(context.Background())
	defer cancel()
	tx, err := s.wdb.BeginTx(ctx, nil)
	if err != nil {
		answer(err)
		return
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
				return
			}
		} else {
			ok++
		}
		if _, err := tx.ExecContext(ctx, "RELEASE w"); err != nil {
			_ = tx.Rollback()
			answer(err)
			return
		}
	}
	if ok == 0 {
		answer(tx.Rollback())
		return
	}
	answer(tx.Commit())
}

// fail wraps err from operation op into an *Error with its kind.
func (s *sqliteStore) fail(parent context.Context, op, id string, err error) error {
	var se *Error
	if errors.As(err, &se) {
		return err
	}
	if errors.Is(err, sql.ErrNoRows) {
		return &Error{Op: op, ID: id, Kind: ErrNotFound}
	}
	if e, ok := ctxError(parent, op, id, err); ok {
		return e
	}
	var le *sqlite.Error
	if errors.As(err, &le) {
		switch le.Code() & 0xff {
		case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
			return &Error{Op: op, ID: id, Kind: ErrUnavailable, Detail: "the database file is locked by another writer", Err: err}
		case sqlite3.SQLITE_IOERR, sqlite3.SQLITE_FULL, sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_READONLY:
			return &Error{Op: op, ID: id, Kind: ErrUnavailable, Err: err}
		case sqlite3.SQLITE_CONSTRAINT:
			if le.Code() == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY || le.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE {
				return &Error{Op: op, ID: id, Kind: ErrConflict, Err: err}
			}
		}
	}
	if errors.Is(err, sql.ErrConnDone) || s.isClosed() { // database/sql's "database is closed" has no exported error
		return &Error{Op: op, ID: id, Kind: ErrUnavailable, Detail: "the store is closed", Err: err}
	}
	return &Error{Op: op, ID: id, Err: err}
}

func (s *sqliteStore) Create(ctx context.Context, g *Game) error {
	parent := ctx
	ctx, cancel := s.cfg.withTimeout(ctx)
	defer cancel()
	e, err := encode(g)
	if err != nil {
		return &Error{Op: "create", ID: g.ID, Detail: err.Error()}
	}
	id := g.ID
	if id == "" {
		id = NewID()
	}
	now := time.Now().UTC().Truncate(time.Microsecond)
	err = s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO games
			(id, game, variants, params, seats, plies, over, result, computer_due, created, updated)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			id, g.Game, string(e.variants), string(e.params), string(e.seats), len(g.Record),
			g.Over, nullString(e.result), g.ComputerDue, now.UnixMicro(), now.UnixMicro()); err != nil {
			return err
		}
		for ply, tok := range g.Record {
			if _, err := tx.ExecContext(ctx, `INSERT INTO moves (game_id, ply, token, created) VALUES (?, ?, ?, ?)`,
				id, ply, tok, now.UnixMicro()); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		err = s.fail(parent, "create", id, err)
		if errors.Is(err, ErrConflict) {
			return &Error{Op: "create", ID: id, Kind: ErrConflict, Detail: "a game with this ID exists already"}
		}
		return err
	}
	g.ID, g.Created, g.Updated = id, now, now
	if g.Record == nil {
		g.Record = []string{}
	}
	if len(g.Record) > 0 {
		s.wake()
	}
	return nil
}

func nullString(b []byte) any {
	if b == nil {
		return nil
	}
	return string(b)
}

// gameQuery reads a game and its record in one statement, hence one
// consistent snapshot.
const sqliteGameQuery = `SELECT id, game, variants, params, seats, over, result, computer_due, created, updated,
	(SELECT json_group_array(token) FROM (SELECT token FROM moves WHERE game_id = games.id ORDER BY ply))
	FROM games WHERE id = ?`

type queryer interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func sqliteGet(ctx context.Context, q queryer, id string) (*Game, error) {
	var (
		g                               Game
		variants, params, seats, record string
		result                          sql.NullString
		created, updated                int64
	)
	err := q.QueryRowContext(ctx, sqliteGameQuery, id).Scan(&g.ID, &g.Game, &variants, &params, &seats,
		&g.Over, &result, &g.ComputerDue, &created, &updated, &record)
	if err != nil {
		return nil, err
	}
	var res []byte
	if result.Valid {
		res = []byte(result.String)
	}
	if err := decode(&g, []byte(variants), []byte(params), []byte(seats), res, []byte(record)); err != nil {
		return nil, err
	}
	g.Created, g.Updated = time.UnixMicro(created).UTC(), time.UnixMicro(updated).UTC()
	return &g, nil
}

func (s *sqliteStore) Get(ctx context.Context, id string) (*Game, error) {
	parent := ctx
	ctx, cancel := s.cfg.withTimeout(ctx)
	defer cancel()
	g, err := sqliteGet(ctx, s.rdb, id)
	if err != nil {
		return nil, s.fail(parent, "get", id, err)
	}
	return g, nil
}

func (s *sqliteStore) Append(ctx context.Context, id string, ply int, token string, over bool, result json.RawMessage, computerDue bool) (*Game, error) {
	parent := ctx
	ctx, cancel := s.cfg.withTimeout(ctx)
	defer cancel()
	if token == "" {
		return nil, &Error{Op: "append", ID: id, Detail: "empty move token"}
	}
	res, err := encodeResult(result)
	if err != nil {
		return nil, &Error{Op: "append", ID: id, Detail: err.Error()}
	}
	var g *Game
	err = s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var plies int
		var isOver bool
		if err := tx.QueryRowContext(ctx, `SELECT plies, over FROM games WHERE id = ?`, id).Scan(&plies, &isOver); err != nil {
			return err
		}
		if err := checkPly(id, ply, plies, isOver); err != nil {
			return err
		}
		now := time.Now().UnixMicro()
		if _, err := tx.ExecContext(ctx, `INSERT INTO moves (game_id, ply, token, created) VALUES (?, ?, ?, ?)`,
			id, ply, token, now); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE games SET plies = plies + 1, over = ?, result = ?, computer_due = ?,
			lease_owner = NULL, lease_until = NULL, updated = ? WHERE id = ?`,
			over, nullString(res), computerDue, now, id); err != nil {
			return err
		}
		var err error
		g, err = sqliteGet(ctx, tx, id)
		return err
	})
	if err != nil {
		return nil, s.fail(parent, "append", id, err)
	}
	s.wake()
	return g, nil
}

// checkPly is the ply check of Append.
func checkPly(id string, ply, plies int, over bool) error {
	switch {
	case over:
		return &Error{Op: "append", ID: id, Kind: ErrConflict, Detail: fmt.Sprintf("the game is over (after %d moves)", plies)}
	case ply != plies:
		return &Error{Op: "append", ID: id, Kind: ErrConflict, Detail: fmt.Sprintf("move for ply %d, but the game is at ply %d", ply, plies)}
	}
	return nil
}

func (s *sqliteStore) Claim(ctx context.Context, owner string, lease time.Duration) (*Game, error) {
	parent := ctx
	ctx, cancel := s.cfg.withTimeout(ctx)
	defer cancel()
	var g *Game
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		now := time.Now()
		var id string
		if err := tx.QueryRowContext(ctx, `SELECT id FROM games
			WHERE computer_due = 1 AND over = 0 AND (lease_until IS NULL OR lease_until <= ?)
			ORDER BY updated LIMIT 1`, now.UnixMicro()).Scan(&id); err != nil {
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
		if errors.Is(err, ErrNotFound) {
			return nil, &Error{Op: "claim", Kind: ErrNotFound, Detail: "no game waits for a computer move"}
		}
		return nil, err
	}
	return g, nil
}

func (s *sqliteStore) Release(ctx context.Context, id, owner string) error {
	parent := ctx
	ctx, cancel := s.cfg.withTimeout(ctx)
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

func (s *sqliteStore) List(ctx context.Context, limit int) ([]Summary, error) {
	parent := ctx
	ctx, cancel := s.cfg.withTimeout(ctx)
	defer cancel()
	rows, err := s.rdb.QueryContext(ctx, `SELECT id, game, variants, seats, plies, over, computer_due, created, updated
		FROM games ORDER BY updated DESC LIMIT ?`, limit)
	if err != nil {
		return nil, s.fail(parent, "list", "", err)
	}
	defer rows.Close()
	var out []Summary
	for rows.Next() {
		var (
			sm               Summary
			variants, seats  string
			created, updated int64
		)
		if err := rows.Scan(&sm.ID, &sm.Game, &variants, &seats, &sm.Plies, &sm.Over, &sm.ComputerDue, &created, &updated); err != nil {
			return nil, s.fail(parent, "list", "", err)
		}
		if err := json.Unmarshal([]byte(variants), &sm.Variants); err != nil {
			return nil, s.fail(parent, "list", sm.ID, err)
		}
		if sm.Seats, err = seatPlayers([]byte(seats)); err != nil {
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
	ctx, cancel := s.cfg.withTimeout(ctx)
	defer cancel()
	var n int
	if err := s.rdb.QueryRowContext(ctx, `SELECT count(*) FROM games`).Scan(&n); err != nil {
		return 0, s.fail(parent, "count", "", err)
	}
	return n, nil
}

func (s *sqliteStore) Ping(ctx context.Context) error {
	parent := ctx
	ctx, cancel := s.cfg.withTimeout(ctx)
	defer cancel()
	var n int
	if err := s.rdb.QueryRowContext(ctx, `SELECT count(*) FROM schema_migrations`).Scan(&n); err != nil {
		return s.fail(parent, "ping", "", err)
	}
	return nil
}

func (s *sqliteStore) Watch(ctx context.Context) (<-chan Change, error) {
	ch, ok := s.hub.subscribe(ctx)
	if !ok {
		return nil, &Error{Op: "watch", Kind: ErrUnavailable, Detail: "the store is closed"}
	}
	return ch, nil
}

// wake makes the poller look for new moves now.
func (s *sqliteStore) wake() {
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

func (s *sqliteStore) lastRowID(ctx context.Context) (int64, error) {
	var last sql.NullInt64
	err := s.rdb.QueryRowContext(ctx, `SELECT max(rowid) FROM moves`).Scan(&last)
	return last.Int64, err
}

// poll publishes the moves committed after rowid last, in commit order
// (SQLite serialises writers and never reuses a rowid of a table whose
// rows are not deleted), whenever a local append wakes it and every poll
// interval for the appends of other processes.
func (s *sqliteStore) poll(ctx context.Context, last int64) {
	defer close(s.done)
	tick := time.NewTicker(s.cfg.pollInterval)
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
	ctx, cancel := s.cfg.withTimeout(ctx)
	defer cancel()
	rows, err := s.rdb.QueryContext(ctx, `SELECT rowid, game_id, ply FROM moves WHERE rowid > ? ORDER BY rowid LIMIT ?`, last, pollBatch)
	if err != nil {
		return 0, last, err
	}
	defer rows.Close()
	var changes []Change
	for rows.Next() {
		var c Change
		if err := rows.Scan(&last, &c.ID, &c.Ply); err != nil {
			return 0, last, err
		}
		changes = append(changes, c)
	}
	if err := rows.Err(); err != nil {
		return 0, last, err
	}
	for _, c := range changes {
		s.hub.publish(c)
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
		s.hub.close()
		err := s.wdb.Close()
		if s.rdb != s.wdb {
			err = errors.Join(err, s.rdb.Close())
		}
		if err != nil {
			s.closeErr = &Error{Op: "close", Err: err}
		}
	})
	return s.closeErr
}
