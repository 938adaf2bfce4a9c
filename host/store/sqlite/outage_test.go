package sqlite_test

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/host/store"
	"github.com/matombo/matombo/host/store/sqlite"
	"github.com/matombo/matombo/host/store/storetest"
)

// holdWriteLock takes the write lock of the SQLite file at path, as
// another process would, until the returned function is called.
func holdWriteLock(t *testing.T, path string) (release func()) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	require.NoError(t, err)
	conn, err := db.Conn(context.Background())
	require.NoError(t, err)
	_, err = conn.ExecContext(context.Background(), "BEGIN IMMEDIATE")
	require.NoError(t, err)
	released := false
	release = func() {
		if released {
			return
		}
		released = true
		_, err := conn.ExecContext(context.Background(), "ROLLBACK")
		assert.NoError(t, err)
		conn.Close()
		db.Close()
	}
	t.Cleanup(release)
	return release
}

// TestOutage: while the database cannot take writes, every write fails
// with ErrUnavailable and a reason, and only one of many waits the busy
// timeout (the others are answered at once, not queued behind it); reads
// go on; once the database is back writes go through again, and every
// acknowledged move is in the file. A file deleted or replaced under the
// store is lost for good: nothing more is acknowledged (it would be
// written where nobody reads it), and Ping says so.
func TestOutage(t *testing.T) {
	const busy = time.Second
	cases := []struct {
		name string
		// outage breaks the database at path and returns what mends it
		// (nil when nothing does).
		outage func(t *testing.T, path string) (mend func())
		reason string // in the error of a write during the outage
	}{
		{"locked by another process", func(t *testing.T, path string) func() {
			return holdWriteLock(t, path)
		}, "locked by another writer"},
		{"file deleted", func(t *testing.T, path string) func() {
			for _, f := range []string{path, path + "-wal", path + "-shm"} {
				require.NoError(t, os.Remove(f))
			}
			return nil
		}, "was deleted"},
		{"file replaced", func(t *testing.T, path string) func() {
			other := filepath.Join(filepath.Dir(path), "other.db")
			rawQuery(t, other, `CREATE TABLE notes (x)`)
			require.NoError(t, os.Rename(other, path))
			return nil
		}, "was replaced"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := storetest.Ctx(t)
			path := filepath.Join(t.TempDir(), "games.db")
			s, err := sqlite.Open(ctx, path, store.WithBusyTimeout(busy), store.WithOpTimeout(time.Minute))
			require.NoError(t, err)
			defer s.Close()
			g := storetest.NewGame(false)
			require.NoError(t, s.Create(ctx, g))
			acked := []string{}
			appendMove := func() error {
				tok := "m" + string(rune('a'+len(acked)))
				_, err := s.Append(ctx, g.ID, store.Move{Ply: len(acked), Token: tok})
				if err == nil {
					acked = append(acked, tok)
				}
				return err
			}
			require.NoError(t, appendMove())

			mend := tc.outage(t, path)
			start := time.Now()
			const writes = 20
			for i := range writes {
				err := appendMove()
				require.Error(t, err, "write %d during the outage", i)
				assert.ErrorIs(t, err, store.ErrUnavailable)
				assert.ErrorContains(t, err, tc.reason)
				assert.Equal(t, mend == nil, errors.Is(err, store.ErrGone), "gone for good exactly when nothing mends it: %v", err)
			}
			// Queued one after the other, the writes would take a busy
			// timeout each; answered at once, a few at most.
			assert.Less(t, time.Since(start), writes*busy/4, "writes during an outage wait for the database in turn")
			got, err := s.Get(ctx, g.ID)
			if mend == nil && err != nil {
				// A reading connection opened since the file went reads
				// another file: the store says why.
				assert.ErrorIs(t, err, store.ErrUnavailable)
				assert.ErrorContains(t, err, tc.reason)
			} else {
				require.NoError(t, err, "reads go on")
				assert.Equal(t, acked, got.Record)
			}

			if mend == nil {
				assert.ErrorIs(t, s.Ping(ctx), store.ErrGone)
				assert.ErrorContains(t, s.Ping(ctx), tc.reason)
				return
			}
			mend()
			require.NoError(t, s.Ping(ctx))
			deadline := time.Now().Add(time.Minute)
			for {
				err := appendMove()
				if err == nil {
					break
				}
				require.ErrorIs(t, err, store.ErrUnavailable)
				require.True(t, time.Now().Before(deadline), "writes do not go through once the database is back: %v", err)
				time.Sleep(20 * time.Millisecond)
			}
			require.NoError(t, appendMove())
			require.NoError(t, s.Close())

			s2, err := sqlite.Open(ctx, path)
			require.NoError(t, err)
			defer s2.Close()
			got, err = s2.Get(ctx, g.ID)
			require.NoError(t, err)
			assert.Equal(t, acked, got.Record, "every acknowledged move, and only those")
		})
	}
}

// TestOutageConcurrentWrites: writes made together while another process
// holds the database are all answered within about one busy timeout,
// not one after the other.
func TestOutageConcurrentWrites(t *testing.T) {
	const busy = time.Second
	ctx := storetest.Ctx(t)
	path := filepath.Join(t.TempDir(), "games.db")
	s, err := sqlite.Open(ctx, path, store.WithBusyTimeout(busy), store.WithOpTimeout(time.Minute))
	require.NoError(t, err)
	defer s.Close()
	const n = 16
	var ids []string
	for range n {
		g := storetest.NewGame(false)
		require.NoError(t, s.Create(ctx, g))
		ids = append(ids, g.ID)
	}
	holdWriteLock(t, path)
	start := time.Now()
	errs := make(chan error, n)
	for _, id := range ids {
		go func() {
			_, err := s.Append(ctx, id, store.Move{Ply: 0, Token: "x"})
			errs <- err
		}()
	}
	for range n {
		err := <-errs
		require.Error(t, err)
		assert.True(t, errors.Is(err, store.ErrUnavailable), "%v", err)
	}
	assert.Less(t, time.Since(start), n*busy/4)
}
