package main

// `matombo serve` on a PostgreSQL database a hostile world gets at: the
// database stopped under it, a lock another session holds on its games,
// its pool of connections taken up by slow requests, values PostgreSQL
// cannot hold. Every request is answered, promptly, with a reason.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/host/store/postgres/pgtest"
)

// promptly is how long a request may take while the database does not
// answer: the store's operation timeout (10 s) with room for a loaded
// machine. Without the timeouts a request would wait for as long as the
// database does: the test would not end.
const promptly = 30 * time.Second

// pgRefusal is an error answer of the API.
type pgRefusal struct {
	Error string `json:"error"`
	Code  string `json:"code"`
}

// timed sends a request and returns its status, its answer and how long
// it took.
func (p *pgServer) timed(method, path, body string) (int, pgRefusal, time.Duration) {
	p.t.Helper()
	start := time.Now()
	status, b := p.do(method, path, body)
	took := time.Since(start)
	var r pgRefusal
	if status >= 400 {
		require.NoError(p.t, json.Unmarshal(b, &r), "%d: %s", status, b)
	}
	return status, r, took
}

// requireUnavailable asserts that each of reqs is answered 503 with a
// reason, promptly.
func requireUnavailable(t *testing.T, p *pgServer, reqs [][3]string) {
	t.Helper()
	for _, r := range reqs {
		status, e, took := p.timed(r[0], r[1], r[2])
		t.Logf("%s %s: %d %s %q in %v", r[0], r[1], status, e.Code, e.Error, took.Round(time.Millisecond))
		assert.Equal(t, http.StatusServiceUnavailable, status, "%s %s", r[0], r[1])
		assert.Equal(t, "unavailable", e.Code, "%s %s", r[0], r[1])
		assert.NotEmpty(t, e.Error)
		assert.Less(t, took, promptly, "%s %s waits for the database", r[0], r[1])
	}
}

// waitHealthy waits until the server's health check answers 200.
func waitHealthy(t *testing.T, p *pgServer) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		status, body := p.do("GET", "/api/health", "")
		if status == http.StatusOK {
			return
		}
		require.Equal(t, http.StatusServiceUnavailable, status, "%s", body)
		require.True(t, time.Now().Before(deadline), "the server did not recover: %s", body)
		time.Sleep(100 * time.Millisecond)
	}
}

// pgRequests are the requests of a game a server answers from its
// database: reading it, a move, a new game, the health check.
func pgRequests(g pgGame, seat string) [][3]string {
	return [][3]string{
		{"GET", "/api/games/" + g.ID, ""},
		{"POST", "/api/games/" + g.ID + "/moves", fmt.Sprintf(`{"token": %q, "ply": 0, "seat": %q}`, g.State.Legal[0], seat)},
		{"POST", "/api/games", `{"game": "yematatu"}`},
		{"GET", "/api/health", ""},
	}
}

// TestServePostgresStopped: the database stopped under a running server
// (a fast shutdown: its sessions ended) is answered 503 at once by every
// request, the health check too; once it is back, so is the server.
func TestServePostgresStopped(t *testing.T) {
	c := pgtest.Start(t)
	p := startPGServer(t, pgtest.Database(t, c))
	g := p.create(`{"game": "yematatu", "hold": [1, 2]}`)
	seat := pgSeatSecret(t, g.Seats[0].URL)

	require.NoError(t, c.Stop())
	requireUnavailable(t, p, pgRequests(g, seat))
	require.NoError(t, c.Start())
	waitHealthy(t, p)
	status, body := p.move(g.ID, g.State.Legal[0], 0, seat)
	require.Equal(t, http.StatusOK, status, "%s", body)
}

// lockGames takes a lock on the games table in another session, as an
// operator's migration or a stray psql would, and returns what releases
// it.
func lockGames(t *testing.T, dsn, lock string) (release func()) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	require.NoError(t, err)
	tx, err := conn.Begin(ctx)
	require.NoError(t, err)
	_, err = tx.Exec(ctx, lock)
	require.NoError(t, err)
	var once sync.Once
	release = func() {
		once.Do(func() {
			_ = tx.Rollback(ctx)
			_ = conn.Close(ctx)
		})
	}
	t.Cleanup(release)
	return release
}

// TestServePostgresTableLocked: a lock another session holds on the games
// table makes requests wait the lock timeout (5 s) at most: 503, and the
// server goes on once the lock is released.
func TestServePostgresTableLocked(t *testing.T) {
	c := pgtest.Start(t)
	dsn := pgtest.Database(t, c)
	p := startPGServer(t, dsn)
	g := p.create(`{"game": "yematatu", "hold": [1, 2]}`)
	seat := pgSeatSecret(t, g.Seats[0].URL)

	release := lockGames(t, dsn, `LOCK TABLE games IN ACCESS EXCLUSIVE MODE`)
	requireUnavailable(t, p, pgRequests(g, seat))
	release()
	waitHealthy(t, p)
	status, body := p.move(g.ID, g.State.Legal[0], 0, seat)
	require.Equal(t, http.StatusOK, status, "%s", body)
}

// TestServePostgresPoolTaken: slow requests (moves waiting for rows
// another session has locked) take every connection of the server's
// pool; a request for another game is answered promptly all the same.
func TestServePostgresPoolTaken(t *testing.T) {
	c := pgtest.Start(t)
	dsn := pgtest.Database(t, c)
	p := startPGServer(t, dsn, "--client-games", "0")
	const n = 24 // more than the pool's 10 connections
	var locked []pgGame
	for range n {
		locked = append(locked, p.create(`{"game": "yematatu", "hold": [1, 2]}`))
	}
	free := p.create(`{"game": "yematatu", "hold": [1, 2]}`)
	release := lockGames(t, dsn, `SELECT 1 FROM games WHERE id <> '`+free.ID+`' FOR UPDATE`)

	var wg sync.WaitGroup
	for _, g := range locked {
		wg.Add(1)
		go func() {
			defer wg.Done()
			status, _ := p.move(g.ID, g.State.Legal[0], 0, pgSeatSecret(t, g.Seats[0].URL))
			assert.Equal(t, http.StatusServiceUnavailable, status, "a move on a locked game")
		}()
	}
	waitLockWaits(t, dsn, 10) // the moves hold the pool's 10 connections
	status, e, took := p.timed("GET", "/api/games/"+free.ID, "")
	t.Logf("another game, the pool taken: %d %s %q in %v", status, e.Code, e.Error, took.Round(time.Millisecond))
	assert.Contains(t, []int{http.StatusOK, http.StatusServiceUnavailable}, status)
	// Not after the slow moves, which wait the lock timeout (5 s) each,
	// by rounds of the pool's size: it waits a second at most for them.
	assert.Less(t, took, 5*time.Second, "a request for another game waits for the slow ones")
	status, e, took = p.timed("POST", "/api/games/"+free.ID+"/moves",
		fmt.Sprintf(`{"token": %q, "ply": 0, "seat": %q}`, free.State.Legal[0], pgSeatSecret(t, free.Seats[0].URL)))
	t.Logf("a move on another game, the pool taken: %d %s %q in %v", status, e.Code, e.Error, took.Round(time.Millisecond))
	assert.Less(t, took, 5*time.Second, "a move on another game waits for the slow ones")
	wg.Wait()
	release()
	waitHealthy(t, p)
	status, body := p.move(locked[0].ID, locked[0].State.Legal[0], 0, pgSeatSecret(t, locked[0].Seats[0].URL))
	require.Equal(t, http.StatusOK, status, "%s", body)
}

// waitLockWaits waits until n sessions of the database wait for a lock.
func waitLockWaits(t *testing.T, dsn string, n int) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	require.NoError(t, err)
	defer conn.Close(ctx)
	deadline := time.Now().Add(2 * time.Minute)
	for {
		var waiting int
		require.NoError(t, conn.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`).Scan(&waiting))
		if waiting >= n {
			return
		}
		require.True(t, time.Now().Before(deadline), "%d sessions wait for a lock, not %d", waiting, n)
		time.Sleep(10 * time.Millisecond)
	}
}

// TestServePostgresHostileValues: values PostgreSQL cannot hold (a NUL,
// bytes that are not UTF-8) or does not expect (a huge id) are answered
// 4xx, as SQLite's server answers them, not 500.
func TestServePostgresHostileValues(t *testing.T) {
	c := pgtest.Start(t)
	p := startPGServer(t, pgtest.Database(t, c))
	g := p.create(`{"game": "yematatu", "hold": [1, 2]}`)
	seat := pgSeatSecret(t, g.Seats[0].URL)
	for _, id := range []string{"a\x00b", "\xff\xfe", strings.Repeat("x", 6000), g.ID + "\x00"} {
		path := "/api/games/" + url.PathEscape(id)
		for _, r := range [][3]string{
			{"GET", path, ""},
			{"POST", path + "/moves", fmt.Sprintf(`{"token": "a1", "ply": 0, "seat": %q}`, seat)},
			{"POST", path + "/claim", `{"invite": "x"}`},
			{"POST", path + "/rematch", fmt.Sprintf(`{"seat": %q}`, seat)},
			{"GET", path + "/events", ""},
		} {
			status, e, _ := p.timed(r[0], r[1], r[2])
			assert.Equal(t, http.StatusNotFound, status, "%s %.40q: %s %s", r[0], r[1], e.Code, e.Error)
		}
	}
	for _, body := range []string{
		`{"game": "yematatu\u0000"}`,
		`{"game": "yematatu", "variants": ["\u0000"]}`,
		`{"game": "yematatu", "params": {"\u0000": 1}}`,
		`{"game": "yematatu", "seats": ["human\u0000", "human"]}`,
	} {
		status, e, _ := p.timed("POST", "/api/games", body)
		assert.True(t, status >= 400 && status < 500, "%s: %d %s %s", body, status, e.Code, e.Error)
	}
	for _, body := range []string{
		fmt.Sprintf(`{"token": "a1\u0000", "ply": 0, "seat": %q}`, seat),
		`{"token": "a1", "ply": 0, "seat": "\u0000"}`,
	} {
		status, e, _ := p.timed("POST", "/api/games/"+g.ID+"/moves", body)
		assert.True(t, status >= 400 && status < 500, "%s: %d %s %s", body, status, e.Code, e.Error)
	}
	status, body := p.do("GET", "/api/health", "")
	assert.Equal(t, http.StatusOK, status, "%s", body)
}
