package verify

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/matombo/matombo/host"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// standInLibrary is a library of the stand-in games of run limits (in
// host/testdata/standin): burner, whose every move spends most of its
// step budget and which never ends, and runaway, whose move never returns.
func standInLibrary(t *testing.T) *host.Library {
	t.Helper()
	lib := host.NewLibrary()
	require.NoError(t, lib.AddDir(filepath.Join("..", "testdata", "standin")))
	return lib
}

// hugeBudgets lets a script call run for hours: only a context stops it.
var hugeBudgets = host.WithLimits(host.Limits{Steps: 1 << 50, Time: time.Hour})

// A check whose context is done stops: the script call in progress
// stops, the step it was in says so, the steps after it are skipped, and
// the report is never OK. Timing is measured by behaviour: unstopped, each
// check would run for days; stopped, it ends within the generous bound
// however busy the machine is.
func TestCheckContextStops(t *testing.T) {
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	interrupted, interrupt := context.WithCancelCause(context.Background())
	interrupt(errors.New("interrupted"))
	limit := func() (context.Context, context.CancelFunc) {
		return context.WithTimeoutCause(context.Background(), 300*time.Millisecond, errors.New("the run's time limit of 300ms was reached"))
	}
	tests := []struct {
		name   string
		game   string
		extra  []host.Option
		ctx    func() (context.Context, context.CancelFunc)
		reason string
		taken  bool // a step is taken before the stop
	}{
		{"canceled before the check", "burner", nil,
			func() (context.Context, context.CancelFunc) { return canceled, func() {} }, "canceled", false},
		{"interrupted before the check", "burner", nil,
			func() (context.Context, context.CancelFunc) { return interrupted, func() {} }, "interrupted", false},
		{"a time limit during the check", "burner", nil, limit,
			"the run's time limit of 300ms was reached", true},
		{"a time limit in a call that never returns", "runaway", []host.Option{hugeBudgets}, limit,
			"the run's time limit of 300ms was reached", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lib := standInLibrary(t)
			ctx, cancel := tt.ctx()
			defer cancel()
			start := time.Now()
			r := CheckContext(ctx, lib, tt.game, CheckOptions{Extra: tt.extra})
			assert.Less(t, time.Since(start), 2*time.Minute, "the check stopped")

			assert.False(t, r.OK())
			assert.Equal(t, tt.reason, r.Stopped)
			require.Len(t, r.Steps, 5, "every step is reported")
			// The steps taken before the stop are clean but the last,
			// which may say it was stopped; the rest are skipped.
			taken := 0
			for taken < len(r.Steps) && !r.Steps[taken].Skipped {
				taken++
			}
			if !tt.taken {
				assert.Zero(t, taken)
			} else {
				assert.Positive(t, taken, "the check starts")
			}
			for i, st := range r.Steps[:taken] {
				if i < taken-1 {
					assert.Empty(t, st.Findings, st.Name)
				} else if len(st.Findings) > 0 {
					assert.Contains(t, st.Findings[len(st.Findings)-1].Msg, "stopped: "+tt.reason)
				}
			}
			for _, st := range r.Steps[taken:] {
				assert.True(t, st.Skipped, st.Name)
				assert.Equal(t, "skipped: stopped: "+tt.reason, st.Summary)
			}
		})
	}
}

// RunContext stops the game in progress: it is not counted, and the last
// problem says where the run stopped and how many games it did not play.
func TestRunContextStops(t *testing.T) {
	g, err := standInLibrary(t).Load("runaway", hugeBudgets)
	require.NoError(t, err)
	defer g.Close()
	tests := []struct {
		name     string
		thorough bool
	}{
		{"the game's own moves", false},
		{"the thorough checks", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeoutCause(context.Background(), 100*time.Millisecond, errors.New("interrupted"))
			defer cancel()
			st, probs := RunContext(ctx, g, Options{Games: 10, Seed: 7, Thorough: tt.thorough, Replay: true})
			assert.Equal(t, "interrupted", st.Stopped)
			assert.Zero(t, st.Games)
			require.NotEmpty(t, probs)
			last := probs[len(probs)-1]
			assert.Equal(t, uint64(7), last.Seed)
			assert.Equal(t, "stopped: interrupted, in this game; 10 games not played", last.Msg)
			for _, p := range probs[:len(probs)-1] {
				t.Errorf("a problem besides the stop: %v", p)
			}
		})
	}
}

// hangs is a time budget short enough for a test: the runaway's move
// never returns, and only the time budget stops it.
var hangs = host.WithLimits(host.Limits{Steps: 1 << 50, Time: 200 * time.Millisecond})

// A call that runs into the time budget stops the run at its game: a
// script that hangs once hangs again, and every other game (and, in the
// thorough checks, every other token) would wait the whole budget. Before,
// a check of such a script took the time budget times every game and
// token: 200 games of 30 s.
func TestRunStopsAtAHang(t *testing.T) {
	g, err := standInLibrary(t).Load("runaway", hangs)
	require.NoError(t, err)
	defer g.Close()
	for _, thorough := range []bool{false, true} {
		st, probs := Run(g, Options{Games: 50, Seed: 7, Thorough: thorough, Replay: true})
		assert.Equal(t, "200ms", st.Hung, "thorough %v", thorough)
		assert.Empty(t, st.Stopped)
		assert.Zero(t, st.Games)
		require.Len(t, probs, 2, "the hang and the games not played: %v", probs)
		assert.Contains(t, probs[0].Msg, "time budget exceeded (limit 200ms)")
		assert.Equal(t, uint64(7), probs[1].Seed)
		assert.Equal(t, "49 more games not played: a call of this game ran into the time budget (200ms), and a script that hangs once hangs again, each call taking the whole budget", probs[1].Msg)
	}
}

// A check stops at a hang too: the openings say the token that hung, and
// the random games are skipped.
func TestCheckStopsAtAHang(t *testing.T) {
	r := Check(standInLibrary(t), "runaway", CheckOptions{Extra: []host.Option{hangs}})
	assert.False(t, r.OK())
	assert.Empty(t, r.Stopped)
	require.Len(t, r.Steps, 5)
	open := r.Steps[3]
	assert.Equal(t, StepOpenings, open.Name)
	require.Len(t, open.Findings, 1)
	assert.Contains(t, open.Findings[0].Msg, `the legal token "a1" fails`)
	assert.Contains(t, open.Findings[0].Msg, "time budget exceeded (limit 200ms)")
	random := r.Steps[4]
	assert.True(t, random.Skipped)
	assert.Equal(t, "skipped: a call ran into the time budget (200ms) above", random.Summary)
}
