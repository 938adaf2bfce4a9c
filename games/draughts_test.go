package games_test

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/solve"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// openspielGame is one game of OpenSpiel's checkers: each decision's legal
// tokens and the one played, and OpenSpiel's result.
type openspielGame struct {
	line    int
	legal   [][]string
	played  []string
	returns [2]float64
	plies   int
}

func readOpenSpielGames(t *testing.T, path string) []openspielGame {
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var out []openspielGame
	sc := bufio.NewScanner(f)
	ln := 0
	for sc.Scan() {
		ln++
		word, rest, _ := strings.Cut(sc.Text(), " ")
		switch word {
		case "game":
			out = append(out, openspielGame{line: ln})
		case "legal":
			g := &out[len(out)-1]
			g.legal = append(g.legal, strings.Fields(rest))
		case "play":
			g := &out[len(out)-1]
			g.played = append(g.played, rest)
		case "end":
			g := &out[len(out)-1]
			f := strings.Fields(rest)
			require.Len(t, f, 4, "line %d", ln)
			for i := range 2 {
				g.returns[i], err = strconv.ParseFloat(f[i], 64)
				require.NoError(t, err, "line %d", ln)
			}
			g.plies, err = strconv.Atoi(f[3])
			require.NoError(t, err, "line %d", ln)
		}
	}
	require.NoError(t, sc.Err())
	return out
}

// TestDraughtsReplaysOpenSpiel replays 100 random games that OpenSpiel's
// C++ checkers played (games/testdata/openspiel-checkers-random.txt) with
// the variant openspiel: at every decision the script lists the same
// moves as OpenSpiel, and every game ends when OpenSpiel's ends, with its
// result (wins, losses and draws by its forty-decision rule).
func TestDraughtsReplaysOpenSpiel(t *testing.T) {
	g, err := games.Library().Load("draughts", host.WithVariant("openspiel"))
	require.NoError(t, err)
	played := readOpenSpielGames(t, filepath.Join("testdata", "openspiel-checkers-random.txt"))
	require.Len(t, played, 100)
	if raceEnabled {
		played = played[:20] // the race detector makes the VM ten times slower
	}
	results := map[int]int{}
	for _, og := range played {
		require.Len(t, og.legal, og.plies, "the game of line %d", og.line)
		s := g.Start()
		for i, tok := range og.played {
			require.False(t, s.Over(), "game of line %d, decision %d: over before OpenSpiel's end", og.line, i)
			require.ElementsMatch(t, og.legal[i], s.Legal(), "game of line %d, decision %d", og.line, i)
			require.NoError(t, s.Play(tok), "game of line %d, decision %d", og.line, i)
		}
		require.True(t, s.Over(), "game of line %d: OpenSpiel's game is over", og.line)
		want := 0
		switch {
		case og.returns[0] > og.returns[1]:
			want = 1
		case og.returns[1] > og.returns[0]:
			want = 2
		}
		assert.Equal(t, want, s.Outcome().Winner, "game of line %d: %s", og.line, s.Outcome().Reason)
		results[want]++
	}
	assert.Positive(t, results[0], "the games include draws by the forty-decision rule")
	assert.Positive(t, results[1])
	assert.Positive(t, results[2])
}

// TestDraughtsFENRefused: a set-up position that is not a position of
// English draughts is refused when the game loads, naming what is wrong
// (E13).
func TestDraughtsFENRefused(t *testing.T) {
	for _, c := range []struct{ fen, err string }{
		{"X:W1", "it starts with the player to move, B or W"},
		{"B:W33", "square 33 is not a square 1-32"},
		{"B:W0", "square 0 is not a square 1-32"},
		{"B:W5-3", "square 5-3 is not a square 1-32"},
		{"B:WK", "square K is not a square 1-32"},
		{"B:W1,1", "square 1 holds two pieces"},
		{"B:B30:W5", "a man of Black stands on 30, its crowning row: write it as a king, K30"},
		{"B:W2", "a man of White stands on 2"},
		{"B:B1-13:W20", "Black has 13 pieces"},
		{"B:W21:W22", "colour W is given twice"},
		{"B:Q1", "each side starts with its colour, B or W"},
	} {
		_, err := games.Library().Load("draughts", host.WithParam("fen", c.fen))
		assert.ErrorContains(t, err, c.err, c.fen)
	}
	for _, fen := range []string{"B:W18,24,K27:B12,16", "W:W21-32:B1-12.", " B : BK1 , K2 : W32 ", "W:B5"} {
		g, err := games.Library().Load("draughts", host.WithParam("fen", fen))
		require.NoError(t, err, fen)
		s := g.Start()
		pos := s.Position()
		total := pos.Captured[0] + pos.Captured[1] + pos.Hand[0] + pos.Hand[1]
		for _, c := range pos.Counts {
			total += c
		}
		assert.Equal(t, 48, total, "%s: the pieces, crowns and captures add up", fen)
	}
}

// TestDraughtsEndgamesSolved solves small endings of English draughts set
// up in FEN (E13), without the forty-move rule, and checks them against
// Edward Lasker, Chess and Checkers: The Way to Mastership (1918), Chapter
// "Elementary tactics": in Diagram 88 (a king each, White on 32, Black on
// 26) "White wins by playing 32-27" when White moves, while Black to move
// "would have gained the opposition by 26-31" and drawn; in Diagram 89 two
// White kings (19, 23) force the win against a king in the double corner
// (32). Lasker numbers the squares as the rules page does, Black on 1-12.
func TestDraughtsEndgamesSolved(t *testing.T) {
	for _, c := range []struct {
		fen   string
		value solve.Value // for Player 2, White
		plies int
	}{
		{"W:WK32:BK26", solve.Win, 9},
		{"B:WK32:BK26", solve.Draw, -1},
		{"W:WK19,K23:BK32", solve.Win, 15},
		{"B:WK19,K23:BK32", solve.Win, 16},
	} {
		if raceEnabled && strings.Count(c.fen, "K") > 2 {
			continue // 17,000 positions each: the race detector makes them slow
		}
		g, err := games.Library().Load("draughts", host.WithParam("fen", c.fen), host.WithParam("quiet_moves", 0))
		require.NoError(t, err)
		sol, err := solve.Solve(context.Background(), g)
		require.NoError(t, err, c.fen)
		open := sol.Opening()
		assert.Equal(t, c.value, open.Value.For(2, open.ToMove), "%s for White", c.fen)
		assert.Equal(t, c.plies, open.Plies, "%s: plies to the end", c.fen)
		require.NoError(t, sol.Check(context.Background(), g))
	}
}

// TestDraftiFENRefused: a set-up position of draughts with flying kings
// that is not one is refused when the game loads (D14).
func TestDraftiFENRefused(t *testing.T) {
	for _, c := range []struct {
		fen, err string
		opts     []host.Option
	}{
		{"X:W1", "it starts with the player to move, W or B", nil},
		{"W:W33", "square 33 is not a square 1-32", nil},
		{"W:W51", "square 51 is not a square 1-50", []host.Option{host.WithVariant("international")}},
		{"W:W2", "a man of White stands on 2, its crowning row", nil},
		{"W:B30", "a man of Black stands on 30, its crowning row", nil},
		{"W:W20,K20", "square 20 holds two pieces", nil},
		{"W:W5-17", "White has 13 pieces; each player has at most 12", nil},
		{"W:B1:B2", "colour B is given twice", nil},
	} {
		_, err := games.Library().Load("drafti", append(c.opts, host.WithParam("fen", c.fen))...)
		assert.ErrorContains(t, err, c.err, c.fen)
	}
}
