package server

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/host/store"
	_ "github.com/matombo/matombo/host/store/sqlite"
)

// Tests with the real store: SQLite in a file.

func openSQLite(t *testing.T, path string) store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), path)
	require.NoError(t, err)
	return st
}

// TestRestartKeepsGames stops a server and its database and starts new
// ones on the same file: every game, record and state is still there, and
// play goes on.
func TestRestartKeepsGames(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.db")
	st := openSQLite(t, path)
	s, err := New(lib(), st)
	require.NoError(t, err)
	hs := newHTTPTest(t, s)
	ts := &testServer{t: t, srv: s, http: hs, store: st}
	type played struct {
		game     string
		variants []string
		record   []string
		id       string
		seats    []string
	}
	games := []*played{
		{game: "tsoro", variants: []string{"4x8"}, record: tsoroDecisions},
		{game: "gore", record: goreTrade},
		{game: "yematatu", record: []string{"a1", "b2", "c1", "b1", "c3", "c2", "c3-b3"}},
	}
	for _, p := range games {
		body := `{"game": "` + p.game + `"`
		if len(p.variants) > 0 {
			body += `, "variants": ["` + p.variants[0] + `"]`
		}
		g := ts.create(body + `}`)
		p.id = g.ID
		p.seats = ts.seatsOf(g)
		for ply, tok := range p.record {
			to := ts.get(p.id).state(t).ToMove
			status, b := ts.move(p.id, tok, ply, p.seats[to-1])
			require.Equal(t, http.StatusOK, status, "%s %s: %s", p.game, tok, b)
		}
	}
	hs.Close()
	require.NoError(t, s.Close())
	require.NoError(t, st.Close())

	st2 := openSQLite(t, path)
	defer st2.Close()
	ts2 := newTestServer(t, st2)
	n, err := st2.Count(context.Background())
	require.NoError(t, err)
	assert.Equal(t, len(games), n)
	for _, p := range games {
		g := ts2.get(p.id)
		assert.Equal(t, p.record, g.Record, p.game)
		assert.JSONEq(t, string(stateAfter(t, p.game, p.variants, p.record)), string(g.State), p.game)
		st := g.state(t)
		if st.Over {
			continue
		}
		status, b := ts2.move(p.id, st.Legal[0], len(p.record), p.seats[st.ToMove-1])
		assert.Equal(t, http.StatusOK, status, "%s after the restart: %s", p.game, b)
	}
}

// TestTwoProcessesOneDatabase runs two servers, each with its own
// connection to one SQLite file, as two processes would: of eight racing
// moves (four tokens, each sent twice) exactly one is stored, the other
// sending of its token is answered as that move made (the same move sent
// again) and the rest are refused, and each server's event stream shows
// the moves made through the other.
func TestTwoProcessesOneDatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.db")
	stA, stB := openSQLite(t, path), openSQLite(t, path)
	defer stA.Close()
	defer stB.Close()
	a, b := newTestServer(t, stA), newTestServer(t, stB)
	g := a.create(`{"game": "yematatu"}`)
	s1, s2 := a.both(g)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	evA := a.events(ctx, g.ID)
	evA.next()

	var wg sync.WaitGroup
	tokens := []string{"a1", "b1", "b2", "c1", "a1", "b1", "b2", "c1"}
	statuses := make([]int, len(tokens))
	for i, tok := range tokens {
		srv := a
		if i%2 == 1 {
			srv = b
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i], _ = srv.move(g.ID, tok, 0, s1)
		}()
	}
	wg.Wait()

	id, e := evA.next()
	assert.Equal(t, "1", id)
	require.Len(t, e.Record, 1)
	first := e.Record[0]
	for i, tok := range tokens {
		want := http.StatusConflict
		if tok == first {
			want = http.StatusOK
		}
		assert.Equal(t, want, statuses[i], "%s sent through server %d", tok, i%2)
	}
	// A move through B arrives on A's stream.
	next := "c3"
	if first == "c3" {
		next = "c2"
	}
	status, body := b.move(g.ID, next, 1, s2)
	require.Equal(t, http.StatusOK, status, "%s", body)
	id, e = evA.next()
	assert.Equal(t, "2", id)
	assert.Equal(t, []string{first, next}, e.Record)
}

// TestComputerWithSQLite plays the computer's moves through the real
// store's claims.
func TestComputerWithSQLite(t *testing.T) {
	st := openSQLite(t, filepath.Join(t.TempDir(), "games.db"))
	defer st.Close()
	ts := newTestServer(t, st, WithWorkers(2))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	g := ts.create(`{"game": "yematatu", "seats": ["random", "random"]}`)
	ev := ts.events(ctx, g.ID)
	for {
		_, cur := ev.next()
		if cur.state(t).Over {
			assert.JSONEq(t, string(stateAfter(t, "yematatu", nil, cur.Record)), string(cur.State))
			return
		}
	}
}

// TestDatabaseFileGone: a server whose SQLite file is deleted under it
// says so, with its own code: retrying does not help, a restart by its
// operator does. The health check answers 503, and the cause is logged.
func TestDatabaseFileGone(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.db")
	st := openSQLite(t, path)
	t.Cleanup(func() { st.Close() })
	var log syncBuffer
	ts := newTestServer(t, st, WithLogger(slog.New(slog.NewTextHandler(&log, nil))))
	g := ts.create(`{"game": "yematatu", "seats": ["human", "human"]}`)
	s1, _ := ts.both(g)
	for _, f := range []string{path, path + "-wal", path + "-shm"} {
		require.NoError(t, os.Remove(f))
	}
	for _, r := range []struct{ method, path, body string }{
		{"POST", "/api/games/" + g.ID + "/moves", `{"token": "b2", "ply": 0, "seat": "` + s1 + `"}`},
		{"GET", "/api/health", ""},
		{"POST", "/api/games/" + g.ID + "/moves", `{"token": "b2", "ply": 0, "seat": "` + s1 + `"}`},
	} {
		status, b := ts.do(r.method, r.path, r.body)
		assert.Equal(t, http.StatusServiceUnavailable, status, "%s %s: %s", r.method, r.path, b)
		var e apiError
		require.NoError(t, json.Unmarshal(b, &e))
		assert.Equal(t, codeStoreGone, e.Code, "%s %s: %s", r.method, r.path, b)
		assert.Contains(t, e.Error, "operator must restart")
		assert.NotContains(t, e.Error, "try again", "retrying does not help")
		assert.NotContains(t, e.Error, path, "the file is the operator's to know")
	}
	assert.Contains(t, log.String(), "the game store does not answer")
	assert.Contains(t, log.String(), "was deleted")
}
