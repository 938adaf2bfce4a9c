package sqlite_test

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/host/store"
	"github.com/matombo/matombo/host/store/internal/sqlbase"
	"github.com/matombo/matombo/host/store/sqlite"
	"github.com/matombo/matombo/host/store/storetest"
)

func TestMain(m *testing.M) {
	storetest.HelperMain(sqlite.Open)
	os.Exit(m.Run())
}

// TestContract runs the store contract on a SQLite file (stores opened on
// one file share it, as processes do) and on ":memory:" (a private
// database per store).
func TestContract(t *testing.T) {
	t.Run("file", func(t *testing.T) {
		storetest.Run(t, storetest.Backend{
			New: func(t *testing.T) storetest.Opener {
				path := filepath.Join(t.TempDir(), "games.db")
				// Stores sharing a file wait for each other's writes: under
				// the race detector on a loaded machine, longer than the
				// default 5s.
				return func(ctx context.Context) (store.Store, error) {
					return sqlite.Open(ctx, path, store.WithBusyTimeout(time.Minute), store.WithOpTimeout(2*time.Minute))
				}
			},
			Shared:     true,
			Persistent: true,
		})
	})
	t.Run("memory", func(t *testing.T) {
		storetest.Run(t, storetest.Backend{
			New: func(t *testing.T) storetest.Opener {
				return func(ctx context.Context) (store.Store, error) { return sqlite.Open(ctx, ":memory:") }
			},
		})
	})
}

// TestProcesses: processes sharing one file, killed with SIGKILL.
func TestProcesses(t *testing.T) {
	storetest.RunProcesses(t, func(t *testing.T) string { return filepath.Join(t.TempDir(), "games.db") }, sqlite.Open)
}

// TestOpenByName: store.Open gives SQLite for paths, ":memory:" and
// "sqlite://" names once this package is linked.
func TestOpenByName(t *testing.T) {
	ctx := storetest.Ctx(t)
	dir := t.TempDir()
	for _, dsn := range []string{":memory:", filepath.Join(dir, "a.db"), "sqlite://" + filepath.Join(dir, "b.db")} {
		s, err := store.Open(ctx, dsn)
		require.NoError(t, err, dsn)
		require.NoError(t, s.Ping(ctx))
		require.NoError(t, s.Close())
	}
	assert.FileExists(t, filepath.Join(dir, "b.db"))
	assert.Contains(t, store.Schemes(), "sqlite")
}

func TestOpenErrors(t *testing.T) {
	ctx := storetest.Ctx(t)
	notDB := filepath.Join(t.TempDir(), "notes.txt")
	require.NoError(t, os.WriteFile(notDB, []byte(strings.Repeat("not a database ", 20)), 0o644))
	for _, tc := range []struct {
		dsn, words string
		kind       error
	}{
		{"", "empty database path", nil},
		{"a?b.db", "contains '?'", nil},
		{filepath.Join(t.TempDir(), "no", "such", "dir.db"), "such does not exist", store.ErrUnavailable},
		{t.TempDir(), "not a regular file (a folder)", nil},
		{notDB, "SQLite database " + notDB + ": file is not a database", nil},
	} {
		t.Run(tc.dsn, func(t *testing.T) {
			_, err := sqlite.Open(ctx, tc.dsn)
			require.ErrorContains(t, err, tc.words)
			if tc.kind != nil {
				storetest.RequireKind(t, err, tc.kind)
			}
		})
	}
}

// rawQuery runs one statement on a SQLite file outside any store and
// returns the first column of its first row, when it has one.
func rawQuery(t *testing.T, path, query string, args ...any) any {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	require.NoError(t, err)
	defer db.Close()
	rows, err := db.Query(query, args...)
	require.NoError(t, err)
	defer rows.Close()
	var v any
	if rows.Next() {
		require.NoError(t, rows.Scan(&v))
	}
	require.NoError(t, rows.Err())
	return v
}

// TestMigrations: a new database gets every step once, recorded in
// schema_migrations; opening it again applies nothing; a database newer
// than the program is refused with a message.
func TestMigrations(t *testing.T) {
	ctx := storetest.Ctx(t)
	path := filepath.Join(t.TempDir(), "games.db")
	for range 2 {
		s, err := sqlite.Open(ctx, path)
		require.NoError(t, err)
		require.NoError(t, s.Close())
	}
	require.EqualValues(t, len(sqlbase.Migrations), rawQuery(t, path, `SELECT count(*) FROM schema_migrations`))
	require.EqualValues(t, "games and moves", rawQuery(t, path, `SELECT name FROM schema_migrations WHERE version = 1`))

	rawQuery(t, path, `INSERT INTO schema_migrations (version, name, applied) VALUES (999, 'future', 0)`)
	_, err := sqlite.Open(ctx, path)
	require.ErrorContains(t, err, "schema version 999, newer than this program's 2; use a newer matombo")
}

// TestMigrateFromVersion1: a database written by the first schema (games
// stored before fingerprints, clocks and rematches) opens, keeps its
// games, and its changes are watched.
func TestMigrateFromVersion1(t *testing.T) {
	ctx := storetest.Ctx(t)
	path := filepath.Join(t.TempDir(), "games.db")
	db, err := sql.Open("sqlite", path)
	require.NoError(t, err)
	_, err = db.Exec(sqlbase.SQLite.Expand(sqlbase.MigrationsTable))
	require.NoError(t, err)
	for _, stmt := range sqlbase.Migrations[0].Statements(sqlbase.SQLite) {
		_, err := db.Exec(stmt)
		require.NoError(t, err)
	}
	for _, stmt := range []string{
		`INSERT INTO schema_migrations VALUES (1, 'games and moves', 0)`,
		`INSERT INTO games (id, game, variants, params, seats, plies, over, result, computer_due, created, updated)
			VALUES ('old', 'somegame', '["4x8"]', '{}', '[{"player":"human","secret":"s"},{"player":"random"}]', 1, 1,
			'{"winner":1,"method":"no moves","reason":"stuck","notes":[],"scores":[1,0]}', 0, 1000, 1000)`,
		`INSERT INTO games (id, game, variants, params, seats, plies, computer_due, created, updated)
			VALUES ('going', 'somegame', '[]', '{}', '[{"player":"human","secret":"s"},{"player":"human","secret":"t"}]', 1, 0, 1000, 1000)`,
		`INSERT INTO moves VALUES ('old', 0, 'a1', 1000)`,
		`INSERT INTO moves VALUES ('going', 0, 'b2', 1000)`,
	} {
		_, err := db.Exec(stmt)
		require.NoError(t, err, stmt)
	}
	require.NoError(t, db.Close())

	s, err := sqlite.Open(ctx, path)
	require.NoError(t, err)
	defer s.Close()
	g, err := s.Get(ctx, "old")
	require.NoError(t, err)
	assert.Equal(t, []string{"a1"}, g.Record)
	require.True(t, g.Over())
	assert.Equal(t, &store.Result{Winner: 1, Method: "no moves", Reason: "stuck", Notes: []string{}, Scores: []float64{1, 0}}, g.Result)
	assert.Empty(t, g.Fingerprint)
	assert.Nil(t, g.Clock)
	changes, err := s.Watch(ctx)
	require.NoError(t, err)
	_, err = s.Append(ctx, "going", store.Move{Ply: 1, Token: "c3"})
	require.NoError(t, err)
	storetest.WaitChange(t, ctx, changes, "going", 2)
}

// TestConcurrentOpen: processes opening a fresh file together migrate it
// once between them.
func TestConcurrentOpen(t *testing.T) {
	ctx := storetest.Ctx(t)
	path := filepath.Join(t.TempDir(), "games.db")
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Go(func() {
			s, err := sqlite.Open(ctx, path)
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

// TestLinksOnlySQLite: a program that imports only this backend links no
// PostgreSQL driver (what the split of the backends is for).
func TestLinksOnlySQLite(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on the PATH")
	}
	out, err := exec.Command(goTool, "list", "-deps", "./testdata/onlysqlite").CombinedOutput()
	require.NoError(t, err, "%s", out)
	deps := string(out)
	require.Contains(t, deps, "modernc.org/sqlite\n")
	require.Contains(t, deps, "github.com/matombo/matombo/host/store\n")
	for _, line := range strings.Split(deps, "\n") {
		assert.NotContains(t, line, "jackc/pgx", "a SQLite-only program links %s", line)
		assert.NotContains(t, line, "host/store/postgres", "a SQLite-only program links %s", line)
	}
}

// TestPruneTies: games updated in the same microsecond are deleted with
// their moves, or kept with them, whatever the limit cuts between them.
func TestPruneTies(t *testing.T) {
	ctx := storetest.Ctx(t)
	path := filepath.Join(t.TempDir(), "games.db")
	s, err := sqlite.Open(ctx, path)
	require.NoError(t, err)
	defer s.Close()
	const n = 12
	for range n {
		g := storetest.NewGame(false)
		g.Record = []string{"a1", "b2", "c3"}
		require.NoError(t, s.Create(ctx, g))
	}
	rawQuery(t, path, `UPDATE games SET updated = 1000`)
	p := s.(store.Pruner)
	for left := n; left > 0; {
		k, err := p.Prune(ctx, time.UnixMicro(2000), 5)
		require.NoError(t, err)
		require.Equal(t, min(5, left), k)
		left -= k
		assert.EqualValues(t, left, rawQuery(t, path, `SELECT count(*) FROM games`))
		assert.EqualValues(t, 3*left, rawQuery(t, path, `SELECT count(*) FROM moves`), "the moves of the games kept, and only those")
	}
}
