package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// burnerFiles writes the burner game (host/testdata/standin: its every
// move spends most of its step budget, and it never ends) and a file of 50 scenarios of 20
// tokens each against it, and returns their folder.
func burnerFiles(t *testing.T) string {
	t.Helper()
	var src strings.Builder
	src.WriteString("game: burner\nscenarios:\n")
	tokens := strings.TrimSuffix(strings.Repeat("a1, ", 20), ", ")
	for i := range 50 {
		fmt.Fprintf(&src, "  - name: scenario %d\n    rule: B\n    play: [%s]\n    expect: {legal: [a1]}\n", i+1, tokens)
	}
	burner, err := os.ReadFile(filepath.Join("..", "..", "host", "testdata", "standin", "burner", "burner.lua"))
	require.NoError(t, err)
	return writeFiles(t, map[string]string{"games/burner/burner.lua": string(burner), "burner.yaml": src.String()})
}

// TestRunTimeLimit: --max-time stops conform and check against a script
// that spends most of its budget on every call; the report is written,
// says it stopped and why, and the exit status is 1. It is measured by
// behaviour: unstopped, either run would take hours; the bound is
// generous for a busy machine.
func TestRunTimeLimit(t *testing.T) {
	dir := burnerFiles(t)
	games := filepath.Join(dir, "games")
	const reason = "stopped: the run's time limit of 300ms was reached"
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"conform", []string{"conform", "--games", games, "--max-time", "300ms", filepath.Join(dir, "burner.yaml")},
			[]string{reason + " (not run)\n", "more scenarios not run)\n", "errored; " + reason + "\n"}},
		{"conform --json", []string{"conform", "--json", "--games", games, "--max-time", "300ms", filepath.Join(dir, "burner.yaml")},
			[]string{`"stopped": "the run's time limit of 300ms was reached"`}},
		{"check", []string{"check", filepath.Join(games, "burner", "burner.lua"), "--max-time", "300ms"},
			[]string{"check: " + reason + "; 1 of 1 game not checked fully (burner)\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			r := matombo(t, "", tt.args...)
			assert.Less(t, time.Since(start), 2*time.Minute, "the run stopped")
			assert.Equal(t, exitFail, r.code, r.stdout+r.stderr)
			for _, w := range tt.want {
				assert.Contains(t, r.stdout, w)
			}
			assert.Contains(t, r.stderr, "matombo "+tt.args[0]+": "+reason+"\n")
		})
	}
}

// TestRunTimeFlag: --max-time of conform and check is bounded; a value
// past the limit, or none, is a usage error (exit status 2) that says so.
func TestRunTimeFlag(t *testing.T) {
	tests := []struct {
		value, want string
	}{
		{"100000h", "--max-time 100000h: too large: the limit is 1000h0m0s"},
		{"99999999999999999999h", "too large: the limit is 1000h0m0s"},
		{"0", "--max-time 0: want a duration from 1ms to 1000h0m0s"},
		{"-5m", "want a duration"},
		{"soon", "--max-time soon: want a duration such as 90s or 10m"},
	}
	for _, cmd := range []string{"conform", "check"} {
		for _, tt := range tests {
			t.Run(cmd+" "+tt.value, func(t *testing.T) {
				r := matombo(t, "", cmd, "--max-time", tt.value, "nowhere")
				assert.Equal(t, exitUsage, r.code, r.stderr)
				assert.Contains(t, r.stderr, tt.want)
			})
		}
	}
	r := matombo(t, "", "check", "--help")
	assert.Contains(t, r.stdout+r.stderr, "--max-time")
}

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
	e := &env{stdin: strings.NewReader(""), stdout: os.Stdout, stderr: os.Stderr,
		onRun: func() { fmt.Fprintln(os.Stderr, helperReady) }}
	for _, c := range commands() {
		if c.name == argv[0] {
			os.Exit(c.run(e, argv[1:]))
		}
	}
	os.Exit(exitUsage)
}

// TestRunInterrupted: SIGINT or SIGTERM stops check and conform in the
// middle of a script's call; the report of what ran is still written, it
// says "stopped: interrupted", and the exit status is 1.
func TestRunInterrupted(t *testing.T) {
	dir := burnerFiles(t)
	games := filepath.Join(dir, "games")
	check := []string{"check", filepath.Join(games, "burner", "burner.lua")}
	conform := []string{"conform", "--games", games, filepath.Join(dir, "burner.yaml")}
	tests := []struct {
		name string
		sig  syscall.Signal
		args []string
		want []string
	}{
		{"check, SIGINT", syscall.SIGINT, check, []string{"check: stopped: interrupted; 1 of 1 game not checked fully (burner)\n"}},
		{"check, SIGTERM", syscall.SIGTERM, check, []string{"check: stopped: interrupted; 1 of 1 game not checked fully (burner)\n"}},
		{"conform, SIGINT", syscall.SIGINT, conform, []string{"stopped: interrupted (not run)\n", "errored; stopped: interrupted\n"}},
		{"conform, SIGTERM", syscall.SIGTERM, conform, []string{"errored; stopped: interrupted\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestRunLimitHelperProcess$")
			cmd.Env = append(os.Environ(), "MATOMBO_RUNLIMIT_ARGS="+strings.Join(tt.args, "\n"))
			var stdout strings.Builder
			cmd.Stdout = &stdout
			errPipe, err := cmd.StderrPipe()
			require.NoError(t, err)
			require.NoError(t, cmd.Start())
			t.Cleanup(func() { cmd.Process.Kill() })
			stderr := bufio.NewReader(errPipe)
			var errText strings.Builder
			for !strings.Contains(errText.String(), helperReady+"\n") {
				line, err := stderr.ReadString('\n')
				errText.WriteString(line)
				require.NoError(t, err, "the helper ends before its run starts: %s", errText.String())
			}
			require.NoError(t, cmd.Process.Signal(tt.sig))
			rest, _ := io.ReadAll(stderr)
			errText.Write(rest)
			err = cmd.Wait()
			var exit *exec.ExitError
			require.ErrorAs(t, err, &exit, "stdout:\n%s\nstderr:\n%s", stdout.String(), errText.String())
			assert.Equal(t, exitFail, exit.ExitCode(), errText.String())
			for _, w := range tt.want {
				assert.Contains(t, stdout.String(), w)
			}
			assert.Contains(t, errText.String(), "matombo "+tt.args[0]+": stopped: interrupted\n")
		})
	}
}
