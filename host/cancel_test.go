package host

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
)

// spinSource is a game whose function where (the chunk, setup, or play
// and evaluate) cancels the test's context through the test primitive
// m.stop() and then never returns: the cancellation comes inside that
// function, however slow the machine.
func spinSource(name, where string) string {
	src := miniSource(name, `local function spin() m.stop() local x = 0 while true do x = x + 1 end end`)
	switch where {
	case "chunk":
		src = replaceOnce(src, "return {", "spin()\nreturn {")
	case "setup":
		src = replaceOnce(src, `setup = function() m.set_count("a1", 1) end`, `setup = function() spin() end`)
	case "legal": // in a position with 2 counters on a1, not the opening's
		src = replaceOnce(src, `legal = function(p) m.emit(SOW, "a1") end`, `legal = function(p) if m.count("a1") == 2 then spin() end m.emit(SOW, "a1") end`)
	case "play":
		src = replaceOnce(src, `play = function(p, kind, s) m.finish(0, "done") end`, `play = function(p, kind, s) spin() end,
  evaluate = function(p) spin() end`)
	}
	return src
}

// budgets so large that only the context can stop a spinning call.
var endless = WithLimits(Limits{Steps: 1 << 50, Time: time.Hour})

// A caller's context stops every kind of script call: loading (the chunk
// and setup), applying and playing, playing out, replaying and
// evaluating. The error is a *CanceledError matching the context's error,
// naming the function that was stopped, and the state is unchanged.
func TestContextCancelsScriptCalls(t *testing.T) {
	for _, c := range []struct {
		name string
		fn   Call
		run  func(t *testing.T, ctx context.Context, stop Option) (*State, error)
	}{
		{"load: the chunk", CallLoad, func(t *testing.T, ctx context.Context, stop Option) (*State, error) {
			lib := NewLibrary()
			require.NoError(t, lib.AddDir(writeGame(t, "spin", spinSource("spin", "chunk"))))
			_, err := lib.LoadContext(ctx, "spin", endless, stop)
			return nil, err
		}},
		{"load: setup", CallSetup, func(t *testing.T, ctx context.Context, stop Option) (*State, error) {
			lib := NewLibrary()
			require.NoError(t, lib.AddDir(writeGame(t, "spin", spinSource("spin", "setup"))))
			_, err := lib.LoadContext(ctx, "spin", endless, stop)
			return nil, err
		}},
		{"State.ApplyContext", CallPlay, func(t *testing.T, ctx context.Context, stop Option) (*State, error) {
			s := spinning(t, stop).Start()
			return s, s.ApplyContext(ctx, s.Moves()[0])
		}},
		{"State.PlayContext", CallPlay, func(t *testing.T, ctx context.Context, stop Option) (*State, error) {
			s := spinning(t, stop).Start()
			return s, s.PlayContext(ctx, "a1")
		}},
		{"State.PlayTurnContext", CallPlay, func(t *testing.T, ctx context.Context, stop Option) (*State, error) {
			s := spinning(t, stop).Start()
			return s, s.PlayTurnContext(ctx, "a1")
		}},
		{"Game.NewStateContext", CallLegal, func(t *testing.T, ctx context.Context, stop Option) (*State, error) {
			g, err := loadSource(t, "spin", spinSource("spin", "legal"), endless, stop)
			require.NoError(t, err)
			pos := g.Start().Position()
			pos.Counts[0] = 2
			_, err = g.NewStateContext(ctx, pos, AnyTotal())
			return nil, err
		}},
		{"Runner.Playout", CallPlay, func(t *testing.T, ctx context.Context, stop Option) (*State, error) {
			g := spinning(t, stop)
			r := g.NewRunner()
			defer r.Close()
			r.SetContext(ctx)
			s := g.Start()
			_, err := r.Playout(s, rand.New(rand.NewPCG(1, 2)), 0)
			return s, err
		}},
		{"Runner.Evaluate", CallEvaluate, func(t *testing.T, ctx context.Context, stop Option) (*State, error) {
			g := spinning(t, stop)
			r := g.NewRunner()
			defer r.Close()
			r.SetContext(ctx)
			s := g.Start()
			_, _, err := r.Evaluate(s, 1)
			return s, err
		}},
		{"Game.ReplayContext", CallPlay, func(t *testing.T, ctx context.Context, stop Option) (*State, error) {
			_, err := spinning(t, stop).ReplayContext(ctx, []string{"a1"})
			var re *ReplayError
			require.ErrorAs(t, err, &re)
			return nil, err
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			stop := withTestPrimitive("stop", func(L *lua.LState) int { cancel(); return 0 })
			s, err := c.run(t, ctx, stop)
			var ce *CanceledError
			require.ErrorAs(t, err, &ce)
			assert.ErrorIs(t, err, context.Canceled)
			assert.Equal(t, c.fn, ce.Func)
			assert.Contains(t, err.Error(), "script call canceled: context canceled")
			if s != nil {
				assert.Zero(t, s.Ply(), "the state is unchanged")
				assert.Equal(t, []string{"a1"}, s.Legal())
			}
		})
	}
}

// A deadline stops a call as a cancellation does.
func TestContextDeadline(t *testing.T) {
	g := spinning(t, withTestPrimitive("stop", func(L *lua.LState) int { return 0 }))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	s := g.Start()
	err := s.ApplyContext(ctx, s.Moves()[0])
	require.ErrorIs(t, err, context.DeadlineExceeded)
	var ce *CanceledError
	require.ErrorAs(t, err, &ce)
	assert.Zero(t, s.Ply())
}

// spinning loads a game whose play and evaluate spin (see spinSource).
func spinning(t *testing.T, stop Option) *Game {
	g, err := loadSource(t, "spin", spinSource("spin", "play"), endless, stop)
	require.NoError(t, err)
	return g
}

// A context that is done before the call stops it before the script runs;
// its cause is kept; a runner given a live context again plays on.
func TestContextDoneBeforehand(t *testing.T) {
	g := loadTest(t, "kalah")
	cause := errors.New("the player left")
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(cause)

	s := g.Start()
	err := s.ApplyContext(ctx, s.Moves()[0])
	require.ErrorIs(t, err, context.Canceled)
	require.ErrorIs(t, err, cause)
	assert.Zero(t, s.Ply())

	_, err = testLibrary(t).LoadContext(ctx, "kalah")
	require.ErrorIs(t, err, context.Canceled)

	r := g.NewRunner()
	defer r.Close()
	r.SetContext(ctx)
	n, err := r.Playout(s, rand.New(rand.NewPCG(1, 2)), 0)
	require.ErrorIs(t, err, context.Canceled)
	assert.Zero(t, n)
	assert.Zero(t, s.Ply())

	r.SetContext(context.Background())
	n, err = r.Playout(s, rand.New(rand.NewPCG(1, 2)), 0)
	require.NoError(t, err)
	assert.Positive(t, n)
	assert.True(t, s.Over())
}

// A playout stops at the move during which its context is done: the
// moves before it stay played.
func TestContextStopsPlayoutBetweenMoves(t *testing.T) {
	g := loadTest(t, "kalah")
	ctx, cancel := context.WithCancel(context.Background())
	r := g.NewRunner()
	defer r.Close()
	r.SetContext(ctx)
	s := g.Start()
	moves := 0
	n, err := r.PlayoutWith(s, func(s *State) Move {
		moves++
		if moves == 5 {
			cancel()
		}
		return s.Moves()[0]
	}, 0)
	require.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, 4, n)
	assert.Equal(t, 4, s.Ply())
}

// writeGame writes a script NAME.lua into a fresh folder and returns the
// folder.
func writeGame(t *testing.T, name, src string) string {
	dir := t.TempDir()
	writeFile(t, dir+"/"+name+".lua", src)
	return dir
}
