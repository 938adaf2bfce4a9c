// Package postgres is the PostgreSQL backend of package store (pgx): several
// server processes share one database. Importing it registers it with
// store.Open for "postgres://" and "postgresql://" URLs and libpq
// key=value strings; Open opens one directly.
package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/puddle/v2"

	"github.com/matombo/matombo/host/store"
	"github.com/matombo/matombo/host/store/internal/hub"
	"github.com/matombo/matombo/host/store/internal/sqlbase"
)

func init() {
	store.Register("postgres", openPostgres)
}

// Open opens (creating and migrating when needed) the PostgreSQL database
// of dsn: a URL ("postgres://user@host/db?sslmode=require") or a libpq
// key=value string ("host=db dbname=matombo").
func Open(ctx context.Context, dsn string, opts ...store.Option) (store.Store, error) {
	return openPostgres(ctx, dsn, store.NewConfig(opts...))
}

// notifyChannel is the PostgreSQL channel of changes; a payload is
// "<game id> <plies after the change>".
const notifyChannel = "matombo_moves"

// listenerWait is how long the listener waits for a notification before it
// checks its connection (and notes the database's clock for catching up).
const listenerWait = 5 * time.Second

// postgresStore keeps games in PostgreSQL; several processes may share one
// database. The ply check of Append is a conditional UPDATE of the game's
// row (row lock: of two racing moves the second sees the first's ply), the
// moves' primary key backs it up; every move sends a NOTIFY in its
// transaction, delivered to every process's listener on commit; Claim
// takes a due game with FOR UPDATE SKIP LOCKED and a lease in the row.
type postgresStore struct {
	cfg  store.Config
	pool *pgxpool.Pool
	hub  *hub.Hub[store.Change]

	stop context.CancelFunc
	done chan struct{}

	closeOnce sync.Once
}

func openPostgres(ctx context.Context, dsn string, cfg store.Config) (store.Store, error) {
	pcfg, err := poolConfig(dsn, &cfg)
	if err != nil {
		return nil, err
	}
	s := &postgresStore{cfg: cfg, hub: hub.New[store.Change](cfg.WatchBuffer)}
	if s.pool, err = pgxpool.NewWithConfig(context.Background(), pcfg); err != nil {
		return nil, &store.Error{Op: "open", Err: redact(err)}
	}
	if err := s.migrate(ctx); err != nil {
		s.pool.Close()
		var se *store.Error
		if errors.As(err, &se) && se.Detail == "" {
			se.Op, se.Detail = "open", "PostgreSQL database"
			if se.Kind == store.ErrUnavailable {
				se.Detail += " (" + se.Kind.Error() + ")"
			}
		}
		return nil, err
	}
	// The listener's connection is its own, outside the pool: LISTEN
	// belongs to a session.
	lcfg := pcfg.ConnConfig.Copy()
	lcfg.RuntimeParams["application_name"] += " (listener)"
	lctx, stop := context.WithCancel(context.Background())
	s.stop, s.done = stop, make(chan struct{})
	ready := make(chan struct{})
	go s.listen(lctx, lcfg, ready)
	// Wait for the first LISTEN, so that Watch sees the moves from now on;
	// not forever: the listener keeps trying on its own.
	wait := time.NewTimer(cfg.OpTimeout)
	defer wait.Stop()
	select {
	case <-ready:
	case <-wait.C:
	case <-ctx.Done():
	}
	return s, nil
}

// poolConfig parses dsn and sets the pool and session settings: what the
// connection string sets wins, except what an Option sets explicitly.
// It notes the effective statement timeout in cfg.
func poolConfig(dsn string, cfg *store.Config) (*pgxpool.Config, error) {
	pcfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, &store.Error{Op: "open", Detail: "bad PostgreSQL connection string (want postgres://user@host/db or \"host=... dbname=...\")", Err: redact(err)}
	}
	switch {
	case cfg.MaxConns > 0:
		pcfg.MaxConns = int32(min(cfg.MaxConns, 1<<20))
	case !strings.Contains(dsn, "pool_max_conns"):
		pcfg.MaxConns = 10
	}
	switch {
	case cfg.MinConns >= 0:
		pcfg.MinConns = int32(min(cfg.MinConns, 1<<20))
	case !strings.Contains(dsn, "pool_min_conns"):
		pcfg.MinConns = 1
	}
	pcfg.MinConns = min(pcfg.MinConns, pcfg.MaxConns)
	if !strings.Contains(dsn, "pool_health_check_period") {
		pcfg.HealthCheckPeriod = 10 * time.Second
	}
	if pcfg.ConnConfig.ConnectTimeout == 0 || pcfg.ConnConfig.ConnectTimeout > cfg.OpTimeout {
		pcfg.ConnConfig.ConnectTimeout = min(5*time.Second, cfg.OpTimeout)
	}
	rp := pcfg.ConnConfig.RuntimeParams
	setDefault := func(k, v string) {
		if _, ok := rp[k]; !ok {
			rp[k] = v
		}
	}
	if cfg.StatementTimeout > 0 {
		ms := strconv.FormatInt(cfg.StatementTimeout.Milliseconds(), 10)
		rp["statement_timeout"], rp["lock_timeout"] = ms, ms
	}
	setDefault("statement_timeout", "5000")
	setDefault("lock_timeout", rp["statement_timeout"])
	if n, err := strconv.Atoi(rp["statement_timeout"]); err == nil && n > 0 {
		cfg.StatementTimeout = time.Duration(n) * time.Millisecond // for the listener's catch-up margin
	}
	setDefault("idle_in_transaction_session_timeout", "60000")
	setDefault("application_name", "matombo")
	return pcfg, nil
}

// redact drops the connection string (which may hold a password) from
// pgx's parse errors.
func redact(err error) error {
	var pe *pgconn.ParseConfigError
	if errors.As(err, &pe) {
		return errors.New(pe.Unwrap().Error())
	}
	return err
}

// fail wraps err from operation op into an *store.Error with its kind.
func (s *postgresStore) fail(parent context.Context, op, id string, err error) error {
	var se *store.Error
	if errors.As(err, &se) {
		return err
	}
	if errors.Is(err, pgx.ErrNoRows) {
		return &store.Error{Op: op, ID: id, Kind: store.ErrNotFound}
	}
	if e, ok := sqlbase.CtxError(parent, op, id, err); ok {
		return e
	}
	if unavailable(err) {
		return &store.Error{Op: op, ID: id, Kind: store.ErrUnavailable, Err: err}
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "23505" { // unique_violation
		return &store.Error{Op: op, ID: id, Kind: store.ErrConflict, Err: err}
	}
	return &store.Error{Op: op, ID: id, Err: err}
}

// unavailable reports whether err means the database cannot be reached or
// cannot serve now (as opposed to a bad statement or bad data).
func unavailable(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch {
		case strings.HasPrefix(pe.Code, "08"), // connection exception
			strings.HasPrefix(pe.Code, "53"),       // insufficient resources (too many connections, disk full)
			strings.HasPrefix(pe.Code, "57"),       // operator intervention: shutdown, statement timeout (57014), cannot connect now
			pe.Code == "55P03",                     // lock_not_available (lock_timeout)
			pe.Code == "40001", pe.Code == "40P01": // serialization failure, deadlock: retry
			return true
		}
		return false
	}
	var ce *pgconn.ConnectError
	var ne net.Error
	return errors.As(err, &ce) || errors.As(err, &ne) || pgconn.Timeout(err) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) ||
		errors.Is(err, pgconn.ErrConnClosed) || pgconn.SafeToRetry(err) || errors.Is(err, puddle.ErrClosedPool)
}

// do runs f with the operation timeout, once more when the first attempt
// failed before sending anything (a pooled connection the database had
// closed, as after its restart). An id no game can have is ErrNotFound at
// once.
func (s *postgresStore) do(ctx context.Context, op, id string, f func(ctx context.Context, conn *pgxpool.Conn) error) error {
	if err := unknownID(op, id); err != nil {
		return err
	}
	parent := ctx
	ctx, cancel := s.cfg.WithTimeout(ctx)
	defer cancel()
	attempt := func() error {
		conn, err := s.acquire(ctx, op, id)
		if err != nil {
			return err
		}
		defer conn.Release()
		return f(ctx, conn)
	}
	err := attempt()
	if err != nil && pgconn.SafeToRetry(err) && ctx.Err() == nil {
		err = attempt()
	}
	if err != nil {
		return s.fail(parent, op, id, err)
	}
	return nil
}

// busyPoolWait is how long a store call waits for a connection when every
// one of the pool's is in use: slow calls (a row or table another session
// has locked, up to the lock timeout each) hold them all, and a call for
// another game is answered ErrUnavailable at once rather than after
// them.
const busyPoolWait = time.Second

// acquire returns a connection of the pool for operation op: when every
// one is in use, it waits busyPoolWait at most for one to be released,
// else ctx's time (the pool may be connecting).
func (s *postgresStore) acquire(ctx context.Context, op, id string) (*pgxpool.Conn, error) {
	st := s.pool.Stat()
	if st.AcquiredConns() < st.MaxConns() {
		return s.pool.Acquire(ctx)
	}
	wait, cancel := context.WithTimeout(ctx, busyPoolWait)
	defer cancel()
	conn, err := s.pool.Acquire(wait)
	if err != nil && ctx.Err() == nil && wait.Err() != nil {
		return nil, &store.Error{Op: op, ID: id, Kind: store.ErrUnavailable,
			Detail: fmt.Sprintf("every connection to the database (%d) is in use by slower calls", st.MaxConns())}
	}
	return conn, err
}

// unknownID returns ErrNotFound for an id no game can have, and nil for
// any other: PostgreSQL's text holds no NUL and only UTF-8, and a query
// with such an id (a request's, which may be anything) would fail as a
// bad value instead of finding nothing.
func unknownID(op, id string) error {
	if strings.ContainsRune(id, 0) || !utf8.ValidString(id) {
		return &store.Error{Op: op, ID: id, Kind: store.ErrNotFound}
	}
	return nil
}

// tx runs f in a transaction (READ COMMITTED) and commits it.
func (s *postgresStore) tx(ctx context.Context, op, id string, f func(ctx context.Context, tx pgx.Tx) error) error {
	return s.do(ctx, op, id, func(ctx context.Context, conn *pgxpool.Conn) error {
		return pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error { return f(ctx, tx) })
	})
}

// migrate brings the schema to schemaVersion in one transaction holding an
// advisory lock, so servers starting together apply each step once.
func (s *postgresStore) migrate(ctx context.Context) error {
	var newest int
	err := s.tx(ctx, "migrate", "", func(ctx context.Context, tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('matombo.store.migrations'))`); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, sqlbase.Postgres.Expand(sqlbase.MigrationsTable)); err != nil {
			return err
		}
		for _, m := range sqlbase.Migrations {
			var n int
			if err := tx.QueryRow(ctx, `SELECT count(*) FROM schema_migrations WHERE version = $1`, m.Version).Scan(&n); err != nil {
				return err
			}
			if n > 0 {
				continue
			}
			for _, stmt := range m.Statements(sqlbase.Postgres) {
				if _, err := tx.Exec(ctx, stmt); err != nil {
					return fmt.Errorf("migration %d (%s): %w", m.Version, m.Name, err)
				}
			}
			if _, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version, name, applied) VALUES ($1, $2, now())`,
				m.Version, m.Name); err != nil {
				return err
			}
		}
		return tx.QueryRow(ctx, `SELECT max(version) FROM schema_migrations`).Scan(&newest)
	})
	if err != nil {
		return err
	}
	if newest > sqlbase.SchemaVersion() {
		return &store.Error{Op: "open", Detail: fmt.Sprintf("the database has schema version %d, newer than this program's %d; use a newer matombo", newest, sqlbase.SchemaVersion())}
	}
	return nil
}

func (s *postgresStore) Create(ctx context.Context, g *store.Game) error {
	c, err := sqlbase.Encode(g)
	if err != nil {
		return &store.Error{Op: "create", ID: g.ID, Detail: err.Error()}
	}
	id := g.ID
	if id == "" {
		id = store.NewID()
	}
	var created time.Time
	err = s.tx(ctx, "create", id, func(ctx context.Context, tx pgx.Tx) error {
		if err := tx.QueryRow(ctx, `INSERT INTO games
			(id, game, fingerprint, variants, params, seats, plies, over, result, computer_due, clock, deadline, request,
			 rematch_of, created, updated)
			VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, $6::jsonb, $7, $8, $9::jsonb, $10, $11::jsonb, $12, $13::jsonb, $14, now(), now())
			RETURNING created`,
			id, g.Game, g.Fingerprint, string(c.Variants), string(c.Params), string(c.Seats), len(g.Record),
			g.Over(), sqlbase.Nullable(c.Result), g.ComputerDue, sqlbase.Nullable(c.Clock), sqlbase.Deadline(g.Clock, g.Over()),
			sqlbase.Nullable(c.Request), nullText(g.RematchOf)).Scan(&created); err != nil {
			return err
		}
		for ply, tok := range g.Record {
			if _, err := tx.Exec(ctx, `INSERT INTO moves (game_id, ply, token, created) VALUES ($1, $2, $3, now())`,
				id, ply, tok); err != nil {
				return err
			}
		}
		if err := notify(ctx, tx, id, len(g.Record)); err != nil {
			return err
		}
		if g.RematchOf == "" {
			return nil
		}
		var plies int
		err := tx.QueryRow(ctx, `UPDATE games SET rematch = $1, updated = now() WHERE id = $2 AND rematch IS NULL RETURNING plies`,
			id, g.RematchOf).Scan(&plies)
		if errors.Is(err, pgx.ErrNoRows) {
			var rematch string
			if err := tx.QueryRow(ctx, `SELECT coalesce(rematch, '') FROM games WHERE id = $1`, g.RematchOf).Scan(&rematch); err != nil && !errors.Is(err, pgx.ErrNoRows) {
				return err
			}
			return sqlbase.RematchConflict(id, g.RematchOf, rematch)
		}
		if err != nil {
			return err
		}
		return notify(ctx, tx, g.RematchOf, plies)
	})
	if err != nil {
		var se *store.Error
		if errors.As(err, &se) && se.Kind == store.ErrConflict && se.Detail == "" {
			return &store.Error{Op: "create", ID: id, Kind: store.ErrConflict, Detail: "a game with this ID exists already"}
		}
		return err
	}
	g.ID, g.Created, g.Updated, g.Rematch = id, created.UTC(), created.UTC(), ""
	if g.Record == nil {
		g.Record = []string{}
	}
	return nil
}

func nullText(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func notify(ctx context.Context, tx pgx.Tx, id string, plies int) error {
	_, err := tx.Exec(ctx, `SELECT pg_notify($1, $2)`, notifyChannel, id+" "+strconv.Itoa(plies))
	return err
}

// gameColumns are the columns scanGame reads, but the record.
const gameColumns = `id, game, fingerprint, variants, params, seats, result, computer_due, clock, request,
	coalesce(rematch_of, '') AS rm_of, coalesce(rematch, '') AS rm, created, updated`

// postgresGameQuery reads a game and its record in one statement, hence
// one consistent snapshot.
const postgresGameQuery = `SELECT ` + gameColumns + `,
	coalesce((SELECT array_agg(token ORDER BY ply) FROM moves WHERE game_id = games.id), '{}')
	FROM games WHERE id = $1`

// rowQuerier is a connection or a transaction, for a query of one row.
type rowQuerier interface {
	QueryRow(context.Context, string, ...any) pgx.Row
}

func postgresGet(ctx context.Context, q rowQuerier, id string) (*store.Game, error) {
	return scanGame(q.QueryRow(ctx, postgresGameQuery, id), 0)
}

// scanGame scans gameColumns and the record, then skips extra columns.
func scanGame(row pgx.Row, extra int) (*store.Game, error) {
	var (
		g store.Game
		c sqlbase.Columns
	)
	dest := []any{&g.ID, &g.Game, &g.Fingerprint, &c.Variants, &c.Params, &c.Seats, &c.Result, &g.ComputerDue, &c.Clock, &c.Request,
		&g.RematchOf, &g.Rematch, &g.Created, &g.Updated, &g.Record}
	for range extra {
		dest = append(dest, nil)
	}
	if err := row.Scan(dest...); err != nil {
		return nil, err
	}
	if err := sqlbase.Decode(&g, c, nil); err != nil {
		return nil, err
	}
	g.Created, g.Updated = g.Created.UTC(), g.Updated.UTC()
	return &g, nil
}

func (s *postgresStore) Get(ctx context.Context, id string) (*store.Game, error) {
	var g *store.Game
	err := s.do(ctx, "get", id, func(ctx context.Context, conn *pgxpool.Conn) error {
		var err error
		g, err = postgresGet(ctx, conn, id)
		return err
	})
	return g, err
}

func (s *postgresStore) Append(ctx context.Context, id string, m store.Move) (*store.Game, error) {
	if err := store.CheckMove(m); err != nil {
		return nil, &store.Error{Op: "append", ID: id, Detail: err.Error()}
	}
	result, clock, _, err := sqlbase.EncodeState(m.Result, m.Clock, nil)
	if err != nil {
		return nil, &store.Error{Op: "append", ID: id, Detail: err.Error()}
	}
	var g *store.Game
	err = s.do(ctx, "append", id, func(ctx context.Context, conn *pgxpool.Conn) error {
		var err error
		g, err = scanGame(conn.QueryRow(ctx, appendQuery, id, m.Ply, m.Token, m.Result != nil, sqlbase.Nullable(result),
			m.ComputerDue, sqlbase.Nullable(clock), sqlbase.Deadline(m.Clock, m.Result != nil)), 1)
		if errors.Is(err, pgx.ErrNoRows) {
			return why(ctx, conn, "append", id, m.Ply, m.Ply)
		}
		return err
	})
	return g, err
}

// appendQuery is Append in one statement, hence one transaction and one
// round trip. The row lock of the UPDATE orders racing moves: the second
// waits for the first to commit, then no longer matches plies = $2. The
// record is read in the statement's snapshot, before the new move, so
// the new token is added to it. The NOTIFY is delivered on commit.
const appendQuery = `WITH upd AS (
		UPDATE games SET plies = plies + 1, over = $4, result = $5::jsonb, computer_due = $6, clock = $7::jsonb, deadline = $8,
			request = NULL, lease_owner = NULL, lease_until = NULL, updated = now()
		WHERE id = $1 AND plies = $2 AND NOT over
		RETURNING ` + gameColumns + `),
	ins AS (
		INSERT INTO moves (game_id, ply, token, created) SELECT id, $2, $3, now() FROM upd RETURNING game_id)
	SELECT upd.id, game, fingerprint, variants, params, seats, result, computer_due, clock, request, rm_of, rm, created, updated,
		coalesce((SELECT array_agg(token ORDER BY ply) FROM moves WHERE game_id = upd.id), '{}') || $3::text,
		pg_notify('` + notifyChannel + `', upd.id || ' ' || ($2::int + 1))
	FROM upd JOIN ins ON ins.game_id = upd.id`

// why says why a change decided at ply was not stored.
func why(ctx context.Context, q rowQuerier, op, id string, ply, to int) error {
	var plies int
	var isOver bool
	if err := q.QueryRow(ctx, `SELECT plies, over FROM games WHERE id = $1`, id).Scan(&plies, &isOver); err != nil {
		return err
	}
	if err := store.CheckPly(op, id, ply, to, plies, isOver); err != nil {
		return err
	}
	return &store.Error{Op: op, ID: id, Kind: store.ErrConflict, Detail: fmt.Sprintf("a concurrent change for ply %d", ply)}
}

func (s *postgresStore) Update(ctx context.Context, id string, u store.Update) (*store.Game, error) {
	if err := store.CheckUpdate(u); err != nil {
		return nil, &store.Error{Op: "update", ID: id, Detail: err.Error()}
	}
	result, clock, request, err := sqlbase.EncodeState(u.Result, u.Clock, u.Request)
	if err != nil {
		return nil, &store.Error{Op: "update", ID: id, Detail: err.Error()}
	}
	var g *store.Game
	err = s.tx(ctx, "update", id, func(ctx context.Context, tx pgx.Tx) error {
		var plies int
		var isOver bool
		if err := tx.QueryRow(ctx, `SELECT plies, over FROM games WHERE id = $1 FOR UPDATE`, id).Scan(&plies, &isOver); err != nil {
			return err
		}
		if err := store.CheckPly("update", id, u.Ply, u.To, plies, isOver); err != nil {
			return err
		}
		if u.To < u.Ply {
			if _, err := tx.Exec(ctx, `DELETE FROM moves WHERE game_id = $1 AND ply >= $2`, id, u.To); err != nil {
				return err
			}
		}
		if u.Seats != nil {
			var stored []byte
			if err := tx.QueryRow(ctx, `SELECT seats FROM games WHERE id = $1`, id).Scan(&stored); err != nil {
				return err
			}
			seats, err := sqlbase.ChangeSeats(id, stored, u)
			if err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `UPDATE games SET seats = $2::jsonb WHERE id = $1`, id, string(seats)); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(ctx, `UPDATE games SET plies = $2, over = $3, result = $4::jsonb, computer_due = $5, clock = $6::jsonb,
			deadline = $7, request = $8::jsonb, lease_owner = NULL, lease_until = NULL, updated = now() WHERE id = $1`,
			id, u.To, u.Result != nil, sqlbase.Nullable(result), u.ComputerDue, sqlbase.Nullable(clock),
			sqlbase.Deadline(u.Clock, u.Result != nil), sqlbase.Nullable(request)); err != nil {
			return err
		}
		if err := notify(ctx, tx, id, u.To); err != nil {
			return err
		}
		var err error
		g, err = postgresGet(ctx, tx, id)
		return err
	})
	return g, err
}

func (s *postgresStore) Claim(ctx context.Context, owner string, lease time.Duration) (*store.Game, error) {
	var g *store.Game
	err := s.tx(ctx, "claim", "", func(ctx context.Context, tx pgx.Tx) error {
		// SKIP LOCKED: claimers in other processes pass over the row this
		// one is taking instead of waiting for it. The lease and the
		// deadline are compared with the database's clock, the same for
		// every process.
		var id string
		if err := tx.QueryRow(ctx, `UPDATE games SET lease_owner = $1, lease_until = now() + $2 * interval '1 microsecond'
			WHERE id = (SELECT id FROM games
				WHERE NOT over AND (computer_due OR deadline <= now()) AND (lease_until IS NULL OR lease_until <= now())
				ORDER BY updated LIMIT 1 FOR UPDATE SKIP LOCKED)
			RETURNING id`, owner, lease.Microseconds()).Scan(&id); err != nil {
			return err
		}
		// The record is read by a statement of its own: the UPDATE's
		// snapshot may predate a move committed before the row was locked
		// (READ COMMITTED re-checks the locked row, not the subqueries).
		var err error
		g, err = postgresGet(ctx, tx, id)
		return err
	})
	if errors.Is(err, store.ErrNotFound) {
		return nil, &store.Error{Op: "claim", Kind: store.ErrNotFound, Detail: "no game waits for a computer move or a clock"}
	}
	return g, err
}

func (s *postgresStore) Release(ctx context.Context, id, owner string) error {
	return s.do(ctx, "release", id, func(ctx context.Context, conn *pgxpool.Conn) error {
		_, err := conn.Exec(ctx, `UPDATE games SET lease_owner = NULL, lease_until = NULL
			WHERE id = $1 AND lease_owner = $2`, id, owner)
		return err
	})
}

func (s *postgresStore) List(ctx context.Context, limit int) ([]store.Summary, error) {
	var out []store.Summary
	err := s.do(ctx, "list", "", func(ctx context.Context, conn *pgxpool.Conn) error {
		out = out[:0]
		rows, err := conn.Query(ctx, `SELECT id, game, variants, seats, plies, over, computer_due, created, updated
			FROM games ORDER BY updated DESC LIMIT $1`, max(limit, 0))
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var (
				sm              store.Summary
				variants, seats []byte
			)
			if err := rows.Scan(&sm.ID, &sm.Game, &variants, &seats, &sm.Plies, &sm.Over, &sm.ComputerDue, &sm.Created, &sm.Updated); err != nil {
				return err
			}
			if err := json.Unmarshal(variants, &sm.Variants); err != nil {
				return fmt.Errorf("stored variants of %s: %w", sm.ID, err)
			}
			if sm.Seats, err = sqlbase.SeatPlayers(seats); err != nil {
				return err
			}
			sm.Created, sm.Updated = sm.Created.UTC(), sm.Updated.UTC()
			out = append(out, sm)
		}
		return rows.Err()
	})
	return out, err
}

func (s *postgresStore) Count(ctx context.Context) (int, error) {
	var n int
	err := s.do(ctx, "count", "", func(ctx context.Context, conn *pgxpool.Conn) error {
		return conn.QueryRow(ctx, `SELECT count(*) FROM games`).Scan(&n)
	})
	return n, err
}

// Prune implements store.Pruner. The moves of a deleted game go with it
// (the schema's ON DELETE CASCADE).
func (s *postgresStore) Prune(ctx context.Context, before time.Time, limit int) (int, error) {
	var n int64
	err := s.do(ctx, "prune", "", func(ctx context.Context, conn *pgxpool.Conn) error {
		tag, err := conn.Exec(ctx, `DELETE FROM games WHERE id IN (
			SELECT id FROM games WHERE updated < $1 ORDER BY updated LIMIT $2)`, before, max(limit, 0))
		n = tag.RowsAffected()
		return err
	})
	return int(n), err
}

func (s *postgresStore) Ping(ctx context.Context) error {
	return s.do(ctx, "ping", "", func(ctx context.Context, conn *pgxpool.Conn) error {
		var n int
		return conn.QueryRow(ctx, `SELECT count(*) FROM schema_migrations`).Scan(&n)
	})
}

func (s *postgresStore) Watch(ctx context.Context) (<-chan store.Change, error) {
	ch, ok := s.hub.Subscribe(ctx)
	if !ok {
		return nil, &store.Error{Op: "watch", Kind: store.ErrUnavailable, Detail: "the store is closed"}
	}
	return ch, nil
}

// listen keeps one connection LISTENing to notifyChannel and publishes
// what arrives. When the connection breaks it reconnects with backoff
// (100ms doubling to 5s), listens again, and publishes a change for every
// game changed since shortly before it lost the connection (by the games'
// update time), so a change is delivered at least once across a database
// restart.
func (s *postgresStore) listen(ctx context.Context, cfg *pgx.ConnConfig, ready chan struct{}) {
	defer close(s.done)
	var since time.Time // the database's clock when the connection was last known good
	backoff := 100 * time.Millisecond
	for ctx.Err() == nil {
		err := s.listenOnce(ctx, cfg, &since, ready)
		if ctx.Err() != nil {
			return
		}
		if err == nil { // a healthy session ended: reconnect at once
			backoff = 100 * time.Millisecond
			continue
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, 5*time.Second)
	}
}

// listenOnce runs one listening session until its connection fails.
func (s *postgresStore) listenOnce(ctx context.Context, cfg *pgx.ConnConfig, since *time.Time, ready chan struct{}) error {
	cctx, cancel := context.WithTimeout(ctx, s.cfg.OpTimeout)
	conn, err := pgx.ConnectConfig(cctx, cfg)
	cancel()
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "LISTEN "+notifyChannel); err != nil {
		return err
	}
	var now time.Time
	if err := conn.QueryRow(ctx, `SELECT now()`).Scan(&now); err != nil {
		return err
	}
	if !since.IsZero() {
		if err := s.catchUp(ctx, conn, *since); err != nil {
			return err
		}
	}
	*since = now
	select {
	case <-ready:
	default:
		close(ready)
	}
	refreshed := time.Now()
	for {
		// Note the database's clock now and then (a query that also
		// checks the connection); notifications arriving meanwhile are
		// kept by pgx for the next wait.
		if time.Since(refreshed) >= listenerWait {
			if err := conn.QueryRow(ctx, `SELECT now()`).Scan(since); err != nil {
				return err
			}
			refreshed = time.Now()
		}
		wctx, cancel := context.WithTimeout(ctx, listenerWait)
		n, err := conn.WaitForNotification(wctx)
		cancel()
		switch {
		case err == nil:
			if c, ok := parseChange(n.Payload); ok {
				s.hub.Publish(c)
			}
		case ctx.Err() != nil:
			return nil
		case pgconn.Timeout(err) || errors.Is(err, context.DeadlineExceeded):
			// Quiet for listenerWait: the next round checks the connection.
		default:
			return err
		}
	}
}

// catchUpMargin covers transactions that took their creation time before
// the listener's last good moment but committed after it.
func (s *postgresStore) catchUpMargin() time.Duration {
	return s.cfg.StatementTimeout + listenerWait
}

// catchUp publishes the games changed since a moment before since, in
// the order of their changes.
func (s *postgresStore) catchUp(ctx context.Context, conn *pgx.Conn, since time.Time) error {
	rows, err := conn.Query(ctx, `SELECT id, plies FROM games WHERE updated >= $1 ORDER BY updated, id`,
		since.Add(-s.catchUpMargin()))
	if err != nil {
		return err
	}
	var changes []store.Change
	for rows.Next() {
		var c store.Change
		if err := rows.Scan(&c.ID, &c.Ply); err != nil {
			rows.Close()
			return err
		}
		changes = append(changes, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, c := range changes {
		s.hub.Publish(c)
	}
	return nil
}

// parseChange reads a notification payload "<id> <ply>".
func parseChange(payload string) (store.Change, bool) {
	id, p, ok := strings.Cut(payload, " ")
	if !ok || id == "" {
		return store.Change{}, false
	}
	ply, err := strconv.Atoi(p)
	if err != nil || ply < 0 {
		return store.Change{}, false
	}
	return store.Change{ID: id, Ply: ply}, true
}

func (s *postgresStore) Close() error {
	s.closeOnce.Do(func() {
		s.stop()
		<-s.done
		s.hub.Close()
		s.pool.Close()
	})
	return nil
}
