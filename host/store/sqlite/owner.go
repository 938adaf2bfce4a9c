package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/matombo/matombo/host/diag"
	"github.com/matombo/matombo/host/safefile"
	"github.com/matombo/matombo/host/store"
)

// sqliteHeader starts every SQLite database file.
const sqliteHeader = "SQLite format 3\x00"

// checkSQLiteOwner refuses a SQLite path that is not Matombo's to write
// to, before anything is written to it: something other than a regular
// file (a named pipe would hang the open, a device is no database), a
// file that is not a SQLite database, or a database of another program:
// one with tables but without Matombo's schema_migrations. A missing or
// empty file, or an empty database, is Matombo's to create. It opens an
// existing database read-only, so that neither its tables nor its journal
// mode change, waiting up to busyTimeout for another process that holds it.
func checkSQLiteOwner(ctx context.Context, path string, busyTimeout time.Duration) error {
	info, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return &store.Error{Op: "open", Detail: fmt.Sprintf("SQLite database %s", path), Err: err}
	}
	if !info.Mode().IsRegular() {
		return &store.Error{Op: "open", Detail: fmt.Sprintf("SQLite database %s: not a regular file (%s)", path, safefile.Kind(info.Mode()))}
	}
	if info.Size() == 0 {
		return nil
	}
	// Through safefile: a file swapped for a named pipe since the check
	// does not hang the open.
	f, err := safefile.Open(path, math.MaxInt64)
	if err != nil {
		return &store.Error{Op: "open", Detail: fmt.Sprintf("SQLite database %s", path), Err: err}
	}
	head := make([]byte, len(sqliteHeader))
	_, err = io.ReadFull(f, head)
	f.Close()
	if err != nil || string(head) != sqliteHeader {
		return &store.Error{Op: "open", Detail: fmt.Sprintf("SQLite database %s: file is not a database (it does not start with SQLite's header); refusing to write to it", path)}
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return &store.Error{Op: "open", Detail: fmt.Sprintf("SQLite database %s", path), Err: err}
	}
	// A URI, so that SQLite applies mode=ro; % and # are escaped in it.
	uri := "file:" + strings.NewReplacer("%", "%25", "#", "%23").Replace(filepath.ToSlash(abs)) + "?mode=ro" +
		fmt.Sprintf("&_pragma=busy_timeout(%d)", busyTimeout.Milliseconds())
	db, err := sql.Open("sqlite", uri)
	if err != nil {
		return &store.Error{Op: "open", Detail: fmt.Sprintf("SQLite database %s", path), Err: err}
	}
	defer db.Close()
	// Another process creating the same file may hold it a moment (its
	// switch to WAL does not wait for busy_timeout): read again until the
	// busy timeout, as Open's migration does.
	var tables []string
	var ours bool
	err = retryBusy(ctx, busyTimeout, func() error {
		var err error
		tables, ours, err = readSchema(ctx, db)
		return err
	})
	if err != nil {
		return &store.Error{Op: "open", Detail: fmt.Sprintf("SQLite database %s: reading its tables", path), Err: err}
	}
	if len(tables) == 0 || ours {
		return nil // a new database, or Matombo's of this or another version: migrate decides
	}
	return &store.Error{Op: "open", Detail: fmt.Sprintf("SQLite database %s belongs to another program (its tables: %s, and no Matombo schema): refusing to write to it; give --db a new file",
		path, diag.ShortList(tables, 5))}
}

// readSchema returns the tables of a database and whether it holds
// Matombo's schema_migrations table.
func readSchema(ctx context.Context, db *sql.DB) (tables []string, ours bool, err error) {
	rows, err := db.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\_%' ESCAPE '\' ORDER BY name`)
	if err != nil {
		return nil, false, err
	}
	defer rows.Close()
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, false, err
		}
		tables = append(tables, name)
	}
	if err := rows.Err(); err != nil {
		return nil, false, err
	}
	if !slices.Contains(tables, "schema_migrations") {
		return tables, false, nil
	}
	crows, err := db.QueryContext(ctx, `SELECT name FROM pragma_table_info('schema_migrations') ORDER BY name`)
	if err != nil {
		return nil, false, err
	}
	defer crows.Close()
	var cols []string
	for crows.Next() {
		var c string
		if err := crows.Scan(&c); err != nil {
			return nil, false, err
		}
		cols = append(cols, c)
	}
	if err := crows.Err(); err != nil {
		return nil, false, err
	}
	return tables, slices.Equal(cols, []string{"applied", "name", "version"}), nil
}
