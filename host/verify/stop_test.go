package verify

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/matombo/matombo/host"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// burnerScript is a stand-in game whose play spends most of its step
// budget (about 1.2 of the default 2 million steps) and never ends the
// game: 200 random games of it, each to the cap of 100,000 plies, would
// run for days.
const burnerScript = `local m = matombo
m.declare { name = "burner" }
m.board { rows = { "a" }, columns = 2 }
local K = m.move("k", "{1}")
return {
  setup = function() m.set_count("a1", 1) end,
  legal = function(p) m.emit(K, "a1") end,
  play = function(p)
    local x = 0
    for i = 1, 600000 do x = x + 1 end
  end,
}
`

// runawayScript is a stand-in game whose play never returns.
const runawayScript = `local m = matombo
m.declare { name = "runaway" }
m.board { rows = { "a" }, columns = 2 }
local K = m.move("k", "{1}")
return {
  setup = function() m.set_count("a1", 1) end,
  legal = function(p) m.emit(K, "a1") end,
  play = function(p) while true do end end,
}
`

// standInLibrary is a library of the stand-in game NAME with script src.
func standInLibrary(t *testing.T, name, src string) *host.Library {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, name), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, name, name+".lua"), []byte(src), 0o644))
	lib := host.NewLibrary()
	require.NoError(t, lib.AddDir(dir))
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
		src    string
		extra  []host.Option
		ctx    func() (context.Context, context.CancelFunc)
		reason string
		taken  bool // a step is taken before the stop
	}{
		{"canceled before the check", "burner", burnerScript, nil,
			func() (context.Context, context.CancelFunc) { return canceled, func() {} }, "canceled", false},
		{"interrupted before the check", "burner", burnerScript, nil,
			func() (context.Context, context.CancelFunc) { return interrupted, func() {} }, "interrupted", false},
		{"a time limit during the check", "burner", burnerScript, nil, limit,
			"the run's time limit of 300ms was reached", true},
		{"a time limit in a call that never returns", "runaway", runawayScript, []host.Option{hugeBudgets}, limit,
			"the run's time limit of 300ms was reached", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lib := standInLibrary(t, tt.game, tt.src)
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
	g, err := standInLibrary(t, "runaway", runawayScript).Load("runaway", hugeBudgets)
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
