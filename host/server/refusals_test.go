package server

import (
	"context"
	"encoding/json"
	"io/fs"
	"net/http"
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
