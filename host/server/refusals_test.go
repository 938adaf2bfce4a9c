package server

import (
	"context"
	"encoding/json"
	"io/fs"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host"
)

// scriptCounter is a file system that counts the reads of scripts from
// it: every load of a game reads its script (a listing of the games only
// looks for them).
type scriptCounter struct {
	fs.FS
	reads atomic.Int64
}

func (c *scriptCounter) Open(name string) (fs.File, error) {
	f, err := c.FS.Open(name)
	if err != nil || !strings.HasSuffix(name, ".lua") {
		return f, err
	}
	return &countedFile{File: f, reads: &c.reads}, nil
}

// countedFile counts its reads.
type countedFile struct {
	fs.File
	reads *atomic.Int64
}

func (f *countedFile) Read(p []byte) (int, error) {
	f.reads.Add(1)
	return f.File.Read(p)
}

// A request for a new game that is wrong in what can be read without
// the game (its name, variants, parameters, seats, hold, clock) is
// refused before any script is loaded: a hostile client's bad requests
// cost the server no run of a script. So is the computer seats' list of
// a configuration that does not exist.
func TestBadRequestsLoadNoScript(t *testing.T) {
	counter := &scriptCounter{FS: games.FS()}
	l := host.NewLibrary()
	require.NoError(t, l.AddFS(counter, games.Root))
	// No perfect seat: it would load the games in the background.
	ts := newTestServerOf(t, l, newMemStore(), WithComputerSeats("random", "mcts:time<=2s"))
	for _, tc := range []struct {
		name, method, path, body string
		code, says               string
	}{
		{"unknown game", "POST", "/api/games", `{"game": "nosuch"}`, codeUnknownGame, `unknown game "nosuch"`},
		{"unknown variant", "POST", "/api/games", `{"game": "tsoro", "variants": ["4x99"]}`, codeBadConfig, `unknown variant "4x99" (allowed: standard, 4x6`},
		{"unknown parameter", "POST", "/api/games", `{"game": "tsoro", "params": {"speed": 1}}`, codeBadConfig, "parameter speed: unknown parameter speed (allowed: holes, bonus, heads)"},
		{"bad parameter value", "POST", "/api/games", `{"game": "tsoro", "params": {"bonus": "x"}}`, codeBadConfig, `parameter bonus: want an integer, got "x" (allowed: 1, 2, 3)`},
		{"variants disagreeing", "POST", "/api/games", `{"game": "tsoro", "variants": ["bonus-1", "bonus-3"]}`, codeBadConfig, "variants bonus-1 and bonus-3 set parameter bonus"},
		{"too few seats", "POST", "/api/games", `{"game": "tsoro", "seats": ["human"]}`, codeBadSeats, "Tsoro has 2 players, got 1 seats"},
		{"unknown seat", "POST", "/api/games", `{"game": "tsoro", "seats": ["human", "nosuch"]}`, codeBadSeats, "seat 2: "},
		{"seat over its caps", "POST", "/api/games", `{"game": "tsoro", "seats": ["human", "mcts:time=1h"]}`, codeBadSeats, "seat 2: "},
		{"hold of no seat", "POST", "/api/games", `{"game": "tsoro", "hold": [3]}`, codeBadSeats, "hold: there is no seat 3"},
		{"hold of the computer", "POST", "/api/games", `{"game": "tsoro", "seats": ["human", "random"], "hold": [2]}`, codeBadSeats, "hold: seat 2 is the computer's"},
		{"clock without initial", "POST", "/api/games", `{"game": "tsoro", "clock": {"increment": 1}}`, codeBadClock, "clock initial: missing"},
		{"clock too long", "POST", "/api/games", `{"game": "tsoro", "clock": {"initial": 1e9}}`, codeBadClock, "clock initial: 1e9 is not a number of seconds"},
		{"computers of an unknown game", "GET", "/api/catalog/nosuch/computers", "", codeUnknownGame, `unknown game "nosuch"`},
		{"computers of an unknown variant", "GET", "/api/catalog/tsoro/computers?variant=4x99", "", codeBadConfig, `unknown variant "4x99"`},
		{"computers of an unknown parameter", "GET", "/api/catalog/tsoro/computers?param=speed=1", "", codeBadConfig, "unknown parameter speed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := counter.reads.Load()
			status, b := ts.do(tc.method, tc.path, tc.body)
			assert.Equal(t, http.StatusUnprocessableEntity, status, "%s", b)
			var e apiError
			require.NoError(t, json.Unmarshal(b, &e), "%s", b)
			assert.Equal(t, tc.code, e.Code, "%s", b)
			assert.Contains(t, e.Error, tc.says)
			assert.Equal(t, before, counter.reads.Load(), "scripts read to refuse %s", tc.body)
		})
	}
	// The count counts: a good request loads its game.
	before := counter.reads.Load()
	ts.create(`{"game": "tsoro", "variants": ["4x6"], "seats": ["human", "random"], "clock": {"initial": 60}}`)
	assert.Greater(t, counter.reads.Load(), before, "a game made without reading its script")
}

// A method a route's path is not served with gets 405 with the methods it
// is (Allow), whatever the request's content type: the method is looked
// at before the body. A method it is served with goes on to the content
// type's check (415 for a change not sent as JSON) and its handler. Every
// route is tried with every method.
func TestMethodBeforeContentType(t *testing.T) {
	ts := newTestServer(t, newMemStore())
	g := ts.create(`{"game": "yematatu"}`)
	concrete := strings.NewReplacer("{id}", g.ID, "{game}", "tsoro", "{$}", "")
	methods := []string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"}
	routes := ts.srv.routeList()
	require.Len(t, routes, 17, "a route added: the test tries it too")
	for _, rt := range routes {
		method, pattern, ok := strings.Cut(rt.pattern, " ")
		require.True(t, ok, "route %q has a method", rt.pattern)
		path := concrete.Replace(pattern)
		if strings.HasSuffix(path, "/static/") {
			path += "app.js"
		}
		allow := map[string]string{"GET": "GET, HEAD", "POST": "POST"}[method]
		for _, m := range methods {
			for _, contentType := range []string{"", "text/plain", "application/json"} {
				t.Run(m+" "+path+" "+contentType, func(t *testing.T) {
					ctx, cancel := context.WithCancel(context.Background())
					defer cancel() // an event stream's too
					req, err := http.NewRequestWithContext(ctx, m, ts.http.URL+path, nil)
					require.NoError(t, err)
					if contentType != "" {
						req.Header.Set("Content-Type", contentType)
					}
					res, err := ts.http.Client().Do(req)
					require.NoError(t, err)
					defer res.Body.Close()
					served := m == method || m == "HEAD" && method == "GET"
					switch {
					case !served:
						assert.Equal(t, http.StatusMethodNotAllowed, res.StatusCode)
						assert.Equal(t, allow, res.Header.Get("Allow"))
						if m != "HEAD" {
							var e apiError
							require.NoError(t, json.NewDecoder(res.Body).Decode(&e))
							assert.Equal(t, codeBadMethod, e.Code)
						}
					case m == "POST" && contentType != "application/json":
						assert.Equal(t, http.StatusUnsupportedMediaType, res.StatusCode)
					default:
						assert.NotContains(t, []int{http.StatusMethodNotAllowed, http.StatusUnsupportedMediaType, http.StatusNotFound}, res.StatusCode)
					}
				})
			}
		}
	}
}

// GET /api/games/{id}?since=N&prefix=HASH answers the moves from N on when
// the game's first N moves hash to HASH (the client holds them), and the
// whole record otherwise: a takeback rewrote them, or the client holds
// more than the game has. A since or a prefix alone, or one not well
// formed, is refused.
func TestSince(t *testing.T) {
	ts := newTestServer(t, newMemStore())
	g := ts.create(`{"game": "tsoro", "variants": ["4x8"], "hold": [1, 2]}`)
	seats := ts.seatsOf(g)
	whole := ts.play(g.ID, seats, tsoroTurns[:6]...)
	record, movers := whole.Record, whole.Movers
	require.Len(t, movers, 6)
	get := func(query string) (int, testGame, []byte) {
		status, b := ts.do("GET", "/api/games/"+g.ID+"?board=0&"+query, "")
		var v testGame
		if status == http.StatusOK {
			require.NoError(t, json.Unmarshal(b, &v), "%s", b)
		}
		return status, v, b
	}
	held := func(tokens ...string) string { return recordHash(tokens) }
	for _, tc := range []struct {
		name, query string
		from        int // record_from: the moves left out
		ply         int
	}{
		{"the moves after three", "since=3&prefix=" + held(record[:3]...), 3, 6},
		{"none missing", "since=6&prefix=" + held(record...), 6, 6},
		{"all missing", "since=0&prefix=" + held(), 0, 6},
		{"an earlier ply shown", "ply=2&since=3&prefix=" + held(record[:3]...), 3, 2},
		{"the prefix in upper case", "since=3&prefix=" + strings.ToUpper(held(record[:3]...)), 3, 6},
		{"another prefix", "since=3&prefix=" + held("a1", "d1", "a3"), 0, 6},
		{"more moves than the game", "since=7&prefix=" + held(append(slices.Clone(record), "a8")...), 0, 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, v, b := get(tc.query)
			require.Equal(t, http.StatusOK, status, "%s", b)
			assert.Equal(t, record[tc.from:], v.Record)
			assert.Equal(t, movers[tc.from:], v.Movers)
			assert.Equal(t, tc.ply, v.Ply)
			var raw map[string]any
			require.NoError(t, json.Unmarshal(b, &raw))
			if tc.from == 0 {
				assert.NotContains(t, raw, "record_from", "an answer with the whole record is as without since")
			} else {
				assert.Equal(t, float64(tc.from), raw["record_from"])
			}
		})
	}
	for _, query := range []string{"since=3", "prefix=" + held(), "since=-1&prefix=" + held(), "since=x&prefix=" + held(),
		"since=3&prefix=abc", "since=3&prefix=" + strings.Repeat("z", 64), "since=3&since=3&prefix=" + held(record[:3]...)} {
		status, _, b := get(query)
		assert.Equal(t, http.StatusBadRequest, status, "%s: %s", query, b)
	}

	// A takeback, and another move in its place: the client's six moves
	// are no longer the game's first six, and it gets the whole record.
	status, _, b := ts.post("/api/games/"+g.ID+"/takeback", map[string]any{"seat": seats[0], "ply": 6})
	require.Equal(t, http.StatusOK, status, b)
	status, back, b := ts.post("/api/games/"+g.ID+"/takeback", map[string]any{"seat": seats[1], "ply": 6, "accept": true})
	require.Equal(t, http.StatusOK, status, b)
	require.Equal(t, record[:5], back.Record)
	other := slices.DeleteFunc(back.state(t).Legal, func(tok string) bool { return tok == record[5] })
	require.NotEmpty(t, other)
	now := ts.play(g.ID, seats, other[0])
	require.Len(t, now.Record, 6)
	status, v, raw := get("since=6&prefix=" + held(record...))
	require.Equal(t, http.StatusOK, status, "%s", raw)
	assert.Equal(t, now.Record, v.Record, "the whole record, the client's last move replaced")
	status, v, raw = get("since=5&prefix=" + held(record[:5]...))
	require.Equal(t, http.StatusOK, status, "%s", raw)
	assert.Equal(t, []string{other[0]}, v.Record, "the moves kept by the takeback are the client's still")
}
