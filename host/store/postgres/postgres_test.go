package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/host/store"
	"github.com/matombo/matombo/host/store/internal/sqlbase"
	"github.com/matombo/matombo/host/store/postgres"
	"github.com/matombo/matombo/host/store/postgres/pgtest"
	"github.com/matombo/matombo/host/store/storetest"
)

func TestMain(m *testing.M) {
	storetest.HelperMain(postgres.Open)
	if arg := os.Getenv(loadHelperEnv); arg != "" {
		var games, moves int
		if _, err := fmt.Sscan(arg, &games, &moves); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		os.Exit(runLoadHelper(os.Getenv("MATOMBO_STORE_DSN"), games, moves))
	}
	code := m.Run()
	shared.remove()
	os.Exit(code)
}

// sharedCluster is the PostgreSQL cluster the tests share, started on
// first use and removed by TestMain.
type sharedCluster struct {
	once sync.Once
	c    *pgtest.Cluster
	err  error
}

var shared sharedCluster

func (s *sharedCluster) get(t *testing.T) *pgtest.Cluster {
	t.Helper()
	s.once.Do(func() { s.c, s.err = pgtest.New() })
	if errors.Is(s.err, pgtest.ErrNoBinaries) {
		t.Skipf("PostgreSQL tests skipped: %v", s.err)
	}
	if s.err != nil {
		t.Fatal(s.err)
	}
	return s.c
}

func (s *sharedCluster) remove() {
	if s.c != nil {
		s.c.Remove()
	}
}

// open opens dsn and closes the store when the test ends.
func open(t *testing.T, dsn string, opts ...store.Option) store.Store {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := postgres.Open(ctx, dsn, opts...)
	require.NoError(t, err, "opening %s", dsn)
	t.Cleanup(func() { s.Close() })
	return s
}

// TestContract runs the store contract on PostgreSQL: stores opened on
// one database share it, as server processes do.
func TestContract(t *testing.T) {
	storetest.Run(t, storetest.Backend{
		New: func(t *testing.T) storetest.Opener {
			dsn := pgtest.Database(t, shared.get(t))
			return func(ctx context.Context) (store.Store, error) { return postgres.Open(ctx, dsn) }
		},
		Shared:     true,
		Persistent: true,
	})
}

// TestProcesses: server processes on one database, killed with SIGKILL.
func TestProcesses(t *testing.T) {
	storetest.RunProcesses(t, func(t *testing.T) string { return pgtest.Database(t, shared.get(t)) }, postgres.Open)
}

// TestOpenByName: store.Open gives PostgreSQL for its URLs and key=value
// strings once this package is linked.
func TestOpenByName(t *testing.T) {
	ctx := storetest.Ctx(t)
	dsn := pgtest.Database(t, shared.get(t))
	require.True(t, strings.HasPrefix(dsn, "postgres://") || strings.Contains(dsn, "="), dsn)
	s, err := store.Open(ctx, dsn)
	require.NoError(t, err)
	require.NoError(t, s.Ping(ctx))
	require.NoError(t, s.Close())
}

func TestOpenErrors(t *testing.T) {
	ctx := storetest.Ctx(t)
	for _, tc := range []struct {
		dsn, words string
		kind       error
	}{
		{"postgres://user:secret@[::1", "bad PostgreSQL connection string", nil},
		{"postgres://user:secret@127.0.0.1:1/x?connect_timeout=1", "PostgreSQL database", store.ErrUnavailable},
	} {
		t.Run(tc.dsn, func(t *testing.T) {
			_, err := store.Open(ctx, tc.dsn)
			require.ErrorContains(t, err, tc.words)
			require.NotContains(t, err.Error(), "secret", "no password in errors")
			if tc.kind != nil {
				storetest.RequireKind(t, err, tc.kind)
			}
		})
	}
}

// rawQuery runs one statement on the database outside any store and
// returns the first column of its first row, when it has one.
func rawQuery(t *testing.T, ctx context.Context, dsn, query string) any {
	t.Helper()
	conn, err := pgx.Connect(ctx, dsn)
	require.NoError(t, err)
	defer conn.Close(context.Background())
	rows, err := conn.Query(ctx, query)
	require.NoError(t, err)
	defer rows.Close()
	var v any
	if rows.Next() {
		vals, err := rows.Values()
		require.NoError(t, err)
		v = vals[0]
	}
	require.NoError(t, rows.Err())
	return v
}

// TestMigrations: a new database gets every step once, recorded in
// schema_migrations; opening it again applies nothing; a database newer
// than the program is refused with a message.
func TestMigrations(t *testing.T) {
	ctx := storetest.Ctx(t)
	dsn := pgtest.Database(t, shared.get(t))
	for range 2 {
		s, err := postgres.Open(ctx, dsn)
		require.NoError(t, err)
		require.NoError(t, s.Close())
	}
	require.EqualValues(t, len(sqlbase.Migrations), rawQuery(t, ctx, dsn, `SELECT count(*) FROM schema_migrations`))
	require.EqualValues(t, "games and moves", rawQuery(t, ctx, dsn, `SELECT name FROM schema_migrations WHERE version = 1`))
	rawQuery(t, ctx, dsn, `INSERT INTO schema_migrations (version, name, applied) VALUES (999, 'future', now())`)
	_, err := postgres.Open(ctx, dsn)
	require.ErrorContains(t, err, "schema version 999, newer than this program's 2; use a newer matombo")
}

// TestMigrateFromVersion1: a database of the first schema opens and keeps
// its games.
func TestMigrateFromVersion1(t *testing.T) {
	ctx := storetest.Ctx(t)
	dsn := pgtest.Database(t, shared.get(t))
	rawQuery(t, ctx, dsn, sqlbase.Postgres.Expand(sqlbase.MigrationsTable))
	for _, stmt := range sqlbase.Migrations[0].Statements(sqlbase.Postgres) {
		rawQuery(t, ctx, dsn, stmt)
	}
	for _, stmt := range []string{
		`INSERT INTO schema_migrations VALUES (1, 'games and moves', now())`,
		`INSERT INTO games (id, game, variants, params, seats, plies, computer_due, created, updated)
			VALUES ('going', 'somegame', '[]', '{}', '[{"player":"human","secret":"s"},{"player":"human","secret":"t"}]', 1, false, now(), now())`,
		`INSERT INTO moves VALUES ('going', 0, 'b2', now())`,
	} {
		rawQuery(t, ctx, dsn, stmt)
	}
	s := open(t, dsn)
	g, err := s.Get(ctx, "going")
	require.NoError(t, err)
	require.Equal(t, []string{"b2"}, g.Record)
	require.Empty(t, g.Fingerprint)
	_, err = s.Append(ctx, "going", store.Move{Ply: 1, Token: "c3"})
	require.NoError(t, err)
}

// TestPostgresRestart: the database stops under a running store (and a
// second one, another process); calls fail with ErrUnavailable, not a
// crash; when it is back, both stores work again and their watchers
// deliver moves again.
func TestPostgresRestart(t *testing.T) {
	ctx := storetest.Ctx(t)
	c := pgtest.Start(t)
	dsn := pgtest.Database(t, c)
	a := open(t, dsn, store.WithOpTimeout(10*time.Second))
	b := open(t, dsn, store.WithOpTimeout(10*time.Second))
	changes, err := b.Watch(ctx)
	require.NoError(t, err)
	g := storetest.NewGame(false)
	require.NoError(t, a.Create(ctx, g))
	_, err = a.Append(ctx, g.ID, store.Move{Ply: 0, Token: "a1"})
	require.NoError(t, err)
	storetest.WaitChange(t, ctx, changes, g.ID, 1)

	require.NoError(t, c.Stop())
	_, err = a.Append(ctx, g.ID, store.Move{Ply: 1, Token: "b1"})
	storetest.RequireKind(t, err, store.ErrUnavailable)
	_, err = b.Get(ctx, g.ID)
	storetest.RequireKind(t, err, store.ErrUnavailable)
	storetest.RequireKind(t, a.Ping(ctx), store.ErrUnavailable)
	_, err = a.Claim(ctx, "x", time.Minute)
	storetest.RequireKind(t, err, store.ErrUnavailable)
	_, err = a.Count(ctx)
	storetest.RequireKind(t, err, store.ErrUnavailable)

	require.NoError(t, c.Start())
	for _, s := range []store.Store{a, b} {
		for {
			err := s.Ping(ctx)
			if err == nil {
				break
			}
			storetest.RequireKind(t, err, store.ErrUnavailable)
			select {
			case <-ctx.Done():
				t.Fatal("the store did not recover")
			case <-time.After(100 * time.Millisecond):
			}
		}
	}
	got, err := a.Append(ctx, g.ID, store.Move{Ply: 1, Token: "b1"})
	require.NoError(t, err)
	require.Equal(t, []string{"a1", "b1"}, got.Record)
	storetest.WaitChange(t, ctx, changes, g.ID, 2)
	_, err = b.Append(ctx, g.ID, store.Move{Ply: 2, Token: "c1"})
	require.NoError(t, err)
	storetest.WaitChange(t, ctx, changes, g.ID, 3)
}

// TestPostgresLockTimeout: a move that waits on a row another session
// holds fails after the statement timeout with ErrUnavailable instead of
// holding its request.
func TestPostgresLockTimeout(t *testing.T) {
	base := pgtest.Database(t, shared.get(t))
	for _, tc := range []struct {
		name string
		dsn  string
		opts []store.Option
	}{
		{"option", base, []store.Option{store.WithStatementTimeout(200 * time.Millisecond)}},
		{"connection string", base + "&statement_timeout=200", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := storetest.Ctx(t)
			s := open(t, tc.dsn, tc.opts...)
			g := storetest.NewGame(false)
			require.NoError(t, s.Create(ctx, g))

			conn, err := pgx.Connect(ctx, base)
			require.NoError(t, err)
			defer conn.Close(context.Background())
			tx, err := conn.Begin(ctx)
			require.NoError(t, err)
			defer tx.Rollback(context.Background())
			_, err = tx.Exec(ctx, `SELECT 1 FROM games WHERE id = $1 FOR UPDATE`, g.ID)
			require.NoError(t, err)

			_, err = s.Append(ctx, g.ID, store.Move{Ply: 0, Token: "a1"})
			storetest.RequireKind(t, err, store.ErrUnavailable)
			require.NoError(t, tx.Rollback(ctx))
			_, err = s.Append(ctx, g.ID, store.Move{Ply: 0, Token: "a1"})
			require.NoError(t, err)
		})
	}
}

// TestPostgresPoolTaken: calls that wait for rows another session holds
// take every connection of the pool; a call for another game then gets
// ErrUnavailable after a second, not after them (up to the lock timeout
// each), and the pool serves again once they are done.
func TestPostgresPoolTaken(t *testing.T) {
	ctx := storetest.Ctx(t)
	dsn := pgtest.Database(t, shared.get(t))
	const conns = 2
	s := open(t, dsn, store.WithMaxConns(conns), store.WithStatementTimeout(time.Minute), store.WithOpTimeout(time.Minute))
	var held []*store.Game
	for range conns {
		g := storetest.NewGame(false)
		require.NoError(t, s.Create(ctx, g))
		held = append(held, g)
	}
	free := storetest.NewGame(false)
	require.NoError(t, s.Create(ctx, free))

	conn, err := pgx.Connect(ctx, dsn)
	require.NoError(t, err)
	defer conn.Close(context.Background())
	tx, err := conn.Begin(ctx)
	require.NoError(t, err)
	defer tx.Rollback(context.Background())
	_, err = tx.Exec(ctx, `SELECT 1 FROM games WHERE id <> $1 FOR UPDATE`, free.ID)
	require.NoError(t, err)

	errs := make(chan error, conns)
	for _, g := range held {
		go func() {
			_, err := s.Append(ctx, g.ID, store.Move{Ply: 0, Token: "a1"})
			errs <- err
		}()
	}
	// Wait until the moves hold the pool: a state, not a time.
	for {
		var waiting int
		require.NoError(t, conn.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`).Scan(&waiting))
		if waiting == conns {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	_, err = s.Get(ctx, free.ID)
	storetest.RequireKind(t, err, store.ErrUnavailable)
	require.ErrorContains(t, err, "every connection to the database (2) is in use")

	require.NoError(t, tx.Rollback(ctx))
	for range conns {
		require.NoError(t, <-errs)
	}
	_, err = s.Get(ctx, free.ID)
	require.NoError(t, err)
}

// TestConcurrentOpen: servers starting together on a fresh database
// migrate it once between them.
func TestConcurrentOpen(t *testing.T) {
	ctx := storetest.Ctx(t)
	dsn := pgtest.Database(t, shared.get(t))
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Go(func() {
			s, err := postgres.Open(ctx, dsn)
			if err == nil {
				err = errors.Join(s.Ping(ctx), s.Close())
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for _, err := range errs {
		require.NoError(t, err)
	}
}

// TestPostgresListenerReconnects: the listener's session is terminated
// (as by a failover or an administrator); it reconnects, and the moves
// made meanwhile, by this store and by another, are still delivered.
func TestPostgresListenerReconnects(t *testing.T) {
	ctx := storetest.Ctx(t)
	dsn := pgtest.Database(t, shared.get(t))
	a, b := open(t, dsn), open(t, dsn)
	changes, err := a.Watch(ctx)
	require.NoError(t, err)
	g := storetest.NewGame(false)
	require.NoError(t, a.Create(ctx, g))

	admin, err := pgx.Connect(ctx, dsn)
	require.NoError(t, err)
	defer admin.Close(context.Background())
	listeners := func() []int32 {
		rows, err := admin.Query(ctx, `SELECT pid FROM pg_stat_activity
			WHERE datname = current_database() AND application_name = 'matombo (listener)'`)
		require.NoError(t, err)
		pids, err := pgx.CollectRows(rows, pgx.RowTo[int32])
		require.NoError(t, err)
		return pids
	}
	var old []int32
	for ply := range 4 {
		// Wait until both stores listen on new sessions, then end those.
		var pids []int32
		for {
			pids = pids[:0]
			for _, p := range listeners() {
				if !slices.Contains(old, p) {
					pids = append(pids, p)
				}
			}
			if len(pids) == 2 {
				break
			}
			select {
			case <-ctx.Done():
				t.Fatal("the listeners did not reconnect")
			case <-time.After(20 * time.Millisecond):
			}
		}
		for _, p := range pids {
			_, err := admin.Exec(ctx, `SELECT pg_terminate_backend($1)`, p)
			require.NoError(t, err)
		}
		old = append(old, pids...)
		mover := []store.Store{a, b}[ply%2]
		_, err := mover.Append(ctx, g.ID, store.Move{Ply: ply, Token: "t"})
		require.NoError(t, err)
		storetest.WaitChange(t, ctx, changes, g.ID, ply+1)
	}
}
