package store_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/host/store"
)

func newGame(due bool) *store.Game {
	return &store.Game{
		Game:        "somegame",
		Variants:    []string{"small", "fast"},
		Params:      map[string]any{"bonus": float64(3), "name": "x"},
		Seats:       []store.Seat{{Player: "human", Secret: store.NewSecret()}, {Player: "random"}},
		ComputerDue: due,
	}
}

func requireKind(t *testing.T, err, kind error) {
	t.Helper()
	require.Error(t, err)
	require.ErrorIs(t, err, kind)
	var se *store.Error
	require.ErrorAs(t, err, &se, "errors are *store.Error")
}

func TestCreateGet(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		ctx := testCtx(t)
		_, ss := openN(t, b, 2)
		a, other := ss[0], ss[1]

		g := newGame(false)
		g.Record = []string{"a1", "b2"}
		before := time.Now().Add(-time.Minute)
		require.NoError(t, a.Create(ctx, g))
		require.NotEmpty(t, g.ID)
		assert.True(t, g.Created.After(before), "Created is set")
		assert.Equal(t, g.Created, g.Updated)

		got, err := other.Get(ctx, g.ID)
		require.NoError(t, err)
		assert.Equal(t, g.ID, got.ID)
		assert.Equal(t, "somegame", got.Game)
		assert.Equal(t, []string{"small", "fast"}, got.Variants)
		assert.Equal(t, map[string]any{"bonus": float64(3), "name": "x"}, got.Params)
		assert.Equal(t, g.Seats, got.Seats)
		assert.Equal(t, []string{"a1", "b2"}, got.Record)
		assert.Equal(t, 2, got.Ply())
		assert.False(t, got.Over)
		assert.Nil(t, got.Result)
		assert.True(t, got.Created.Equal(g.Created), "created %v, stored %v", g.Created, got.Created)

		// A given ID is kept, and a second game with it is a conflict.
		h := newGame(true)
		h.ID = "fixed-id"
		require.NoError(t, a.Create(ctx, h))
		requireKind(t, other.Create(ctx, &store.Game{ID: "fixed-id", Game: "somegame"}), store.ErrConflict)

		n, err := other.Count(ctx)
		require.NoError(t, err)
		assert.Equal(t, 2, n)

		_, err = a.Get(ctx, "no-such-game")
		requireKind(t, err, store.ErrNotFound)
		assert.Contains(t, err.Error(), `"no-such-game"`)

		err = a.Create(ctx, &store.Game{})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "name is empty")
		err = a.Create(ctx, &store.Game{Game: "g", Record: []string{""}})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "token 0 of the record is empty")

		require.NoError(t, a.Ping(ctx))
	})
}

func TestList(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		ctx := testCtx(t)
		s := open(t, b.dsn(t))
		var ids []string
		for range 3 {
			g := newGame(false)
			require.NoError(t, s.Create(ctx, g))
			ids = append(ids, g.ID)
		}
		_, err := s.Append(ctx, ids[0], 0, "a1", false, nil, true)
		require.NoError(t, err)
		list, err := s.(store.Lister).List(ctx, 2)
		require.NoError(t, err)
		require.Len(t, list, 2)
		assert.Equal(t, ids[0], list[0].ID, "the game moved last comes first")
		assert.Equal(t, 1, list[0].Plies)
		assert.True(t, list[0].ComputerDue)
		assert.Equal(t, []string{"human", "random"}, list[0].Seats)
		assert.Equal(t, []string{"small", "fast"}, list[0].Variants)
	})
}

func TestAppend(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		ctx := testCtx(t)
		s := open(t, b.dsn(t))
		g := newGame(false)
		require.NoError(t, s.Create(ctx, g))

		got, err := s.Append(ctx, g.ID, 0, "a1", false, nil, true)
		require.NoError(t, err)
		assert.Equal(t, []string{"a1"}, got.Record)
		assert.True(t, got.ComputerDue)
		assert.False(t, got.Updated.Before(g.Updated))

		for _, tc := range []struct {
			name  string
			id    string
			ply   int
			kind  error
			words string
		}{
			{"same ply again", g.ID, 0, store.ErrConflict, "move for ply 0, but the game is at ply 1"},
			{"ply ahead", g.ID, 5, store.ErrConflict, "move for ply 5, but the game is at ply 1"},
			{"negative ply", g.ID, -1, store.ErrConflict, "move for ply -1"},
			{"unknown game", "nope", 0, store.ErrNotFound, `"nope"`},
		} {
			t.Run(tc.name, func(t *testing.T) {
				_, err := s.Append(ctx, tc.id, tc.ply, "zz", false, nil, false)
				requireKind(t, err, tc.kind)
				assert.Contains(t, err.Error(), tc.words)
			})
		}
		_, err = s.Append(ctx, g.ID, 1, "", false, nil, false)
		require.ErrorContains(t, err, "empty move token")
		_, err = s.Append(ctx, g.ID, 1, "b1", true, json.RawMessage(`{"winner":`), false)
		require.ErrorContains(t, err, "not valid JSON")

		result := json.RawMessage(`{"winner": 1, "reason": "no moves"}`)
		got, err = s.Append(ctx, g.ID, 1, "b1", true, result, false)
		require.NoError(t, err)
		assert.True(t, got.Over)
		assert.JSONEq(t, string(result), string(got.Result))
		assert.Equal(t, []string{"a1", "b1"}, got.Record)

		_, err = s.Append(ctx, g.ID, 2, "c1", false, nil, false)
		requireKind(t, err, store.ErrConflict)
		assert.Contains(t, err.Error(), "the game is over")

		got, err = s.Get(ctx, g.ID)
		require.NoError(t, err)
		assert.Equal(t, []string{"a1", "b1"}, got.Record)
		assert.JSONEq(t, string(result), string(got.Result))
	})
}

// TestRacingAppends: many goroutines, spread over two stores where the
// backend has processes, append for the same ply; exactly one wins each
// ply and the others get ErrConflict.
func TestRacingAppends(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		ctx := testCtx(t)
		_, ss := openN(t, b, 2)
		g := newGame(false)
		require.NoError(t, ss[0].Create(ctx, g))
		const plies, racers = 12, 8
		winners := make([]string, plies)
		for ply := range plies {
			var wg sync.WaitGroup
			start := make(chan struct{})
			var mu sync.Mutex
			var won []string
			var conflicts int
			for r := range racers {
				wg.Go(func() {
					<-start
					tok := fmt.Sprintf("p%dr%d", ply, r)
					_, err := ss[r%2].Append(ctx, g.ID, ply, tok, false, nil, false)
					mu.Lock()
					defer mu.Unlock()
					switch {
					case err == nil:
						won = append(won, tok)
					case errors.Is(err, store.ErrConflict):
						conflicts++
					default:
						t.Errorf("ply %d racer %d: %v", ply, r, err)
					}
				})
			}
			close(start)
			wg.Wait()
			require.Len(t, won, 1, "ply %d: exactly one append wins", ply)
			require.Equal(t, racers-1, conflicts, "ply %d: the others conflict", ply)
			winners[ply] = won[0]
		}
		got, err := ss[1].Get(ctx, g.ID)
		require.NoError(t, err)
		assert.Equal(t, winners, got.Record)
	})
}

// TestClaimExclusive: three claimers (three stores where the backend has
// processes) drain the due games; each due game is claimed exactly once,
// and no other game is.
func TestClaimExclusive(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		ctx := testCtx(t)
		_, ss := openN(t, b, 3)
		due := map[string]bool{}
		for i := range 12 {
			g := newGame(i%4 != 0) // 9 due, 3 not
			if i == 5 {
				g.Over = true // due but over: never claimed
			}
			require.NoError(t, ss[0].Create(ctx, g))
			if g.ComputerDue && !g.Over {
				due[g.ID] = true
			}
		}
		require.Len(t, due, 8)
		var mu sync.Mutex
		claimed := map[string][]string{}
		var wg sync.WaitGroup
		for c := range 3 {
			owner := "claimer" + strconv.Itoa(c)
			wg.Go(func() {
				for {
					g, err := ss[c].Claim(ctx, owner, time.Hour)
					if errors.Is(err, store.ErrNotFound) {
						return
					}
					if err != nil {
						t.Errorf("%s: %v", owner, err)
						return
					}
					mu.Lock()
					claimed[g.ID] = append(claimed[g.ID], owner)
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		for id, owners := range claimed {
			assert.True(t, due[id], "claimed game %s was not due", id)
			assert.Len(t, owners, 1, "game %s claimed by %v", id, owners)
		}
		assert.Len(t, claimed, len(due), "every due game is claimed")

		// A move clears the claim: the game is claimable again when the
		// next seat is a computer too.
		var one string
		for id := range due {
			one = id
			break
		}
		_, err := ss[0].Claim(ctx, "late", time.Hour)
		requireKind(t, err, store.ErrNotFound)
		_, err = ss[1].Append(ctx, one, 0, "a1", false, nil, true)
		require.NoError(t, err)
		g, err := ss[2].Claim(ctx, "late", time.Hour)
		require.NoError(t, err)
		assert.Equal(t, one, g.ID)
		assert.Equal(t, []string{"a1"}, g.Record, "Claim returns the record")

		// Release gives it back at once; a wrong owner's Release does not.
		rel := ss[0].(store.Releaser)
		require.NoError(t, rel.Release(ctx, one, "someone else"))
		_, err = ss[1].Claim(ctx, "other", time.Hour)
		requireKind(t, err, store.ErrNotFound)
		require.NoError(t, rel.Release(ctx, one, "late"))
		g, err = ss[1].Claim(ctx, "other", time.Hour)
		require.NoError(t, err)
		assert.Equal(t, one, g.ID)
	})
}

// TestLeaseExpiry: a lease that has run out is taken over by another
// claimer.
func TestLeaseExpiry(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		ctx := testCtx(t)
		_, ss := openN(t, b, 2)
		g := newGame(true)
		require.NoError(t, ss[0].Create(ctx, g))
		first, err := ss[0].Claim(ctx, "dead", time.Millisecond)
		require.NoError(t, err)
		require.Equal(t, g.ID, first.ID)
		time.Sleep(20 * time.Millisecond) // the lease has certainly run out
		second, err := ss[1].Claim(ctx, "alive", time.Hour)
		require.NoError(t, err)
		assert.Equal(t, g.ID, second.ID)
		_, err = ss[0].Claim(ctx, "dead", time.Hour)
		requireKind(t, err, store.ErrNotFound)
	})
}

// TestWatch: a watcher on one store sees the moves appended through
// another, in order; its channel closes when its context ends.
func TestWatch(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		ctx := testCtx(t)
		_, ss := openN(t, b, 2)
		watcher, mover := ss[0], ss[1]
		wctx, stop := context.WithCancel(ctx)
		changes, err := watcher.Watch(wctx)
		require.NoError(t, err)
		g := newGame(false)
		require.NoError(t, mover.Create(ctx, g))
		for ply := range 3 {
			_, err := mover.Append(ctx, g.ID, ply, "t"+strconv.Itoa(ply), false, nil, false)
			require.NoError(t, err)
		}
		for ply := range 3 {
			select {
			case c, ok := <-changes:
				require.True(t, ok, "channel open")
				assert.Equal(t, store.Change{ID: g.ID, Ply: ply}, c)
			case <-ctx.Done():
				t.Fatalf("change %d never arrived", ply)
			}
		}
		stop()
		for range changes { // drains and ends: the channel is closed
		}
	})
}

// TestWatchClose: closing a store closes its watchers' channels, and a
// closed store refuses new ones.
func TestWatchClose(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		ctx := testCtx(t)
		s, err := store.Open(ctx, b.dsn(t))
		require.NoError(t, err)
		changes, err := s.Watch(ctx)
		require.NoError(t, err)
		require.NoError(t, s.Close())
		for range changes {
		}
		_, err = s.Watch(ctx)
		requireKind(t, err, store.ErrUnavailable)
		_, err = s.Get(ctx, "x")
		require.Error(t, err)
		require.NoError(t, s.Close(), "a second Close is harmless")
	})
}

// TestRestart: a store closed and opened again keeps every game.
func TestRestart(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		if !b.persistent {
			t.Skip("an in-memory database ends with its store")
		}
		ctx := testCtx(t)
		dsn := b.dsn(t)
		s, err := store.Open(ctx, dsn)
		require.NoError(t, err)
		g := newGame(false)
		require.NoError(t, s.Create(ctx, g))
		_, err = s.Append(ctx, g.ID, 0, "a1", false, nil, true)
		require.NoError(t, err)
		require.NoError(t, s.Close())

		s = open(t, dsn)
		got, err := s.Get(ctx, g.ID)
		require.NoError(t, err)
		assert.Equal(t, []string{"a1"}, got.Record)
		assert.True(t, got.ComputerDue)
		_, err = s.Append(ctx, g.ID, 1, "b1", false, nil, false)
		require.NoError(t, err)
	})
}

// TestKill9: a process appending moves is killed with SIGKILL; every move
// it acknowledged is in the database afterwards.
func TestKill9(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		if !b.persistent {
			t.Skip("an in-memory database ends with its process")
		}
		ctx := testCtx(t)
		dsn := b.dsn(t)
		s := open(t, dsn)
		g := newGame(false)
		require.NoError(t, s.Create(ctx, g))
		require.NoError(t, s.Close())

		c := startChild(t, "append", dsn, g.ID)
		require.Equal(t, "ready", c.next(t))
		acked := -1
		for acked < 40 {
			line := c.next(t)
			n, err := strconv.Atoi(strings.TrimPrefix(line, "ack "))
			require.NoError(t, err, "helper line %q", line)
			acked = n
		}
		for _, line := range c.kill(t) {
			if n, err := strconv.Atoi(strings.TrimPrefix(line, "ack ")); err == nil {
				acked = n
			}
		}
		s = open(t, dsn)
		got, err := s.Get(ctx, g.ID)
		require.NoError(t, err)
		require.GreaterOrEqual(t, len(got.Record), acked+1, "every acknowledged move is stored")
		for i, tok := range got.Record {
			require.Equal(t, "m"+strconv.Itoa(i), tok)
		}
		t.Logf("acknowledged %d moves, stored %d", acked+1, len(got.Record))
	})
}

// TestTwoProcesses: another process (a child) appends moves; a watcher
// here sees them; and a process holding a claim dies, its game is taken
// over when its lease runs out.
func TestTwoProcesses(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		if !b.shared {
			t.Skip("an in-memory database is not shared between processes")
		}
		ctx := testCtx(t)
		dsn := b.dsn(t)
		s := open(t, dsn)
		changes, err := s.Watch(ctx)
		require.NoError(t, err)
		g := newGame(false)
		require.NoError(t, s.Create(ctx, g))

		c := startChild(t, "append", dsn, g.ID)
		require.Equal(t, "ready", c.next(t))
		for ply := range 5 {
			require.Equal(t, "ack "+strconv.Itoa(ply), c.next(t))
			select {
			case ch := <-changes:
				require.Equal(t, store.Change{ID: g.ID, Ply: ply}, ch)
			case <-ctx.Done():
				t.Fatalf("the move of ply %d made by the other process never arrived", ply)
			}
		}
		c.kill(t)

		// Killed while holding a claim.
		h := newGame(true)
		require.NoError(t, s.Create(ctx, h))
		c = startChild(t, "claim", dsn, "")
		require.Equal(t, "claimed "+h.ID, c.next(t))
		c.kill(t)
		for {
			got, err := s.Claim(ctx, "survivor", time.Hour)
			if err == nil {
				require.Equal(t, h.ID, got.ID)
				break
			}
			requireKind(t, err, store.ErrNotFound)
			select {
			case <-ctx.Done():
				t.Fatal("the dead process's lease never ran out")
			case <-time.After(100 * time.Millisecond):
			}
		}
	})
}

// TestPlayedOnceByThreeProcesses: three stores (processes) run a computer
// loop on the same games: claim, append a move for the claimed ply. Every
// ply of every game is played exactly once.
func TestPlayedOnceByThreeProcesses(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		ctx := testCtx(t)
		_, ss := openN(t, b, 3)
		const games, plies = 4, 6
		for range games {
			require.NoError(t, ss[0].Create(ctx, newGame(true)))
		}
		var mu sync.Mutex
		played := map[string]int{}
		var wg sync.WaitGroup
		for w := range 3 {
			wg.Go(func() {
				owner := "worker" + strconv.Itoa(w)
				for {
					g, err := ss[w].Claim(ctx, owner, time.Hour)
					if errors.Is(err, store.ErrNotFound) {
						return
					}
					if err != nil {
						t.Error(err)
						return
					}
					ply := len(g.Record)
					_, err = ss[w].Append(ctx, g.ID, ply, owner, ply+1 == plies, nil, ply+1 < plies)
					if err != nil {
						t.Errorf("%s appending ply %d of %s it claimed: %v", owner, ply, g.ID, err)
						return
					}
					mu.Lock()
					played[g.ID]++
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		require.Len(t, played, games)
		for id, n := range played {
			assert.Equal(t, plies, n, "game %s", id)
			g, err := ss[0].Get(ctx, id)
			require.NoError(t, err)
			assert.Len(t, g.Record, plies)
			assert.True(t, g.Over)
		}
	})
}

func TestOpenErrors(t *testing.T) {
	ctx := testCtx(t)
	notDB := filepath.Join(t.TempDir(), "notes.txt")
	require.NoError(t, os.WriteFile(notDB, []byte(strings.Repeat("not a database ", 20)), 0o644))
	for _, tc := range []struct {
		dsn, words string
		kind       error
	}{
		{"", "empty database path", nil},
		{"a?b.db", "contains '?'", nil},
		{"postgres://user:secret@[::1", "bad PostgreSQL connection string", nil},
		{filepath.Join(t.TempDir(), "no", "such", "dir.db"), "SQLite database", store.ErrUnavailable},
		{notDB, "SQLite database " + notDB + ": file is not a database", nil},
		{"postgres://user:secret@127.0.0.1:1/x?connect_timeout=1", "PostgreSQL database", store.ErrUnavailable},
	} {
		t.Run(tc.dsn, func(t *testing.T) {
			_, err := store.Open(ctx, tc.dsn)
			require.ErrorContains(t, err, tc.words)
			assert.NotContains(t, err.Error(), "secret", "no password in errors")
			if tc.kind != nil {
				requireKind(t, err, tc.kind)
			}
		})
	}
}

func TestIsPostgres(t *testing.T) {
	for dsn, want := range map[string]bool{
		"postgres://u@h/db":        true,
		"postgresql://h/db":        true,
		"host=/tmp dbname=matombo": true,
		" dbname = x":              true,
		"games.db":                 false,
		":memory:":                 false,
		"/var/lib/matombo/x=y.db":  false,
		"file:games.db":            false,
	} {
		assert.Equal(t, want, store.IsPostgres(dsn), dsn)
	}
}

func TestNewSecret(t *testing.T) {
	a, b := store.NewSecret(), store.NewSecret()
	assert.Len(t, a, 32, "128 bits in hex")
	assert.NotEqual(t, a, b)
	assert.Len(t, store.NewID(), 16)
}

func TestRedact(t *testing.T) {
	for dsn, want := range map[string]string{
		"games.db": "games.db",
		":memory:": ":memory:",
		"postgres://u:secret@db:5432/m?sslmode=require": "postgres://u:xxxxx@db:5432/m?sslmode=require",
		"postgresql://u@db/m":                           "postgresql://u@db/m",
		"postgres://u@db/m?password=secret":             "postgres://u@db/m?password=xxxxx",
		"postgres://u:secret@[::1":                      "postgres://...",
		"host=db password=secret dbname=m":              "host=db password=xxxxx dbname=m",
		"host=db password = 'sec ret' dbname=m":         "host=db password = xxxxx dbname=m",
	} {
		got := store.Redact(dsn)
		assert.Equal(t, want, got, dsn)
		assert.NotContains(t, got, "secret")
		assert.NotContains(t, got, "sec ret")
	}
}
