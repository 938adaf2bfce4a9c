package conformance

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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
	require.NoError(t, lib.AddDir(filepath.Join("..", "host", "testdata", "standin")))
	return lib
}

// burnerScenarios writes a file of n scenarios of the burner game, each
// playing 20 tokens, and loads it.
func burnerScenarios(t *testing.T, n int) []*File {
	t.Helper()
	var src strings.Builder
	src.WriteString("game: burner\nscenarios:\n")
	tokens := strings.TrimSuffix(strings.Repeat("a1, ", 20), ", ")
	for i := range n {
		fmt.Fprintf(&src, "  - name: scenario %d\n    rule: B\n    play: [%s]\n    expect: {legal: [a1]}\n", i+1, tokens)
	}
	path := filepath.Join(t.TempDir(), "burner.yaml")
	require.NoError(t, os.WriteFile(path, []byte(src.String()), 0o644))
	files, errs := LoadFiles(path)
	require.Empty(t, errs)
	return files
}

// A run whose context is done stops: the scenario in progress and every
// later one err with "stopped: " and the reason, the report says why it
// stopped, and it is never OK. Timing is measured by behaviour: unstopped,
// the run would take minutes (hours under the race detector); stopped, it
// ends within the generous bound however busy the machine is.
func TestRunContextStops(t *testing.T) {
	const scenarios = 100
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	interrupted, interrupt := context.WithCancelCause(context.Background())
	interrupt(errors.New("interrupted"))
	tests := []struct {
		name   string
		ctx    func() (context.Context, context.CancelFunc)
		reason string
		ranAny bool // some scenario may have started before the stop
	}{
		{"canceled before the run", func() (context.Context, context.CancelFunc) { return canceled, func() {} }, "canceled", false},
		{"interrupted before the run", func() (context.Context, context.CancelFunc) { return interrupted, func() {} }, "interrupted", false},
		{"a time limit during the run", func() (context.Context, context.CancelFunc) {
			return context.WithTimeoutCause(context.Background(), 100*time.Millisecond, errors.New("the run's time limit of 100ms was reached"))
		}, "the run's time limit of 100ms was reached", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := burnerScenarios(t, scenarios)
			suite := NewSuite(standInLibrary(t))
			defer suite.Close()
			ctx, cancel := tt.ctx()
			defer cancel()
			start := time.Now()
			rep := suite.RunContext(ctx, files, nil)
			assert.Less(t, time.Since(start), 2*time.Minute, "the run stopped")

			require.Len(t, rep.Results, scenarios, "every scenario has a result")
			assert.False(t, rep.OK())
			assert.Equal(t, tt.reason, rep.Stopped)
			assert.Less(t, rep.Passed, scenarios)
			assert.Positive(t, rep.Errored)
			last := rep.Results[scenarios-1]
			assert.Equal(t, Errored, last.Status)
			assert.Equal(t, "stopped: "+tt.reason+" (not run)", last.Error)
			if !tt.ranAny {
				assert.Zero(t, rep.Passed)
			}
			for _, res := range rep.Results {
				if res.Status != Passed {
					assert.True(t, strings.HasPrefix(res.Error, "stopped: "+tt.reason), res.Error)
				}
			}

			var out bytes.Buffer
			rep.WriteText(&out, false)
			assert.Contains(t, out.String(), "stopped: "+tt.reason+" (not run)\n")
			assert.Contains(t, out.String(), "more scenarios not run)\n")
			assert.Contains(t, out.String(), "errored; stopped: "+tt.reason+"\n")
			assert.Less(t, strings.Count(out.String(), "\n"), 20, "the scenarios not run are written once:\n%s", out.String())
		})
	}
}

// A run that is not stopped is the run of Run: the stopped field stays
// empty and the suite's games can be used by a later run.
func TestRunContextAfterAStoppedRun(t *testing.T) {
	suite := NewSuite(kalahLibrary(t))
	defer suite.Close()
	path := filepath.Join(t.TempDir(), "case.yaml")
	require.NoError(t, os.WriteFile(path, []byte(kalahOK), 0o644))
	files, errs := LoadFiles(path)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rep := suite.RunContext(ctx, files, errs)
	assert.False(t, rep.OK())
	assert.Equal(t, "canceled", rep.Stopped)

	rep = suite.RunContext(context.Background(), files, errs)
	assert.True(t, rep.OK(), rep.Summary())
	assert.Empty(t, rep.Stopped)
	assert.Equal(t, "1 passed, 0 failed, 0 errored", rep.Summary())
}

// The context stops the script call in progress, not only the run between
// scenarios: a play that never returns, under budgets that would let it
// run for hours, stops soon after the context is done.
func TestRunContextStopsTheCallInProgress(t *testing.T) {
	lib := standInLibrary(t)
	g, err := lib.Load("runaway", host.WithLimits(host.Limits{Steps: 1 << 50, Time: time.Hour}))
	require.NoError(t, err)
	defer g.Close()
	tests := []struct {
		name string
		word string
	}{
		{"one token", "a1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeoutCause(context.Background(), 50*time.Millisecond, errors.New("the run's time limit of 50ms was reached"))
			defer cancel()
			s := g.Start()
			err := s.PlayTurnContext(ctx, tt.word)
			var ce *host.CanceledError
			require.ErrorAs(t, err, &ce)
			assert.Zero(t, s.Ply(), "the state is as it was")

			var res Result
			require.True(t, stop(ctx, err, &res))
			assert.Equal(t, "stopped: the run's time limit of 50ms was reached", res.Error)
		})
	}
}

// A scenario whose call runs into the time budget errs with it, and the
// run does not call that game again: its later scenarios err "not run",
// naming the scenario that hung and the line of its call (a script that hangs once hangs again,
// and each scenario would wait the whole budget: 30 s by default). The
// other games' scenarios run.
func TestRunSkipsAGameThatHung(t *testing.T) {
	dir := t.TempDir()
	src := "game: runaway\nscenarios:\n"
	for i := range 3 {
		src += fmt.Sprintf("  - name: hangs %d\n    rule: R\n    play: [a1]\n", i+1)
	}
	src += "  - name: the opening\n    rule: R\n    expect: {legal: [a1]}\n"
	path := filepath.Join(dir, "runaway.yaml")
	require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
	burner := filepath.Join(dir, "burner.yaml")
	require.NoError(t, os.WriteFile(burner, []byte("game: burner\nscenarios:\n  - name: burns\n    rule: B\n    expect: {legal: [a1]}\n"), 0o644))
	files, errs := LoadFiles(path, burner)
	require.Empty(t, errs)

	suite := NewSuite(standInLibrary(t), host.WithLimits(host.Limits{Steps: 1 << 50, Time: 200 * time.Millisecond}))
	defer suite.Close()
	rep := suite.Run(files, nil)
	require.Len(t, rep.Results, 5)
	first := rep.Results[0]
	assert.Equal(t, Errored, first.Status)
	assert.Contains(t, first.Error, "time budget exceeded (limit 200ms)")
	for _, res := range rep.Results[1:4] {
		assert.Equal(t, Errored, res.Status, res.Name)
		assert.Equal(t, fmt.Sprintf(`not run: a call of scenario "hangs 1" (%s:5) ran into the time budget (200ms), and a script that hangs once hangs again, each call taking the whole budget`, path), res.Error, res.Name)
	}
	assert.Equal(t, Passed, rep.Results[4].Status, "another game's scenario runs")
	assert.Empty(t, rep.Stopped)
	assert.Equal(t, 4, rep.Errored)
}
