package server

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/store"
)

// post sends a JSON body made of v and returns the status and the game of
// the answer (zero when it is an error).
func (ts *testServer) post(path string, v any) (int, testGame, string) {
	ts.t.Helper()
	body, err := json.Marshal(v)
	require.NoError(ts.t, err)
	status, b := ts.do("POST", path, string(body))
	var g testGame
	if status < 300 {
		require.NoError(ts.t, json.Unmarshal(b, &g), "%s", b)
	}
	return status, g, string(b)
}

func (ts *testServer) play(id string, seats []string, tokens ...string) testGame {
	ts.t.Helper()
	g := ts.get(id)
	for _, tok := range tokens {
		st := g.state(ts.t)
		status, b := ts.move(id, tok, len(g.Record), seats[st.ToMove-1])
		require.Equal(ts.t, http.StatusOK, status, "%s: %s", tok, b)
		require.NoError(ts.t, json.Unmarshal(b, &g))
	}
	return g
}

// tsoroTurns is a Tsoro 4x8 record in which Player 2's second turn is two
// decisions (d7 continue), and Player 1's third a capture with two bonus
// captures (a7 xd3 xd6).
var tsoroTurns = []string{"a1", "d1", "a2", "d7", "continue", "a7", "xd3", "xd6"}

func TestMovers(t *testing.T) {
	ts := newTestServer(t, newMemStore())
	g := ts.create(`{"game": "tsoro", "variants": ["4x8"]}`)
	seats := ts.seatsOf(g)
	end := ts.play(g.ID, seats, tsoroTurns...)
	var want []int
	s := stateAfterTokens(t, "tsoro", []string{"4x8"}, nil)
	for _, tok := range tsoroTurns {
		want = append(want, s.ToMove())
		require.NoError(t, s.Play(tok))
	}
	assert.Equal(t, want, end.Movers)
	assert.Equal(t, end.Movers, ts.get(g.ID).Movers)
	// A new server (another process, or after a restart) rebuilds them.
	other := newTestServer(t, ts.store)
	assert.Equal(t, want, other.get(g.ID).Movers)
}

func TestUndoAgainstComputer(t *testing.T) {
	ts := newTestServer(t, newMemStore())
	g := ts.create(`{"game": "gore", "seats": ["human", "random"]}`)
	me := secret(t, g.Seats[0].URL)
	status, _, b := ts.post("/api/games/"+g.ID+"/takeback", map[string]any{"seat": me, "ply": 0})
	assert.Equal(t, http.StatusUnprocessableEntity, status, b)
	assert.Contains(t, b, "no move to take back")

	status, _ = ts.move(g.ID, "a1", 0, me)
	require.Equal(t, http.StatusOK, status)
	cur := waitFor(t, ts, g.ID, func(g testGame) bool { return g.state(t).ToMove == 1 && len(g.Record) >= 2 })
	status, after, b := ts.post("/api/games/"+g.ID+"/takeback", map[string]any{"seat": me, "ply": len(cur.Record)})
	require.Equal(t, http.StatusOK, status, b)
	assert.Empty(t, after.Record, "the computer's reply and my move are taken back at once")
	assert.Nil(t, after.Request)
	assert.Equal(t, 1, after.state(t).ToMove)
	assert.JSONEq(t, string(stateAfter(t, "gore", nil, nil)), string(after.State))

	// A stale ply is refused; a stranger may not.
	status, _, _ = ts.post("/api/games/"+g.ID+"/takeback", map[string]any{"seat": me, "ply": 5})
	assert.Equal(t, http.StatusConflict, status)
	status, _, _ = ts.post("/api/games/"+g.ID+"/takeback", map[string]any{"seat": "nope", "ply": 0})
	assert.Equal(t, http.StatusForbidden, status)
	status, _, _ = ts.post("/api/games/"+g.ID+"/takeback", map[string]any{"seat": me})
	assert.Equal(t, http.StatusBadRequest, status)
}

// waitFor polls the game until cond holds.
func waitFor(t *testing.T, ts *testServer, id string, cond func(testGame) bool) testGame {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		g := ts.get(id)
		if cond(g) {
			return g
		}
		if time.Now().After(deadline) {
			t.Fatalf("the game never got there: %v", g.Record)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestTakebackBetweenPeople(t *testing.T) {
	ts := newTestServer(t, newMemStore())
	g := ts.create(`{"game": "tsoro", "variants": ["4x8"]}`)
	s1, s2 := ts.both(g)
	ts.play(g.ID, []string{s1, s2}, tsoroTurns[:6]...) // ends with Player 1's a7
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ev := ts.events(ctx, g.ID)
	ev.next()
	path := "/api/games/" + g.ID + "/takeback"

	// Player 2 proposes: their whole turn (d7 continue) and Player 1's
	// reply a7 are to go.
	status, got, b := ts.post(path, map[string]any{"seat": s2, "ply": 6})
	require.Equal(t, http.StatusOK, status, b)
	require.Equal(t, &store.Request{Kind: "takeback", Seat: 2, To: 3}, got.Request)
	assert.Len(t, got.Record, 6, "nothing is taken back before the answer")
	_, e := ev.next()
	assert.Equal(t, got.Request, e.Request, "the proposal arrives on the other page")

	// Player 2 cannot accept their own proposal, nor propose twice.
	status, _, _ = ts.post(path, map[string]any{"seat": s2, "ply": 6, "accept": true})
	assert.Equal(t, http.StatusForbidden, status)
	status, _, _ = ts.post(path, map[string]any{"seat": s1, "ply": 6})
	assert.Equal(t, http.StatusConflict, status)

	// Declined: the game is as it was, without the proposal.
	status, got, b = ts.post(path, map[string]any{"seat": s1, "ply": 6, "accept": false})
	require.Equal(t, http.StatusOK, status, b)
	assert.Nil(t, got.Request)
	assert.Len(t, got.Record, 6)
	_, e = ev.next()
	assert.Nil(t, e.Request)

	// Proposed again and accepted.
	status, _, _ = ts.post(path, map[string]any{"seat": s2, "ply": 6})
	require.Equal(t, http.StatusOK, status)
	ev.next()
	status, got, b = ts.post(path, map[string]any{"seat": s1, "ply": 6, "accept": true})
	require.Equal(t, http.StatusOK, status, b)
	assert.Equal(t, tsoroTurns[:3], got.Record)
	assert.Nil(t, got.Request)
	assert.Equal(t, 2, got.state(t).ToMove)
	assert.JSONEq(t, string(stateAfter(t, "tsoro", []string{"4x8"}, tsoroTurns[:3])), string(got.State))
	_, e = ev.next()
	assert.Equal(t, tsoroTurns[:3], e.Record, "the takeback arrives on the other page")

	// A proposal is cleared by a move; an answer without one is refused.
	status, _, _ = ts.post(path, map[string]any{"seat": s1, "ply": 3})
	require.Equal(t, http.StatusOK, status)
	got = ts.play(g.ID, []string{s1, s2}, "d7")
	assert.Nil(t, got.Request)
	status, _, b = ts.post(path, map[string]any{"seat": s1, "ply": 4, "accept": true})
	assert.Equal(t, http.StatusConflict, status, b)
}

func TestRematch(t *testing.T) {
	ts := newTestServer(t, newMemStore())
	g := ts.create(`{"game": "yematatu", "variants": ["square"], "seats": ["human", "human"], "clock": {"initial": 60, "increment": 2}}`)
	s1, s2 := ts.both(g)
	path := "/api/games/" + g.ID + "/rematch"
	status, _, b := ts.post(path, map[string]any{"seat": s1})
	assert.Equal(t, http.StatusConflict, status, b)

	// Player 1 wins: three on a line.
	end := ts.play(g.ID, []string{s1, s2}, winYematatuSquare...)
	require.True(t, end.state(t).Over)

	status, _, _ = ts.post(path, map[string]any{"seat": "nope"})
	assert.Equal(t, http.StatusForbidden, status)
	status, re, b := ts.post(path, map[string]any{"seat": s1})
	require.Equal(t, http.StatusCreated, status, b)
	assert.Equal(t, []string{"square"}, re.Variants)
	assert.Equal(t, g.ID, re.Of)
	assert.Equal(t, []int{2, 1}, re.From, "the seats are swapped")
	assert.Empty(t, re.Seats[0].URL, "the other player's link is not given")
	require.NotEmpty(t, re.Seats[1].URL, "Player 1 of the old game is Player 2 of the new")
	assert.Empty(t, re.Record)
	require.NotNil(t, re.Clock)
	assert.Equal(t, []int64{60000, 60000}, re.Clock.Left, "fresh clocks")
	assert.Equal(t, int64(2000), re.Clock.Increment)
	assert.Equal(t, re.ID, ts.get(g.ID).Rematch, "the old game names its rematch")

	// The other player joins: 200, the same rematch, their own link.
	status, joined, b := ts.post(path, map[string]any{"seat": s2})
	require.Equal(t, http.StatusOK, status, b)
	assert.Equal(t, re.ID, joined.ID)
	require.NotEmpty(t, joined.Seats[0].URL)
	assert.Empty(t, joined.Seats[1].URL)
	// Each plays their new seat.
	n1, n2 := secret(t, joined.Seats[0].URL), secret(t, re.Seats[1].URL)
	assert.NotEqual(t, s1, n2)
	status, _ = ts.move(re.ID, "a1", 0, n2)
	assert.Equal(t, http.StatusForbidden, status, "the old Player 1 now moves second")
	status, _ = ts.move(re.ID, "a1", 0, n1)
	assert.Equal(t, http.StatusOK, status)
}

// winYematatuSquare is a game on the square board that Player 1 wins.
var winYematatuSquare = func() []string {
	g, err := lib().Load("yematatu", withVariants("square")...)
	if err != nil {
		panic(err)
	}
	// Player 1 drops on a column, Player 2 elsewhere: find it by search.
	s := g.Start()
	var rec []string
	for !s.Over() && len(rec) < 40 {
		legal := s.Legal()
		pick := legal[0]
		for _, tok := range legal {
			c := s.Clone()
			if c.Play(tok) == nil && c.Over() && c.Outcome().Winner == s.ToMove() && s.ToMove() == 1 {
				pick = tok
				break
			}
		}
		if s.ToMove() == 2 {
			pick = legal[len(legal)-1]
		}
		rec = append(rec, pick)
		if err := s.Play(pick); err != nil {
			panic(err)
		}
	}
	if !s.Over() || s.Outcome().Winner != 1 {
		panic("no win for Player 1 found: " + strings.Join(rec, " "))
	}
	return rec
}()

func TestClocks(t *testing.T) {
	ts := newTestServer(t, newMemStore())
	for _, body := range []string{
		`{"game": "gore", "clock": {"initial": -1}}`,
		`{"game": "gore", "clock": {"initial": 0.01}}`,
		`{"game": "gore", "clock": {"initial": 100000}}`,
		`{"game": "gore", "clock": {"initial": 60, "increment": 7200}}`,
		`{"game": "gore", "clock": {"initial": "x"}}`,
	} {
		status, b := ts.do("POST", "/api/games", body)
		assert.Contains(t, []int{400, 422}, status, "%s: %s", body, b)
	}
	g := ts.create(`{"game": "gore", "clock": {"initial": 600, "increment": 5}}`)
	require.NotNil(t, g.Clock)
	assert.Equal(t, 0, g.Clock.Running, "the clocks start with the first move")
	s1, s2 := ts.both(g)
	got := ts.play(g.ID, []string{s1, s2}, "a1")
	assert.Equal(t, 2, got.Clock.Running)
	assert.Equal(t, int64(600000), got.Clock.Left[0], "no increment for the move that starts the clocks")
	got = ts.play(g.ID, []string{s1, s2}, got.state(t).Legal[0])
	assert.Equal(t, 1, got.Clock.Running)
	assert.Greater(t, got.Clock.Left[1], int64(600000), "the increment after Player 2's turn")
	assert.LessOrEqual(t, got.Clock.Left[1], int64(605000))
}

// TestLossOnTime: nobody is connected when Player 2's time runs out; the
// server's workers end the game. A late move is refused.
func TestLossOnTime(t *testing.T) {
	st := newMemStore()
	ts := newTestServer(t, st)
	g := ts.create(`{"game": "gore", "clock": {"initial": 0.3}}`)
	s1, s2 := ts.both(g)
	ts.play(g.ID, []string{s1, s2}, "a1")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for {
		sg, err := st.Get(ctx, g.ID)
		require.NoError(t, err)
		if sg.Over() {
			assert.Equal(t, &store.Result{Winner: 1, Method: "time", Reason: "player 2 ran out of time", Notes: []string{}, Scores: []float64{1, 0}, Seat: 2}, sg.Result)
			break
		}
		select {
		case <-ctx.Done():
			t.Fatal("the game was never ended on time")
		case <-time.After(20 * time.Millisecond):
		}
	}
	got := ts.get(g.ID)
	require.NotNil(t, got.Result)
	assert.Equal(t, "time", got.Result.Method)
	assert.Equal(t, 0, got.Clock.Running)
	assert.Equal(t, int64(0), got.Clock.Left[1])
	status, b := ts.move(g.ID, got.state(t).Legal[0], 1, s2)
	assert.Equal(t, http.StatusConflict, status, "%s", b)
	status, _, _ = ts.post("/api/games/"+g.ID+"/takeback", map[string]any{"seat": s2, "ply": 1})
	assert.Equal(t, http.StatusConflict, status, "a loss on time is not taken back")
}

// TestLateMove: a move that arrives after its seat's time has run out
// ends the game on time instead (the workers are idle here).
func TestLateMove(t *testing.T) {
	ts := newTestServer(t, idleStore{newMemStore()})
	g := ts.create(`{"game": "gore", "clock": {"initial": 0.2}}`)
	s1, s2 := ts.both(g)
	got := ts.play(g.ID, []string{s1, s2}, "a1")
	// Player 2's bank starts once the move has been shown, and runs out
	// 0.2 s later.
	time.Sleep(time.Duration(got.Clock.StartsIn+got.Clock.Left[1]+100) * time.Millisecond)
	status, b := ts.move(g.ID, got.state(t).Legal[0], 1, s2)
	assert.Equal(t, http.StatusConflict, status, "%s", b)
	assert.Contains(t, string(b), "ran out of time")
	end := ts.get(g.ID)
	require.NotNil(t, end.Result)
	assert.Equal(t, 1, end.Result.Winner)
}

// TestLossOnTimeAcrossServers: three servers share one store, nobody is
// connected; the game is ended on time exactly once.
func TestLossOnTimeAcrossServers(t *testing.T) {
	st := newMemStore()
	servers := []*testServer{newTestServer(t, st), newTestServer(t, st), newTestServer(t, st)}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	changes, err := st.Watch(ctx)
	require.NoError(t, err)
	g := servers[0].create(`{"game": "gore", "clock": {"initial": 0.3}}`)
	s1, s2 := servers[0].both(g)
	servers[1].play(g.ID, []string{s1, s2}, "a1")
	ends := 0
	for ends == 0 {
		select {
		case c := <-changes:
			if c.ID != g.ID {
				continue
			}
			sg, err := st.Get(ctx, g.ID)
			require.NoError(t, err)
			if sg.Over() {
				ends++
			}
		case <-ctx.Done():
			t.Fatal("the game was never ended on time")
		}
	}
	// No second end: a change after it would be another Update.
	select {
	case c := <-changes:
		assert.NotEqual(t, g.ID, c.ID, "the game changed again after its end")
	case <-time.After(500 * time.Millisecond):
	}
}

func withVariants(v ...string) []host.Option { return []host.Option{host.WithVariant(v...)} }

// stateAfterTokens is the state of a game after tokens.
func stateAfterTokens(t *testing.T, name string, variants, tokens []string) *host.State {
	t.Helper()
	g, err := lib().Load(name, withVariants(variants...)...)
	require.NoError(t, err)
	s := g.Start()
	for _, tok := range tokens {
		require.NoError(t, s.Play(tok))
	}
	return s
}

func TestCatalogDefault(t *testing.T) {
	for _, tc := range []struct {
		opts []Option
		want string
	}{
		{nil, lib().Games()[0]},
		{[]Option{WithDefaultGame("kalah")}, "kalah"},
		{[]Option{WithDefaultGame("nosuch")}, lib().Games()[0]},
	} {
		s, err := New(lib(), newMemStore(), tc.opts...)
		require.NoError(t, err)
		assert.Equal(t, tc.want, s.catalog.Default)
		s.Close()
	}
}

// templateSites counts the sites of a token template, whether it writes
// them by name or by number ({#from}, as draughts does).
func TestTemplateSites(t *testing.T) {
	for _, tc := range []struct {
		template string
		want     int
	}{
		{"stop", 0},
		{"{1}", 1},
		{"x{1}", 1},
		{"{1}-{2}", 2},
		{"{from}-{to}", 2},
		{"offer:{sites}", -1},
		{"x{#1}", 1},
		{"{#from}x{#to}", 2},
	} {
		assert.Equal(t, tc.want, templateSites(tc.template), tc.template)
	}
}

// A store holding Limits.Games games takes no new game, by creation or
// rematch: 503 over-capacity, naming the count, and no client's quota of
// new games is spent on it.
func TestStoredGamesCapped(t *testing.T) {
	st := newMemStore()
	ts := newTestServer(t, st, WithLimits(Limits{Games: 2, GamesPerMinute: 3, RequestsPerSecond: 1000}))
	g := ts.create(`{"game": "yematatu", "variants": ["square"], "seats": ["human", "human"]}`)
	s1, s2 := ts.both(g)
	ts.create(`{"game": "yematatu"}`)
	for range 3 {
		a := ts.ask("POST", "/api/games", `{"game": "yematatu"}`)
		assert.Equal(t, http.StatusServiceUnavailable, a.status, a.body)
		assert.Equal(t, codeOverCapacity, a.code)
		assert.Contains(t, a.body, "the server holds 2 games, its most: it makes no new game until it holds fewer")
	}
	end := ts.play(g.ID, []string{s1, s2}, winYematatuSquare...)
	require.True(t, end.state(t).Over)
	status, _, b := ts.post("/api/games/"+g.ID+"/rematch", map[string]any{"seat": s1})
	assert.Equal(t, http.StatusServiceUnavailable, status, b)
	assert.Contains(t, b, `"code":"over-capacity"`)
	n, err := st.Count(context.Background())
	require.NoError(t, err)
	assert.Equal(t, 2, n)

	// Refusals spend none of a client's quota of new games: once the
	// store has room again, the client makes its three a minute.
	seeming := &seemingFull{Store: newMemStore()}
	seeming.extra.Store(10)
	ts = newTestServer(t, seeming, WithLimits(Limits{Games: 10, GamesPerMinute: 3, RequestsPerSecond: 1000}))
	for range 5 {
		a := ts.ask("POST", "/api/games", `{"game": "yematatu"}`)
		assert.Equal(t, http.StatusServiceUnavailable, a.status, a.body)
	}
	seeming.extra.Store(0)
	for range 3 {
		ts.create(`{"game": "yematatu"}`)
	}
	a := ts.ask("POST", "/api/games", `{"game": "yematatu"}`)
	assert.Equal(t, http.StatusTooManyRequests, a.status, a.body)
}

// seemingFull is a store that counts extra games besides those it holds.
type seemingFull struct {
	store.Store
	extra atomic.Int64
}

func (s *seemingFull) Count(ctx context.Context) (int, error) {
	n, err := s.Store.Count(ctx)
	return n + int(s.extra.Load()), err
}
