package server

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/host/store"
)

// TestExpiredGamesDeleted: with an expiry, the games nobody changed for
// that long are deleted, finished or not, and a store at its cap of
// games makes new ones again; the others stay.
func TestExpiredGamesDeleted(t *testing.T) {
	st := newMemStore()
	ts := newTestServer(t, st, WithExpiry(time.Hour), WithLimits(Limits{Games: 3, GamesPerMinute: 100, RequestsPerSecond: 1000}))
	old := ts.create(`{"game": "yematatu", "variants": ["square"], "seats": ["human", "human"]}`)
	s1, s2 := ts.both(old)
	end := ts.play(old.ID, []string{s1, s2}, winYematatuSquare...)
	require.True(t, end.state(t).Over)
	going := ts.create(`{"game": "yematatu", "seats": ["human", "human"]}`)
	ts.create(`{"game": "tsoro"}`)
	a := ts.ask("POST", "/api/games", `{"game": "yematatu"}`)
	require.Equal(t, http.StatusServiceUnavailable, a.status, a.body)

	p := st
	assert.Equal(t, 0, ts.srv.pruneOnce(p, time.Now()), "every game changed within the hour")
	assert.Equal(t, 3, ts.srv.pruneOnce(p, time.Now().Add(61*time.Minute)), "an hour later none has changed")
	for _, id := range []string{old.ID, going.ID} {
		a := ts.ask("GET", "/api/games/"+id, "")
		assert.Equal(t, http.StatusNotFound, a.status, a.body)
		assert.Equal(t, codeNotFound, a.code)
	}
	ts.create(`{"game": "yematatu"}`)
	n, err := st.Count(context.Background())
	require.NoError(t, err)
	assert.Equal(t, 1, n)
}

// TestExpirySweeps: the server deletes expired games by itself, and
// refuses an expiry its store cannot keep.
func TestExpirySweeps(t *testing.T) {
	st := newMemStore()
	ts := newTestServer(t, st, WithExpiry(100*time.Millisecond))
	g := ts.create(`{"game": "tsoro", "seats": ["human", "human"]}`)
	deadline := time.Now().Add(time.Minute)
	for {
		a := ts.ask("GET", "/api/games/"+g.ID, "")
		if a.status == http.StatusNotFound {
			break
		}
		require.Equal(t, http.StatusOK, a.status, a.body)
		require.True(t, time.Now().Before(deadline), "the game was not deleted within a minute")
		time.Sleep(20 * time.Millisecond)
	}

	_, err := New(lib(), notPruner{st}, WithExpiry(time.Hour))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "cannot delete games")
	_, err = New(lib(), st, WithExpiry(-time.Second))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "want a positive duration")
}

// notPruner is a store that cannot delete games.
type notPruner struct{ store.Store }
