package main

import (
	"strings"
	"testing"
	"time"

	"github.com/matombo/matombo/host/solve"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// On a narrow terminal (COLUMNS=40, as on a phone) the text is wrapped to
// its width and a point board's key goes below the board, so that every
// line fits; a board that cannot fit (Tsoro's 21 columns) is drawn whole,
// its lines never cut. At 80 columns the text is as at the default width.
func TestNarrowTerminal(t *testing.T) {
	for _, tc := range []struct {
		golden string
		args   []string
		input  string
		fits   bool // every line fits in 40 columns
	}{
		{"narrow-play-yemutwelve", []string{"play", "yemutwelve", "--p2", "random", "--seed", "1", "--hint", "random"}, "a1\nzz\nhint\nhelp\nboard\nquit\n", true},
		{"narrow-trace-yematatu", []string{"trace", "yematatu", "b2", "a1", "c1", "c3", "b3"}, "", true},
		{"narrow-hint-yematatu", []string{"hint", "yematatu", "--variant", "square"}, "", true},
		{"narrow-trace-tsoro", []string{"trace", "tsoro", "a10"}, "", false},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			t.Setenv("COLUMNS", "80")
			wide := matombo(t, tc.input, tc.args...)
			require.Equal(t, exitOK, wide.code, wide.stderr)
			t.Setenv("COLUMNS", "")
			assert.Equal(t, matombo(t, tc.input, tc.args...).stdout, wide.stdout, "80 columns: the default width")

			t.Setenv("COLUMNS", "40")
			r := matombo(t, tc.input, tc.args...)
			require.Equal(t, exitOK, r.code, r.stderr)
			golden(t, tc.golden, r.stdout)
			long := 0
			for _, line := range strings.Split(r.stdout, "\n") {
				if len(line) > 40 {
					long++
					assert.False(t, tc.fits, "longer than 40: %q", line)
					assert.Regexp(t, `^([a-z] |  )  +`, line, "only a board's rows and column numbers are wider")
				}
			}
			if !tc.fits {
				assert.NotZero(t, long, "the board is drawn whole")
			}
			if tc.args[0] == "play" {
				// The key below the board is drawn with the first board
				// and when asked for (board), not under every board.
				assert.Equal(t, 2, strings.Count(r.stdout, "\nKey:\n"), "the key drawn twice")
				assert.Greater(t, strings.Count(r.stdout, "\ng  ."), 3, "boards drawn")
			}
		})
	}
}

// The width of the text is the terminal's (see TestTerminalWidth), else
// COLUMNS when it is a positive number, else 78; at most 78, the width
// prose reads best at.
func TestOutputWidth(t *testing.T) {
	for _, c := range []struct {
		columns string
		want    int
	}{
		{"", 78},
		{"40", 40},
		{"1", 1},
		{"80", 78},
		{"300", 78},
		{"0", 78},
		{"-40", 78},
		{"forty", 78},
		{" 40", 78},
	} {
		t.Setenv("COLUMNS", c.columns)
		var out strings.Builder
		assert.Equal(t, c.want, outputWidth(&out), "COLUMNS=%q", c.columns)
	}
}

// A progress line drawn again and again after a carriage return fits in
// one line of the terminal, its last column left free (a full line would
// push the cursor to the next, leaving each drawing behind), and rubs out
// a longer line drawn before it.
func TestProgressLine(t *testing.T) {
	for _, c := range []struct {
		line  string
		width int
		want  string
	}{
		{"positions: 12, 3/s", 40, "positions: 12, 3/s                     "},
		{strings.Repeat("x", 50), 40, strings.Repeat("x", 39)},
		{"Goré [====] 10%", 8, "Goré [="},
		{"abc", 1, "a"},
	} {
		assert.Equal(t, c.want, progressLine(c.line, c.width), "%q at %d", c.line, c.width)
	}

	var out strings.Builder
	bar := &solveBar{w: &out, width: 40, on: true}
	bar.update(solve.Progress{Phase: "retrograde", Done: 0.5, Positions: 123456789, Elapsed: time.Second})
	assert.Equal(t, "\rretrograde [==========          ]  50% ", out.String(), "39 columns of a line of 40")
}
