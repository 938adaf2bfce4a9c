//go:build unix

package main

import (
	"bytes"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/host/fifotest"
	"github.com/matombo/matombo/host/store"
)

// TestServeBadDatabase: a --db that cannot be the game database is
// refused at start, exit 1, with one line naming the file and the cause,
// and the file is left as it was.
func TestServeBadDatabase(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.db")
	st, err := store.Open(t.Context(), good)
	require.NoError(t, err)
	require.NoError(t, st.Create(t.Context(), &store.Game{Game: "tsoro"}))
	require.NoError(t, st.Close())
	valid, err := os.ReadFile(good)
	require.NoError(t, err)
	require.Greater(t, len(valid), 8192)
	file := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, b, 0o644))
		return p
	}
	sqlFile := func(name string, stmts ...string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, valid, 0o644))
		if len(stmts) == 0 {
			require.NoError(t, os.Remove(p))
		}
		db, err := sql.Open("sqlite", p)
		require.NoError(t, err)
		defer db.Close()
		for _, s := range stmts {
			_, err := db.Exec(s)
			require.NoError(t, err)
		}
		return p
	}
	fifo := fifotest.Make(t, filepath.Join(dir, "pipe.db"))
	middle := bytes.Clone(valid)
	copy(middle[100:4000], bytes.Repeat([]byte{0xa5}, 3900))

	for _, tc := range []struct{ name, path, cause string }{
		{"truncated", file("truncated.db", valid[:3000]), "malformed"},
		{"random bytes in the middle", file("middle.db", middle), "malformed"},
		{"not SQLite", file("notes.db", []byte(strings.Repeat("notes ", 100))), "file is not a database"},
		{"another program's database", func() string {
			p := sqlFile("other.db")
			rawExec(t, p, `CREATE TABLE contacts (name TEXT)`)
			return p
		}(), "belongs to another program (its tables: contacts"},
		{"a newer schema", sqlFile("newer.db", `INSERT INTO schema_migrations (version, name, applied) VALUES (999, 'future', 0)`), "schema version 999, newer than this program's"},
		{"a folder", t.TempDir(), "not a regular file (a folder)"},
		{"a named pipe", fifo, "not a regular file (a named pipe)"},
		{"a device", "/dev/null", "not a regular file (a character device)"},
		{"a missing folder", filepath.Join(dir, "no", "games.db"), "does not exist"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var before []byte
			if info, err := os.Stat(tc.path); err == nil && info.Mode().IsRegular() {
				before, _ = os.ReadFile(tc.path)
			}
			var out, errOut bytes.Buffer
			status := make(chan int, 1)
			go func() {
				status <- run([]string{"serve", "--addr", "127.0.0.1:0", "--db", tc.path}, strings.NewReader(""), &out, &errOut)
			}()
			select {
			case s := <-status:
				assert.Equal(t, exitFail, s)
			case <-time.After(time.Minute):
				t.Fatalf("serve --db %s neither refused nor stopped", tc.path)
			}
			msg := errOut.String()
			assert.Equal(t, 1, strings.Count(msg, "\n"), "one line: %q", msg)
			assert.Contains(t, msg, tc.path)
			assert.Contains(t, msg, tc.cause)
			assert.NotContains(t, msg, "panic")
			if before != nil {
				after, _ := os.ReadFile(tc.path)
				assert.Equal(t, before, after, "the file is left as it was")
			}
		})
	}
}

// rawExec runs one statement on a SQLite file outside any store.
func rawExec(t *testing.T, path, stmt string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	require.NoError(t, err)
	defer db.Close()
	_, err = db.Exec(stmt)
	require.NoError(t, err)
}
