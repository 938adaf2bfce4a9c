package host_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/host"
)

// A player resigns: the game ends at once, without a move, and the other
// player wins; the outcome's method says how.
func ExampleState_Resign() {
	g, err := library().Load("kalah")
	if err != nil {
		log.Fatal(err)
	}
	s := g.Start()
	if err := s.Play("a3"); err != nil {
		log.Fatal(err)
	}
	if err := s.Resign(2); err != nil {
		log.Fatal(err)
	}
	o := s.Outcome()
	fmt.Println(o.Over, o.Winner, o.Method, o.Reason, len(s.Legal()), s.Ply())
	fmt.Println(errors.Is(s.AgreeDraw(), host.ErrGameOver))
	// Output:
	// true 1 resignation player 2 resigned 0 1
	// true
}

// TestPlayersEnd: resignations and draws by agreement end a state as the
// players decided, survive the state JSON exactly, and refuse a finished
// game or a player out of range.
func TestPlayersEnd(t *testing.T) {
	g, err := library().Load("kalah")
	require.NoError(t, err)
	for _, tc := range []struct {
		name   string
		end    func(*host.State) error
		winner int
		method host.Method
		reason string
	}{
		{"player 1 resigns", func(s *host.State) error { return s.Resign(1) }, 2, host.MethodResignation, "player 1 resigned"},
		{"player 2 resigns", func(s *host.State) error { return s.Resign(2) }, 1, host.MethodResignation, "player 2 resigned"},
		{"a draw agreed", (*host.State).AgreeDraw, 0, host.MethodAgreement, "drawn by agreement"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := g.Start()
			require.NoError(t, s.Play("a1"))
			before := s.Clone()
			require.NoError(t, tc.end(s))
			o := s.Outcome()
			assert.True(t, s.Over())
			assert.Equal(t, tc.winner, o.Winner)
			assert.Equal(t, tc.method, o.Method)
			assert.Equal(t, tc.reason, o.Reason)
			assert.Empty(t, s.Legal())
			assert.Equal(t, before.Ply(), s.Ply(), "no move is made")
			assert.Equal(t, before.Key(), s.Key(), "the position stays")
			assert.False(t, before.Over(), "a clone taken before is not ended")
			assert.InDelta(t, 1, o.Score(1)+o.Score(2), 1e-9)

			b, err := json.Marshal(s)
			require.NoError(t, err)
			assert.Contains(t, string(b), `"method":"`+tc.method.String()+`"`)
			back, err := g.StateFromJSON(b)
			require.NoError(t, err)
			assert.Equal(t, o, back.Outcome())

			assert.ErrorIs(t, s.Resign(1), host.ErrGameOver)
			assert.ErrorIs(t, s.AgreeDraw(), host.ErrGameOver)
			assert.Error(t, s.Play("b1"), "no move after the end")
		})
	}
	s := g.Start()
	assert.ErrorContains(t, s.Resign(3), "player 3 resigns in a game of 2 players")
	assert.ErrorContains(t, s.Resign(0), "player 0")
	assert.False(t, s.Over())
}
