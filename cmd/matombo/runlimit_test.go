package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
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
