package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/host/store"
)

// lostAnswerStore stores the next move appended and then answers that the
// store did not answer, as a database whose statement ran on after its
// caller stopped waiting (PostgreSQL commits an UPDATE whose client's
// time ran out).
type lostAnswerStore struct {
	*store.Memory
	lose atomic.Bool
}

func (s *lostAnswerStore) Append(ctx context.Context, id string, m store.Move) (*store.Game, error) {
	g, err := s.Memory.Append(ctx, id, m)
	if err == nil && s.lose.CompareAndSwap(true, false) {
		return nil, &store.Error{Op: "append", ID: id, Kind: store.ErrUnavailable, Detail: "the answer was lost"}
	}
	return g, err
}

// TestMoveSentAgain: a move sent again by the seat that made it (its first
// answer lost, or stored although the store said it did not answer) is
// answered as the move made, the game as it is, and stored once; the same
// token from the other seat, or another token, is still another's move
// (409).
func TestMoveSentAgain(t *testing.T) {
	st := &lostAnswerStore{Memory: newMemStore()}
	ts := newTestServer(t, st)
	for _, c := range []struct {
		name string
		lose bool
	}{{"its answer lost on the way", false}, {"stored, the store said it did not answer", true}} {
		t.Run(c.name, func(t *testing.T) {
			g := ts.create(`{"game": "yematatu", "hold": [1, 2]}`)
			s1, s2 := ts.both(g)
			st.lose.Store(c.lose)
			status, b := ts.move(g.ID, "b2", 0, s1)
			if c.lose {
				require.Equal(t, http.StatusServiceUnavailable, status, "%s", b)
			} else {
				require.Equal(t, http.StatusOK, status, "%s", b)
			}
			status, b = ts.move(g.ID, "b2", 0, s1)
			require.Equal(t, http.StatusOK, status, "the move sent again: %s", b)
			var got testGame
			require.NoError(t, json.Unmarshal(b, &got))
			assert.Equal(t, []string{"b2"}, got.Record)
			assert.Equal(t, 1, got.Ply)
			stored, err := st.Get(context.Background(), g.ID)
			require.NoError(t, err)
			assert.Equal(t, []string{"b2"}, stored.Record, "stored once")

			for _, other := range []struct{ tok, seat string }{{"b2", s2}, {"a1", s1}, {"b2", ""}} {
				status, b = ts.move(g.ID, other.tok, 0, other.seat)
				assert.Equal(t, http.StatusConflict, status, "%s by %q: %s", other.tok, other.seat, b)
				assert.Contains(t, string(b), fmt.Sprintf(`"code":%q`, codeStalePly))
			}
			status, b = ts.move(g.ID, "a1", 1, s2)
			require.Equal(t, http.StatusOK, status, "the game goes on: %s", b)
			status, b = ts.move(g.ID, "b2", 0, s1)
			assert.Equal(t, http.StatusConflict, status, "no longer the last move: %s", b)
		})
	}
}
