package server

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/netip"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/store"
)

// Tests of a server for strangers: every request class that let a client
// choose the server's work, by class.

// proxied are limits for tests that tell clients apart: requests come
// from 127.0.0.1, a trusted proxy, and X-Forwarded-For names the client.
func proxied(l Limits) Limits {
	l.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}
	return l
}

// as sends a request from client (an address the proxy names) with the
// given headers; body "" sends none.
func (ts *testServer) as(client, method, path, body string, headers ...string) (*http.Response, []byte) {
	ts.t.Helper()
	req, err := http.NewRequest(method, ts.http.URL+path, strings.NewReader(body))
	require.NoError(ts.t, err)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if client != "" {
		req.Header.Set("X-Forwarded-For", client)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		if headers[i] == "Host" {
			req.Host = headers[i+1]
			continue
		}
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := ts.http.Client().Do(req)
	require.NoError(ts.t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(ts.t, err)
	return res, b
}

// gatedPlayer thinks until the test lets one move through, or until its
// context ends; it counts the moves it started.
type gatedPlayer struct {
	gate    chan struct{}
	started chan string // the spec of each move started
	spec    string
}

func (p gatedPlayer) Choose(ctx context.Context, s *host.State) (host.Move, error) {
	p.started <- p.spec
	select {
	case <-p.gate:
		return s.Moves()[0], nil
	case <-ctx.Done():
		return host.Move{}, ctx.Err()
	}
}

func TestComputerSeatCaps(t *testing.T) {
	seats, err := parseComputerSeats(DefaultComputerSeats())
	require.NoError(t, err)
	cores := strconv.Itoa(min(2, runtime.NumCPU()))
	for _, tc := range []struct {
		spec, want, refused string
	}{
		{"mcts", "mcts:time=2s,iterations=1000000,threads=" + cores, ""},
		{"mcts:time=500ms", "mcts:time=500ms,iterations=1000000,threads=" + cores, ""},
		{"mcts:iterations=50,eval=generic,seed=3", "mcts:time=2s,iterations=50,threads=" + cores + ",eval=generic,seed=3", ""},
		{"mcts:time=100h", "", "time=100h: at most 2s on this server"},
		{"mcts:time=100h,threads=1024", "", "at most"},
		{"mcts:threads=1024", "", "threads=1024: at most " + cores},
		{"mcts:threads=all", "", "threads=all: at most"},
		{"mcts:time=5", "", "time=5: at most 2s"},
		{"mcts:nodes=900000000", "", "mcts takes no option nodes on this server"},
		{"alphabeta:depth=8", "alphabeta:time=2s,depth=8", ""},
		{"alphabeta:depth=65", "", "depth=65: at most 64"},
		{"perfect", "perfect", ""},
		{"random:seed=9", "random:seed=9", ""},
		{"deep-blue", "", `this server has no computer player "deep-blue"`},
		{"mcts:time", "", "is not key=value"},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			got, err := seats.allow(tc.spec)
			if tc.refused == "" {
				require.NoError(t, err)
				assert.Equal(t, tc.want, got)
				return
			}
			var se *SeatError
			require.ErrorAs(t, err, &se)
			assert.Contains(t, err.Error(), tc.refused)
			assert.Equal(t, seats.texts(), se.Allowed)
		})
	}
	for _, bad := range []string{"", "human", "mcts:time<=forever", "mcts:time<=2s,time<=3s", "mcts:seed<=3", "mcts:time", "x y"} {
		_, err := ParseComputerSeat(bad)
		assert.Error(t, err, "%q", bad)
	}
	fixed, err := parseComputerSeats([]string{"mcts:time<=1s,eval=generic"})
	require.NoError(t, err)
	got, err := fixed.allow("mcts")
	require.NoError(t, err)
	assert.Equal(t, "mcts:time=1s,eval=generic", got)
	_, err = fixed.allow("mcts:eval=script")
	assert.ErrorContains(t, err, "eval is generic on this server")
}

// FuzzParseComputerSeat: a seat either parses and writes back to a seat
// that parses the same, or is refused; never a panic.
func FuzzParseComputerSeat(f *testing.F) {
	for _, s := range append(DefaultComputerSeats(), "mcts:time<=2s,threads<=1024", "a:b<=", "x:y=*,z<=1e9", ":", "mcts:time<=-1s") {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		cs, err := ParseComputerSeat(text)
		if err != nil {
			return
		}
		again, err := ParseComputerSeat(cs.String())
		require.NoError(t, err, "%q writes back as %q", text, cs.String())
		assert.Equal(t, cs, again)
		seats := computerSeats{cs}
		if spec, err := seats.allow(cs.Name); err == nil {
			_, err := seats.allow(spec)
			assert.NoError(t, err, "the spec a seat becomes is allowed: %q", spec)
		}
	})
}

// A create request naming a seat the operator does not allow gets 422
// with the allowed seats; an allowed one is stored with its budgets.
func TestCreateRefusesCostlySeats(t *testing.T) {
	ts := newTestServer(t, newMemStore())
	for _, spec := range []string{"mcts:time=100h,threads=1024", "mcts:time=100h", "alphabeta:depth=1000", "greedy:nodes=5"} {
		res, b := ts.as("", "POST", "/api/games", `{"game": "yematatu", "seats": ["`+spec+`", "human"]}`)
		assert.Equal(t, http.StatusUnprocessableEntity, res.StatusCode, "%s: %s", spec, b)
		var e apiError
		require.NoError(t, json.Unmarshal(b, &e))
		assert.Equal(t, DefaultComputerSeats()[0], e.Allowed[0])
	}
	g := ts.create(`{"game": "yematatu", "seats": ["human", "mcts:time=300ms,iterations=200"]}`)
	assert.Equal(t, "mcts:time=300ms,iterations=200,threads="+strconv.Itoa(min(2, runtime.NumCPU())), g.Seats[1].Player)
	status, b := ts.do("GET", "/api/catalog", "")
	require.Equal(t, http.StatusOK, status)
	assert.Contains(t, string(b), `"computer_seats":["mcts:time<=2s`)
}

// A stored seat is data from disk: one the server no longer allows is
// played with a random move, not with its budget.
func TestStoredSeatCheckedAgain(t *testing.T) {
	started := make(chan string, 4)
	players := func(g *host.Game, spec string) (Player, error) {
		started <- spec
		return ProjectPlayers(g, "random")
	}
	st := newMemStore()
	ts := newTestServer(t, st, WithPlayers(players), WithComputerSeats("mcts:time<=1s"))
	<-started // the check of the seat when the server starts
	sg := &store.Game{Game: "yematatu", Variants: []string{}, Seats: []store.Seat{{Player: "mcts:time=100h,threads=1024"}, {Player: humanSeat, Secret: "s"}}, ComputerDue: true}
	require.NoError(t, st.Create(context.Background(), sg))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	g := ts.events(ctx, sg.ID).until(1)
	assert.Len(t, g.Record, 1, "the computer moved")
	select {
	case spec := <-started:
		t.Fatalf("the stored seat was made as %q", spec)
	default:
	}
}

// perfect is prepared off the request path: the request gets 503 with
// Retry-After until the solution is ready, then 201; a game too large for
// the budget gets 422 saying why.
func TestPerfectPreparedOffThePath(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	ts := newTestServer(t, newMemStore(), WithPerfect(PerfectBudget{Positions: 20_000, Time: time.Minute, Memory: 64 << 20}))
	create := func(body string) (*http.Response, []byte) {
		for {
			res, b := ts.as("", "POST", "/api/games", body)
			if res.StatusCode != http.StatusServiceUnavailable {
				return res, b
			}
			assert.NotEmpty(t, res.Header.Get("Retry-After"))
			assert.Contains(t, string(b), "being prepared")
			assert.NotContains(t, string(b), "for yematatu", "the game named by its title, not its code name")
			time.Sleep(20 * time.Millisecond)
		}
	}
	res, b := create(`{"game": "yematatu", "seats": ["perfect", "human"]}`)
	require.Equal(t, http.StatusCreated, res.StatusCode, "%s", b)
	var g testGame
	require.NoError(t, json.Unmarshal(b, &g))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	after := ts.events(ctx, g.ID).until(1)
	assert.Len(t, after.Record, 1, "the perfect player moved")

	res, b = create(`{"game": "tsoro", "seats": ["perfect", "human"]}`)
	assert.Equal(t, http.StatusUnprocessableEntity, res.StatusCode, "%s", b)
	assert.Contains(t, string(b), "perfect play is not offered for tsoro: it has more than 20000 positions")
	res, b = ts.as("", "POST", "/api/games", `{"game": "tsoro", "seats": ["perfect", "human"]}`)
	assert.Equal(t, http.StatusUnprocessableEntity, res.StatusCode, "remembered: %s", b)
}

// One client's many games delay another client's move by one think time
// at most: the next free worker takes the other client's game.
func TestFairScheduling(t *testing.T) {
	gate := make(chan struct{})
	started := make(chan string, 64)
	players := func(g *host.Game, spec string) (Player, error) {
		if spec == "quick" {
			return ProjectPlayers(g, "random")
		}
		return gatedPlayer{gate: gate, started: started, spec: spec}, nil
	}
	ts := newTestServer(t, newMemStore(), WithPlayers(players), WithComputerSeats("slow", "quick"), WithWorkers(2),
		WithThinkTime(time.Hour), WithLimits(proxied(testLimits)))
	var hog []string
	for range 8 {
		res, b := ts.as("10.0.0.1", "POST", "/api/games", `{"game": "gore", "seats": ["slow", "human"]}`)
		require.Equal(t, http.StatusCreated, res.StatusCode, "%s", b)
		var g testGame
		require.NoError(t, json.Unmarshal(b, &g))
		hog = append(hog, g.ID)
	}
	<-started
	<-started // both workers think about the hog's games
	res, b := ts.as("10.0.0.2", "POST", "/api/games", `{"game": "gore", "seats": ["quick", "human"]}`)
	require.Equal(t, http.StatusCreated, res.StatusCode, "%s", b)
	var other testGame
	require.NoError(t, json.Unmarshal(b, &other))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ev := ts.events(ctx, other.ID)
	gate <- struct{}{} // one of the hog's moves ends: a worker is free, and takes the other client's game
	g := ev.until(1)
	assert.Len(t, g.Record, 1, "the other client's game moved")
	moved := 0
	for _, id := range hog {
		sg, err := ts.store.Get(ctx, id)
		require.NoError(t, err)
		moved += len(sg.Record)
	}
	assert.Equal(t, 1, moved, "the hog's games moved once meanwhile")
}

func TestSchedulerOrder(t *testing.T) {
	sc := newScheduler()
	for i := range 4 {
		assert.True(t, sc.push(fmt.Sprintf("a%d", i), "A"))
	}
	assert.False(t, sc.push("a0", "A"), "a game queued twice")
	id, c, ok := sc.next()
	require.True(t, ok)
	assert.Equal(t, "a0", id)
	assert.Equal(t, "A", c)
	sc.push("b0", "B")
	sc.push("b1", "B")
	sc.push("c0", "C")
	var order []string
	for {
		id, _, ok := sc.next()
		if !ok {
			break
		}
		order = append(order, id)
	}
	assert.Equal(t, []string{"b0", "c0", "a1", "b1", "a2", "a3"}, order)
	assert.Equal(t, 4, sc.count("A"))
	sc.done("a0")
	assert.Equal(t, 3, sc.count("A"))
	// Coming back at once does not put a client first.
	for _, id := range []string{"a1", "a2", "a3", "b0", "b1", "c0"} {
		sc.done(id)
	}
	sc.push("b2", "B")
	sc.push("a4", "A")
	id, _, _ = sc.next()
	assert.Equal(t, "b2", id, "B was served longer ago than A")

	// A game discovery found first is the client's once the client's
	// request queues it, waiting or thinking: it counts against the
	// client's quota, and ends as the client's.
	d := newScheduler()
	require.True(t, d.push("g1", discoveredClient+"g1"))
	require.True(t, d.push("g2", discoveredClient+"g2"))
	id, _, _ = d.next()
	require.Equal(t, "g1", id)
	assert.True(t, d.push("g1", "X"), "thinking")
	assert.True(t, d.push("g2", "X"), "waiting")
	assert.False(t, d.push("g2", discoveredClient+"g2"), "discovered again")
	assert.Equal(t, 2, d.count("X"))
	assert.Zero(t, d.discovered())
	id, c, _ = d.next()
	assert.Equal(t, "g2", id)
	assert.Equal(t, "X", c)
	assert.Equal(t, "X", d.done("g1"))
	assert.Equal(t, "X", d.done("g2"))
	assert.Zero(t, d.count("X"))

	// Of two clients never served, the first to come goes first, whatever
	// their names; a client whose discovered game was being thought
	// about when it was handed over counts as served then.
	f := newScheduler()
	require.True(t, f.push("h0", discoveredClient+"h0"))
	id, _, _ = f.next()
	require.Equal(t, "h0", id)
	require.True(t, f.push("h0", "1-hog")) // thinking, now the hog's
	require.True(t, f.push("h1", "1-hog"))
	require.True(t, f.push("o1", "2-other"))
	require.True(t, f.push("z1", "0-late"))
	var got []string
	for {
		id, _, ok := f.next()
		if !ok {
			break
		}
		got = append(got, id)
	}
	assert.Equal(t, []string{"o1", "z1", "h1"}, got)
}

// Quotas by client: games a minute, requests a second, streams and games
// thinking; over one, 429 with Retry-After, while other clients go on.
func TestClientQuotas(t *testing.T) {
	stuck := func(g *host.Game, spec string) (Player, error) { return stuckPlayer{}, nil }
	ts := newTestServer(t, newMemStore(), WithPlayers(stuck), WithComputerSeats("stuck"), WithThinkTime(time.Hour),
		WithLimits(proxied(Limits{GamesPerMinute: 3, RequestsPerSecond: 1000, ClientStreams: 2, ClientThinking: 1, Streams: 3})))
	refused := func(res *http.Response, b []byte, status int, words string) {
		t.Helper()
		assert.Equal(t, status, res.StatusCode, "%s", b)
		assert.Contains(t, string(b), words)
		n, err := strconv.Atoi(res.Header.Get("Retry-After"))
		assert.NoError(t, err, "Retry-After")
		assert.Positive(t, n)
	}
	// Games thinking: one at a time.
	res, b := ts.as("10.0.0.1", "POST", "/api/games", `{"game": "gore", "seats": ["stuck", "human"]}`)
	require.Equal(t, http.StatusCreated, res.StatusCode, "%s", b)
	res, b = ts.as("10.0.0.1", "POST", "/api/games", `{"game": "gore", "seats": ["stuck", "human"]}`)
	refused(res, b, http.StatusTooManyRequests, "games waiting for the computer's move")
	// Games a minute: three (the refused one above did not count).
	for range 2 {
		res, b = ts.as("10.0.0.1", "POST", "/api/games", `{"game": "gore"}`)
		require.Equal(t, http.StatusCreated, res.StatusCode, "%s", b)
	}
	res, b = ts.as("10.0.0.1", "POST", "/api/games", `{"game": "gore"}`)
	refused(res, b, http.StatusTooManyRequests, "too many new games: at most 3 a minute")
	// Refused before the game is loaded (which costs its script's
	// machines): a game that does not exist is over the quota too.
	res, b = ts.as("10.0.0.1", "POST", "/api/games", `{"game": "nosuch"}`)
	refused(res, b, http.StatusTooManyRequests, "too many new games: at most 3 a minute")
	res, b = ts.as("10.0.0.2", "POST", "/api/games", `{"game": "gore"}`)
	require.Equal(t, http.StatusCreated, res.StatusCode, "another client: %s", b)
	var g testGame
	require.NoError(t, json.Unmarshal(b, &g))

	// Streams: two per client, three in all.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	open := func(client string) *http.Response {
		req, _ := http.NewRequestWithContext(ctx, "GET", ts.http.URL+"/api/games/"+g.ID+"/events", nil)
		req.Header.Set("X-Forwarded-For", client)
		res, err := ts.http.Client().Do(req)
		require.NoError(t, err)
		t.Cleanup(func() { res.Body.Close() })
		return res
	}
	for range 2 {
		require.Equal(t, http.StatusOK, open("10.0.0.1").StatusCode)
	}
	res = open("10.0.0.1")
	b, _ = io.ReadAll(res.Body)
	refused(res, b, http.StatusTooManyRequests, "too many event streams: at most 2")
	require.Equal(t, http.StatusOK, open("10.0.0.2").StatusCode)
	res = open("10.0.0.3")
	b, _ = io.ReadAll(res.Body)
	refused(res, b, http.StatusServiceUnavailable, "event streams open, its most")
	// Everyone else is still served.
	res, b = ts.as("10.0.0.3", "GET", "/api/health", "")
	assert.Equal(t, http.StatusOK, res.StatusCode, "%s", b)
}

// A client's API requests count against its rate, whatever they ask for:
// the opening of an event stream too (a client that opened and dropped
// streams as fast as it could made the server read and encode the game
// each time, thousands of times a second, unrefused).
func TestRequestRate(t *testing.T) {
	ts := newTestServer(t, newMemStore(), WithLimits(proxied(Limits{RequestsPerSecond: 1})))
	res, b := ts.as("10.0.0.9", "POST", "/api/games", `{"game": "gore"}`)
	require.Equal(t, http.StatusCreated, res.StatusCode, "%s", b)
	var g testGame
	require.NoError(t, json.Unmarshal(b, &g))
	// ask sends a GET of path from client and returns its status, leaving
	// an event stream as soon as it has begun.
	ask := func(client, path string) *http.Response {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		req, err := http.NewRequestWithContext(ctx, "GET", ts.http.URL+path, nil)
		require.NoError(t, err)
		req.Header.Set("X-Forwarded-For", client)
		res, err := ts.http.Client().Do(req)
		require.NoError(t, err)
		res.Body.Close()
		return res
	}
	for i, path := range []string{
		"/api/health",
		"/api/games/" + g.ID,
		"/api/games/" + g.ID + "/events",
		"/api/games/nosuch/events",
		"/api/nosuch",
	} {
		t.Run(path, func(t *testing.T) {
			client := fmt.Sprintf("10.0.1.%d", i)
			res := ask(client, path)
			for range 1000 { // a burst of 2, then 1 a second: soon refused
				if res = ask(client, path); res.StatusCode == http.StatusTooManyRequests {
					break
				}
			}
			assert.Equal(t, http.StatusTooManyRequests, res.StatusCode)
			assert.Equal(t, "1", res.Header.Get("Retry-After"))
			assert.Equal(t, http.StatusOK, ask(fmt.Sprintf("10.0.2.%d", i), "/api/health").StatusCode, "another client")
		})
	}
}

// Client keys: IPv6 by /64, X-Forwarded-For only from a trusted proxy,
// and only the part the proxies added.
func TestClientKey(t *testing.T) {
	s := &Server{opt: options{limits: proxied(Limits{})}}
	for _, tc := range []struct{ remote, xff, want string }{
		{"203.0.113.7:5000", "", "203.0.113.7"},
		{"[2001:db8:1:2:3:4:5:6]:5000", "", "2001:db8:1:2::/64"},
		{"[::ffff:198.51.100.1]:80", "", "198.51.100.1"},
		{"203.0.113.7:5000", "10.9.9.9", "203.0.113.7"}, // not a trusted proxy: header ignored
		{"127.0.0.1:5000", "198.51.100.2", "198.51.100.2"},
		{"127.0.0.1:5000", "1.1.1.1, 198.51.100.2", "198.51.100.2"}, // the client's own claim comes first
		{"127.0.0.1:5000", "garbage, 127.0.0.1", "127.0.0.1"},
		{"127.0.0.1:5000", "", "127.0.0.1"},
	} {
		r, _ := http.NewRequest("GET", "/", nil)
		r.RemoteAddr = tc.remote
		if tc.xff != "" {
			r.Header.Set("X-Forwarded-For", tc.xff)
		}
		assert.Equal(t, tc.want, s.clientKey(r), "%s %s", tc.remote, tc.xff)
	}
}

// LimitListener: connections over a client's cap, or the server's, get a
// 503 and are closed, while other clients are still served.
func TestLimitListener(t *testing.T) {
	ln := listenCounted(t, Limits{Conns: 4, ClientConns: 2})
	port := ln.Addr().(*net.TCPAddr).Port
	dial := func(from string) net.Conn {
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
		c, err := d.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		require.NoError(t, err)
		t.Cleanup(func() { c.Close() })
		return c
	}
	health := func(c net.Conn) string {
		fmt.Fprintf(c, "GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
		line, _ := bufio.NewReader(c).ReadString('\n')
		return line
	}
	a1, a2 := dial("127.0.0.1"), dial("127.0.0.1")
	assert.Contains(t, health(a1), "200")
	assert.Contains(t, health(a2), "200")
	assert.Contains(t, health(dial("127.0.0.1")), "503", "a third connection of one client")
	b1 := dial("127.0.0.2")
	assert.Contains(t, health(b1), "200", "another client")
	assert.Contains(t, health(dial("127.0.0.3")), "200")
	assert.Contains(t, health(dial("127.0.0.4")), "503", "a fifth connection to the server")
	a1.Close()
	for { // the closed connection is counted off once the server sees it close
		if strings.Contains(health(dial("127.0.0.4")), "200") {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Requests from other sites: another Host (DNS rebinding) gets 421, a
// request from a page of another origin 403, a change not sent as JSON
// 415; none creates a game. Pages of the server itself go through.
func TestCrossSiteRequests(t *testing.T) {
	ts := newTestServer(t, newMemStore(), WithHosts("play.example.org"))
	body := `{"game": "gore", "seats": ["human", "random"]}`
	for _, tc := range []struct {
		name    string
		method  string
		path    string
		body    string
		headers []string
		status  int
		words   string
	}{
		{"text/plain from another origin", "POST", "/api/games", "", []string{"Content-Type", "text/plain", "Origin", "http://attacker.example"}, 403, "another site"},
		{"text/plain, no origin", "POST", "/api/games", "", []string{"Content-Type", "text/plain"}, 415, "Content-Type: application/json"},
		{"no content type", "POST", "/api/games", "", []string{"Content-Type", ""}, 415, "Content-Type: application/json"},
		{"form", "POST", "/api/games", "", []string{"Content-Type", "application/x-www-form-urlencoded"}, 415, "application/json"},
		{"JSON from another origin", "POST", "/api/games", body, []string{"Origin", "http://attacker.example"}, 403, "another site"},
		{"fetch metadata cross-site", "POST", "/api/games", body, []string{"Sec-Fetch-Site", "cross-site"}, 403, "another site"},
		{"DNS rebinding", "POST", "/api/games", body, []string{"Host", "attacker.example"}, 421, `host \"attacker.example\"`},
		{"DNS rebinding, read", "GET", "/api/catalog", "", []string{"Host", "attacker.example:8080"}, 421, "--host attacker.example"},
		{"DNS rebinding, page", "GET", "/", "", []string{"Host", "attacker.example"}, 421, "attacker.example"},
		{"events from another origin", "GET", "/api/games/g1/events", "", []string{"Origin", "http://attacker.example", "Sec-Fetch-Site", "cross-site"}, 403, "another site"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := tc.body
			if b == "" && tc.method == "POST" {
				b = body
			}
			req, err := http.NewRequest(tc.method, ts.http.URL+tc.path, strings.NewReader(b))
			require.NoError(t, err)
			if tc.method == "POST" {
				req.Header.Set("Content-Type", "application/json")
			}
			for i := 0; i < len(tc.headers); i += 2 {
				if tc.headers[i] == "Host" {
					req.Host = tc.headers[i+1]
				} else {
					req.Header.Set(tc.headers[i], tc.headers[i+1])
				}
			}
			res, err := ts.http.Client().Do(req)
			require.NoError(t, err)
			out, _ := io.ReadAll(res.Body)
			res.Body.Close()
			assert.Equal(t, tc.status, res.StatusCode, "%s", out)
			assert.Contains(t, string(out), tc.words)
		})
	}
	n, err := ts.store.Count(context.Background())
	require.NoError(t, err)
	assert.Zero(t, n, "no game was created")
	for _, host := range []string{"localhost:8080", "play.example.org", "PLAY.example.org.:443", "[::1]:80", "192.168.1.5:8080", "app.localhost"} {
		res, b := ts.as("", "POST", "/api/games", body, "Host", host, "Origin", "http://"+host, "Sec-Fetch-Site", "same-origin")
		assert.Equal(t, http.StatusCreated, res.StatusCode, "%s: %s", host, b)
	}
}

// until reads events until the record has n moves.
func (r *sseReader) until(n int) testGame {
	r.t.Helper()
	for {
		if _, g := r.next(); len(g.Record) >= n {
			return g
		}
	}
}

// longRecord plays random moves of game name until n plies or the end
// and returns the record.
func longRecord(t *testing.T, name string, n int, seed uint64) []string {
	g, err := lib().Load(name)
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(seed, 1))
	s := g.Start()
	var rec []string
	for len(rec) < n && !s.Over() {
		moves := s.Moves()
		m := moves[rng.IntN(len(moves))]
		rec = append(rec, g.Token(m))
		require.NoError(t, s.Apply(m))
	}
	return rec
}

// A stream resumed from far behind gets the current state alone, not
// every state rebuilt from the opening with the whole record in each; a
// little behind, each state it missed.
func TestEventsResume(t *testing.T) {
	st := newMemStore()
	ts := newTestServer(t, st)
	var rec []string
	for seed := uint64(1); len(rec) < 150; seed++ {
		rec = longRecord(t, "gore", 400, seed)
	}
	sg := &store.Game{Game: "gore", Variants: []string{}, Seats: []store.Seat{{Player: humanSeat, Secret: "a"}, {Player: humanSeat, Secret: "b"}}, Record: rec}
	require.NoError(t, st.Create(context.Background(), sg))
	read := func(last int) (ids []string) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, "GET", ts.http.URL+"/api/games/"+sg.ID+"/events", nil)
		req.Header.Set("Last-Event-ID", strconv.Itoa(last))
		res, err := ts.http.Client().Do(req)
		require.NoError(t, err)
		defer res.Body.Close()
		ev := &sseReader{t: t, res: res, sc: bufio.NewScanner(res.Body)}
		ev.sc.Buffer(make([]byte, 1<<20), 1<<20)
		for {
			id, g := ev.next()
			ids = append(ids, id)
			assert.Equal(t, id, strconv.Itoa(g.Ply))
			if g.Ply == len(rec) {
				assert.JSONEq(t, string(stateAfter(t, "gore", nil, rec)), string(g.State))
				return ids
			}
		}
	}
	assert.Equal(t, []string{strconv.Itoa(len(rec))}, read(0), "from the opening: the current state alone")
	want := []string{}
	for p := len(rec) - 7; p <= len(rec); p++ {
		want = append(want, strconv.Itoa(p))
	}
	assert.Equal(t, want, read(len(rec)-8), "eight behind: each")
}

// Checkpoints: every earlier ply of a cached game is the state the record
// gives, with the move that led to it.
func TestStateAtCheckpoints(t *testing.T) {
	rec := longRecord(t, "gore", 300, 7)
	g, err := lib().Load("gore")
	require.NoError(t, err)
	e := &entry{game: g}
	e.resetMarks()
	e.state = g.Start()
	last, _, err := replay(context.Background(), e.state, rec, e, 0)
	require.NoError(t, err)
	e.record, e.last = rec, last
	assert.Len(t, e.marks, len(rec)/markSpacing+1)
	for ply := 0; ply <= len(rec); ply++ {
		s, mv, err := e.stateAt(context.Background(), ply)
		require.NoError(t, err)
		a, _ := json.Marshal(s)
		require.JSONEq(t, string(stateAfter(t, "gore", nil, rec[:ply])), string(a), "ply %d", ply)
		if ply == 0 {
			assert.Nil(t, mv)
		} else {
			assert.Equal(t, rec[ply-1], mv.Token, "ply %d", ply)
		}
	}
	// The marks stay few: past maxMarks every other one goes.
	f := &entry{game: g}
	f.resetMarks()
	for ply := 1; ply <= markSpacing*maxMarks*2; ply++ {
		f.mark(ply, e.state)
	}
	assert.LessOrEqual(t, len(f.marks), maxMarks)
	assert.Equal(t, 4*markSpacing, f.spacing)
}

// A rules page is rendered once and kept; raw HTML and javascript: links
// are left out; a page out of shape is not served.
func TestRulesPages(t *testing.T) {
	pages := map[string]string{
		"gore":     "# Goré\n\n<script>alert(1)</script>\n\n[x](javascript:alert(1)) *a* | b\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
		"tsoro":    strings.Repeat("[a](", 2000),
		"yematatu": strings.Repeat("> ", 600) + "deep\n",
		"kalah":    strings.Repeat("word ", 14000),
	}
	ts := newTestServer(t, newMemStore(), WithRules(func(name string) (string, bool) { p, ok := pages[name]; return p, ok }))
	status, b := ts.do("GET", "/api/catalog/gore/rules", "")
	require.Equal(t, http.StatusOK, status)
	var r rulesView
	require.NoError(t, json.Unmarshal(b, &r))
	assert.NotContains(t, r.HTML, "<script")
	assert.NotContains(t, r.HTML, "javascript:")
	assert.Contains(t, r.HTML, "<table>")
	assert.Contains(t, r.HTML, `<h1 id="gor">Goré</h1>`)
	first := ts.srv.catalog.rules["gore"].body
	ts.do("GET", "/api/catalog/gore/rules", "")
	assert.Same(t, &first[0], &ts.srv.catalog.rules["gore"].body[0], "rendered once")
	for _, name := range []string{"tsoro", "yematatu", "kalah"} {
		status, b := ts.do("GET", "/api/catalog/"+name+"/rules", "")
		assert.Equal(t, http.StatusNotFound, status, "%s: %s", name, b)
	}
	assert.Contains(t, rulesShape(pages["tsoro"]), "line 1 has 8000 bytes")
	assert.Contains(t, rulesShape(pages["yematatu"]), "line 1 has 1204 bytes")
	assert.Contains(t, rulesShape(pages["kalah"]), "the page has 70000 bytes")
	assert.Contains(t, rulesShape(strings.Repeat("a line of words\n", 600)), "lines 1 to 513")
	assert.Empty(t, rulesShape(strings.Repeat("a line of words\n\n", 1000)))
}

// FuzzRulesPage: any page within shape renders, without raw HTML.
func FuzzRulesPage(f *testing.F) {
	for _, s := range []string{"# T\n\n<b>x</b>\n", "[a](javascript:x)", "| a |\n|---|\n| <i>1</i> |", "> > - *a*"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, page string) {
		if rulesShape(page) != "" {
			return
		}
		html, err := renderMarkdown(page)
		require.NoError(t, err)
		assert.NotContains(t, strings.ToLower(html), "<script")
		assert.NotContains(t, strings.ToLower(html), "href=\"javascript:")
	})
}

// The server's end stops the thinking at once, whatever the player.
func TestCloseStopsThinking(t *testing.T) {
	stuck := func(g *host.Game, spec string) (Player, error) { return stuckPlayer{}, nil }
	s, err := New(lib(), newMemStore(), WithPlayers(stuck), WithComputerSeats("stuck"), WithThinkTime(time.Hour), WithLimits(testLimits))
	require.NoError(t, err)
	hs := newHTTPTest(t, s)
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequest("POST", hs.URL+"/api/games", strings.NewReader(`{"game": "gore", "seats": ["stuck", "stuck"]}`))
			req.Header.Set("Content-Type", "application/json")
			if res, err := hs.Client().Do(req); err == nil {
				res.Body.Close()
			}
		}()
	}
	wg.Wait()
	require.NoError(t, s.Close()) // returns although every player thinks for an hour
}

// A change of the game while the computer thinks (a move from another
// process, the game's end) stops the thinking: its move would be refused.
func TestChangeStopsThinking(t *testing.T) {
	started := make(chan string, 8)
	players := func(g *host.Game, spec string) (Player, error) {
		return gatedPlayer{gate: make(chan struct{}), started: started, spec: spec}, nil
	}
	st := newMemStore()
	ts := newTestServer(t, st, WithPlayers(players), WithComputerSeats("slow"), WithWorkers(1), WithThinkTime(time.Hour))
	x := ts.create(`{"game": "gore", "seats": ["slow", "human"]}`)
	<-started // the one worker thinks about x
	y := ts.create(`{"game": "gore", "seats": ["slow", "human"]}`)
	// Another process moves in x meanwhile.
	_, err := st.Append(context.Background(), x.ID, store.Move{Ply: 0, Token: x.state(t).Legal[0]})
	require.NoError(t, err)
	<-started // the worker left x and took y
	sg, err := st.Get(context.Background(), x.ID)
	require.NoError(t, err)
	assert.Len(t, sg.Record, 1, "x keeps the other process's move only")
	_ = y
}

// Workers asking for two games' perfect players at once both get them:
// the second preparation waits for the first instead of failing.
func TestPerfectPreparationsQueue(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ss := newSolutions(ctx, PerfectBudget{Positions: 20_000, Time: time.Minute, Memory: 64 << 20}, "", slog.New(slog.DiscardHandler))
	defer ss.wait()
	defer cancel()
	var wg sync.WaitGroup
	for _, variant := range []string{"triangle", "square"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			g, err := lib().Load("yematatu", host.WithVariant(variant))
			require.NoError(t, err)
			p, err := ss.player(ctx, g)
			assert.NoError(t, err, variant)
			assert.NotNil(t, p, variant)
		}()
	}
	wg.Wait()
}

// countdownContext is canceled at the n-th look at its Err: a replay that
// looks once a move stops after n-1 moves, whatever the machine's speed.
type countdownContext struct {
	context.Context
	cancel context.CancelFunc
	mu     sync.Mutex
	n      int
}

func newCountdown(n int) *countdownContext {
	ctx, cancel := context.WithCancel(context.Background())
	return &countdownContext{Context: ctx, cancel: cancel, n: n}
}

func (c *countdownContext) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n--; c.n <= 0 {
		c.cancel()
	}
	return c.Context.Err()
}

// A rebuild stops with its context (a client that left, the server's
// end), and leaves the cached game as it was: its checkpoints too, so
// that another record sharing its start is rebuilt right afterwards.
func TestReplayStopsWithItsContext(t *testing.T) {
	g, err := lib().Load("gore")
	require.NoError(t, err)
	var rec []string
	for seed := uint64(1); len(rec) < 150; seed++ {
		rec = longRecord(t, "gore", 400, seed)
	}
	// other shares rec's first 40 moves, then goes its own way.
	other := slices.Clone(rec[:40])
	s := stateAfterTokens(t, "gore", nil, other)
	rng := rand.New(rand.NewPCG(99, 2))
	for len(other) < 140 && !s.Over() {
		moves := s.Moves()
		m := moves[rng.IntN(len(moves))]
		other = append(other, g.Token(m))
		require.NoError(t, s.Apply(m))
	}
	require.Greater(t, len(other), 2*markSpacing+10)

	srv := &Server{lib: lib()}
	e := &entry{}
	require.NoError(t, srv.sync(context.Background(), e, &store.Game{ID: "x", Game: "gore", Variants: []string{}, Record: rec[:40], Updated: time.Unix(1, 0)}))
	before := len(e.marks)

	ctx := newCountdown(50)
	err = srv.sync(ctx, e, &store.Game{ID: "x", Game: "gore", Variants: []string{}, Record: rec, Updated: time.Unix(2, 0)})
	require.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, rec[:40], e.record, "the cached game stays as it was")
	assert.Len(t, e.marks, before, "and so do its checkpoints")

	_, _, err = e.stateAt(newCountdown(1), 39)
	assert.ErrorIs(t, err, context.Canceled, "an earlier ply's rebuild stops too")

	require.NoError(t, srv.sync(context.Background(), e, &store.Game{ID: "x", Game: "gore", Variants: []string{}, Record: other, Updated: time.Unix(3, 0)}))
	for ply := 0; ply <= len(other); ply += 7 {
		st, _, err := e.stateAt(context.Background(), ply)
		require.NoError(t, err)
		a, _ := json.Marshal(st)
		require.JSONEq(t, string(stateAfter(t, "gore", nil, other[:ply])), string(a), "ply %d", ply)
	}
}

// countingStore is a store in memory that counts its reads of a game.
type countingStore struct {
	*store.Memory
	gets atomic.Int64
}

func (c *countingStore) Get(ctx context.Context, id string) (*store.Game, error) {
	c.gets.Add(1)
	return c.Memory.Get(ctx, id)
}

// Many event streams on one game share the work of a change: one read of
// the store and one event per ply, not one per stream (each stream
// reading and encoding the game for itself made a move on a game with a
// thousand watchers cost seconds, and the mover and every other game
// waited behind it). Every stream still gets every state.
func TestEventStreamsShareWork(t *testing.T) {
	for _, tc := range []struct {
		name    string
		streams int
		moves   []string
	}{
		{"one move", 16, []string{"b2"}},
		{"three moves", 24, []string{"b2", "c1", "a1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := &countingStore{Memory: newMemStore()}
			ts := newTestServer(t, st)
			g := ts.create(`{"game": "yematatu", "hold": [1, 2]}`)
			seats := ts.seatsOf(g)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			streams := make([]*sseReader, tc.streams)
			for i := range streams {
				streams[i] = ts.events(ctx, g.ID)
				id, _ := streams[i].next()
				require.Equal(t, "0", id)
			}
			before := st.gets.Load()
			for ply, tok := range tc.moves {
				status, b := ts.move(g.ID, tok, ply, seats[ply%2])
				require.Equal(t, http.StatusOK, status, "%s", b)
				var first []byte
				for i, ev := range streams {
					id, got := ev.next()
					require.Equal(t, strconv.Itoa(ply+1), id, "stream %d", i)
					require.Equal(t, tc.moves[:ply+1], got.Record, "stream %d", i)
					if first == nil {
						first = got.State
					}
					assert.JSONEq(t, string(first), string(got.State))
				}
			}
			// A read for each change notified (the creation's may come
			// late), however many streams: far fewer than one a stream.
			reads := st.gets.Load() - before
			assert.Less(t, reads, int64(tc.streams/2), "store reads for %d moves watched by %d streams", len(tc.moves), tc.streams)
		})
	}
}

// A body that reads more than one way is refused with 400, on every
// endpoint that reads one: a key given twice (encoding/json keeps the
// last, another reader may keep the first), a field not named exactly as
// the API writes it (encoding/json takes "GAME" for "game"), bytes that
// are not UTF-8 (encoding/json reads U+FFFD), or nesting past any need.
// The same bodies written plainly are taken.
func TestAmbiguousJSONRefused(t *testing.T) {
	ts := newTestServer(t, newMemStore())
	g := ts.create(`{"game": "yematatu", "seats": ["human", "human"]}`)
	s1 := secret(t, g.Seats[0].URL)
	deep := strings.Repeat("[", 40) + strings.Repeat("]", 40)
	game := "/api/games/" + g.ID
	for _, tc := range []struct {
		name, path, body, why string
	}{
		{"create: a key twice", "/api/games", `{"game": "tsoro", "game": "yematatu"}`, `"game" is given twice`},
		{"create: a key twice in another case", "/api/games", `{"game": "tsoro", "Game": "yematatu"}`, `unknown field "Game"`},
		{"create: a key in capitals", "/api/games", `{"GAME": "yematatu"}`, `unknown field "GAME"`},
		{"create: a parameter twice", "/api/games", `{"game": "tsoro", "params": {"bonus": 1, "bonus": 3}}`, `"bonus" is given twice`},
		{"create: a clock field twice", "/api/games", `{"game": "tsoro", "clock": {"initial": 60, "initial": 1}}`, `"initial" is given twice`},
		{"create: a clock field in capitals", "/api/games", `{"game": "tsoro", "clock": {"Initial": 60}}`, `unknown field "Initial"`},
		{"create: a clock's seconds in a string", "/api/games", `{"game": "tsoro", "clock": {"initial": "60"}}`, `the string "60" where a number is wanted`},
		{"create: a key twice deep in a parameter", "/api/games", `{"game": "tsoro", "params": {"bonus": {"a": 1, "a": 2}}}`, `"a" is given twice`},
		{"create: not UTF-8", "/api/games", "{\"game\": \"yematatu\xff\"}", "not UTF-8"},
		{"create: nested too deep", "/api/games", `{"game": "tsoro", "params": {"bonus": ` + deep + `}}`, "deeper than"},
		{"move: a token twice", game + "/moves", `{"token": "zz", "token": "b2", "ply": 0, "seat": "` + s1 + `"}`, `"token" is given twice`},
		{"move: a seat in capitals", game + "/moves", `{"token": "b2", "ply": 0, "SEAT": "` + s1 + `"}`, `unknown field "SEAT"`},
		{"move: a ply twice", game + "/moves", `{"token": "b2", "ply": 5, "ply": 0, "seat": "` + s1 + `"}`, `"ply" is given twice`},
		{"takeback: an answer twice", game + "/takeback", `{"seat": "` + s1 + `", "ply": 0, "accept": false, "accept": true}`, `"accept" is given twice`},
		{"draw: a seat twice", game + "/draw", `{"seat": "x", "seat": "` + s1 + `", "ply": 0}`, `"seat" is given twice`},
		{"claim: an invitation twice", game + "/claim", `{"invite": "x", "invite": "y"}`, `"invite" is given twice`},
		{"rematch: a seat in another case", game + "/rematch", `{"Seat": "` + s1 + `"}`, `unknown field "Seat"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, b := ts.do("POST", tc.path, tc.body)
			assert.Equal(t, http.StatusBadRequest, status, "%s", b)
			var e apiError
			require.NoError(t, json.Unmarshal(b, &e), "%s", b)
			assert.Equal(t, codeBadRequest, e.Code)
			assert.Contains(t, e.Error, tc.why)
		})
	}
	assert.Empty(t, ts.get(g.ID).Record, "no refused body moved")
	for _, body := range []string{
		`{"game": "tsoro", "params": {"bonus": 3}, "clock": {"initial": 60, "increment": 1}, "hold": [1]}`,
		`{"game": "yematatu", "params": {"board": "square"}, "variants": [], "seats": ["human", "random"]}`,
	} {
		ts.create(body)
	}
	status, b := ts.move(g.ID, "b2", 0, s1)
	assert.Equal(t, http.StatusOK, status, "%s", b)
}

// Every error answer is JSON with a code, the ones net/http writes by
// itself in plain text too (the mux's 404 and 405 outside the API, the
// file server's 404, a range past a file's end), with their status and
// headers kept; the answers that are no errors are untouched.
func TestEveryErrorIsJSON(t *testing.T) {
	ts := newTestServer(t, newMemStore())
	for _, tc := range []struct {
		method, path, rng string
		status            int
		code, allow       string
	}{
		{"GET", "/nosuch", "", http.StatusNotFound, codeNotFound, ""},
		{"POST", "/nosuch", "", http.StatusNotFound, codeNotFound, ""},
		{"GET", "/g/", "", http.StatusNotFound, codeNotFound, ""},
		{"GET", "/g/abc/def", "", http.StatusNotFound, codeNotFound, ""},
		{"GET", "/static/nosuch.js", "", http.StatusNotFound, codeNotFound, ""},
		{"HEAD", "/static/nosuch.js", "", http.StatusNotFound, "", ""},
		{"POST", "/", "", http.StatusMethodNotAllowed, codeBadMethod, "GET, HEAD"},
		{"DELETE", "/g/abc", "", http.StatusMethodNotAllowed, codeBadMethod, "GET, HEAD"},
		{"PUT", "/static/app.js", "", http.StatusMethodNotAllowed, codeBadMethod, "GET, HEAD"},
		{"OPTIONS", "/", "", http.StatusMethodNotAllowed, codeBadMethod, "GET, HEAD"},
		{"GET", "/static/app.js", "bytes=99999999-", http.StatusRequestedRangeNotSatisfiable, codeBadRequest, ""},
		{"GET", "/api/nosuch", "", http.StatusNotFound, codeNotFound, ""},
	} {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			req, err := http.NewRequest(tc.method, ts.http.URL+tc.path, nil)
			require.NoError(t, err)
			if tc.method != "GET" && tc.method != "HEAD" {
				req.Header.Set("Content-Type", "application/json")
			}
			if tc.rng != "" {
				req.Header.Set("Range", tc.rng)
			}
			res, err := ts.http.Client().Do(req)
			require.NoError(t, err)
			defer res.Body.Close()
			b, err := io.ReadAll(res.Body)
			require.NoError(t, err)
			assert.Equal(t, tc.status, res.StatusCode, "%s", b)
			assert.Equal(t, "application/json; charset=utf-8", res.Header.Get("Content-Type"))
			assert.Equal(t, tc.allow, res.Header.Get("Allow"))
			if tc.method == "HEAD" {
				assert.Empty(t, b)
				return
			}
			var e apiError
			require.NoError(t, json.Unmarshal(b, &e), "%s", b)
			assert.Equal(t, tc.code, e.Code)
			assert.NotEmpty(t, e.Error)
		})
	}
	// Answers that are no errors are as they were.
	for _, path := range []string{"/", "/static/app.js"} {
		res, err := ts.http.Client().Get(ts.http.URL + path)
		require.NoError(t, err)
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		assert.Equal(t, http.StatusOK, res.StatusCode)
		assert.NotContains(t, res.Header.Get("Content-Type"), "json")
		assert.NotEmpty(t, b)
	}
}

// Requests for games that do not exist leave the cache of rebuilt games
// alone: an entry made for each made-up id pushed a real game out, to be
// rebuilt from its whole record at its next request, so a client sending
// moves to made-up ids made every long game's requests cost a rebuild.
func TestMadeUpIDsLeaveTheCache(t *testing.T) {
	ts := newTestServer(t, newMemStore(), WithCacheSize(2))
	g := ts.create(`{"game": "yematatu", "hold": [1, 2]}`)
	s1 := ts.seatsOf(g)[0]
	status, b := ts.move(g.ID, "b2", 0, s1)
	require.Equal(t, http.StatusOK, status, "%s", b)
	cached, ok := ts.srv.cache.lookup(g.ID)
	require.True(t, ok)
	for i := range 5 {
		id := fmt.Sprintf("%016x", i)
		for _, tc := range []struct{ path, body string }{
			{"/moves", `{"token": "a1", "ply": 0, "seat": "x"}`},
			{"/takeback", `{"seat": "x", "ply": 0}`},
			{"/draw", `{"seat": "x", "ply": 0}`},
			{"/resign", `{"seat": "x", "ply": 0}`},
			{"/abort", `{"seat": "x", "ply": 0}`},
			{"/claim", `{"invite": "x"}`},
			{"/rematch", `{"seat": "x"}`},
			{"", ""},
			{"/events", ""},
		} {
			method := "POST"
			if tc.body == "" {
				method = "GET"
			}
			status, b := ts.do(method, "/api/games/"+id+tc.path, tc.body)
			assert.Equal(t, http.StatusNotFound, status, "%s %s: %s", method, tc.path, b)
			assert.Contains(t, string(b), `"code":"not-found"`)
		}
	}
	assert.Equal(t, 1, ts.srv.cache.len(), "no entry for a made-up id")
	e, ok := ts.srv.cache.lookup(g.ID)
	assert.True(t, ok && e == cached, "the real game stays cached")
	status, b = ts.move(g.ID, "c1", 1, ts.seatsOf(g)[1])
	assert.Equal(t, http.StatusOK, status, "%s", b)
}

// agedStore is a store in memory whose games, once aged, read as if their
// running clock had run an hour longer, without any change notified.
type agedStore struct {
	*store.Memory
	aged atomic.Bool
}

func (a *agedStore) Get(ctx context.Context, id string) (*store.Game, error) {
	sg, err := a.Memory.Get(ctx, id)
	if err != nil || !a.aged.Load() || sg.Clock == nil || sg.Clock.Running == 0 {
		return sg, err
	}
	c := *sg
	c.Clock = sg.Clock.Clone()
	c.Clock.Since = c.Clock.Since.Add(-time.Hour)
	return &c, nil
}

// A stream that begins reads the game itself, not what the game's other
// streams read when it last changed: a game unchanged since may have run
// out of time meanwhile, and the new stream's first state says so.
func TestEventStreamBeginsWithAFreshRead(t *testing.T) {
	st := &agedStore{Memory: newMemStore()}
	ts := newTestServer(t, st)
	g := ts.create(`{"game": "yematatu", "hold": [1, 2], "clock": {"initial": 600}}`)
	s1 := ts.seatsOf(g)[0]
	status, b := ts.move(g.ID, "b2", 0, s1)
	require.Equal(t, http.StatusOK, status, "%s", b)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	watching := []*sseReader{ts.events(ctx, g.ID), ts.events(ctx, g.ID)}
	for _, ev := range watching {
		_, got := ev.next()
		require.Nil(t, got.Result)
	}
	st.aged.Store(true) // player 2's ten minutes ran out an hour ago; nothing changed in the store
	_, got := ts.events(ctx, g.ID).next()
	require.NotNil(t, got.Result, "the new stream's first state is the game lost on time")
	assert.Equal(t, "time", got.Result.Method)
	for _, ev := range watching {
		_, got := ev.next()
		require.NotNil(t, got.Result, "the others get the loss on time as a change")
		assert.Equal(t, "time", got.Result.Method)
	}
}

// A HEAD of an event stream gets the stream's headers and ends: it used to
// hold its place among the client's streams (and the server's) for as
// long as the client kept the connection, writing nothing to it, so a
// client holding connections it never read held every place.
func TestEventsHeadEnds(t *testing.T) {
	ts := newTestServer(t, newMemStore(), WithLimits(proxied(Limits{ClientStreams: 1})))
	res, b := ts.as("10.0.0.1", "POST", "/api/games", `{"game": "gore"}`)
	require.Equal(t, http.StatusCreated, res.StatusCode, "%s", b)
	var g testGame
	require.NoError(t, json.Unmarshal(b, &g))
	// head asks for path's headers, for a minute at most: only a HEAD
	// that never ends takes that long.
	head := func(path string) *http.Response {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		req, err := http.NewRequestWithContext(ctx, "HEAD", ts.http.URL+path, nil)
		require.NoError(t, err)
		req.Header.Set("X-Forwarded-For", "10.0.0.1")
		res, err := ts.http.Client().Do(req)
		require.NoError(t, err, "the HEAD is answered")
		res.Body.Close()
		return res
	}
	for range 3 {
		res := head("/api/games/" + g.ID + "/events")
		require.Equal(t, http.StatusOK, res.StatusCode)
		assert.Equal(t, "text/event-stream", res.Header.Get("Content-Type"))
	}
	assert.Equal(t, http.StatusNotFound, head("/api/games/nosuch/events").StatusCode)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ev := ts.events(ctx, g.ID) // the client's one place is free
	id, _ := ev.next()
	assert.Equal(t, "0", id)
}
