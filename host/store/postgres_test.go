package store_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/host/store"
	"github.com/matombo/matombo/host/store/pgtest"
)

// waitChange waits for the next change on ch and checks it.
func waitChange(t *testing.T, ctx context.Context, ch <-chan store.Change, want store.Change) {
	t.Helper()
	for {
		select {
		case c, ok := <-ch:
			require.True(t, ok, "the watch channel closed")
			if c.ID == want.ID && c.Ply < want.Ply {
				continue // delivered again after a reconnect: allowed
			}
			require.Equal(t, want, c)
			return
		case <-ctx.Done():
			t.Fatalf("change %+v never arrived", want)
		}
	}
}

// TestPostgresRestart: the database stops under a running store (and a
// second one, another process); calls fail with ErrUnavailable, not a
// crash; when it is back, both stores work again and their watchers
// deliver moves again.
func TestPostgresRestart(t *testing.T) {
	ctx := testCtx(t)
	c := pgtest.Start(t)
	dsn := pgtest.Database(t, c)
	a := open(t, dsn, store.WithOpTimeout(10*time.Second))
	b := open(t, dsn, store.WithOpTimeout(10*time.Second))
	changes, err := b.Watch(ctx)
	require.NoError(t, err)
	g := newGame(false)
	require.NoError(t, a.Create(ctx, g))
	_, err = a.Append(ctx, g.ID, 0, "a1", false, nil, false)
	require.NoError(t, err)
	waitChange(t, ctx, changes, store.Change{ID: g.ID, Ply: 0})

	require.NoError(t, c.Stop())
	_, err = a.Append(ctx, g.ID, 1, "b1", false, nil, false)
	requireKind(t, err, store.ErrUnavailable)
	_, err = b.Get(ctx, g.ID)
	requireKind(t, err, store.ErrUnavailable)
	requireKind(t, a.Ping(ctx), store.ErrUnavailable)
	_, err = a.Claim(ctx, "x", time.Minute)
	requireKind(t, err, store.ErrUnavailable)
	_, err = a.Count(ctx)
	requireKind(t, err, store.ErrUnavailable)

	require.NoError(t, c.Start())
	for _, s := range []store.Store{a, b} {
		for {
			err := s.Ping(ctx)
			if err == nil {
				break
			}
			requireKind(t, err, store.ErrUnavailable)
			select {
			case <-ctx.Done():
				t.Fatal("the store did not recover")
			case <-time.After(100 * time.Millisecond):
			}
		}
	}
	got, err := a.Append(ctx, g.ID, 1, "b1", false, nil, false)
	require.NoError(t, err)
	require.Equal(t, []string{"a1", "b1"}, got.Record)
	waitChange(t, ctx, changes, store.Change{ID: g.ID, Ply: 1})
	_, err = b.Append(ctx, g.ID, 2, "c1", false, nil, false)
	require.NoError(t, err)
	waitChange(t, ctx, changes, store.Change{ID: g.ID, Ply: 2})
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
			ctx := testCtx(t)
			s := open(t, tc.dsn, tc.opts...)
			g := newGame(false)
			require.NoError(t, s.Create(ctx, g))

			conn, err := pgx.Connect(ctx, base)
			require.NoError(t, err)
			defer conn.Close(context.Background())
			tx, err := conn.Begin(ctx)
			require.NoError(t, err)
			defer tx.Rollback(context.Background())
			_, err = tx.Exec(ctx, `SELECT 1 FROM games WHERE id = $1 FOR UPDATE`, g.ID)
			require.NoError(t, err)

			_, err = s.Append(ctx, g.ID, 0, "a1", false, nil, false)
			requireKind(t, err, store.ErrUnavailable)
			require.NoError(t, tx.Rollback(ctx))
			_, err = s.Append(ctx, g.ID, 0, "a1", false, nil, false)
			require.NoError(t, err)
		})
	}
}

// TestConcurrentOpen: servers starting together on a fresh database
// migrate it once between them.
func TestConcurrentOpen(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		if !b.shared {
			t.Skip("an in-memory database is not shared")
		}
		ctx := testCtx(t)
		dsn := b.dsn(t)
		var wg sync.WaitGroup
		errs := make([]error, 4)
		for i := range errs {
			wg.Go(func() {
				s, err := store.Open(ctx, dsn)
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
	})
}

// TestPostgresListenerReconnects: the listener's session is terminated
// (as by a failover or an administrator); it reconnects, and the moves
// made meanwhile, by this store and by another, are still delivered.
func TestPostgresListenerReconnects(t *testing.T) {
	ctx := testCtx(t)
	dsn := pgtest.Database(t, shared.get(t))
	a, b := open(t, dsn), open(t, dsn)
	changes, err := a.Watch(ctx)
	require.NoError(t, err)
	g := newGame(false)
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
		_, err := mover.Append(ctx, g.ID, ply, "t", false, nil, false)
		require.NoError(t, err)
		waitChange(t, ctx, changes, store.Change{ID: g.ID, Ply: ply})
	}
}
