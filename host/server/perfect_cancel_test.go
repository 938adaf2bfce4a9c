package server

import (
	"bytes"
	"context"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/games"
)

// A cached solution whose check is stopped (the server closing while it
// checks, as when serve's --addr cannot be listened on) was logged as
// "cached solution not used: it does not agree with the rules ... context
// canceled": a warning about a good file, on every such start. A stopped
// check is a stop, not a verdict.
func TestStoppedCheckIsNoWarning(t *testing.T) {
	g, err := games.Library().Load("yematatu")
	require.NoError(t, err)
	dir := t.TempDir()
	var log bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelWarn}))
	// Solve and cache it once.
	ss := newSolutions(context.Background(), DefaultPerfectBudget(), dir, logger)
	_, _, err = ss.prepare(g)
	require.NoError(t, err)
	// Then check the cached file with the server already stopped.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	stopped := newSolutions(ctx, DefaultPerfectBudget(), dir, logger)
	_, _, err = stopped.prepare(g)
	require.Error(t, err)
	assert.ErrorIs(t, err, context.Canceled)
	assert.NotContains(t, log.String(), "does not agree with the rules")
}
