package server

import (
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
