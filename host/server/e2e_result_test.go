package server

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/host"
)

// TestBrowserResultWords: each way the server ends a game (the rules with
// their reason, a resignation, a draw agreed, an abort) reads on the page
// as written for a player: a headline, then why in sentences with a
// capital (the rules' reason as the game's script wrote it, its first
// letter a capital; the server's ends in the page's own words, naming
// the player). And every kind of end the page knows has such words, for a
// game of two and of more seats, with a reason or without.
func TestBrowserResultWords(t *testing.T) {
	t.Parallel() // a browser of its own; the waits are for the page, not the processor
	ts := newTestServer(t, newMemStore())
	b := newBrowser(t, ts.http.URL)
	seatPost := func(id, what string, ply int, seat string, accept *bool) {
		t.Helper()
		body := map[string]any{"seat": seat, "ply": ply}
		if accept != nil {
			body["accept"] = *accept
		}
		status, _, msg := ts.post("/api/games/"+id+"/"+what, body)
		require.Equal(t, http.StatusOK, status, "%s: %s", what, msg)
	}
	yes := true
	for _, c := range []struct {
		name, method string
		end          func(g testGame, s1, s2 string)
		head, why    string
	}{
		{name: "rules", method: "rule", head: "Player 1 wins", why: "Three in a row",
			end: func(g testGame, s1, s2 string) { ts.play(g.ID, []string{s1, s2}, "a1", "b1", "a2", "b2", "a3") }},
		{name: "resignation", method: "resignation", head: "Player 2 wins", why: "Player 1 resigned.",
			end: func(g testGame, s1, s2 string) {
				ts.play(g.ID, []string{s1, s2}, "a1", "b1")
				seatPost(g.ID, "resign", 2, s1, nil)
			}},
		{name: "agreement", method: "agreement", head: "Draw by agreement",
			end: func(g testGame, s1, s2 string) {
				ts.play(g.ID, []string{s1, s2}, "a1", "b1")
				seatPost(g.ID, "draw", 2, s2, nil)
				seatPost(g.ID, "draw", 2, s1, &yes)
			}},
		{name: "abort", method: "aborted", head: "Game aborted", why: "Player 2 aborted the game before every player had moved.",
			end: func(g testGame, s1, s2 string) {
				ts.play(g.ID, []string{s1, s2}, "a1")
				seatPost(g.ID, "abort", 1, s2, nil)
			}},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := ts.create(`{"game": "tictactoe", "hold": [1, 2]}`)
			s1, s2 := ts.both(g)
			c.end(g, s1, s2)
			got := ts.get(g.ID)
			require.NotNil(t, got.Result)
			require.Equal(t, c.method, got.Result.Method)
			tb := openAt(b, t, viewports[0], ts.http.URL, link(g, 0))
			tb.waitFor(`document.getElementById("status").dataset.over === "true"`)
			assert.Equal(t, c.method, tb.eval(`document.getElementById("status").dataset.method`))
			why := tb.text("#status .reason")
			assert.Equal(t, c.why, why)
			assert.Equal(t, strings.TrimSpace(c.head+" "+c.why), tb.text("#status"))
		})
	}

	// Every kind of end, in a game of two and of three seats, with the
	// rules' reason and without: a headline and sentences, none of the
	// code's words.
	tb := openAt(b, t, viewports[0], ts.http.URL, link(ts.create(`{"game": "tictactoe"}`), 0))
	tb.eval(`(import("/static/words.js").then((m) => (window.words = m)), "")`)
	tb.waitFor(`window.words !== undefined`)
	out := tb.eval(`(() => {
		const lines = [];
		for (const method of Object.keys(window.words.endings)) {
			for (const seats of [2, 3]) {
				for (const reason of ["", "three in a row", "player 1 aborted the game", "player 3 ran out of time"]) {
					for (const winner of [0, 1]) {
						const scores = Array.from({ length: seats }, (_, i) => (winner ? (i + 1 === winner ? 1 : 0) : seats === 3 && i === 2 ? 0 : 1 / (seats - 1)));
						const e = window.words.ending({ winner, method, reason, notes: method === "rule" ? ["without glory"] : [], scores });
						lines.push([method, seats, JSON.stringify(reason), winner, "|", e.winner ? "Player " + e.winner + e.head : e.head, "|", e.why].join(" "));
					}
				}
			}
		}
		return lines.join("\n");
	})()`)
	lines := strings.Split(out, "\n")
	require.Greater(t, len(lines), 8*2*4*2-1)
	codeWords := regexp.MustCompile(`no moves|resignation|method|\brule\b|\{p\}|undefined|null|NaN|(^|[^A])player \d`)
	for _, line := range lines {
		parts := strings.Split(line, " | ")
		require.Len(t, parts, 3, line)
		head, why := parts[1], parts[2]
		assert.Regexp(t, `^\p{Lu}`, head, "the headline has a capital: %s", line)
		if why != "" {
			assert.Regexp(t, `^\p{Lu}`, why, "why has a capital: %s", line)
		}
		assert.NotRegexp(t, codeWords, head, "the headline says no code word: %s", line)
		assert.NotRegexp(t, codeWords, why, "why says no code word: %s", line)
	}

	// The result's seat names the player, whatever the reason's words;
	// a game stored before results had one is read from them.
	assert.Equal(t, "Player 3 resigned.", tb.eval(`window.words.ending({ winner: 1, method: "resignation", reason: "player 2 resigned", notes: [], scores: [1, 0, 0], seat: 3 }).why`))
	assert.Equal(t, "Player 2 resigned.", tb.eval(`window.words.ending({ winner: 1, method: "resignation", reason: "player 2 resigned", notes: [], scores: [1, 0] }).why`))
}

// endsNext holds when Player 1 is to move and one of their moves ends the
// game.
func endsNext(s *host.State) bool {
	if s.ToMove() != 1 {
		return false
	}
	return endingMove(s) != ""
}

// endingMove is the token of a move that ends the game from s, "" when
// none does.
func endingMove(s *host.State) string {
	for _, m := range s.Moves() {
		c := s.Clone()
		if c.Apply(m) == nil && c.Over() {
			return s.Game().Token(m)
		}
	}
	return ""
}

// TestBrowserEndInView: on a phone, Tsoro's long board stands upright,
// about a screen long, and a player who moves at its far end has the
// status line out of view. When the game ends, by the last move or by a
// resignation, the page brings the result into view: who won, and why,
// is not left above the screen.
func TestBrowserEndInView(t *testing.T) {
	t.Parallel() // a browser of its own; the waits are for the page, not the processor
	ts := newTestServer(t, newMemStore())
	b := newBrowser(t, ts.http.URL)
	rec := recordUntil(t, "tsoro", nil, endsNext)
	g0, err := lib().Load("tsoro")
	require.NoError(t, err)
	s := g0.Start()
	for _, tok := range rec {
		require.NoError(t, s.Play(tok))
	}
	last := endingMove(s)
	for _, end := range []string{"last move", "resignation"} {
		t.Run(end, func(t *testing.T) {
			g := ts.create(`{"game": "tsoro", "hold": [1, 2]}`)
			s1, s2 := ts.both(g)
			ts.play(g.ID, []string{s1, s2}, rec...)
			tb := openAt(b, t, viewports[1], ts.http.URL, fmt.Sprintf("/g/%s#player=1&seat=%s", g.ID, s1))
			tb.waitFor(`document.getElementById("status").dataset.myturn === "true"`)
			tb.eval(`(() => { document.querySelector("#board svg").scrollIntoView({ block: "end" }); return "" })()`)
			require.False(t, tb.inView("#status"), "the board's far end in view, the status above it")
			if end == "last move" {
				ts.play(g.ID, []string{s1, s2}, last)
			} else {
				status, _, body := ts.post("/api/games/"+g.ID+"/resign", map[string]any{"seat": s2, "ply": len(rec)})
				require.Equal(t, http.StatusOK, status, body)
			}
			tb.waitFor(`document.getElementById("status").dataset.over === "true" && document.getElementById("board").dataset.animating === undefined`)
			require.True(t, tb.inView("#status"), "the result in view")
			require.Contains(t, tb.text("#status"), "Player 1 wins")
		})
	}
}
