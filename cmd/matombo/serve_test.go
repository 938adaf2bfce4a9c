package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/games"
)

func TestServeCommandLine(t *testing.T) {
	tests := []struct {
		args   []string
		status int
		stderr string
	}{
		{[]string{"serve", "extra"}, exitUsage, `unexpected argument "extra"`},
		{[]string{"serve", "--port", "80"}, exitUsage, "unknown flag --port"},
		{[]string{"serve", "--workers", "0"}, exitUsage, "--workers 0"},
		{[]string{"serve", "--games", "/no/such/folder"}, exitUsage, "no such folder"},
		{[]string{"serve", "--db", ":memory:", "--addr", "256.0.0.1:99999"}, exitUsage, "--addr 256.0.0.1:99999"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var out, errOut bytes.Buffer
			status := run(tt.args, strings.NewReader(""), &out, &errOut)
			assert.Equal(t, tt.status, status, errOut.String())
			assert.Contains(t, errOut.String(), tt.stderr)
		})
	}
	var out bytes.Buffer
	assert.Equal(t, exitOK, run([]string{"serve", "--help"}, strings.NewReader(""), &out, io.Discard))
	assert.Contains(t, out.String(), "--db PATH")
}

// TestServe starts the server on a free port with a database file, creates
// a game through the API, and stops it.
func TestServe(t *testing.T) {
	var out, errOut bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	urls := make(chan string, 1)
	done := make(chan error, 1)
	db := filepath.Join(t.TempDir(), "games.db")
	go func() {
		done <- serve(ctx, e, serveConfig{addr: "127.0.0.1:0", db: db, workers: 1, lib: games.Library(), ready: func(u string) { urls <- u }})
	}()
	var url string
	select {
	case url = <-urls:
	case err := <-done:
		t.Fatalf("serve ended: %v", err)
	}
	res, err := http.Post(url+"api/games", "application/json", strings.NewReader(`{"game": "gore", "seats": ["human", "random"]}`))
	require.NoError(t, err)
	var g struct{ ID string }
	require.NoError(t, json.NewDecoder(res.Body).Decode(&g))
	res.Body.Close()
	assert.Equal(t, http.StatusCreated, res.StatusCode)
	res, err = http.Get(url + "g/" + g.ID)
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, http.StatusOK, res.StatusCode)
	cancel()
	require.NoError(t, <-done)
	assert.Contains(t, out.String(), "playing at "+url)
	assert.Contains(t, out.String(), "stopped")
}

func TestDefaultDBPath(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", "/data")
	assert.Equal(t, filepath.Join("/data", "matombo", "games.db"), defaultDBPath())
	t.Setenv("XDG_DATA_HOME", "")
	t.Setenv("HOME", "/home/ada")
	assert.Equal(t, filepath.Join("/home/ada", ".local", "share", "matombo", "games.db"), defaultDBPath())
	assert.Equal(t, filepath.Join("~", ".local", "share", "matombo", "games.db"), displayPath(defaultDBPath()))
}
