package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host"
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
		// Kalah's stores, which the board draws without their names, are
		// named in the legend with their sides and owners; a sowing that
		// ends in the mover's store gives another turn: "to play again".
		{"play-kalah-shipped", []string{"kalah", "--p2", "human"}, "a3\nquit\n"},
		// A placing that makes a mill: the same player removes a piece,
		// "to play again", though the script has no prompt for it.
		{"play-yemutwelve-mill", []string{"yemutwelve", "--p2", "human"}, "c4 g7 e5 a7 d5 d7\nxe5\nquit\n"},
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
	assert.Contains(t, r.stdout, "Game over after 6 decisions: Player 2 (North) wins (three on a line: a1 b1\nc1).\nRecord: c2 b1 c3 c1 b3 a1\n")
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

// TestPlayQuitWords checks that each word for quit ends the session
// with the record, in any case (a phone or a caps lock writes "Quit"),
// and that a legal token is played before any command.
func TestPlayQuitWords(t *testing.T) {
	for _, word := range []string{"quit", "q", "exit", "Quit", "Q", "EXIT"} {
		t.Run(word, func(t *testing.T) {
			r := matombo(t, "b2\n"+word+"\nc1\n", "play", "yematatu", "--p2", "human")
			require.Equal(t, exitOK, r.code, r.stderr)
			assert.Contains(t, r.stdout, "P2> "+word+"\nQuit after 1 decision.\nRecord: b2\n")
			assert.NotContains(t, r.stdout, "plays c1")
		})
	}
}

// The session's commands are read in any case, as quit is: "Help" lists
// them, "LEGAL" lists the legal tokens, "Undo" takes back.
func TestPlayCommandsAnyCase(t *testing.T) {
	r := matombo(t, "Help\nLEGAL\nb2\nUndo\nRecord\n", "play", "yematatu", "--p2", "human")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, "P1> Help\n"+playHelp(maxWidth))
	assert.Contains(t, r.stdout, "P1> LEGAL\nLegal tokens: a1 b1 b2 b3 c1 c2 c3\n")
	assert.Contains(t, r.stdout, "P2> Undo\nUndone: b2.\n")
	assert.Contains(t, r.stdout, "P1> Record\nRecord: (no decisions yet)\n")
	assert.NotContains(t, r.stdout, "is not a legal move")
}

// hint suggests, for the person to move, the move the --hint player
// would play: the move `matombo move` gives for the same record and spec.
func TestPlayHint(t *testing.T) {
	for _, tt := range []struct {
		game, typed, record string
	}{
		{"kalah", "hint\nquit\n", ""},
		{"yematatu", "b2\nhint\nquit\n", "b2"},
		{"draughts", "11-15\nhint\nquit\n", "11-15"},
	} {
		t.Run(tt.game, func(t *testing.T) {
			const spec = "alphabeta:depth=4,seed=7" // its own seed: move and play seed a spec without one differently
			r := matombo(t, tt.typed, "play", tt.game, "--p2", "human", "--hint", spec)
			require.Equal(t, exitOK, r.code, r.stderr)
			args := []string{"move", tt.game, "--player", spec}
			if tt.record != "" {
				args = append(args, tt.record)
			}
			m := matombo(t, "", args...)
			require.Equal(t, exitOK, m.code, m.stderr)
			want := "> hint\nHint: " + strings.TrimSpace(m.stdout) + " (what " + spec + " would play).\n"
			assert.Contains(t, r.stdout, want)
		})
	}
	r := matombo(t, "", "play", "kalah", "--hint", "nobody")
	assert.Equal(t, exitUsage, r.code)
	assert.Contains(t, r.stderr, `--hint: player "nobody"`)
}

// A hint player that cannot be made, or that fails, is said and the
// session goes on (perfect play of a game too large to solve as it
// starts would otherwise end it).
func TestPlayHintFailureSaid(t *testing.T) {
	g, err := games.Library().Load("yematatu")
	require.NoError(t, err)
	var out bytes.Buffer
	ss := &session{e: &env{stdout: &out, stderr: io.Discard, width: maxWidth}, g: g, states: []*host.State{g.Start()}, hints: "perfect", ctx: context.Background(),
		hintErr: errors.New("perfect play of yematatu needs its solution: too large")}
	ss.hint()
	assert.Equal(t, "No hint: perfect play of yematatu needs its solution: too large\n", out.String())
	out.Reset()
	ss.hinter, ss.hintErr = failingPlayer{}, nil
	ss.hint()
	assert.Equal(t, "No hint: the player broke\n", out.String())
}

// failingPlayer is a computer player that always fails.
type failingPlayer struct{}

func (failingPlayer) Choose(context.Context, *host.State) (host.Move, error) {
	return host.NoMove, errors.New("the player broke")
}

// The hands are shown to players only where the script shows them, under
// the script's label: Tsoro Yematatu's pieces to place are, in hand;
// draughts' supply of crowns (hand_label = false) is not, though trace,
// for script authors, shows both; a game of Tic-tac-toe whose marks are
// "à poser" shows them so, with a capital in any alphabet, and so does
// a Kalah whose score is "été".
func TestPlayHands(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"luattt/luattt.lua": strings.Replace(tictactoeSource(t), "players = 2,", `players = 2, hand_label = "à poser",`, 1),
		"ete/ete.lua": strings.Replace(strings.Replace(kalahSource(t), `name = "kalah"`, `name = "ete"`, 1),
			`score_label = "seeds"`, `score_label = "été"`, 1),
	})
	tests := []struct {
		game        string
		play, trace string // the hands' line, "" for none
	}{
		{"yematatu", "In hand:  Player 1 3, Player 2 3\n", "In hand:  Player 1 3, Player 2 3\n"},
		{"draughts", "", "In hand:  Player 1 12, Player 2 12\n"},
		{"luattt", "À poser:  Player 1 5, Player 2 4\n", "À poser:  Player 1 5, Player 2 4\n"},
		{"ete", "Été:      Player 1 0, Player 2 0\n", "Été:      Player 1 0, Player 2 0\n"},
	}
	for _, tt := range tests {
		t.Run(tt.game, func(t *testing.T) {
			r := matombo(t, "quit\n", "play", tt.game, "--games", dir, "--p2", "human")
			require.Equal(t, exitOK, r.code, r.stderr)
			if tt.play == "" {
				assert.NotContains(t, r.stdout, "In hand:")
			} else {
				assert.Contains(t, r.stdout, tt.play)
			}
			r = matombo(t, "", "trace", tt.game, "--games", dir)
			require.Equal(t, exitOK, r.code, r.stderr)
			assert.Contains(t, r.stdout, tt.trace)
		})
	}
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

// An illegal token gets a sentence naming it and the legal tokens, and the
// prompt again; the rest of its line is dropped.
func TestPlayIllegalToken(t *testing.T) {
	r := matombo(t, "a9 a1\nquit\n", "play", "--games", kalahGames, "kalah", "--p2", "human")
	require.Equal(t, exitOK, r.code)
	assert.Contains(t, r.stdout, "P1> a9 a1\n\"a9\" is not a legal move here: a9 is not a site of this board (its sites: a1\nto a7, b1 to b7); legal tokens: a1 a2 a3 a4 a5 a6\nDropped the rest of the line: a1\nP1> quit\nQuit after 0 decisions.\n")

	// What is read is echoed with its control characters escaped, so that
	// an escape sequence in a piped file does not reach the terminal.
	r = matombo(t, "\x1b[31mzz\ndraw\n\x1b[2Jno\nquit\n", "play", "yematatu", "--p2", "human")
	require.Equal(t, exitOK, r.code)
	assert.Contains(t, r.stdout, "P1> \\x1b[31mzz\n\"\\x1b[31mzz\" is not a legal move here")
	assert.Contains(t, r.stdout, "P2> \\x1b[2Jno\n")
	assert.NotContains(t, r.stdout, "\x1b")

	// The rest of a line after an undo is dropped too, and said so.
	r = matombo(t, "b2 undo c1 c3\nrecord\nquit\n", "play", "yematatu", "--p2", "human")
	require.Equal(t, exitOK, r.code)
	assert.Contains(t, r.stdout, "Undone: b2.\nDropped the rest of the line: c1 c3\n")
	assert.Contains(t, r.stdout, "Record: (no decisions yet)\n")

	// A long token is quoted in part, as the error's own text quotes it.
	r = matombo(t, strings.Repeat("x", 5000)+"\nquit\n", "play", "--games", kalahGames, "kalah", "--p2", "human")
	require.Equal(t, exitOK, r.code)
	assert.Contains(t, r.stdout, "...\n(3978 more bytes cut) is not a legal move here: it fits none of the ways")
	assert.NotContains(t, r.stdout, strings.Repeat("x", 1100)+`"`)
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

// What a ply did, in words, from its effects: the sowing, its relays and
// its end, the captures, holes changing hands; nothing for a decision
// that does none of it.
func TestPlyText(t *testing.T) {
	for _, tc := range []struct {
		game     string
		variants []string
		record   []string
		want     string
	}{
		{"tsoro", []string{"4x8"}, []string{"a1"}, "sowed 2 from a1, picking up again at a3 and a6, ending in b8"},
		{"tsoro", []string{"4x8"}, []string{"a1", "d1", "a2", "d7", "continue", "a7"}, "sowed 4 from a7, picking up again at b6, ending in b4; captured 4 (1 from c4, 3 from d4)"},
		{"tsoro", []string{"4x8"}, []string{"a1", "d1", "a2", "d7", "continue", "a7", "xd3"}, "captured 3 from d3"},
		{"tsoro", []string{"4x8"}, []string{"a3", "stop"}, ""},
		{"gore", nil, []string{"a2", "b4", "a1", "b2", "a4", "b4", "a1", "b1", "a4", "b3", "a2", "b1", "a1", "b4", "a2",
			"b2", "a3", "b2", "a1", "b4", "a4", "b1", "a2", "b2", "a2", "b3", "a3", "b1", "a3", "offer:b2,b4", "accept"}, "b2 and b4 are now Player 1's"},
		// A capture into a store (Kalah's K4) is the counters taken and
		// dropped in the store, not a relay's pick-ups.
		{"kalah", nil, []string{"a3", "a6", "b1", "a5", "b5", "a2", "a1", "a6", "b1", "b4", "a4", "b3", "a4", "b4"}, "sowed 1 from b4, ending in b3; captured 6 (5 from a3, 1 from b3) into b7"},
		{"kalah", nil, []string{"a3"}, "sowed 4 from a3, ending in a7"},
		{"yematatu", nil, []string{"b2"}, ""},
		{"draughts", nil, []string{"11-15", "22-18", "15x22"}, "captured the piece on 18"},
		// Drafti's pieces jumped come off at the end of the capture.
		{"drafti", nil, []string{"24-20", "9-13", "22-18", "11-16", "20x11", "7x16", "27-24", "16-19", "24x15", "10x19", "23x16",
			"12x19", "26-22", "6-9", "30-26", "2-7", "31-27", "19-24", "27x20", "9-14", "18x9", "13x6", "22-18", "5-9", "26-23",
			"8-12", "28-24", "9-14", "18x9", "x2", "x11"}, "captured the pieces on 14, 6 and 7"},
	} {
		g, err := games.Library().Load(tc.game, host.WithVariant(tc.variants...))
		require.NoError(t, err)
		s := g.Start()
		for _, tok := range tc.record {
			m, err := s.ParseMove(tok)
			require.NoError(t, err)
			require.NoError(t, s.ApplyRecorded(m))
		}
		effects, recorded := s.Effects()
		require.True(t, recorded)
		assert.Equal(t, tc.want, plyText(g, effects), "%s %v", tc.game, tc.record)
	}
}

// resign and draw: the person to move resigns, or offers a draw that the
// other person accepts or declines, and a computer player declines.
func TestPlayResignAndDraw(t *testing.T) {
	r := matombo(t, "b2\nresign\n", "play", "yematatu", "--p2", "human")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, "Player 2 (North) resigns.\n\nGame over after 1 decision: Player 1 (South) wins (player 2 resigned).\nRecord: b2\n")

	r = matombo(t, "b2\ndraw\nno\nc1\ndraw\nyes\n", "play", "yematatu", "--p2", "human")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, "Player 2 (North) offers a draw. Player 1 (South), do you accept it? (yes or no)\nP1> no\nPlayer 1 (South) declines: Player 2 (North) plays on.\n")
	assert.Contains(t, r.stdout, "Player 2 (North) accepts the draw.\n\nGame over after 2 decisions: a draw (drawn by agreement).\nRecord: b2 c1\n")

	r = matombo(t, "draw\nquit\n", "play", "yematatu", "--p2", "random", "--seed", "1")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, "Player 1 (South) offers a draw; Player 2 (North), a computer player, declines and plays on.\n")
}

// A turn of several decisions typed as one word plays each of them: in
// Tsoro Yemutwelve, the placing that makes a mill and its removal.
func TestPlayTurnWord(t *testing.T) {
	r := matombo(t, "a1 g7 a4 g4 a7xg4\nrecord\na7xg5\nquit\n", "play", "yemutwelve", "--p2", "human")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, "Player 1 (South) plays a7.\n")
	assert.Contains(t, r.stdout, "Player 1 (South) plays xg4: captured the piece on g4.\n")
	assert.Contains(t, r.stdout, "Record: a1 g7 a4 g4 a7 xg4\n")
	assert.Contains(t, r.stdout, `"a7xg5" is not a legal move here`)
}

// A refused token names the rule it breaks, from the script's why: in
// draughts, a move from a square without a piece of the mover's, and a
// step while the capturing piece must jump again (E7).
func TestPlayWhyDraughts(t *testing.T) {
	r := matombo(t, "11-15 22-18 14-17\nquit\n", "play", "draughts", "--p2", "human")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, `"14-17" is not a legal move here: 14 holds no piece of yours; `)
}

// The examples of the opening words stop at the script's first failing
// call: a script whose moves fail (an error, a runaway loop) was tried a
// thousand times, each call up to its whole budget, before the first
// prompt when a kind of its moves was never listed.
func TestExampleMovesStopAtAFailingCall(t *testing.T) {
	for _, tc := range []struct{ name, play string }{
		{"error", `error("this move cannot be played")`},
		{"runaway", `while true do end`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			require.NoError(t, os.Mkdir(filepath.Join(dir, "twokinds"), 0o755))
			script := `local m = matombo
m.declare { name = "twokinds" }
m.board { rows = { "a" }, columns = 2 }
local A = m.move("a", "{1}")
m.move("b", "b{1}")
return {
  setup = function() m.set_count("a1", 1) end,
  legal = function(p) m.emit(A, "a1") end,
  play = function(p) print("play called") ` + tc.play + ` end,
}
`
			require.NoError(t, os.WriteFile(filepath.Join(dir, "twokinds", "twokinds.lua"), []byte(script), 0o644))
			lib := host.NewLibrary()
			require.NoError(t, lib.AddDir(dir))
			var log strings.Builder
			g, err := lib.Load("twokinds", host.WithLog(&log), host.WithLimits(host.Limits{Steps: 100_000}))
			require.NoError(t, err)
			seen := exampleMoves(g.Start())
			assert.Len(t, seen, 1, "the kind listed is found")
			assert.Equal(t, 1, strings.Count(log.String(), "play called"), "the failing play is tried once")
		})
	}
}

// A token the game's script fails on is said, and the session goes on
// from the position as it was (it used to end, the record with it); a
// computer's move that fails ends the session with the record said.
func TestPlayScriptFailure(t *testing.T) {
	dir := filepath.Join("..", "..", "host", "testdata", "standin") // stuck: Player 2's play fails
	tests := []struct {
		name, p2, stdin string
		code            int
		want            []string
	}{
		{"a person's token", "human", "a1\na1 a1\nundo\nquit\n", exitOK, []string{
			"P2> a1 a1 The game's script failed playing a1: " + filepath.Join(dir, "stuck", "stuck.lua") + ":10: player 2 cannot move (in play). The position is as it was: type another token, undo or quit. Dropped the rest of the line: a1 P2> undo Undone: a1.",
			"Quit after 0 decisions.",
		}},
		{"a computer's move", "random", "a1\n", exitFail, []string{
			"The session ends after 1 decision: a computer's move failed. Record: a1",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := matombo(t, tt.stdin, "play", "--games", dir, "stuck", "--p2", tt.p2)
			assert.Equal(t, tt.code, r.code, r.stderr)
			words := strings.Join(strings.Fields(r.stdout), " ") // as read, whatever the wrapping
			for _, w := range tt.want {
				assert.Contains(t, words, w)
			}
		})
	}
}

// kalahSource is the text of the shipped Kalah script.
func kalahSource(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "games", "kalah", "kalah.lua"))
	require.NoError(t, err)
	return string(b)
}

// The legend says what the board's marks mean in the script's words, and
// where the board does not show it, which sites a tag is on: Kalah's
// stores, drawn at the ends without their names, and Bao's front rows,
// drawn without a mark.
func TestMarkWords(t *testing.T) {
	for _, tt := range []struct {
		game, want string
	}{
		{"kalah", "[n] a store (a7 on the right, Player 1's; b7 on the left, Player 2's): the seeds a player has banked"},
		{"bao", "a front row (rows b and c): captures are made from it, and a player whose front row is empty loses"},
		{"tsoro", "* a head: a lap that ends on your own occupied head may sow on or stop there"},
		{"oware", ""},
	} {
		t.Run(tt.game, func(t *testing.T) {
			g, err := games.Library().Load(tt.game)
			require.NoError(t, err)
			assert.Equal(t, tt.want, markWords(g, g.Start()))
		})
	}
}

// The @ marks of a board of counts are said where the board shows them:
// Goré's hole a2, traded to Player 2, is drawn 6@2.
func TestOwnerWords(t *testing.T) {
	trade := "a2 b4 a1 b4 a3 b1 a3 b1 a4 b4 a2 b1 a1 b3 a3 b1 a4 b3 a3 b4 a3 b2 a2 b2 a4 b3 a2 b1 offer:a2 accept"
	for _, tt := range []struct {
		game, tokens, want string
	}{
		{"gore", "", ""},
		{"gore", trade, "@2 after a count: the hole is now Player 2's"},
		{"kalah", "a3 a1", ""},
		{"yematatu", "b2", ""}, // pieces: the owner is what a point shows
	} {
		t.Run(tt.game+" "+tt.tokens, func(t *testing.T) {
			g, err := games.Library().Load(tt.game)
			require.NoError(t, err)
			s := g.Start()
			for _, tok := range strings.Fields(tt.tokens) {
				m, err := s.ParseMove(tok)
				require.NoError(t, err)
				require.NoError(t, s.ApplyRecorded(m))
			}
			assert.Equal(t, tt.want, ownerWords(s, g.Start()))
			if tt.want != "" {
				assert.Contains(t, s.Diagram(), "6@2")
			}
		})
	}
	r := matombo(t, trade+"\n", "play", "gore", "--p2", "human")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, "a    16  6@2 8   2\n     1   2   3   4\n@2 after a count: the hole is now Player 2's.\nCaptured:")
}

// A label starts with a capital in any alphabet, and an empty one stays
// empty.
func TestCapitalized(t *testing.T) {
	for in, want := range map[string]string{"": "", "seeds": "Seeds", "été": "Été", "to place": "To place", "Seeds": "Seeds"} {
		assert.Equal(t, want, capitalized(in), "%q", in)
	}
}

// The session names the variants given by their titles, as players read
// them, after the game's label.
func TestPlayVariantTitles(t *testing.T) {
	r := matombo(t, "quit\n", "play", "yemutwelve", "--variant", "nine-mens-morris", "--variant", "flying", "--p2", "human")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.True(t, strings.HasPrefix(r.stdout, "Tsoro Yemutwelve [yemutwelve: board=plain pieces=9 flying=true\n  morabaraba=false]\nVariants: Nine men's morris, Flying with three.\nPlayer 1 (South): human."), r.stdout)
	r = matombo(t, "quit\n", "play", "yemutwelve", "--param", "flying=true", "--p2", "human")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.NotContains(t, r.stdout, "Variant")
}

// The session's opening words show each kind of move by an example the
// game can make; a kind that no game met makes is shown by its form,
// naming no move (before, its example was made of the board's first
// sites: a jump a1xa2 that could never be played).
func TestMoveFormsNameNoImpossibleMove(t *testing.T) {
	jumping := strings.Replace(errGame, `local SOW = m.move("sow", "{1}")`,
		`local SOW = m.move("sow", "{1}", { doc = "Sow from {1}" })
local JUMP = m.move("jump", "{from}x{to}", { doc = "Jump from {from} to {to}" })`, 1)
	require.NotEqual(t, errGame, jumping)
	dir := writeFiles(t, map[string]string{"mini/mini.lua": jumping})
	r := matombo(t, "quit\n", "play", "mini", "--games", dir, "--p2", "human")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, "Moves are typed a1 (sow from a1), <from>x<to> (jump from <from> to <to>).")
}
