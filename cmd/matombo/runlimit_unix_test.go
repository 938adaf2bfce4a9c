//go:build unix

package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// helperReady is what the helper process writes on stderr once its run's
// signals are caught.
const helperReady = "helper: running"

// TestRunLimitHelperProcess is not a test: it is the matombo process that
// TestRunInterrupted starts and interrupts.
func TestRunLimitHelperProcess(t *testing.T) {
	args := os.Getenv("MATOMBO_RUNLIMIT_ARGS")
	if args == "" {
		t.Skip("the process of TestRunInterrupted")
	}
	argv := strings.Split(args, "\n")
	e := &env{stdin: strings.NewReader(""), stdout: os.Stdout, stderr: os.Stderr, width: outputWidth(os.Stdout),
		onRun: func() { fmt.Fprintln(os.Stderr, helperReady) }}
	if argv[0] == "play" {
		e.stdin = os.Stdin // a pipe the test keeps open: the session waits for a line
	}
	for _, c := range commands() {
		if c.name == argv[0] {
			os.Exit(c.run(e, argv[1:]))
		}
	}
	os.Exit(exitUsage)
}

// lockedBuffer is a buffer that a pipe's reader writes and the test reads.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// interrupted is how a helper process ended: its exit status (-1 when a
// signal killed it) and its outputs.
type interrupted struct {
	code           int
	stdout, stderr string
}

// interruptRun runs matombo args in a helper process, waits until its
// stdout holds readyOut (when given) or its stderr says helperReady, then
// for delay, sends it sig and waits for its end.
func interruptRun(t *testing.T, args []string, sig syscall.Signal, readyOut string, delay time.Duration) interrupted {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestRunLimitHelperProcess$")
	cmd.Env = append(os.Environ(), "MATOMBO_RUNLIMIT_ARGS="+strings.Join(args, "\n"))
	var stdout, stderr lockedBuffer
	outPipe, err := cmd.StdoutPipe()
	require.NoError(t, err)
	errPipe, err := cmd.StderrPipe()
	require.NoError(t, err)
	_, err = cmd.StdinPipe() // open, and never written: play waits at its prompt
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { cmd.Process.Kill() })
	var copied sync.WaitGroup
	copied.Add(2)
	go func() { defer copied.Done(); io.Copy(&stdout, outPipe) }()
	go func() { defer copied.Done(); io.Copy(&stderr, errPipe) }()
	ready := func() bool {
		if readyOut != "" {
			return strings.Contains(stdout.String(), readyOut)
		}
		return strings.Contains(stderr.String(), helperReady+"\n")
	}
	for deadline := time.Now().Add(2 * time.Minute); !ready(); time.Sleep(10 * time.Millisecond) {
		require.True(t, time.Now().Before(deadline), "the helper is not ready:\nstdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
	}
	time.Sleep(delay)
	require.NoError(t, cmd.Process.Signal(sig))
	copied.Wait()
	err = cmd.Wait()
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else {
		require.NoError(t, err)
	}
	return interrupted{code: code, stdout: stdout.String(), stderr: stderr.String()}
}

// TestRunInterrupted: the first SIGINT or SIGTERM stops each command
// that catches it in the middle of its work; what it writes says
// "stopped: interrupted", and the exit status is 130 or 143 (128 plus
// the signal's number), but for serve, whose graceful shutdown is its
// normal end, 0.
func TestRunInterrupted(t *testing.T) {
	dir := burnerFiles(t)
	games := filepath.Join(dir, "games")
	check := []string{"check", filepath.Join(games, "burner", "burner.lua")}
	conform := []string{"conform", "--games", games, filepath.Join(dir, "burner.yaml")}
	// An exact solve of Kalah(6,4) by search takes hours.
	solve := []string{"solve", "kalah", "--engine", "search", "--max-memory", "256MiB", "--threads", "1", "--fresh"}
	hint := []string{"hint", "kalah", "--engine", "search", "--max-memory", "256MiB", "--threads", "1"}
	analyze := []string{"analyze", "oware", "--games", "100000", "--p1", "mcts:iterations=200"}
	match := []string{"match", "tictactoe", "--p1", "mcts:iterations=300", "--games", "100000"}
	playPrompt := []string{"play", "kalah", "--p2", "human"}
	playThinking := []string{"play", "kalah", "--p1", "random", "--p2", "mcts:time=1h", "--seed", "1"}
	const playStopped = "matombo play: stopped: interrupted\n"
	serve := []string{"serve", "--addr", "127.0.0.1:0", "--db", filepath.Join(t.TempDir(), "games.db")}
	const checkStopped = "check: stopped: interrupted; 1 of 1 game not checked fully (burner)\n"
	tests := []struct {
		name     string
		sig      syscall.Signal
		args     []string
		readyOut string        // what stdout says when the run is under way; "": the helper's signals are caught
		delay    time.Duration // then how long to wait before the signal
		code     int
		stdout   []string // what stdout holds
		stderr   string   // what stderr holds
		last     string   // how stdout ends; "": not checked
	}{
		{"check, SIGINT", syscall.SIGINT, check, "", 0, 130, []string{checkStopped}, "matombo check: stopped: interrupted\n", checkStopped},
		{"check, SIGTERM", syscall.SIGTERM, check, "", 0, 143, []string{checkStopped}, "matombo check: stopped: interrupted\n", checkStopped},
		{"conform, SIGINT", syscall.SIGINT, conform, "", 0, 130, []string{"stopped: interrupted (not run)\n"}, "matombo conform: stopped: interrupted\n", "errored; stopped: interrupted\n"},
		{"conform, SIGTERM", syscall.SIGTERM, conform, "", 0, 143, nil, "matombo conform: stopped: interrupted\n", "errored; stopped: interrupted\n"},
		{"conform --json, SIGTERM", syscall.SIGTERM, append(conform, "--json"), "", 0, 143, []string{`"stopped": "interrupted"`}, "matombo conform: stopped: interrupted\n", "}\n"},
		{"solve, SIGINT", syscall.SIGINT, solve, "", 0, 130, nil, "matombo solve: stopped: interrupted; nothing is cached\n", ""},
		{"solve, SIGTERM", syscall.SIGTERM, solve, "", 0, 143, nil, "matombo solve: stopped: interrupted; nothing is cached\n", ""},
		{"solve --json, SIGINT", syscall.SIGINT, append(solve, "--json"), "", 0, 130, nil, "matombo solve: stopped: interrupted; nothing is cached\n",
			`{"game":"kalah","error":"stopped: interrupted; nothing is cached"}` + "\n"},
		{"hint, SIGTERM", syscall.SIGTERM, hint, "", 0, 143, nil, "matombo hint: stopped: interrupted; nothing is cached\n", ""},
		{"analyze, SIGINT", syscall.SIGINT, analyze, "", 0, 130, nil, "matombo analyze: stopped: interrupted; nothing is written\n", ""},
		{"match, SIGTERM", syscall.SIGTERM, match, "", 3 * time.Second, 143, []string{"Tic-tac-toe [tictactoe]: "}, "matombo match: stopped: interrupted after ", " of 100000 games\n"},
		// play ends with the record, so that the game is not lost, whether
		// a person is to type or a computer player thinks.
		{"play at the prompt, SIGINT", syscall.SIGINT, playPrompt, "P1> ", 0, 130, nil, playStopped,
			"P1> \nInterrupted after 0 decisions.\nRecord: (no decisions yet)\n"},
		{"play while the computer thinks, SIGTERM", syscall.SIGTERM, playThinking, "Player 1 (South) plays a2", 0, 143, nil, playStopped,
			"\nInterrupted after 1 decision.\nRecord: a2\n"},
		{"serve, SIGTERM", syscall.SIGTERM, serve, "matombo serve: playing at", 0, 0, nil, "", "matombo serve: stopped\n"},
		{"serve, SIGINT", syscall.SIGINT, serve, "matombo serve: playing at", 0, 0, nil, "", "matombo serve: stopped\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := interruptRun(t, tt.args, tt.sig, tt.readyOut, tt.delay)
			assert.Equal(t, tt.code, r.code, "stdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
			for _, w := range tt.stdout {
				assert.Contains(t, r.stdout, w)
			}
			assert.Contains(t, r.stderr, tt.stderr)
			if tt.last != "" {
				assert.True(t, strings.HasSuffix(r.stdout, tt.last), "stdout ends with %q:\n%s", tt.last, r.stdout)
			}
			if tt.code != 0 && len(tt.stdout) == 0 && tt.last == "" {
				assert.Empty(t, r.stdout, "no partial result")
			}
		})
	}
}
