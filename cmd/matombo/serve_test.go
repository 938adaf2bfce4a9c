package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

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
		{[]string{"serve", "--games", "/no/such/folder"}, exitFail, "no such folder"},
		{[]string{"serve", "--games", ""}, exitUsage, `--games "": name a folder of games`},
		{[]string{"serve", "--db", ":memory:", "--solutions", "main.go"}, exitUsage, `--solutions main.go: not a folder`},
		{[]string{"serve", "--db", ":memory:", "--solutions", ""}, exitUsage, `--solutions "": empty: name a folder`},
		{[]string{"serve", "--db", ":memory:", "--addr", "256.0.0.1:99999"}, exitUsage, `--addr 256.0.0.1:99999: port "99999": want a number from 0 to 65535`},
		{[]string{"serve", "--addr", "8080"}, exitUsage, "--addr 8080: want HOST:PORT, such as 127.0.0.1:8080 or :8080"},
		{[]string{"serve", "--addr", "localhost:http"}, exitUsage, `port "http": want a number`},
		{[]string{"serve", "--db", ":memory:", "--base-path", "games"}, exitUsage, "--base-path: server: base path \"games\""},
		{[]string{"serve", "--lock-wait", "1h"}, exitUsage, "--lock-wait 1h: too large: the limit is 5m0s"},
		{[]string{"serve", "--lock-wait", "10ms"}, exitUsage, "--lock-wait 10ms: want a duration from 100ms to 5m0s"},
		{[]string{"serve", "--lock-wait", "soon"}, exitUsage, "--lock-wait soon: want a duration such as 90s or 10m, from 100ms to 5m0s"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var out, errOut bytes.Buffer
			status := run(tt.args, strings.NewReader(""), &out, &errOut)
			assert.Equal(t, tt.status, status, errOut.String())
			assert.Contains(t, errOut.String(), tt.stderr)
		})
	}
	// An address in use is no usage error: the same command may work later.
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer busy.Close()
	var errOut bytes.Buffer
	status := run([]string{"serve", "--db", ":memory:", "--addr", busy.Addr().String()}, strings.NewReader(""), io.Discard, &errOut)
	assert.Equal(t, exitFail, status, errOut.String())
	assert.Contains(t, errOut.String(), "--addr "+busy.Addr().String()+": listen tcp")
	assert.Contains(t, errOut.String(), "address already in use")

	var out bytes.Buffer
	assert.Equal(t, exitOK, run([]string{"serve", "--help"}, strings.NewReader(""), &out, io.Discard))
	assert.Contains(t, out.String(), "--db PATH")
}

// TestServe starts the server on a free port with a database file, creates
// a game through the API, and stops it; again under a base path, with a
// solution cache of its own.
func TestServe(t *testing.T) {
	for _, base := range []string{"", "/games"} {
		t.Run("base "+base, func(t *testing.T) { testServe(t, base) })
	}
}

func testServe(t *testing.T, base string) {
	var out, errOut bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	urls := make(chan string, 1)
	done := make(chan error, 1)
	db := filepath.Join(t.TempDir(), "games.db")
	go func() {
		done <- serve(ctx, e, serveConfig{addr: "127.0.0.1:0", db: db, workers: 1, lib: games.Library(), base: base,
			cache: t.TempDir(), wait: 2 * time.Second, ready: func(u string) { urls <- u }})
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
	assert.True(t, strings.HasSuffix(url, base+"/"), url)
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

// TestServeHelperProcess is not a test: it is the `matombo serve` process
// that TestServeSurvivesKill starts and kills.
func TestServeHelperProcess(t *testing.T) {
	if os.Getenv("MATOMBO_SERVE_HELPER") != "1" {
		t.Skip("the serve process of TestServeSurvivesKill")
	}
	if n := os.Getenv("MATOMBO_SERVE_NOFILE"); n != "" {
		limitOpenFiles(t, n)
	}
	os.Exit(run([]string{"serve", "--addr", "127.0.0.1:0", "--db", os.Getenv("MATOMBO_SERVE_DB")}, strings.NewReader(""), os.Stdout, os.Stderr))
}

// startServe starts `matombo serve` on db in a child process and returns
// its URL; env adds to its environment.
func startServe(t *testing.T, db string, env ...string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestServeHelperProcess$")
	cmd.Env = append(append(os.Environ(), "MATOMBO_SERVE_HELPER=1", "MATOMBO_SERVE_DB="+db), env...)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	cmd.Stderr = os.Stderr
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	require.NoError(t, err)
	_, rest, ok := strings.Cut(line, "playing at ")
	require.True(t, ok, line)
	url, _, _ := strings.Cut(rest, " ")
	return cmd, url
}

// TestServeSurvivesKill kills `matombo serve` with SIGKILL in the middle of
// a game: a new process on the same database has every acknowledged move.
func TestServeSurvivesKill(t *testing.T) {
	db := filepath.Join(t.TempDir(), "games.db")
	cmd, url := startServe(t, db)
	res, err := http.Post(url+"api/games", "application/json", strings.NewReader(`{"game": "tsoro", "variants": ["4x8"], "hold": [1, 2]}`))
	require.NoError(t, err)
	var g struct {
		ID    string
		Seats []struct{ URL string }
		State struct {
			ToMove int      `json:"to_move"`
			Legal  []string `json:"legal"`
			Over   bool     `json:"over"`
		}
		Record []string
	}
	require.NoError(t, json.NewDecoder(res.Body).Decode(&g))
	res.Body.Close()
	var secrets []string
	for _, s := range g.Seats {
		_, sec, _ := strings.Cut(s.URL, "&seat=")
		secrets = append(secrets, sec)
	}
	for ply := 0; ply < 20 && !g.State.Over; ply++ {
		body := fmt.Sprintf(`{"token": %q, "ply": %d, "seat": %q}`, g.State.Legal[0], ply, secrets[g.State.ToMove-1])
		res, err := http.Post(url+"api/games/"+g.ID+"/moves", "application/json", strings.NewReader(body))
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, res.StatusCode)
		require.NoError(t, json.NewDecoder(res.Body).Decode(&g))
		res.Body.Close()
	}
	acknowledged := g.Record
	require.GreaterOrEqual(t, len(acknowledged), 5, "some moves were made")
	require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
	cmd.Wait()

	_, url = startServe(t, db)
	res, err = http.Get(url + "api/games/" + g.ID)
	require.NoError(t, err)
	defer res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.NoError(t, json.NewDecoder(res.Body).Decode(&g))
	assert.Equal(t, acknowledged, g.Record)
}
