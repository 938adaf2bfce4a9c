//go:build unix

package sqlite_test

import (
	"database/sql"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/host/fifotest"
	"github.com/matombo/matombo/host/store/sqlite"
)

// A --db that is another program's SQLite file is refused before
// anything is written to it: no table is added and its journal mode stays.
func TestOpenRefusesOtherPrograms(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	other := filepath.Join(dir, "other#50%.db")
	db, err := sql.Open("sqlite", other)
	require.NoError(t, err)
	_, err = db.ExecContext(ctx, `CREATE TABLE contacts (name TEXT); INSERT INTO contacts VALUES ('Ada')`)
	require.NoError(t, err)
	require.NoError(t, db.Close())
	before, err := os.ReadFile(other)
	require.NoError(t, err)

	migrateLike := filepath.Join(dir, "migrate.db") // golang-migrate's schema_migrations has other columns
	db, err = sql.Open("sqlite", migrateLike)
	require.NoError(t, err)
	_, err = db.ExecContext(ctx, `CREATE TABLE schema_migrations (version INTEGER, dirty BOOLEAN)`)
	require.NoError(t, err)
	require.NoError(t, db.Close())

	many := filepath.Join(dir, "many.db") // its tables are listed briefly
	db, err = sql.Open("sqlite", many)
	require.NoError(t, err)
	for _, name := range []string{"a", "b", "c", "d", "e", "f", "g"} {
		_, err = db.ExecContext(ctx, `CREATE TABLE `+name+` (x TEXT)`)
		require.NoError(t, err)
	}
	require.NoError(t, db.Close())

	fifo := fifotest.Make(t, filepath.Join(dir, "pipe.db"))

	for _, tc := range []struct{ path, want string }{
		{other, "belongs to another program (its tables: contacts, and no Matombo schema): refusing to write to it"},
		{migrateLike, "belongs to another program (its tables: schema_migrations"},
		{many, "belongs to another program (its tables: a, b, c, d, e and 2 more, and no Matombo schema)"},
		{fifo, "not a regular file"},
	} {
		_, err := sqlite.Open(ctx, tc.path)
		require.ErrorContains(t, err, tc.want)
		assert.ErrorContains(t, err, tc.path)
	}
	after, err := os.ReadFile(other)
	require.NoError(t, err)
	assert.Equal(t, before, after, "the other program's file is unchanged")
	assert.NoFileExists(t, other+"-wal")

	// An empty file and Matombo's own database open.
	empty := filepath.Join(dir, "empty.db")
	require.NoError(t, os.WriteFile(empty, nil, 0o644))
	for range 2 {
		st, err := sqlite.Open(ctx, empty)
		require.NoError(t, err)
		require.NoError(t, st.Close())
	}
}
