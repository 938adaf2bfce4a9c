package server

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBrowserRefusedMoveSaysWhy: a move the server refuses is said in the
// page's words with the reason the server gave, in the words of the
// game's rules ("b1 is occupied"), as text: a reason holding markup shows
// the markup as written, and none of it becomes part of the page. The
// host's own words that only repeat that the move is not possible, with
// the code's names of moves, are not said.
func TestBrowserRefusedMoveSaysWhy(t *testing.T) {
	t.Parallel() // a browser of its own; the waits are for the page, not the processor
	ts := newTestServer(t, newMemStore())
	b := newBrowser(t, ts.http.URL)
	// rewrite stands in for the page's move: token instead of the one
	// clicked, or the answer instead of the server's.
	rewrite := func(token, answer string) string {
		return `{ const f = window.fetch;
			window.fetch = (u, i) => {
				if (i && i.body && String(u).endsWith("/moves")) {
					const answer = ` + strconv.Quote(answer) + `;
					if (answer) return Promise.resolve(new Response(answer, { status: 422, headers: { "Content-Type": "application/json" } }));
					const b = JSON.parse(i.body); b.token = "` + token + `"; i = { ...i, body: JSON.stringify(b) };
				}
				return f(u, i);
			}; }`
	}
	for _, c := range []struct {
		name, game, token, answer, said string
	}{
		{name: "the rules' words", game: "tictactoe", token: "b1",
			said: "That move is not possible in this position: b1 is occupied."},
		{name: "the host's words only", game: "oware", token: "b1",
			said: "That move is not possible in this position."},
		{name: "markup", game: "tictactoe",
			answer: `{"error": "\"c3\" is not a legal move here: <img src=x onerror=\"window.bad=1\">c3 is <b>taken</b>; c3 is not possible for a mark now (possible: c3)", "code": "illegal-token",
				"rule": "<img src=x onerror=\"window.bad=1\">c3 is <b>taken</b>", "reason": "c3 is not possible for a mark now (possible: c3)"}`,
			said: `That move is not possible in this position: <img src=x onerror="window.bad=1">c3 is <b>taken</b>.`},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := ts.create(`{"game": "` + c.game + `", "hold": [1, 2]}`)
			s1, s2 := ts.both(g)
			if c.game == "tictactoe" {
				ts.play(g.ID, []string{s1, s2}, "a1", "b1")
			}
			want := len(ts.get(g.ID).Record)
			tb := b.tabFor(t)
			tb.do(viewports[0].emulate(), beforeLoad(rewrite(c.token, c.answer)), chromedp.Navigate(ts.http.URL+link(g, 0)))
			tb.waitFor(`document.getElementById("status").dataset.myturn === "true" && document.querySelector("#board .site.target") !== null`)
			tb.click(`#board .site.target`)
			tb.waitFor(`!document.getElementById("error").hidden`)
			assert.Equal(t, c.said, tb.text("#error"))
			assert.Equal(t, 0, tb.count("#error *"), "the reason is text")
			assert.Equal(t, "undefined", tb.eval(`String(window.bad)`))
			require.Len(t, ts.get(g.ID).Record, want, "no move was made")
			tb.waitFor(`document.getElementById("status").dataset.myturn === "true" && document.querySelector("#board .site.target") !== null`)
		})
	}
}

// TestBrowserPhoneRefusalInView: on a phone, a move refused at the foot of
// a long board (the page scrolled down to it) is said where the player
// looks: the message stays in view at the top of the screen.
func TestBrowserPhoneRefusalInView(t *testing.T) {
	t.Parallel() // a browser of its own; the waits are for the page, not the processor
	ts := newTestServer(t, newMemStore())
	b := newBrowser(t, ts.http.URL)
	g := ts.create(`{"game": "tsoro", "hold": [1, 2]}`)
	tb := b.tabFor(t)
	tb.do(viewports[1].emulate(), beforeLoad(`{ const f = window.fetch;
		window.fetch = (u, i) => {
			if (i && i.body && String(u).endsWith("/moves")) { const b = JSON.parse(i.body); b.token = "d1"; i = { ...i, body: JSON.stringify(b) }; }
			return f(u, i);
		}; }`), chromedp.Navigate(ts.http.URL+link(g, 0)))
	tb.waitFor(`document.getElementById("status").dataset.myturn === "true" && document.querySelector("#board .site.target") !== null`)
	tb.eval(`(() => { const s = [...document.querySelectorAll("#board .site.target")]; s[s.length - 1].scrollIntoView({ block: "end" }); return "" })()`)
	require.Equal(t, "true", tb.eval(`String(scrollY > 300)`), "the page is scrolled down to the board's foot")
	tb.eval(`(() => { const s = [...document.querySelectorAll("#board .site.target")]; s[s.length - 1].dispatchEvent(new MouseEvent("click", { bubbles: true })); return "" })()`)
	tb.waitFor(`!document.getElementById("error").hidden`)
	assert.True(t, strings.HasPrefix(tb.text("#error"), "That move is not possible in this position"), tb.text("#error"))
	assert.True(t, tb.inView("#error"), "the message is in view")
}

// TestBrowserOtherSiteSaysWhy: a click on a site that is not ringed, on
// one's turn, is not passed over in silence. A hole that alone would be
// a move (Kalah's sowing from a pit) is asked of the server, and the
// page says why not in the game's words; when the moves are from one
// site to another (draughts; Tsoro Yematatu once its pieces are all
// dropped), the page says where the moves are, and of the piece
// selected, that it cannot go there. No move is made; a site
// ringed, clicked then, takes the words away.
func TestBrowserOtherSiteSaysWhy(t *testing.T) {
	t.Parallel() // a browser of its own; the waits are for the page, not the processor
	ts := newTestServer(t, newMemStore())
	b := newBrowser(t, ts.http.URL)
	clickOther := func(tb *tab, site string) {
		tb.t.Helper()
		tb.click(fmt.Sprintf(`#board .site:not(.target)[data-site=%q]`, site))
		tb.waitFor(`!document.getElementById("error").hidden`)
	}
	for _, size := range viewports {
		t.Run("kalah "+size.name, func(t *testing.T) {
			g := ts.create(`{"game": "kalah", "hold": [1, 2]}`)
			tb := openAt(b, t, size, ts.http.URL, link(g, 0))
			tb.waitFor(`document.getElementById("status").dataset.myturn === "true"`)
			clickOther(tb, "b3")
			assert.Equal(t, "That move is not possible in this position: b3 is not one of your pits.", tb.text("#error"))
			assert.True(t, tb.inView("#error"), "the words in view")
			assert.Empty(t, ts.get(g.ID).Record)
			tb.clickSite("a1")
			tb.waitPly(1)
			assert.Equal(t, "true", tb.eval(`String(document.getElementById("error").hidden)`))
		})
		t.Run("yematatu moving "+size.name, func(t *testing.T) {
			// Every piece dropped: the moves go from a point to another,
			// and a point alone is no move for the server to judge.
			g := ts.create(`{"game": "yematatu", "hold": [1, 2]}`)
			ts.play(g.ID, ts.seatsOf(g), "a1", "b1", "b2", "b3", "c3", "c1")
			tb := openAt(b, t, size, ts.http.URL, link(g, 0))
			tb.waitFor(`document.getElementById("status").dataset.myturn === "true"`)
			clickOther(tb, "b1")
			assert.Equal(t, "Nothing to play at b1 now: click a point ringed in green.", tb.text("#error"))
			assert.Len(t, ts.get(g.ID).Record, 6)
		})
		t.Run("draughts "+size.name, func(t *testing.T) {
			g := ts.create(`{"game": "draughts", "seats": ["human", "random"]}`)
			tb := openAt(b, t, size, ts.http.URL, g.Seats[0].URL)
			tb.waitFor(`document.getElementById("status").dataset.myturn === "true" && document.querySelector("#board .site.target") !== null`)
			// A piece of Player 1's back row, which cannot move yet.
			clickOther(tb, "a1")
			assert.Equal(t, "Nothing to play at 1 now: click a square ringed in green.", tb.text("#error"))
			tb.click("#board .site.target")
			tb.waitFor(`document.querySelector("#board .site.selected") !== null && document.getElementById("error").hidden`)
			from := tb.eval(`document.querySelector("#board .site.selected").getAttribute("aria-label").split(":")[0]`)
			clickOther(tb, "a1")
			assert.Equal(t, from+" cannot go to 1 now: click a square ringed in green.", tb.text("#error"))
			assert.Empty(t, ts.get(g.ID).Record)
		})
	}
}
