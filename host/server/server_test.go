package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/docs"
	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/store"
)

// testServer runs a Server over st in an httptest server.
type testServer struct {
	t     *testing.T
	srv   *Server
	http  *httptest.Server
	store store.Store
}

// testLimits are limits no functional test reaches: tests of the limits
// set their own.
var testLimits = Limits{GamesPerMinute: 1 << 20, RequestsPerSecond: 1 << 20, ClientStreams: 1 << 10, ClientThinking: 1 << 10, Streams: 1 << 12}

func newTestServer(t *testing.T, st store.Store, opts ...Option) *testServer {
	t.Helper()
	return newTestServerOf(t, lib(), st, opts...)
}

// newTestServerOf is newTestServer playing the games of l.
func newTestServerOf(t *testing.T, l *host.Library, st store.Store, opts ...Option) *testServer {
	t.Helper()
	// The solutions the server makes go to a directory of the test's, and
	// it solves small games only (a form shown prepares perfect play for
	// the game in it, in the background: tests need not spend more).
	opts = append([]Option{WithRules(docs.Rules), WithPollInterval(50 * time.Millisecond), WithLimits(testLimits), WithDefaultGame("tsoro"),
		WithSolutionCache(t.TempDir()), WithPerfect(PerfectBudget{Positions: 20_000, Time: time.Minute, Memory: 64 << 20, SolvesPerMinute: 6})}, opts...)
	s, err := New(l, st, opts...)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return &testServer{t: t, srv: s, http: newHTTPTest(t, s), store: st}
}

func lib() *host.Library { return games.Library() }

// newHTTPTest serves s in an httptest server closed with the test.
func newHTTPTest(t *testing.T, s *Server) *httptest.Server {
	hs := httptest.NewServer(s.Handler())
	t.Cleanup(func() {
		hs.CloseClientConnections()
		hs.Close()
	})
	return hs
}

// do sends a request and returns the status and body.
func (ts *testServer) do(method, path, body string) (int, []byte) {
	ts.t.Helper()
	req, err := http.NewRequest(method, ts.http.URL+path, strings.NewReader(body))
	require.NoError(ts.t, err)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := ts.http.Client().Do(req)
	require.NoError(ts.t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(ts.t, err)
	return res.StatusCode, b
}

// testGame is the JSON of a game as the API gives it.
type testGame struct {
	ID         string          `json:"id"`
	Game       string          `json:"game"`
	Variants   []string        `json:"variants"`
	Titles     []string        `json:"variant_titles"`
	Seats      []seatView      `json:"seats"`
	Record     []string        `json:"record"`
	RecordFrom int             `json:"record_from"` // the moves of the record left out
	Ply        int             `json:"ply"`
	State      json.RawMessage `json:"state"`
	Moves      []moveView      `json:"moves"`
	Last       *moveView       `json:"last"`
	Board      *boardView      `json:"board"`
	Movers     []int           `json:"movers"`
	Result     *store.Result   `json:"result"`
	Clock      *clockView      `json:"clock"`
	Request    *store.Request  `json:"request"`
	Rematch    string          `json:"rematch"`
	Of         string          `json:"rematch_of"`
	From       []int           `json:"from"`
}

type testState struct {
	Ply    int      `json:"ply"`
	ToMove int      `json:"to_move"`
	Legal  []string `json:"legal"`
	Over   bool     `json:"over"`
	Winner int      `json:"winner"`
}

func (g testGame) state(t *testing.T) testState {
	var s testState
	require.NoError(t, json.Unmarshal(g.State, &s))
	return s
}

// link is the link a person opens for seat i of a new game g: the seat
// link of a seat its creator holds, else its invitation.
func link(g testGame, i int) string {
	if g.Seats[i].URL != "" {
		return g.Seats[i].URL
	}
	return g.Seats[i].Invite
}

// secret returns the seat secret in a seat link.
func secret(t *testing.T, url string) string {
	_, s, ok := strings.Cut(url, "&seat=")
	require.True(t, ok, "seat link %q has a secret", url)
	return s
}

// claim claims a person's seat with its invitation link, as the browser
// that opens it does, and returns the seat's secret.
func (ts *testServer) claim(invite string) string {
	ts.t.Helper()
	path, inv, ok := strings.Cut(invite, "#")
	require.True(ts.t, ok, "invitation link %q", invite)
	_, code, ok := strings.Cut(inv, "&invite=")
	require.True(ts.t, ok, "invitation link %q", invite)
	id := strings.TrimPrefix(path, "/g/")
	status, b := ts.do("POST", "/api/games/"+id+"/claim", `{"invite": "`+code+`"}`)
	require.Equal(ts.t, http.StatusOK, status, "%s", b)
	var g testGame
	require.NoError(ts.t, json.Unmarshal(b, &g))
	for _, s := range g.Seats {
		if s.URL != "" {
			return secret(ts.t, s.URL)
		}
	}
	ts.t.Fatalf("the claim's answer has no seat link: %s", b)
	return ""
}

// seatsOf returns the secret of each seat of a new game g, in seat order:
// the seats its creator holds, and the other persons' seats claimed with
// their invitations ("" for a computer's seat).
func (ts *testServer) seatsOf(g testGame) []string {
	ts.t.Helper()
	out := make([]string, len(g.Seats))
	for i, s := range g.Seats {
		switch {
		case s.URL != "":
			out[i] = secret(ts.t, s.URL)
		case s.Invite != "":
			out[i] = ts.claim(s.Invite)
		}
	}
	return out
}

// both returns the secrets of the two seats of a new game g (seatsOf).
func (ts *testServer) both(g testGame) (string, string) {
	ts.t.Helper()
	s := ts.seatsOf(g)
	require.Len(ts.t, s, 2)
	return s[0], s[1]
}

func (ts *testServer) create(body string) testGame {
	ts.t.Helper()
	status, b := ts.do("POST", "/api/games", body)
	require.Equal(ts.t, http.StatusCreated, status, "%s", b)
	var g testGame
	require.NoError(ts.t, json.Unmarshal(b, &g))
	return g
}

func (ts *testServer) move(id, token string, ply int, seat string) (int, []byte) {
	ts.t.Helper()
	body, _ := json.Marshal(map[string]any{"token": token, "ply": ply, "seat": seat})
	return ts.do("POST", "/api/games/"+id+"/moves", string(body))
}

// waitGame reads game id until cond holds (the computer has moved, ...),
// for at most two minutes: a wait for a state, not for a time.
func (ts *testServer) waitGame(id string, cond func(testGame) bool) testGame {
	ts.t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		g := ts.get(id)
		if cond(g) {
			return g
		}
		require.True(ts.t, time.Now().Before(deadline), "game %s: the state waited for did not come: %v", id, g.Record)
		time.Sleep(10 * time.Millisecond)
	}
}

func (ts *testServer) get(id string) testGame {
	ts.t.Helper()
	status, b := ts.do("GET", "/api/games/"+id, "")
	require.Equal(ts.t, http.StatusOK, status, "%s", b)
	var g testGame
	require.NoError(ts.t, json.Unmarshal(b, &g))
	return g
}

// stateAfter is json.Marshal of the state after tokens, what `matombo
// trace --json` prints.
func stateAfter(t *testing.T, name string, variants []string, tokens []string) []byte {
	t.Helper()
	g, err := games.Library().Load(name, host.WithVariant(variants...))
	require.NoError(t, err)
	s := g.Start()
	for _, tok := range tokens {
		m, err := s.ParseMove(tok)
		require.NoError(t, err)
		require.NoError(t, s.ApplyRecorded(m)) // the server's state JSON carries the last move's effects
	}
	b, err := json.Marshal(s)
	require.NoError(t, err)
	return b
}

func TestCatalog(t *testing.T) {
	ts := newTestServer(t, newMemStore())
	status, b := ts.do("GET", "/api/catalog", "")
	require.Equal(t, http.StatusOK, status)
	var c struct {
		Games []catalogGame `json:"games"`
	}
	require.NoError(t, json.Unmarshal(b, &c))
	var names []string
	for _, g := range c.Games {
		names = append(names, g.Name)
		assert.NotEmpty(t, g.Title)
		_, page := docs.Rules(g.Name)
		assert.Equal(t, page, g.HasRules, g.Name)
		assert.Positive(t, g.Players)
	}
	assert.Equal(t, games.Library().Games(), names)
	status, b = ts.do("GET", "/api/catalog/gore/rules", "")
	require.Equal(t, http.StatusOK, status)
	var r rulesView
	require.NoError(t, json.Unmarshal(b, &r))
	assert.Contains(t, r.HTML, "<h1 id=\"gor\">Goré</h1>")
	assert.Contains(t, r.HTML, "<table>")
	status, _ = ts.do("GET", "/api/catalog/nosuch/rules", "")
	assert.Equal(t, http.StatusNotFound, status)
}

func TestCreateAndGet(t *testing.T) {
	ts := newTestServer(t, newMemStore())
	g := ts.create(`{"game": "tsoro", "variants": ["4x8"], "params": {"bonus": 3}, "seats": ["human", "human"]}`)
	assert.Equal(t, "tsoro", g.Game)
	assert.Empty(t, g.Record)
	require.Len(t, g.Seats, 2)
	for _, s := range g.Seats {
		assert.Equal(t, "human", s.Player)
		assert.Equal(t, "a person", s.Name)
	}
	// The creator holds the first seat; the second waits for whoever
	// claims it with its invitation.
	assert.True(t, strings.HasPrefix(g.Seats[0].URL, fmt.Sprintf("/g/%s#player=1&seat=", g.ID)), g.Seats[0].URL)
	assert.Len(t, secret(t, g.Seats[0].URL), 32, "128 bits in hex")
	assert.Empty(t, g.Seats[0].Invite)
	assert.False(t, g.Seats[0].Waiting)
	assert.Empty(t, g.Seats[1].URL)
	assert.True(t, g.Seats[1].Waiting)
	assert.True(t, strings.HasPrefix(g.Seats[1].Invite, fmt.Sprintf("/g/%s#player=2&invite=", g.ID)), g.Seats[1].Invite)
	_, invite, _ := strings.Cut(g.Seats[1].Invite, "&invite=")
	assert.Len(t, invite, 32)
	require.NotNil(t, g.Board)
	assert.Equal(t, "counts", g.Board.Style)
	assert.Len(t, g.Board.Sites, 32)

	lib := games.Library()
	want, err := lib.Load("tsoro", host.WithVariant("4x8"), host.WithParam("bonus", 3))
	require.NoError(t, err)
	wantState, _ := json.Marshal(want.Start())
	assert.JSONEq(t, string(wantState), string(g.State))

	status, b := ts.do("GET", "/api/games/"+g.ID, "")
	require.Equal(t, http.StatusOK, status)
	assert.NotContains(t, string(b), secret(t, g.Seats[0].URL), "a GET shows no seat secret")
	assert.NotContains(t, string(b), invite, "nor an invitation")
	var got testGame
	require.NoError(t, json.Unmarshal(b, &got))
	assert.JSONEq(t, string(wantState), string(got.State))
	assert.Empty(t, got.Seats[0].URL)
}

func TestCreateErrors(t *testing.T) {
	ts := newTestServer(t, newMemStore(), WithMaxBody(1024))
	tests := []struct {
		name, body string
		status     int
		contains   string
	}{
		{"malformed JSON", `{"game": `, 400, "not the expected JSON"},
		{"not an object", `[1, 2]`, 400, "not the expected JSON"},
		{"unknown field", `{"game": "tsoro", "colour": "red"}`, 400, "colour"},
		{"two values", `{"game": "tsoro"} {}`, 400, "more than one"},
		{"unknown game", `{"game": "chess"}`, 422, "yematatu"},
		{"no game", `{}`, 422, "tsoro"},
		{"unknown variant", `{"game": "tsoro", "variants": ["4x99"]}`, 422, "4x8"},
		{"bad parameter value", `{"game": "tsoro", "params": {"bonus": 9}}`, 422, "bonus"},
		{"unknown parameter", `{"game": "tsoro", "params": {"speed": 1}}`, 422, "speed"},
		{"fractional parameter", `{"game": "tsoro", "params": {"bonus": 1.5}}`, 422, "bonus"},
		{"wrong seat count", `{"game": "tsoro", "seats": ["human"]}`, 422, "2 players"},
		{"unknown player", `{"game": "tsoro", "seats": ["human", "deep-blue"]}`, 422, "deep-blue"},
		{"body too large", `{"game": "tsoro", "seats": ["` + strings.Repeat("x", 2000) + `"]}`, 413, "over 1024 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, b := ts.do("POST", "/api/games", tt.body)
			assert.Equal(t, tt.status, status, "%s", b)
			var e apiError
			require.NoError(t, json.Unmarshal(b, &e), "%s", b)
			assert.Contains(t, e.Error+strings.Join(e.Allowed, " "), tt.contains)
		})
	}
}

func TestGetErrors(t *testing.T) {
	ts := newTestServer(t, newMemStore())
	g := ts.create(`{"game": "gore"}`)
	tests := []struct {
		path   string
		status int
	}{
		{"/api/games/nosuch", 404},
		{"/api/games/nosuch/events", 404},
		{"/api/games/" + g.ID + "?ply=1", 400},
		{"/api/games/" + g.ID + "?ply=-1", 400},
		{"/api/games/" + g.ID + "?ply=x", 400},
		{"/api/nosuch", 404},
		{"/api/games/" + g.ID + "?ply=0", 200},
	}
	for _, tt := range tests {
		status, b := ts.do("GET", tt.path, "")
		assert.Equal(t, tt.status, status, "%s: %s", tt.path, b)
		assert.True(t, json.Valid(b), "%s answers JSON: %s", tt.path, b)
	}
}

func TestMoves(t *testing.T) {
	ts := newTestServer(t, newMemStore())
	g := ts.create(`{"game": "yematatu", "seats": ["human", "human"]}`)
	s1, s2 := ts.both(g)

	status, b := ts.move(g.ID, "b2", 0, s1)
	require.Equal(t, http.StatusOK, status, "%s", b)
	var after testGame
	require.NoError(t, json.Unmarshal(b, &after))
	assert.Equal(t, []string{"b2"}, after.Record)
	assert.JSONEq(t, string(stateAfter(t, "yematatu", nil, []string{"b2"})), string(after.State))
	require.NotNil(t, after.Last)
	assert.Equal(t, moveView{Token: "b2", Kind: "drop", Sites: []string{"b2"}}, *after.Last)

	tests := []struct {
		name   string
		body   string
		status int
		check  func(t *testing.T, e apiError)
	}{
		{"player 1's secret on player 2's turn", fmt.Sprintf(`{"token": "a1", "ply": 1, "seat": %q}`, s1), 403, nil},
		{"no secret", `{"token": "a1", "ply": 1}`, 403, nil},
		{"a wrong secret of the right length", fmt.Sprintf(`{"token": "a1", "ply": 1, "seat": %q}`, strings.Repeat("0", 32)), 403, nil},
		{"stale ply", fmt.Sprintf(`{"token": "a1", "ply": 0, "seat": %q}`, s2), 409, func(t *testing.T, e apiError) {
			require.NotNil(t, e.Ply)
			assert.Equal(t, 1, *e.Ply)
		}},
		{"future ply", fmt.Sprintf(`{"token": "a1", "ply": 5, "seat": %q}`, s2), 409, nil},
		{"illegal token", fmt.Sprintf(`{"token": "b2", "ply": 1, "seat": %q}`, s2), 422, func(t *testing.T, e apiError) {
			assert.NotContains(t, e.Legal, "b2")
			assert.Contains(t, e.Legal, "a1")
			assert.Len(t, e.Legal, 6)
		}},
		{"empty token", fmt.Sprintf(`{"token": "", "ply": 1, "seat": %q}`, s2), 422, nil},
		{"no ply", fmt.Sprintf(`{"token": "a1", "seat": %q}`, s2), 400, nil},
		{"malformed", `{"token": "a1", "ply": "one"}`, 400, nil},
		{"too large", `{"token": "` + strings.Repeat("a", 20000) + `", "ply": 1}`, 413, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, b := ts.do("POST", "/api/games/"+g.ID+"/moves", tt.body)
			assert.Equal(t, tt.status, status, "%s", b)
			var e apiError
			require.NoError(t, json.Unmarshal(b, &e))
			assert.NotEmpty(t, e.Error)
			if tt.check != nil {
				tt.check(t, e)
			}
		})
	}
	status, _ = ts.move("nosuch", "a1", 1, s2)
	assert.Equal(t, http.StatusNotFound, status)

	// Play to a win for player 1: b1 b3 c1 ... then a1 makes a1 b1 c1.
	record := []string{"b2", "c1", "b1", "c3", "b3"}
	seats := []string{s1, s2}
	for ply := 1; ply < len(record); ply++ {
		status, b := ts.move(g.ID, record[ply], ply, seats[ply%2])
		require.Equal(t, http.StatusOK, status, "%s", b)
	}
	end := ts.get(g.ID)
	st := end.state(t)
	assert.True(t, st.Over)
	assert.Equal(t, 1, st.Winner)
	assert.JSONEq(t, string(stateAfter(t, "yematatu", nil, record)), string(end.State))
	status, b = ts.move(g.ID, "a1", len(record), s2)
	assert.Equal(t, http.StatusConflict, status, "%s", b)
	assert.Contains(t, string(b), "over")
	stored, err := ts.store.Get(context.Background(), g.ID)
	require.NoError(t, err)
	assert.True(t, stored.Over())
	assert.Equal(t, &store.Result{Winner: 1, Method: "rule", Reason: "three on a line", Notes: []string{}, Scores: []float64{1, 0}}, stored.Result)

	// An earlier position.
	status, b = ts.do("GET", "/api/games/"+g.ID+"?ply=2", "")
	require.Equal(t, http.StatusOK, status)
	var early testGame
	require.NoError(t, json.Unmarshal(b, &early))
	assert.Equal(t, 2, early.Ply)
	assert.Equal(t, "c1", early.Last.Token)
	assert.JSONEq(t, string(stateAfter(t, "yematatu", nil, record[:2])), string(early.State))
}

// newMemStore is the store of most tests.
func newMemStore() *store.Memory { return store.NewMemory() }

// idleStore is a store in memory whose computer moves are never claimed.
type idleStore struct{ *store.Memory }

func (idleStore) Claim(ctx context.Context, owner string, lease time.Duration) (*store.Game, error) {
	return nil, fmt.Errorf("idle store: %w", store.ErrNotFound)
}

func TestComputerSeatRefusesPeople(t *testing.T) {
	stuck := func(g *host.Game, spec string) (Player, error) { return stuckPlayer{}, nil }
	ts := newTestServer(t, newMemStore(), WithPlayers(stuck), WithComputerSeats("stuck"), WithThinkTime(time.Hour))
	g := ts.create(`{"game": "gore", "seats": ["stuck", "human"]}`)
	assert.Empty(t, g.Seats[0].URL)
	status, b := ts.move(g.ID, "a1", 0, secret(t, g.Seats[1].URL))
	assert.Equal(t, http.StatusForbidden, status, "%s", b)
	assert.Contains(t, string(b), "computer")
	assert.Contains(t, string(b), `"code":"computer-seat"`)
}

func TestUnavailableStore(t *testing.T) {
	st := newMemStore()
	var log syncBuffer
	ts := newTestServer(t, st, WithLogger(slog.New(slog.NewTextHandler(&log, nil))))
	g := ts.create(`{"game": "gore"}`)
	st.SetUnavailable(true)
	defer st.SetUnavailable(false)
	for _, r := range []struct{ method, path, body string }{
		{"GET", "/api/games/" + g.ID, ""},
		{"POST", "/api/games", `{"game": "gore"}`},
		{"POST", "/api/games/" + g.ID + "/moves", `{"token": "a1", "ply": 0, "seat": "` + secret(t, g.Seats[0].URL) + `"}`},
		{"GET", "/api/games/" + g.ID + "/events", ""},
		{"GET", "/api/health", ""},
	} {
		status, b := ts.do(r.method, r.path, r.body)
		assert.Equal(t, http.StatusServiceUnavailable, status, "%s %s: %s", r.method, r.path, b)
		assert.NotContains(t, string(b), "set unavailable", "the cause is the operator's, in the log")
	}
	// The cause is logged, once for the many requests that failed.
	assert.Equal(t, 1, strings.Count(log.String(), "the game store does not answer"), log.String())
	assert.Contains(t, log.String(), "the store is set unavailable")
	st.SetUnavailable(false)
	status, b := ts.do("GET", "/api/health", "")
	assert.Equal(t, http.StatusOK, status, "%s", b)
}

// TestRacingMoves sends the same ply from many clients at once: exactly one
// move is stored; the requests that sent it are answered 200 (the same
// move sent again is the move made), the others 409.
func TestRacingMoves(t *testing.T) {
	ts := newTestServer(t, newMemStore())
	g := ts.create(`{"game": "tsoro", "variants": ["4x8"]}`)
	s1 := secret(t, g.Seats[0].URL)
	legal := g.state(t).Legal
	const n = 16
	statuses := make([]int, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			statuses[i], _ = ts.move(g.ID, legal[i%len(legal)], 0, s1)
		}()
	}
	close(start)
	wg.Wait()
	record := ts.get(g.ID).Record
	require.Len(t, record, 1)
	for i, s := range statuses {
		want := http.StatusConflict
		if legal[i%len(legal)] == record[0] {
			want = http.StatusOK
		}
		assert.Equal(t, want, s, "%s", legal[i%len(legal)])
	}
}

// TestRacingAcrossServers races two servers sharing one store, as two
// processes sharing a database: the store decides, exactly one wins.
func TestRacingAcrossServers(t *testing.T) {
	st := newMemStore()
	a, b := newTestServer(t, st), newTestServer(t, st)
	g := a.create(`{"game": "gore"}`)
	s1 := secret(t, g.Seats[0].URL)
	b.get(g.ID) // b caches the opening
	var wg sync.WaitGroup
	var sa, sb int
	wg.Add(2)
	go func() { defer wg.Done(); sa, _ = a.move(g.ID, "a1", 0, s1) }()
	go func() { defer wg.Done(); sb, _ = b.move(g.ID, "a2", 0, s1) }()
	wg.Wait()
	assert.ElementsMatch(t, []int{200, 409}, []int{sa, sb})
	// Each server now shows the winning move.
	ra, rb := a.get(g.ID), b.get(g.ID)
	assert.Equal(t, ra.Record, rb.Record)
	assert.JSONEq(t, string(ra.State), string(rb.State))
}

// sseReader reads Server-Sent Events, as a page does: an event that
// leaves out the moves of the record the stream's last event carried
// (record_from) is completed with them.
type sseReader struct {
	t    *testing.T
	res  *http.Response
	sc   *bufio.Scanner
	held testGame // the last event, its record whole
	sent testGame // the last event as sent
}

func (ts *testServer) events(ctx context.Context, id string) *sseReader {
	ts.t.Helper()
	req, _ := http.NewRequestWithContext(ctx, "GET", ts.http.URL+"/api/games/"+id+"/events", nil)
	res, err := ts.http.Client().Do(req)
	require.NoError(ts.t, err)
	require.Equal(ts.t, http.StatusOK, res.StatusCode)
	require.Equal(ts.t, "text/event-stream", res.Header.Get("Content-Type"))
	ts.t.Cleanup(func() { res.Body.Close() })
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	return &sseReader{t: ts.t, res: res, sc: sc}
}

// next returns the next event's id and game.
func (r *sseReader) next() (string, testGame) {
	r.t.Helper()
	var id, data string
	for r.sc.Scan() {
		line := r.sc.Text()
		switch {
		case strings.HasPrefix(line, "id: "):
			id = line[4:]
		case strings.HasPrefix(line, "data: "):
			data = line[6:]
		case line == "" && data != "":
			var g testGame
			require.NoError(r.t, json.Unmarshal([]byte(data), &g))
			r.sent = g
			if from := g.RecordFrom; from > 0 {
				require.LessOrEqual(r.t, from, len(r.held.Record), "an event leaves out moves the stream did not send: %s", data)
				g.Record = append(slices.Clone(r.held.Record[:from]), g.Record...)
				g.Movers = append(slices.Clone(r.held.Movers[:min(from, len(r.held.Movers))]), g.Movers...)
			}
			r.held = g
			return id, g
		}
	}
	r.t.Fatalf("event stream ended: %v", r.sc.Err())
	return "", testGame{}
}

func TestEvents(t *testing.T) {
	st := newMemStore()
	ts := newTestServer(t, st)
	other := newTestServer(t, st) // another process sharing the store
	g := ts.create(`{"game": "yematatu"}`)
	s1, s2 := ts.both(g)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ev := ts.events(ctx, g.ID)
	id, first := ev.next()
	assert.Equal(t, "0", id)
	assert.Equal(t, 0, first.Ply)

	status, _ := ts.move(g.ID, "b2", 0, s1)
	require.Equal(t, http.StatusOK, status)
	id, e := ev.next()
	assert.Equal(t, "1", id)
	assert.Equal(t, []string{"b2"}, e.Record)
	assert.JSONEq(t, string(stateAfter(t, "yematatu", nil, e.Record)), string(e.State))

	// A move made through the other server arrives through the store.
	status, _ = other.move(g.ID, "c1", 1, s2)
	require.Equal(t, http.StatusOK, status)
	id, e = ev.next()
	assert.Equal(t, "2", id)
	assert.Equal(t, []string{"b2", "c1"}, e.Record)
	assert.Equal(t, "c1", e.Last.Token)

	// A client reconnecting after event 0 gets both states it missed.
	req, _ := http.NewRequestWithContext(ctx, "GET", ts.http.URL+"/api/games/"+g.ID+"/events", nil)
	req.Header.Set("Last-Event-ID", "0")
	res, err := ts.http.Client().Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	re := &sseReader{t: t, res: res, sc: bufio.NewScanner(res.Body)}
	re.sc.Buffer(make([]byte, 1<<20), 1<<20)
	id1, _ := re.next()
	id2, _ := re.next()
	assert.Equal(t, []string{"1", "2"}, []string{id1, id2})
}

// TestComputerPlays plays a person against the computer to the end; the
// computer moves first, and its moves arrive as events.
func TestComputerPlays(t *testing.T) {
	ts := newTestServer(t, newMemStore())
	g := ts.create(`{"game": "yematatu", "seats": ["random", "human"]}`)
	me := secret(t, g.Seats[1].URL)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ev := ts.events(ctx, g.ID)
	_, cur := ev.next()
	for plies := 0; plies < 600; plies++ {
		st := cur.state(t)
		if st.Over {
			stored, err := ts.store.Get(ctx, g.ID)
			require.NoError(t, err)
			assert.True(t, stored.Over())
			assert.False(t, stored.ComputerDue)
			assert.JSONEq(t, string(stateAfter(t, "yematatu", nil, stored.Record)), string(cur.State))
			return
		}
		if st.ToMove == 2 {
			status, b := ts.move(g.ID, st.Legal[0], len(cur.Record), me)
			require.Equal(t, http.StatusOK, status, "%s", b)
		}
		_, cur = ev.next()
	}
	t.Fatal("the game did not end")
}

func TestComputerVersusComputer(t *testing.T) {
	ts := newTestServer(t, newMemStore(), WithWorkers(3))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var ids []string
	for range 4 {
		ids = append(ids, ts.create(`{"game": "yematatu", "seats": ["random", "random"]}`).ID)
	}
	for _, id := range ids {
		ev := ts.events(ctx, id)
		for {
			_, g := ev.next()
			if g.state(t).Over {
				break
			}
		}
	}
}

func TestCacheCap(t *testing.T) {
	ts := newTestServer(t, newMemStore(), WithCacheSize(2))
	var ids []string
	var secrets []string
	for range 5 {
		g := ts.create(`{"game": "gore"}`)
		ids = append(ids, g.ID)
		secrets = append(secrets, secret(t, g.Seats[0].URL))
	}
	for i, id := range ids {
		status, b := ts.move(id, "a1", 0, secrets[i])
		require.Equal(t, http.StatusOK, status, "%s", b)
		assert.LessOrEqual(t, ts.srv.cache.len(), 2)
	}
	for _, id := range ids {
		g := ts.get(id)
		assert.JSONEq(t, string(stateAfter(t, "gore", nil, []string{"a1"})), string(g.State))
	}
	assert.Equal(t, 2, ts.srv.cache.len())
}

func TestPageAndHeaders(t *testing.T) {
	ts := newTestServer(t, newMemStore())
	for _, tt := range []struct{ path, ctype, contains string }{
		{"/", "text/html", "<script type=\"module\" src=\"/static/app.js\">"},
		{"/g/abc", "text/html", "id=\"board\""},
		{"/static/game.js", "text/javascript", "EventSource"},
		{"/static/board.js", "text/javascript", "drawBoard"},
		{"/static/style.css", "text/css", "--p1"},
		{"/api/catalog", "application/json", "games"},
	} {
		res, err := ts.http.Client().Get(ts.http.URL + tt.path)
		require.NoError(t, err)
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		assert.Equal(t, 200, res.StatusCode, tt.path)
		assert.Contains(t, res.Header.Get("Content-Type"), tt.ctype, tt.path)
		assert.Contains(t, string(b), tt.contains, tt.path)
		assert.Equal(t, contentSecurityPolicy, res.Header.Get("Content-Security-Policy"), tt.path)
		assert.Equal(t, "nosniff", res.Header.Get("X-Content-Type-Options"))
	}
	res, err := ts.http.Client().Get(ts.http.URL + "/static/nosuch.js")
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, 404, res.StatusCode)
}

func TestHTTPServerTimeouts(t *testing.T) {
	s := HTTPServer("127.0.0.1:0", http.NotFoundHandler())
	assert.Positive(t, s.ReadHeaderTimeout)
	assert.Positive(t, s.IdleTimeout)
	assert.Positive(t, s.ReadTimeout)
	assert.Positive(t, s.WriteTimeout, "the first deadline of an answer; the Server's Handler moves it on")
}

// TestEventsOutliveTimeouts checks that an event stream stays open past
// the server's read timeout and its write timeout and wait, which bound
// each write, not the stream.
func TestEventsOutliveTimeouts(t *testing.T) {
	s, err := New(lib(), newMemStore(), WithWriteWait(100*time.Millisecond))
	require.NoError(t, err)
	defer s.Close()
	hs := httptest.NewUnstartedServer(s.Handler())
	hs.Config.ReadTimeout = 100 * time.Millisecond
	hs.Config.WriteTimeout = 100 * time.Millisecond
	hs.Start()
	defer hs.Close()
	ts := &testServer{t: t, srv: s, http: hs, store: s.store}
	g := ts.create(`{"game": "gore"}`)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ev := ts.events(ctx, g.ID)
	ev.next()
	time.Sleep(300 * time.Millisecond) // well past the timeouts
	status, b := ts.move(g.ID, "a1", 0, secret(t, g.Seats[0].URL))
	require.Equal(t, http.StatusOK, status, "%s", b)
	id, _ := ev.next()
	assert.Equal(t, "1", id)
}

func TestNewRejectsBadOptions(t *testing.T) {
	_, err := New(games.Library(), newMemStore(), WithWorkers(0))
	assert.Error(t, err)
	_, err = New(games.Library(), newMemStore(), WithCacheSize(-1))
	assert.Error(t, err)
	_, err = New(games.Library(), newMemStore(), WithLockWait(0))
	assert.Error(t, err)
}

// TestBrokenGameFolder serves a library with a game whose script does not
// load: the catalog says why, and creating it is refused with 422.
func TestBrokenGameFolder(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "broken"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "broken", "broken.lua"), []byte("this is not Lua"), 0o644))
	l := games.Library()
	require.NoError(t, l.AddDir(dir))
	s, err := New(l, newMemStore())
	require.NoError(t, err)
	defer s.Close()
	ts := &testServer{t: t, srv: s, http: newHTTPTest(t, s), store: s.store}
	status, b := ts.do("GET", "/api/catalog", "")
	require.Equal(t, http.StatusOK, status)
	var c struct{ Games []catalogGame }
	require.NoError(t, json.Unmarshal(b, &c))
	found := false
	for _, g := range c.Games {
		if g.Name == "broken" {
			found = true
			assert.Contains(t, g.Error, "broken.lua")
		}
	}
	assert.True(t, found)
	status, b = ts.do("POST", "/api/games", `{"game": "broken"}`)
	assert.Equal(t, http.StatusUnprocessableEntity, status, "%s", b)
	assert.Contains(t, string(b), "broken.lua")
}

// stuckPlayer never answers before its context ends; failingPlayer always
// fails.
type stuckPlayer struct{}

func (stuckPlayer) Choose(ctx context.Context, s *host.State) (host.Move, error) {
	<-ctx.Done()
	return host.Move{}, ctx.Err()
}

type failingPlayer struct{}

func (failingPlayer) Choose(ctx context.Context, s *host.State) (host.Move, error) {
	return host.Move{}, fmt.Errorf("no idea")
}

type panickingPlayer struct{}

func (panickingPlayer) Choose(ctx context.Context, s *host.State) (host.Move, error) {
	var moves []host.Move
	return moves[len(s.Moves())], nil // a defect: index out of range
}

// TestComputerFallback checks that a player that hangs, fails or panics
// is replaced by a random legal move, so the game goes on (and the
// server: a panic is logged, not fatal).
func TestComputerFallback(t *testing.T) {
	players := func(g *host.Game, spec string) (Player, error) {
		switch spec {
		case "stuck":
			return stuckPlayer{}, nil
		case "failing":
			return failingPlayer{}, nil
		case "panicking":
			return panickingPlayer{}, nil
		}
		return nil, fmt.Errorf("unknown player %q (allowed: stuck, failing, panicking)", spec)
	}
	var log syncBuffer
	ts := newTestServer(t, newMemStore(), WithPlayers(players), WithThinkTime(20*time.Millisecond), WithComputerSeats("stuck", "failing", "panicking"),
		WithLogger(slog.New(slog.NewTextHandler(&log, nil))))
	status, b := ts.do("GET", "/api/catalog", "")
	require.Equal(t, http.StatusOK, status)
	assert.Contains(t, string(b), `"computers":["stuck","failing","panicking"]`)
	status, b = ts.do("POST", "/api/games", `{"game": "gore", "seats": ["random", "human"]}`)
	assert.Equal(t, http.StatusUnprocessableEntity, status, "%s", b)
	assert.Contains(t, string(b), `"allowed":["stuck","failing","panicking"]`)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, seats := range []string{`["stuck", "failing"]`, `["panicking", "failing"]`} {
		g := ts.create(`{"game": "yematatu", "seats": ` + seats + `}`)
		ev := ts.events(ctx, g.ID)
		for {
			_, cur := ev.next()
			if len(cur.Record) >= 4 {
				break
			}
		}
	}
	assert.Contains(t, log.String(), "a computer player panicked")
	assert.Contains(t, log.String(), "index out of range")
}

// TestStaleCacheAcrossServers moves through one server while another holds
// the game in its cache: the other refuses the old ply (the store says
// so) and accepts the new one (it reads the store).
func TestStaleCacheAcrossServers(t *testing.T) {
	st := newMemStore()
	a, b := newTestServer(t, st), newTestServer(t, st)
	g := a.create(`{"game": "yematatu"}`)
	s1, s2 := a.both(g)
	b.get(g.ID) // b caches the opening
	status, body := a.move(g.ID, "b2", 0, s1)
	require.Equal(t, http.StatusOK, status, "%s", body)
	status, body = b.move(g.ID, "a1", 0, s1)
	assert.Equal(t, http.StatusConflict, status, "%s", body)
	status, body = b.move(g.ID, "a1", 1, s2)
	require.Equal(t, http.StatusOK, status, "%s", body)
	assert.Equal(t, []string{"b2", "a1"}, a.get(g.ID).Record)
}

// TestBoardViewDrawing checks what the page is told about drawing a game:
// its style, whether the board is checkered, and what the hands are
// called ("" for hands the script does not show).
func TestBoardViewDrawing(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t, newMemStore())
	tests := []struct {
		game, style string
		checkered   bool
		hand        string
	}{
		{"tsoro", "counts", false, "in hand"},
		{"yematatu", "pieces", false, "in hand"},
		{"draughts", "pieces", true, ""},
		{"drafti", "pieces", true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.game, func(t *testing.T) {
			g := ts.create(`{"game": "` + tt.game + `", "seats": ["human", "human"]}`)
			require.NotNil(t, g.Board)
			assert.Equal(t, tt.style, g.Board.Style)
			assert.Equal(t, tt.checkered, g.Board.Checkered)
			assert.Equal(t, tt.hand, g.Board.HandLabel)
		})
	}
}

// syncBuffer is a buffer a logger's goroutines write while a test reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
