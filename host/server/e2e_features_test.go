package server

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// openSeat opens a seat link in a new tab of b.
func openSeat(b *browser, base, url string) *tab {
	tb := b.tab()
	tb.do(chromedp.EmulateViewport(1100, 900), chromedp.Navigate(base+url))
	tb.waitFor(`document.getElementById("status").dataset.ply !== undefined`)
	return tb
}

// clickAction clicks a button of what goes around a game (takeback,
// rematch).
func (tb *tab) clickAction(action string) {
	tb.t.Helper()
	sel := fmt.Sprintf(`#around button[data-action=%q]`, action)
	tb.waitFor(fmt.Sprintf(`document.querySelector(%q) !== null`, sel))
	tb.do(chromedp.Click(chromedp.CSS(sel)))
}

// TestBrowserNewGameForm: the form starts with the server's default game
// and shows its settings' values; no rule codes or code quotes appear.
func TestBrowserNewGameForm(t *testing.T) {
	ts := newTestServer(t, newMemStore(), WithDefaultGame("tsoro"))
	b := newBrowser(t, ts.http.URL)
	tb := b.tab()
	tb.do(chromedp.EmulateViewport(1100, 900), chromedp.Navigate(ts.http.URL+"/"))
	tb.waitFor(`document.querySelector('[data-param="holes"]') !== null`)
	require.Equal(t, "tsoro", tb.eval(`document.getElementById("ng-game").value`))
	require.Equal(t, "21", tb.eval(`document.querySelector('[data-param="holes"]').value`), "the default is shown")
	// Ticking a variant shows its values.
	tb.do(chromedp.Click(chromedp.CSS(`#ng-variants input[value="4x8"]`)))
	tb.waitFor(`document.querySelector('[data-param="holes"]').value === "8"`)
	for _, name := range lib().Games() {
		tb.do(chromedp.SetValue(chromedp.CSS("#ng-game"), name))
		tb.eval(`(() => { document.getElementById("ng-game").dispatchEvent(new Event("change")); return "" })()`)
		text := tb.eval(`document.getElementById("newgame").innerText`)
		assert.NotRegexp(t, regexp.MustCompile(`\b[A-Z][1-9][0-9]?\b`), text, "%s: rule codes in the form", name)
		assert.NotContains(t, text, "`", name)
		assert.NotContains(t, text, ": false", name)
		assert.NotContains(t, text, ": true", name)
	}
	tb.screenshot("new-game")
}

// TestBrowserRematch: a finished game between two browsers; one starts a
// rematch, the other sees it and joins; the seats are swapped, and each
// front page lists both games.
func TestBrowserRematch(t *testing.T) {
	ts := newTestServer(t, newMemStore())
	g := ts.create(`{"game": "yematatu", "variants": ["square"]}`)
	s1, s2 := secret(t, g.Seats[0].URL), secret(t, g.Seats[1].URL)
	b := newBrowser(t, ts.http.URL)
	p1, p2 := openSeat(b, ts.http.URL, g.Seats[0].URL), openSeat(b, ts.http.URL, g.Seats[1].URL)
	ts.play(g.ID, []string{s1, s2}, winYematatuSquare...)
	for _, tb := range []*tab{p1, p2} {
		tb.waitFor(`document.getElementById("status").dataset.over === "true"`)
		require.Contains(t, tb.eval(`document.getElementById("status").textContent`), "Player 1 wins")
	}
	p1.screenshot("finished")
	p1.clickAction("rematch")
	p1.waitFor(`location.pathname !== "/g/` + g.ID + `" && document.getElementById("status").dataset.ply === "0"`)
	re := strings.TrimPrefix(p1.eval(`location.pathname`), "/g/")
	require.NotEqual(t, g.ID, re)
	// Player 1 of the old game plays second now: the board is turned round
	// for them, and it is not their turn.
	require.Contains(t, p1.eval(`document.getElementById("scores").textContent`), "Player 2 (you)")
	require.Equal(t, "false", p1.eval(`document.getElementById("status").dataset.myturn`))
	// The other page sees the rematch and joins it.
	p2.waitFor(`document.querySelector('#around button[data-action="rematch"]') !== null && document.querySelector('#around button[data-action="rematch"]').textContent.includes("Play the rematch")`)
	p2.clickAction("rematch")
	p2.waitFor(`location.pathname === "/g/` + re + `"`)
	p2.waitFor(`document.getElementById("status").dataset.myturn === "true"`)
	require.Contains(t, p2.eval(`document.getElementById("scores").textContent`), "Player 1 (you)")
	p2.clickSite("a1")
	p1.waitFor(`document.getElementById("status").dataset.myturn === "true"`)
	got := ts.get(re)
	assert.Equal(t, []string{"a1"}, got.Record)
	assert.Equal(t, g.ID, got.Of)
	// "My games" on the front page: both games, the rematch on top.
	p1.do(chromedp.Navigate(ts.http.URL + "/"))
	p1.waitFor(`document.querySelectorAll("#mygames-list li[data-status]").length === 2`)
	require.Equal(t, re, p1.eval(`document.querySelector("#mygames-list li").dataset.game`))
	require.Equal(t, "yourturn", p1.eval(`document.querySelector("#mygames-list li").dataset.status`))
	require.Contains(t, p1.eval(`document.querySelectorAll("#mygames-list li")[1].textContent`), "you won")
	p1.screenshot("my-games")
}

// TestBrowserTakeback: in a two-person game, Player 2 proposes to take
// back their turn; Player 1 sees the proposal and accepts it; both pages
// show the position before it.
func TestBrowserTakeback(t *testing.T) {
	ts := newTestServer(t, newMemStore())
	g := ts.create(`{"game": "tsoro", "variants": ["4x8"]}`)
	s1, s2 := secret(t, g.Seats[0].URL), secret(t, g.Seats[1].URL)
	ts.play(g.ID, []string{s1, s2}, tsoroTurns[:6]...)
	b := newBrowser(t, ts.http.URL)
	p1, p2 := openSeat(b, ts.http.URL, g.Seats[0].URL), openSeat(b, ts.http.URL, g.Seats[1].URL)
	// The record reads by turns: Player 2's d7 continue is one line.
	require.Contains(t, p1.eval(`Array.from(document.querySelectorAll("#record li")).map((li) => li.textContent.trim()).join("\n")`), "Player 2 d7 continue")
	p2.clickAction("takeback")
	p1.waitFor(`document.querySelector('#around button[data-action="accept"]') !== null`)
	require.Contains(t, p1.eval(`document.getElementById("around").textContent`), "Player 2 proposes to take back 3 moves")
	p1.screenshot("takeback")
	p1.clickAction("accept")
	for _, tb := range []*tab{p1, p2} {
		tb.waitFor(`document.getElementById("status").dataset.ply === "3"`)
	}
	p2.waitFor(`document.getElementById("status").dataset.myturn === "true"`)
	assert.Equal(t, tsoroTurns[:3], ts.get(g.ID).Record)
	assert.Empty(t, p1.eval(`document.querySelector('#around button[data-action="accept"]') ? "still there" : ""`))
}

// TestBrowserUndo: against the computer, Undo takes back the computer's
// reply and the person's move at once.
func TestBrowserUndo(t *testing.T) {
	ts := newTestServer(t, newMemStore())
	g := ts.create(`{"game": "gore", "seats": ["human", "random"]}`)
	b := newBrowser(t, ts.http.URL)
	tb := openSeat(b, ts.http.URL, g.Seats[0].URL)
	tb.waitFor(`document.getElementById("status").dataset.myturn === "true"`)
	tb.clickSite("a1")
	tb.waitPly(2)
	tb.waitFor(`document.getElementById("status").dataset.myturn === "true"`)
	tb.clickAction("takeback")
	tb.waitFor(`document.getElementById("status").dataset.ply === "0"`)
	assert.Empty(t, ts.get(g.ID).Record)
}

// TestBrowserLossOnTime: a game with a tiny time bank; Player 2 does not
// move, and both pages show the loss on time and the clocks.
func TestBrowserLossOnTime(t *testing.T) {
	ts := newTestServer(t, newMemStore())
	g := ts.create(`{"game": "gore", "clock": {"initial": 2, "increment": 1}}`)
	b := newBrowser(t, ts.http.URL)
	p1, p2 := openSeat(b, ts.http.URL, g.Seats[0].URL), openSeat(b, ts.http.URL, g.Seats[1].URL)
	p1.waitFor(`document.querySelectorAll("#clocks .clock").length === 2`)
	p1.clickSite("a1")
	p2.waitPly(1)
	p2.waitFor(`document.querySelector("#clocks .clock.running[data-player='2']") !== null`)
	for _, tb := range []*tab{p1, p2} {
		tb.waitFor(`document.getElementById("status").dataset.over === "true"`)
		require.Contains(t, tb.eval(`document.getElementById("status").textContent`), "Player 1 wins on time")
		require.Equal(t, "0.0", tb.eval(`document.querySelector("#clocks .clock[data-player='2'] .time").textContent`))
	}
	p2.screenshot("lost-on-time")
	got := ts.get(g.ID)
	require.NotNil(t, got.Result)
	assert.Equal(t, "time", got.Result.Method)
}
