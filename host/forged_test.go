package host_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/player"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A Move's fields are exported, so a caller can make one no game lists:
// too many sites, fewer than its kind names, a site off the board, a kind
// the game lacks. Every way of applying it refuses it with an
// *IllegalMoveError and leaves the state as it was; none panics.
func TestForgedMovesAreRefused(t *testing.T) {
	lib := games.Library()
	for _, name := range []string{"kalah", "draughts", "achi"} {
		g, err := lib.Load(name)
		require.NoError(t, err)
		start := g.Start()
		listed := start.Moves()[0]
		for _, c := range []struct {
			name  string
			forge func(m *host.Move)
		}{
			{"more sites than a move holds", func(m *host.Move) { m.N = 255 }},
			{"one site more than a move holds", func(m *host.Move) { m.N = host.MaxMoveSites + 1 }},
			{"no sites", func(m *host.Move) { m.N = 0 }},
			{"a site off the board", func(m *host.Move) { m.Sites[0] = 65535 }},
			{"a kind the game lacks", func(m *host.Move) { m.Kind = 255 }},
			{"every site slot used", func(m *host.Move) { m.N = host.MaxMoveSites; m.Sites[host.MaxMoveSites-1] = 65000 }},
		} {
			m := listed
			c.forge(&m)
			apply := map[string]func(s *host.State) error{
				"State.Apply":         func(s *host.State) error { return s.Apply(m) },
				"State.ApplyRecorded": func(s *host.State) error { return s.ApplyRecorded(m) },
				"Runner.Apply": func(s *host.State) error {
					r := g.NewRunner()
					defer r.Close()
					return r.Apply(s, m)
				},
				"Runner.ApplyTo": func(s *host.State) error {
					r := g.NewRunner()
					defer r.Close()
					return r.ApplyTo(g.Start(), s, m)
				},
			}
			for how, f := range apply {
				t.Run(fmt.Sprintf("%s/%s/%s", name, c.name, how), func(t *testing.T) {
					s := start.Clone()
					err := f(s)
					var ill *host.IllegalMoveError
					require.True(t, errors.As(err, &ill), "%T: %v", err, err)
					assert.Equal(t, host.CodeIllegalToken, host.ErrorCode(err))
					assert.Equal(t, start.Legal(), ill.Legal)
					assert.Equal(t, start.Key(), s.Key())
					assert.Equal(t, 0, s.Ply())
				})
			}
		}
	}
}

// Limits far above what a game needs do not allocate by their size: the
// call and data stacks are capped (MaxCallStack, MaxDataStack) and a game
// loads and plays under them; a recursion reports the capped limit.
func TestHugeLimitsAreCapped(t *testing.T) {
	huge := host.Limits{CallStack: math.MaxInt, DataStack: math.MaxInt}
	g, err := games.Library().Load("kalah", host.WithLimits(huge))
	require.NoError(t, err)
	defer g.Close()
	s := g.Start()
	require.NoError(t, s.Play(s.Legal()[0]))
	capped := huge.WithDefaults()
	assert.Equal(t, host.Limits{}.WithDefaults().Steps, capped.Steps)
	assert.Equal(t, 1<<12, capped.CallStack)
	assert.Equal(t, 1<<16, capped.DataStack)
}

// Every refusal because the game is over has the code game-over and
// errors.Is finds host.ErrGameOver in it: a move (an *IllegalMoveError with
// GameOver), a resignation, a draw by agreement and a player's Choose.
func TestGameOverIsOneError(t *testing.T) {
	g, err := games.Library().Load("kalah")
	require.NoError(t, err)
	s := g.Start()
	m := s.Moves()[0]
	require.NoError(t, s.Resign(1))
	r := g.NewRunner()
	defer r.Close()
	for _, c := range []struct {
		name string
		err  func() error
	}{
		{"Play", func() error { return s.Clone().Play("a1") }},
		{"PlayTurn", func() error { return s.Clone().PlayTurn("a1") }},
		{"Apply", func() error { return s.Clone().Apply(m) }},
		{"ApplyRecorded", func() error { return s.Clone().ApplyRecorded(m) }},
		{"Runner.Apply", func() error { return r.Apply(s.Clone(), m) }},
		{"Resign", func() error { return s.Clone().Resign(2) }},
		{"AgreeDraw", func() error { return s.Clone().AgreeDraw() }},
		{"player Choose", func() error {
			p, err := player.New(g, "random")
			require.NoError(t, err)
			_, err = p.Choose(context.Background(), s)
			return err
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := fmt.Errorf("wrapped: %w", c.err())
			assert.ErrorIs(t, err, host.ErrGameOver)
			assert.Equal(t, host.CodeGameOver, host.ErrorCode(err))
		})
	}
	// A move refused on a game that goes on is not a game over.
	err = g.Start().Play("zz")
	assert.NotErrorIs(t, err, host.ErrGameOver)
	assert.Equal(t, host.CodeIllegalToken, host.ErrorCode(err))
}

// A memory budget below a MiB is reported in bytes, not as "0 MiB".
func TestTinyMemoryBudgetIsNamed(t *testing.T) {
	_, err := games.Library().Load("kalah", host.WithLimits(host.Limits{Memory: 1000}))
	var be *host.BudgetError
	require.ErrorAs(t, err, &be)
	assert.Equal(t, host.BudgetMemory, be.Budget)
	assert.Equal(t, "1000 bytes", be.Limit)
	assert.NotContains(t, err.Error(), "0 MiB")
}

// A refusal quotes at most a few kilobytes of the token it was given,
// also where its reason quotes a part of the token (a name that is no
// site): the error, its Reason and WhyNot stay bounded for a token of a
// megabyte.
func TestLongTokenReasonsAreBounded(t *testing.T) {
	lib := games.Library()
	for _, name := range []string{"kalah", "achi", "draughts"} {
		g, err := lib.Load(name)
		require.NoError(t, err)
		s := g.Start()
		for _, tok := range []string{
			strings.Repeat("a", 1<<20) + "1",
			strings.Repeat("x", 1<<20),
			strings.Repeat(s.Legal()[0], 1<<16),
		} {
			for how, f := range map[string]func() error{
				"Play":      func() error { return s.Clone().Play(tok) },
				"PlayTurn":  func() error { return s.Clone().PlayTurn(tok) },
				"ParseMove": func() error { _, err := s.ParseMove(tok); return err },
			} {
				err := f()
				var ill *host.IllegalMoveError
				require.ErrorAs(t, err, &ill, "%s %s", name, how)
				assert.Less(t, len(err.Error()), 16<<10, "%s %s", name, how)
				assert.Less(t, len(ill.Reason), 8<<10, "%s %s", name, how)
			}
			assert.Less(t, len(s.WhyNot(tok)), 8<<10, name)
		}
	}
}

// Game.Cell with a site index out of range panics with a message that
// names it, the index and the range (it named State.Owner, which the
// caller never called).
func TestCellIndexOutOfRange(t *testing.T) {
	g, err := games.Library().Load("kalah")
	require.NoError(t, err)
	for _, i := range []int{-1, g.Board().NumSites(), math.MaxInt} {
		assert.PanicsWithValue(t, fmt.Sprintf("host: Game.Cell: site index %d out of range [0, %d)", i, g.Board().NumSites()), func() { g.Cell(i, 0, 0) })
	}
	assert.NotEmpty(t, g.Cell(0, 4, 1))
}
