package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/store"
)

// holdingLog is the log of a game's script whose first write once armed
// waits until the test lets it through: a script call (a print in play)
// that runs as long as the test wants, as a long one runs up to its time
// budget.
type holdingLog struct {
	armed   atomic.Bool
	entered chan struct{} // closed: the held call is in its print
	release chan struct{} // closed: the held call goes on
	once    sync.Once
}

// let lets the held call go on.
func (l *holdingLog) let() { l.once.Do(func() { close(l.release) }) }

func newHoldingLog() *holdingLog {
	return &holdingLog{entered: make(chan struct{}), release: make(chan struct{})}
}

func (l *holdingLog) Write(b []byte) (int, error) {
	if l.armed.CompareAndSwap(true, false) {
		close(l.entered)
		<-l.release
	}
	return len(b), nil
}

// readGame is a GET of path that reports what is wrong instead of
// failing the test, for goroutines.
func readGame(ts *testServer, path string) (testGame, error) {
	res, err := ts.http.Client().Get(ts.http.URL + path)
	if err != nil {
		return testGame{}, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return testGame{}, err
	}
	if res.StatusCode != http.StatusOK {
		return testGame{}, fmt.Errorf("GET %s: %s: %s", path, res.Status, b)
	}
	var g testGame
	return g, json.Unmarshal(b, &g)
}

// wholeView reports how the current view g is torn: a record, ply,
// state, movers and last move that do not agree.
func wholeView(g testGame) error {
	var st testState
	if err := json.Unmarshal(g.State, &st); err != nil {
		return fmt.Errorf("the state: %w", err)
	}
	n := len(g.Record)
	switch {
	case g.Ply != n || st.Ply != n:
		return fmt.Errorf("record of %d moves, ply %d, the state's ply %d", n, g.Ply, st.Ply)
	case len(g.Movers) != n:
		return fmt.Errorf("record of %d moves, %d movers", n, len(g.Movers))
	case n > 0 && (g.Last == nil || g.Last.Token != g.Record[n-1]):
		return fmt.Errorf("record %v, last move %v", g.Record, g.Last)
	}
	return nil
}

// A read of a game answers at once, with the last change the store
// committed, while a move of the game is held inside its script call
// (which may run up to its time budget, 30 s by default): the GETs of the
// page and of spectators, earlier plies, the event stream. Before, the
// move held the game's lock, and every read waited for it, then got 503
// game-busy. Readers reading as the move is committed see the game before
// it or after it, never a view torn between the two.
func TestReadsDoNotWaitForAScriptCall(t *testing.T) {
	l := host.NewLibrary()
	require.NoError(t, l.AddSource("stuck", stuckScript(`print("player 2 plays")`), ""))
	hold := newHoldingLog()
	ts := newTestServerOf(t, l, newMemStore(), WithLockWait(time.Second), WithGameOptions(host.WithLog(hold)))
	t.Cleanup(hold.let) // before the server's end, which waits for the held request
	g := ts.create(`{"game": "stuck", "seats": ["human", "human"]}`)
	s1, s2 := ts.both(g)
	status, b := ts.move(g.ID, "a1", 0, s1)
	require.Equal(t, http.StatusOK, status, "%s", b)

	hold.armed.Store(true)
	moved := make(chan int, 1)
	go func() {
		status, _ := ts.move(g.ID, "a1", 1, s2)
		moved <- status
	}()
	<-hold.entered // the move is in its script call, holding the game

	for _, tc := range []struct {
		query string
		ply   int
	}{{"", 1}, {"?board=0", 1}, {"?ply=1", 1}, {"?ply=0", 0}} {
		got, err := readGame(ts, "/api/games/"+g.ID+tc.query)
		require.NoError(t, err, "a read while a move is held")
		assert.Equal(t, []string{"a1"}, got.Record, tc.query)
		assert.Equal(t, tc.ply, got.Ply, tc.query)
		assert.Equal(t, tc.ply, got.state(t).Ply, tc.query)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	id, first := ts.events(ctx, g.ID).next()
	assert.Equal(t, "1", id, "the event stream begins at once")
	assert.Equal(t, []string{"a1"}, first.Record)

	var readers sync.WaitGroup
	stop := make(chan struct{})
	seen := make([]atomic.Int32, 3) // views seen by record length
	for range 4 {
		readers.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				got, err := readGame(ts, "/api/games/"+g.ID)
				if !assert.NoError(t, err) || !assert.NoError(t, wholeView(got)) {
					return
				}
				seen[len(got.Record)].Add(1)
			}
		})
	}
	assert.True(t, waitUntil(func() bool { return seen[1].Load() > 0 }), "the readers read")
	select {
	case status := <-moved:
		t.Fatalf("the held move answered %d before its script call ended", status)
	default:
	}
	hold.let()
	assert.Equal(t, http.StatusOK, <-moved, "the held move is stored")
	assert.True(t, waitUntil(func() bool { return seen[2].Load() > 0 }), "the readers see the move once it is committed")
	close(stop)
	readers.Wait()
	assert.Equal(t, []string{"a1", "a1"}, ts.get(g.ID).Record)
}

// A game another process changed while a request of this one holds it is
// read at once too: the read replays the moves it lacks for itself, and
// leaves the game's cache to the holder.
func TestReadOfAChangeFromElsewhereWhileHeld(t *testing.T) {
	st := newMemStore()
	ts := newTestServer(t, st, WithLockWait(time.Second))
	g := ts.create(`{"game": "yematatu", "seats": ["human", "human"]}`)
	e, ok := ts.srv.cache.lookup(g.ID)
	require.True(t, ok)
	require.NoError(t, e.lock(t.Context()))
	for i, tok := range []string{"b2", "a1"} {
		_, err := st.Append(t.Context(), g.ID, store.Move{Ply: i, Token: tok})
		require.NoError(t, err)
	}
	got := ts.get(g.ID)
	assert.Equal(t, []string{"b2", "a1"}, got.Record)
	assert.Equal(t, []int{1, 2}, got.Movers)
	assert.Equal(t, "a1", got.Last.Token)
	assert.JSONEq(t, string(stateAfter(t, "yematatu", nil, got.Record)), string(got.State))
	status, b := ts.do("GET", "/api/games/"+g.ID+"?ply=1", "")
	require.Equal(t, http.StatusOK, status, "%s", b)
	var at1 testGame
	require.NoError(t, json.Unmarshal(b, &at1))
	assert.JSONEq(t, string(stateAfter(t, "yematatu", nil, []string{"b2"})), string(at1.State))
	assert.Empty(t, e.record, "the held entry is its holder's: the read left it alone")
	e.unlock()

	// A resignation from elsewhere of the game the entry shows: the same
	// record, ended otherwise.
	assert.Equal(t, []string{"b2", "a1"}, ts.get(g.ID).Record)
	require.NoError(t, e.lock(t.Context()))
	defer e.unlock()
	require.Equal(t, []string{"b2", "a1"}, e.shown.Load().record, "a read of the free entry brought it up to the store")
	resigned := &store.Result{Winner: 1, Method: methodResignation, Notes: []string{}, Scores: []float64{1, 0}}
	_, err := st.Update(t.Context(), g.ID, store.Update{Ply: 2, To: 2, Result: resigned})
	require.NoError(t, err)
	got = ts.get(g.ID)
	require.NotNil(t, got.Result)
	assert.Equal(t, methodResignation, got.Result.Method)
	assert.True(t, got.state(t).Over, "the state shows the resignation")
	assert.Empty(t, got.Moves)
	assert.Nil(t, e.shown.Load().stored.Result, "the held entry is its holder's")
}
