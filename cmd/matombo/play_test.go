package main

import (
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Piped play of whole games and sessions, with the session commands.
func TestPlayGolden(t *testing.T) {
	for _, tc := range []struct {
		golden string
		args   []string
		input  string
	}{
		// Two humans play a whole game of Tsoro Yematatu, with every
		// session command and an illegal token on the way.
		{"play-yematatu-humans", []string{"yematatu", "--p2", "human"},
			"help\nc2\nlegal\nzz\nb1 c3\nundo\nrecord\n\nc3 c2\nc1 b3 a1\n"},
		// Against a random player: undo goes back to the human's own last
		// decision; quit ends the session with the record.
		{"play-yematatu-random", []string{"yematatu", "--p2", "random", "--seed", "3"},
			"undo\nb2\nundo\nb2\nrecord\nquit\n"},
		// Two random players need no input.
		{"play-yematatu-random-random", []string{"yematatu", "--p1", "random", "--p2", "random", "--seed", "5"}, ""},
		// The end of the input ends the session.
		{"play-kalah-eof", []string{"kalah", "--games", kalahGames, "--p2", "human"}, "a3\na1\n"},
		// A random South against a human North, ending with the input.
		{"play-kalah-random-south", []string{"--games", kalahGames, "kalah", "--p1", "random", "--p2", "human", "--seed", "2", "--param", "seeds=3"},
			"b1\nb2\nb3\nlegal\n"},
		// Tsoro on the small board, as a newcomer starts it (with an
		// iteration budget instead of the default time, to be repeatable).
		{"play-tsoro-4x6", []string{"tsoro", "--variant", "4x6", "--p2", "mcts:iterations=300", "--seed", "1"}, "a1\nstop\nrecord\nquit\n"},
		// Against the search players, deterministic with a seed and a budget.
		{"play-yematatu-mcts", []string{"yematatu", "--p2", "mcts:iterations=500", "--seed", "2"}, "b2\nc1\nundo\nc3\nrecord\nquit\n"},
		{"play-yematatu-alphabeta", []string{"yematatu", "--p1", "alphabeta:depth=4", "--p2", "human", "--seed", "1"}, "c2\nb3\nrecord\nquit\n"},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			r := matombo(t, tc.input, append([]string{"play"}, tc.args...)...)
			require.Equal(t, exitOK, r.code, r.stderr)
			assert.Empty(t, r.stderr)
			golden(t, tc.golden, r.stdout)
		})
	}
}

// A whole game between two humans ends with the result and the record.
func TestPlayWholeGame(t *testing.T) {
	r := matombo(t, "c2\nb1\nc3\nc1\nb3\na1\n", "play", "yematatu", "--p2", "human")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, "Game over after 6 decisions: Player 2 (North) wins (three on a line: a1 b1 c1).\nRecord: c2 b1 c3 c1 b3 a1\n")
}

// Undo takes back one decision between humans, and back to the human's
// own decision against a random player.
func TestPlayUndo(t *testing.T) {
	r := matombo(t, "c2\nb1\nundo\nundo\nundo\nrecord\nquit\n", "play", "yematatu", "--p2", "human")
	require.Equal(t, exitOK, r.code)
	assert.Contains(t, r.stdout, "Undone: b1.\n")
	assert.Contains(t, r.stdout, "Undone: c2.\n")
	assert.Contains(t, r.stdout, "Nothing to undo.\n")
	assert.Contains(t, r.stdout, "Record: (no decisions yet)\n")

	r = matombo(t, "b2\nundo\nrecord\nquit\n", "play", "yematatu", "--p2", "random", "--seed", "3")
	require.Equal(t, exitOK, r.code)
	assert.Contains(t, r.stdout, "Player 2 (North) plays b1.\n")
	assert.Contains(t, r.stdout, "Undone: b2 b1.\n")
	assert.Contains(t, r.stdout, "Record: (no decisions yet)\n")
}

// Random players are deterministic for a seed.
func TestPlaySeed(t *testing.T) {
	args := []string{"play", "tsoro", "--variant", "4x6", "--p1", "random", "--p2", "random", "--seed", "42"}
	a, b := matombo(t, "", args...), matombo(t, "", args...)
	require.Equal(t, exitOK, a.code, a.stderr)
	assert.Equal(t, a.stdout, b.stdout)
	assert.Contains(t, a.stdout, "Random seed 42.")
	c := matombo(t, "", "play", "tsoro", "--variant", "4x6", "--p1", "random", "--p2", "random", "--seed", "43")
	assert.NotEqual(t, a.stdout, c.stdout)
	assert.Contains(t, a.stdout, "Game over after ")
	assert.Contains(t, a.stdout, "\nCaptured: Player 1 ")
	last := a.stdout[strings.LastIndex(a.stdout, "Record: "):]
	assert.Equal(t, 1, strings.Count(last, "\n"))
}

// An illegal token gets one line naming it and the legal tokens, and the
// prompt again; the rest of its line is dropped.
func TestPlayIllegalToken(t *testing.T) {
	r := matombo(t, "a9 a1\nquit\n", "play", "--games", kalahGames, "kalah", "--p2", "human")
	require.Equal(t, exitOK, r.code)
	assert.Contains(t, r.stdout, "P1> a9 a1\nillegal token \"a9\": a9 is not a site of this board (its sites: a1 to a7, b1 to b7); legal tokens: a1 a2 a3 a4 a5 a6; \"a9\" is not a legal token here\nP1> quit\nQuit after 0 decisions.\n")
}

// A line of 2 MB is refused with a message naming it, and the session
// goes on with the next line (it used to end silently as if the input had
// ended).
func TestPlayLongLine(t *testing.T) {
	input := strings.Repeat("x", 2<<20) + "\nb2\nrecord\nquit\n"
	r := matombo(t, input, "play", "yematatu", "--p2", "human")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, "line 1 of the input is longer than 64 KiB: ignored; type a token, or help")
	assert.Contains(t, r.stdout, "Player 1 (South) plays b2.")
	assert.Contains(t, r.stdout, "Record: b2")
	assert.NotContains(t, r.stdout, "xxxx", "the long line is not echoed")
	assert.Less(t, len(r.stdout), 10_000)

	// A last line without its end, and CRLF line ends, are read as lines.
	r = matombo(t, "b2\r\nrecord", "play", "yematatu", "--p2", "human")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, "Record: b2\n")
}

func TestLineReader(t *testing.T) {
	lr := newLineReader(strings.NewReader("ab\n"+strings.Repeat("y", 10)+"\ncd\r\n\nend"), 4)
	var got []string
	for {
		line, err := lr.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			got = append(got, "error: "+err.Error())
			continue
		}
		got = append(got, line)
	}
	assert.Equal(t, []string{"ab", "error: line 2 of the input is longer than 4 bytes", "cd", "", "end"}, got)
}

// A turn of several decisions typed as one word plays each of them: in
// Tsoro Yemutwelve, the placing that makes a mill and its removal.
func TestPlayTurnWord(t *testing.T) {
	r := matombo(t, "a1 g7 a4 g4 a7xg4\nrecord\na7xg5\nquit\n", "play", "yemutwelve", "--p2", "human")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, "Player 1 (South) plays a7.\n")
	assert.Contains(t, r.stdout, "Player 1 (South) plays xg4.\n")
	assert.Contains(t, r.stdout, "Record: a1 g7 a4 g4 a7 xg4\n")
	assert.Contains(t, r.stdout, `illegal token "a7xg5"`)
}
