package server

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A request whose secret or invitation no seat of the game holds is
// refused from the stored game: a game the server's cache has dropped is
// not rebuilt (its script loaded, its record replayed) to refuse it, so a
// hostile client cannot make the server replay games for nothing. Every
// kind of request made with a seat's secret or an invitation is tried,
// first on the cached game, then on the game dropped from the cache: the
// answers are the same, no script is read, and the game is not cached
// again. The right secret still plays the dropped game.
func TestStrangersRebuildNothing(t *testing.T) {
	counter := &scriptCounter{FS: games.FS()}
	l := host.NewLibrary()
	require.NoError(t, l.AddFS(counter, games.Root))
	// No perfect seat: it would load the games in the background.
	ts := newTestServerOf(t, l, newMemStore(), WithComputerSeats("random"), WithCacheSize(1))
	g := ts.create(`{"game": "yematatu", "hold": [1]}`)
	_, invite, ok := strings.Cut(g.Seats[1].Invite, "&invite=")
	require.True(t, ok, g.Seats[1].Invite)
	one, two := ts.both(g)
	status, b := ts.move(g.ID, "b2", 0, one)
	require.Equal(t, http.StatusOK, status, "%s", b)
	status, b = ts.move(g.ID, "c1", 1, two)
	require.Equal(t, http.StatusOK, status, "%s", b)
	const wrong = "0123456789abcdef0123456789abcdef"

	api := "/api/games/" + g.ID
	requests := []struct {
		name, path, body string
		status           int
		code             string
	}{
		{"a move with a made-up secret", "/moves", `{"token": "a1", "ply": 2, "seat": "` + wrong + `"}`, http.StatusForbidden, codeNotYourSeat},
		{"a move with no secret", "/moves", `{"token": "a1", "ply": 2, "seat": ""}`, http.StatusForbidden, codeNotYourSeat},
		{"a move with the used invitation", "/moves", `{"token": "a1", "ply": 2, "seat": "` + invite + `"}`, http.StatusForbidden, codeNotYourSeat},
		{"a move at an old ply", "/moves", `{"token": "a1", "ply": 1, "seat": "` + wrong + `"}`, http.StatusConflict, codeStalePly},
		{"a takeback", "/takeback", `{"ply": 2, "seat": "` + wrong + `"}`, http.StatusForbidden, codeNotYourSeat},
		{"a takeback at an old ply", "/takeback", `{"ply": 0, "seat": "` + wrong + `"}`, http.StatusConflict, codeStalePly},
		{"a takeback's acceptance", "/takeback", `{"ply": 2, "seat": "` + wrong + `", "accept": true}`, http.StatusForbidden, codeNotYourSeat},
		{"a draw's offer", "/draw", `{"ply": 2, "seat": "` + wrong + `"}`, http.StatusForbidden, codeNotYourSeat},
		{"a resignation", "/resign", `{"ply": 2, "seat": "` + wrong + `"}`, http.StatusForbidden, codeNotYourSeat},
		{"an abort", "/abort", `{"ply": 2, "seat": "` + wrong + `"}`, http.StatusForbidden, codeNotYourSeat},
		{"a claim with a made-up invitation", "/claim", `{"invite": "` + wrong + `"}`, http.StatusForbidden, codeUnknownInvite},
		{"a claim with the used invitation", "/claim", `{"invite": "` + invite + `"}`, http.StatusConflict, codeSeatTaken},
		{"a rematch", "/rematch", `{"seat": "` + wrong + `"}`, http.StatusForbidden, codeNotYourSeat},
	}
	_, cached := ts.srv.cache.lookup(g.ID)
	require.True(t, cached)
	answers := map[string]string{}
	for _, rq := range requests {
		a := ts.ask("POST", api+rq.path, rq.body)
		require.Equal(t, rq.status, a.status, "%s: %s", rq.name, a.body)
		require.Equal(t, rq.code, a.code, "%s: %s", rq.name, a.body)
		answers[rq.name] = a.body
	}

	evict := func() {
		t.Helper()
		ts.create(`{"game": "yematatu"}`) // the cache holds one game
		_, cached := ts.srv.cache.lookup(g.ID)
		require.False(t, cached, "the game was not dropped from the cache")
	}
	for _, rq := range requests {
		t.Run(rq.name, func(t *testing.T) {
			evict()
			before := counter.reads.Load()
			a := ts.ask("POST", api+rq.path, rq.body)
			assert.Equal(t, answers[rq.name], a.body, "the answer of the cached game")
			assert.Equal(t, before, counter.reads.Load(), "the game's script was read to refuse it")
			_, cached := ts.srv.cache.lookup(g.ID)
			assert.False(t, cached, "the game was cached again to refuse it")
		})
	}

	// The right secrets play the dropped game, which is rebuilt for them.
	right := []struct{ name, path, body string }{
		{"a move", "/moves", ""},
		{"a takeback", "/takeback", `{"ply": 3, "seat": "` + one + `"}`},
		{"its acceptance", "/takeback", `{"ply": 3, "seat": "` + two + `", "accept": true}`},
	}
	for _, rq := range right {
		evict()
		before := counter.reads.Load()
		body := rq.body
		if rq.path == "/moves" {
			legal := ts.get(g.ID).Moves
			require.NotEmpty(t, legal)
			evict()
			before = counter.reads.Load()
			body = fmt.Sprintf(`{"token": %q, "ply": 2, "seat": %q}`, legal[0].Token, one)
		}
		a := ts.ask("POST", api+rq.path, body)
		assert.Equal(t, http.StatusOK, a.status, "%s: %s", rq.name, a.body)
		assert.Greater(t, counter.reads.Load(), before, "%s: the game rebuilt without its script", rq.name)
	}
	assert.Len(t, ts.get(g.ID).Record, 2, "the move taken back")
}
