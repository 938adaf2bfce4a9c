package store_test

import (
	"context"
	"database/sql"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"
	_ "modernc.org/sqlite"

	"github.com/matombo/matombo/host/store"
)

// rawQuery runs one statement on the backend's database, outside any
// store, and returns the first column of its first row when it has one.
func rawQuery(t *testing.T, ctx context.Context, b backend, dsn, query string) any {
	t.Helper()
	var v any
	if b.postgres {
		conn, err := pgx.Connect(ctx, dsn)
		require.NoError(t, err)
		defer conn.Close(context.Background())
		rows, err := conn.Query(ctx, query)
		require.NoError(t, err)
		defer rows.Close()
		if rows.Next() {
			vals, err := rows.Values()
			require.NoError(t, err)
			v = vals[0]
		}
		require.NoError(t, rows.Err())
		return v
	}
	db, err := sql.Open("sqlite", dsn)
	require.NoError(t, err)
	defer db.Close()
	rows, err := db.QueryContext(ctx, query)
	require.NoError(t, err)
	defer rows.Close()
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
	forEach(t, func(t *testing.T, b backend) {
		if !b.persistent {
			t.Skip("an in-memory database cannot be inspected from outside")
		}
		ctx := testCtx(t)
		dsn := b.dsn(t)
		for range 2 {
			s, err := store.Open(ctx, dsn)
			require.NoError(t, err)
			require.NoError(t, s.Close())
		}
		require.EqualValues(t, 1, rawQuery(t, ctx, b, dsn, `SELECT count(*) FROM schema_migrations`))
		require.EqualValues(t, "games and moves", rawQuery(t, ctx, b, dsn, `SELECT name FROM schema_migrations WHERE version = 1`))

		rawQuery(t, ctx, b, dsn, `INSERT INTO schema_migrations (version, name, applied) VALUES (999, 'future', `+
			map[bool]string{true: "now()", false: "0"}[b.postgres]+`)`)
		_, err := store.Open(ctx, dsn)
		require.ErrorContains(t, err, "schema version 999, newer than this program's 1; use a newer matombo")
	})
}
