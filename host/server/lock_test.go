package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/matombo/matombo/host/store"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// slowAppendStore is a store in memory whose moves wait, holding their
// game's lock, until the test lets them through: a slow store write.
type slowAppendStore struct {
	*store.Memory
	entered chan struct{} // a move is in Append
	release chan struct{} // closed: the moves go on
}

func (s slowAppendStore) Append(ctx context.Context, id string, m store.Move) (*store.Game, error) {
	s.entered <- struct{}{}
	<-s.release // not ctx: the holder's work is not the waiters' to stop
	return s.Memory.Append(ctx, id, m)
}

// A request that waits for a game another request holds stops when its
// client leaves: it leaves no goroutine behind, and the holder's move is
// stored as if nothing happened. A read of the game waits for nobody: it
// answers the game as the store has it.
func TestLockWaitStopsWithItsClient(t *testing.T) {
	st := slowAppendStore{Memory: newMemStore(), entered: make(chan struct{}, 1), release: make(chan struct{})}
	ts := newTestServer(t, st)
	g := ts.create(`{"game": "yematatu", "seats": ["human", "human"]}`)
	s1, _ := ts.both(g)

	held := make(chan int, 1)
	go func() {
		status, _ := ts.move(g.ID, "b2", 0, s1)
		held <- status
	}()
	<-st.entered // the holder has the game's lock, and waits in the store

	ctx, cancel := context.WithCancel(context.Background())
	gone := make(chan error, 2)
	before := ts.get(g.ID)
	assert.Equal(t, []string{}, before.Record, "a read shows the game without the move not yet stored")

	waiting := []struct{ method, path, body string }{
		{"POST", "/api/games/" + g.ID + "/moves", `{"token": "a1", "ply": 0, "seat": "` + s1 + `"}`},
		{"POST", "/api/games/" + g.ID + "/draw", `{"ply": 0, "seat": "` + s1 + `"}`},
	}
	for _, r := range waiting {
		go func() {
			req, err := http.NewRequestWithContext(ctx, r.method, ts.http.URL+r.path, strings.NewReader(r.body))
			if err != nil {
				gone <- err
				return
			}
			req.Header.Set("Content-Type", "application/json")
			res, err := ts.http.Client().Do(req)
			if err == nil {
				res.Body.Close()
				err = errors.New(r.method + " " + r.path + " answered while its game was held: " + res.Status)
			}
			gone <- err
		}()
	}
	require.True(t, waitUntil(func() bool { return lockWaiters() == len(waiting) }),
		"the requests wait for the game: %d waiting\n%s", lockWaiters(), stacks())

	cancel()
	for range waiting {
		assert.ErrorIs(t, <-gone, context.Canceled)
	}
	if !assert.True(t, waitUntil(func() bool { return lockWaiters() == 0 }), "the waiters stop with their clients") {
		t.Logf("%s", stacks())
	}
	select {
	case status := <-held:
		t.Fatalf("the holder answered %d before its store write ended", status)
	default:
	}

	close(st.release)
	assert.Equal(t, http.StatusOK, <-held, "the holder's move is stored")
	after := ts.get(g.ID)
	assert.Equal(t, []string{"b2"}, after.Record)
	status, b := ts.move(g.ID, "a1", 1, s1)
	assert.Equal(t, http.StatusForbidden, status, "the lock is free again, and the game answers: %s", b)
}

// A request whose context has ended waits no more for a held game: it
// gets 503 with a reason, and the lock stays its holder's.
func TestLockEndedContext(t *testing.T) {
	e := newEntry()
	require.NoError(t, e.lock(context.Background()))
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	err := e.lock(ctx)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Contains(t, err.Error(), "waiting for the game's other request")
	e.unlock()
	require.NoError(t, e.lock(ctx), "a free lock is taken even by an ended context: the work checks it")
	e.unlock()
	assert.Zero(t, len(e.held))

	ts := newTestServer(t, newMemStore())
	g := ts.create(`{"game": "yematatu", "seats": ["human", "human"]}`)
	held, ok := ts.srv.cache.lookup(g.ID)
	require.True(t, ok)
	require.NoError(t, held.lock(context.Background()))
	w := httptest.NewRecorder()
	r, err := http.NewRequestWithContext(ctx, "GET", "/api/games/"+g.ID, nil)
	require.NoError(t, err)
	assert.False(t, ts.srv.lockGame(w, r, held, g.ID))
	assert.Equal(t, http.StatusServiceUnavailable, w.Code)
	var e503 apiError
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &e503))
	assert.Equal(t, codeUnavailable, e503.Code)
	assert.Contains(t, e503.Error, "waiting for the game's other request")
	held.unlock()
	assert.Equal(t, []string{}, ts.get(g.ID).Record, "the game answers once its holder is done")
}

// waitUntil reports whether cond holds within a minute: a wait for a state,
// not a timing assert.
func waitUntil(cond func() bool) bool {
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if cond() {
			return true
		}
	}
	return cond()
}

// lockWaiters counts the goroutines waiting for a game's lock.
func lockWaiters() int {
	return strings.Count(stacks(), "server.(*entry).lock(")
}

// stacks is the stack of every goroutine.
func stacks() string {
	buf := make([]byte, 1<<16)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return string(buf[:n])
		}
		buf = make([]byte, 2*len(buf))
	}
}

// A request's wait for a game another request holds ends with an answer
// that says why: the game held too long, the server stopping, the client
// gone; each with its stable code, and none of them logged as an error.
func TestLockWaitAnswers(t *testing.T) {
	tests := []struct {
		name    string
		wait    time.Duration                      // the server's lock wait
		stop    func(ts *testServer, leave func()) // ends the wait; nil: the lock wait does
		status  int
		code    string
		headers map[string]string
		log     string // what the log holds
	}{
		{"held too long", time.Second, nil, http.StatusServiceUnavailable, codeGameBusy,
			map[string]string{"Retry-After": "3"}, ""},
		{"server stopping", time.Hour, func(ts *testServer, _ func()) { ts.srv.Close() }, http.StatusServiceUnavailable, codeStopping,
			map[string]string{"Retry-After": "3", "Connection": "close"}, ""},
		{"client gone", time.Hour, func(_ *testServer, leave func()) { leave() }, statusClientGone, codeClientGone,
			nil, `level=INFO msg="the client left before its answer" method=GET path=/api/games/`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var log syncBuffer
			ts := newTestServer(t, newMemStore(), WithLockWait(tt.wait),
				WithLogger(slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelInfo}))))
			g := ts.create(`{"game": "yematatu", "seats": ["human", "human"]}`)
			held, ok := ts.srv.cache.lookup(g.ID)
			require.True(t, ok)
			require.NoError(t, held.lock(context.Background()))
			defer held.unlock()

			ctx, leave := context.WithCancel(context.Background())
			defer leave()
			w := httptest.NewRecorder()
			r := httptest.NewRequestWithContext(ctx, "GET", "/api/games/"+g.ID, nil)
			locked := make(chan bool, 1)
			go func() { locked <- ts.srv.lockGame(w, r, held, g.ID) }()
			if tt.stop != nil {
				require.True(t, waitUntil(func() bool { return lockWaiters() == 1 }), "the request waits for the game\n%s", stacks())
				tt.stop(ts, leave)
			}
			select {
			case got := <-locked:
				assert.False(t, got, "the request did not get the game")
			case <-time.After(time.Minute):
				t.Fatalf("the wait did not stop\n%s", stacks())
			}
			assert.Equal(t, tt.status, w.Code, w.Body.String())
			var answer apiError
			require.NoError(t, json.Unmarshal(w.Body.Bytes(), &answer), w.Body.String())
			assert.Equal(t, tt.code, answer.Code)
			assert.NotEmpty(t, answer.Error)
			for k, v := range tt.headers {
				assert.Equal(t, v, w.Header().Get(k), k)
			}
			assert.Contains(t, log.String(), tt.log)
			assert.NotContains(t, log.String(), "level=ERROR")
			assert.NotContains(t, log.String(), "level=WARN")
		})
	}
}

// Over HTTP, a move of a game held longer than a request waits gets 503
// game-busy with Retry-After, and is answered once the game is free; a
// read is answered at once.
func TestLockWaitGameBusy(t *testing.T) {
	ts := newTestServer(t, newMemStore(), WithLockWait(time.Second))
	g := ts.create(`{"game": "yematatu", "seats": ["human", "human"]}`)
	s1, _ := ts.both(g)
	held, ok := ts.srv.cache.lookup(g.ID)
	require.True(t, ok)
	require.NoError(t, held.lock(context.Background()))
	assert.Equal(t, 0, ts.get(g.ID).Ply, "a read of the held game")
	for _, r := range []struct{ method, path, body string }{
		{"POST", "/api/games/" + g.ID + "/moves", `{"token": "b2", "ply": 0, "seat": "` + s1 + `"}`},
		{"POST", "/api/games/" + g.ID + "/draw", `{"ply": 0, "seat": "` + s1 + `"}`},
	} {
		req, err := http.NewRequest(r.method, ts.http.URL+r.path, strings.NewReader(r.body))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		res, err := ts.http.Client().Do(req)
		require.NoError(t, err)
		var answer apiError
		require.NoError(t, json.NewDecoder(res.Body).Decode(&answer))
		res.Body.Close()
		assert.Equal(t, http.StatusServiceUnavailable, res.StatusCode, r.method+" "+r.path)
		assert.Equal(t, codeGameBusy, answer.Code, r.method+" "+r.path)
		assert.Equal(t, "3", res.Header.Get("Retry-After"))
		assert.Contains(t, answer.Error, "another request has held the game for more than 1s")
	}
	held.unlock()
	status, b := ts.move(g.ID, "b2", 0, s1)
	assert.Equal(t, http.StatusOK, status, "the game answers once its holder is done: %s", string(b))
}

// A store call the request's context stopped (its client left) is no
// outage of the store: 499 client-gone, logged at Info level, as a wait
// for the game's lock stopped so is; a store that does not answer is 503
// unavailable and an error in the log.
func TestStoreErrorOfAClientGone(t *testing.T) {
	tests := []struct {
		name   string
		err    error
		status int
		code   string
		level  string
	}{
		{"the client left", fmt.Errorf("get: %w", context.Canceled), statusClientGone, codeClientGone, "level=INFO"},
		{"the store does not answer", fmt.Errorf("get: %w", store.ErrUnavailable), http.StatusServiceUnavailable, codeUnavailable, "level=ERROR"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var log syncBuffer
			ts := newTestServer(t, newMemStore(), WithLogger(slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelInfo}))))
			w := httptest.NewRecorder()
			ts.srv.storeError(w, tt.err, "abc")
			assert.Equal(t, tt.status, w.Code, w.Body.String())
			var answer apiError
			require.NoError(t, json.Unmarshal(w.Body.Bytes(), &answer), w.Body.String())
			assert.Equal(t, tt.code, answer.Code)
			assert.Contains(t, log.String(), tt.level)
		})
	}
}

// A computer worker waits for a held game no longer than a request does:
// it leaves the game due and plays another game's computer meanwhile,
// and the held game gets its move once it is free and its lease has run
// out. One worker: before, it waited for the held game for as long as it
// was held, and no other game's computer moved.
func TestWorkerLeavesAHeldGame(t *testing.T) {
	st := newMemStore()
	var log syncBuffer
	ts := newTestServer(t, st, WithWorkers(1), WithLockWait(200*time.Millisecond), WithLease(time.Second),
		WithLogger(slog.New(slog.NewTextHandler(&log, nil))))
	held := ts.create(`{"game": "yematatu", "seats": ["human", "random"]}`)
	e, ok := ts.srv.cache.lookup(held.ID)
	require.True(t, ok)
	require.NoError(t, e.lock(t.Context()))
	locked := true
	defer func() {
		if locked {
			e.unlock()
		}
	}()
	// The person's move, stored by another process: the computer is due,
	// and this server's worker claims the game and waits for its lock.
	_, err := st.Append(t.Context(), held.ID, store.Move{Ply: 0, Token: "b2", ComputerDue: true})
	require.NoError(t, err)
	require.True(t, waitUntil(func() bool { return lockWaiters() == 1 }), "the worker waits for the held game\n%s", stacks())

	other := ts.create(`{"game": "yematatu", "seats": ["random", "human"]}`)
	ts.waitGame(other.ID, func(g testGame) bool { return len(g.Record) == 1 })
	assert.Contains(t, log.String(), "a computer worker left a game another request held too long")

	e.unlock()
	locked = false
	got := ts.waitGame(held.ID, func(g testGame) bool { return len(g.Record) == 2 })
	assert.Equal(t, "b2", got.Record[0])
}
