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
func openSeat(b *browser, base, url string, scripts ...string) *tab {
	tb := b.tab()
	for _, js := range scripts {
		tb.do(beforeLoad(js))
	}
	tb.do(chromedp.EmulateViewport(1100, 900), chromedp.Navigate(base+url))
	tb.waitFor(`document.getElementById("status").dataset.ply !== undefined`)
	return tb
}

// clickAction clicks a button of what goes around a game (takeback,
// rematch).
func (tb *tab) clickAction(action string) {
	tb.t.Helper()
	tb.click(fmt.Sprintf(`#around button[data-action=%q]`, action))
}

// TestBrowserNewGameForm: the form starts with the server's default game;
// variants that set the same parameter are one choice (radio buttons),
// and a setting the variants cover is not shown twice; the settings left
// show their values in words; every choice reads by its title, the
// choice of no variant by the defaults in words; no rule codes, code
// quotes, raw keys or variant names appear.
func TestBrowserNewGameForm(t *testing.T) {
	t.Parallel() // a browser of its own; the waits are for the page, not the processor
	ts := newTestServer(t, newMemStore(), WithDefaultGame("tsoro"))
	b := newBrowser(t, ts.http.URL)
	for _, size := range viewports {
		t.Run(size.name, func(t *testing.T) {
			tb := b.tabFor(t)
			tb.do(size.emulate(), chromedp.Navigate(ts.http.URL+"/"))
			tb.waitFor(`document.querySelector('#ng-variants input[value="4x8"]') !== null`)
			require.Equal(t, "tsoro", tb.eval(`document.getElementById("ng-game").value`))
			// The board sizes are one choice: radio buttons, the standard
			// one chosen; the holes setting is that choice, not repeated.
			require.Equal(t, "radio", tb.eval(`document.querySelector('#ng-variants input[value="4x8"]').type`))
			require.Equal(t, "radio", tb.eval(`document.querySelector('#ng-variants input[value="bonus-1"]').type`))
			require.Equal(t, "checkbox", tb.eval(`document.querySelector('#ng-variants input[value="single-head"]').type`))
			require.Equal(t, "0", tb.eval(`String(document.querySelectorAll('[data-param="holes"], [data-param="bonus"], [data-param="heads"]').length)`))
			labelOf := func(sel string) string {
				return tb.eval(`document.querySelector('` + sel + `').parentElement.textContent.replace(/\s+/g, " ").trim()`)
			}
			for _, c := range []struct{ sel, want string }{
				{`[data-group="0"] input[value=""]`, "Standard — 21 holes per row"},
				{`input[value="4x6"]`, "4 by 6 — A 4x6 board, 24 counters."},
				{`[data-group="1"] input[value=""]`, "Standard — 2 bonus captures after a capture"},
				{`input[value="bonus-1"]`, "One bonus capture — One bonus capture after a capture instead of two."},
				{`input[value="single-head"]`, "Single head — Only the rightmost outer hole (aN, d1) is a head, and it starts with 3 counters."},
			} {
				assert.Equal(t, c.want, labelOf("#ng-variants "+c.sel), c.sel)
			}
			tb.do(chromedp.Click(chromedp.CSS(`#ng-variants input[value="4x8"]`)), chromedp.Click(chromedp.CSS(`#ng-variants input[value="4x6"]`)))
			require.Equal(t, "4x6", tb.eval(`Array.from(document.querySelectorAll("#ng-variants input:checked")).map((b) => b.value).filter(Boolean).join(" ")`))
			// Kalah: three, five and six seeds are one choice; the seeds
			// setting stays (it allows more values) and shows the choice.
			tb.do(chromedp.SetValue(chromedp.CSS("#ng-game"), "kalah"))
			tb.eval(`(() => { document.getElementById("ng-game").dispatchEvent(new Event("change")); return "" })()`)
			tb.waitFor(`document.querySelector('[data-param="seeds"]') !== null`)
			require.Equal(t, "4", tb.eval(`document.querySelector('[data-param="seeds"]').value`), "the default is shown")
			tb.do(chromedp.Click(chromedp.CSS(`#ng-variants input[value="five"]`)))
			tb.waitFor(`document.querySelector('[data-param="seeds"]').value === "5"`)
			require.Contains(t, tb.eval(`document.querySelector('[data-param="pits"]').parentElement.textContent`), "Pits on each side")
			for _, name := range lib().Games() {
				tb.do(chromedp.SetValue(chromedp.CSS("#ng-game"), name))
				tb.eval(`(() => { document.getElementById("ng-game").dispatchEvent(new Event("change")); return "" })()`)
				text := tb.eval(`document.getElementById("newgame").innerText`)
				assert.NotRegexp(t, regexp.MustCompile(`\b[A-Z][1-9][0-9]?\b`), text, "%s: rule codes in the form", name)
				assert.NotContains(t, text, "`", name)
				assert.NotContains(t, text, ": false", name)
				assert.NotContains(t, text, ": true", name)
				assert.NotRegexp(t, regexp.MustCompile(`\b[a-z]+_[a-z_]+\b`), text, "%s: a raw key in the form", name)
				assert.NotContains(t, text, "player spec", name)
				// Every choice by its title: a capital first, never the
				// variant's name.
				assert.Equal(t, "", tb.eval(`Array.from(document.querySelectorAll("#ng-variants input")).map((i) => [i.value, i.parentElement.querySelector("b").textContent]).filter(([v, b]) => b === v || !/^[\p{Lu}\p{N}]/u.test(b)).join("; ")`), name)
			}
			// Back to Tsoro, the computers named as the server offers them.
			tb.do(chromedp.SetValue(chromedp.CSS("#ng-game"), "tsoro"))
			tb.eval(`(() => { document.getElementById("ng-game").dispatchEvent(new Event("change")); return "" })()`)
			tb.waitFor(`document.querySelector('[data-seat="2"] option[data-computer="mcts"]').textContent === "Computer (strong, 2 s a move)"`)
			require.Equal(t, "true", tb.eval(`String(document.getElementById("ng-hold-label").hidden)`), "one person: no choice of seat")
			require.Equal(t, "none", tb.eval(`getComputedStyle(document.getElementById("ng-hold-label")).display`))
			tb.screenshot("new-game" + size.suffix)
		})
	}
}

// TestBrowserRematch: a finished game between two browsers; one starts a
// rematch, the other sees it and joins; the seats are swapped, and each
// front page lists both games.
func TestBrowserRematch(t *testing.T) {
	t.Parallel() // a browser of its own; the waits are for the page, not the processor
	ts := newTestServer(t, newMemStore())
	g := ts.create(`{"game": "yematatu", "variants": ["square"], "hold": [1, 2]}`)
	s1, s2 := ts.both(g)
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
	require.Contains(t, p1.eval(`document.getElementById("scores").textContent`), "Player 2: You")
	require.Equal(t, "false", p1.eval(`document.getElementById("status").dataset.myturn`))
	// The other page sees the rematch and joins it.
	p2.waitFor(`document.querySelector('#around button[data-action="rematch"]') !== null && document.querySelector('#around button[data-action="rematch"]').textContent.includes("Play the rematch")`)
	p2.clickAction("rematch")
	p2.waitFor(`location.pathname === "/g/` + re + `"`)
	p2.waitFor(`document.getElementById("status").dataset.myturn === "true"`)
	require.Contains(t, p2.eval(`document.getElementById("scores").textContent`), "Player 1: You")
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
	// Each entry in words a person would write: the game with its
	// variants' titles, whom it is against and where it stands.
	entry := func(i int) string {
		return p1.eval(fmt.Sprintf(`document.querySelectorAll("#mygames-list li")[%d].innerText.replace(/\s+/g, " ").trim()`, i))
	}
	assert.Equal(t, "Tsoro Yematatu — Square board A rematch against a person. Your turn. Forget", entry(0))
	assert.Equal(t, "Tsoro Yematatu — Square board Against a person. You won. Forget", entry(1))
	p1.screenshot("my-games")
}

// TestBrowserTakeback: in a two-person game whose moves reach both pages
// through their event streams, Player 2 proposes to take back their turn;
// Player 1 sees the proposal and accepts it; both pages show the position
// before it, and the moves made after it. The streams send the moves a
// page lacks (record_from) but for their first event and the takeback's:
// at each step the pages show the board and the record a page opened
// then shows (the whole game read at once).
func TestBrowserTakeback(t *testing.T) {
	t.Parallel() // a browser of its own; the waits are for the page, not the processor
	ts := newTestServer(t, newMemStore())
	g := ts.create(`{"game": "tsoro", "variants": ["4x8"], "hold": [1, 2]}`)
	s1, s2 := ts.both(g)
	b := newBrowser(t, ts.http.URL)
	p1, p2 := openSeat(b, ts.http.URL, g.Seats[0].URL, countEvents), openSeat(b, ts.http.URL, g.Seats[1].URL, countEvents)
	pages := map[*tab]string{p1: g.Seats[0].URL, p2: g.Seats[1].URL}
	// The moves are played once both streams run (their first event
	// came): on a busy machine a page's stream may connect after them,
	// and its first event would hold them all.
	for tb := range pages {
		tb.waitFor(`window.recordFrom.length >= 1`)
	}
	ts.play(g.ID, []string{s1, s2}, tsoroTurns[:6]...)
	for tb, link := range pages {
		tb.waitPly(6)
		tb.sameAsOpened(b, link, 6)
		// The first event (ply 0) is whole, and so is the first move's
		// (the page held no move); every later one leaves out what the
		// page held.
		require.Equal(t, "true", tb.eval(`String(window.recordFrom.length >= 7 && window.recordFrom.slice(2).every((n) => n > 0))`), tb.eval(`String(window.recordFrom)`))
	}
	// The record reads by turns: Player 2's d7 continue is one line.
	require.Contains(t, p1.eval(`Array.from(document.querySelectorAll("#record li")).map((li) => li.textContent.trim()).join("\n")`), "Player 2 d7 continue")
	p2.clickAction("takeback")
	p1.waitFor(`document.querySelector('#around button[data-action="accept"]') !== null`)
	require.Contains(t, p1.eval(`document.getElementById("around").textContent`), "Player 2 proposes to take back 3 moves")
	p1.screenshot("takeback")
	const wholeEvents = `window.recordFrom.filter((n) => n === 0).length`
	whole := map[*tab]string{p1: p1.eval(`String(` + wholeEvents + `)`), p2: p2.eval(`String(` + wholeEvents + `)`)}
	p1.clickAction("accept")
	for tb, link := range pages {
		tb.waitFor(`document.getElementById("status").dataset.ply === "3"`)
		tb.waitFor(wholeEvents + ` > ` + whole[tb]) // the takeback's event: the whole record
		tb.sameAsOpened(b, link, 3)
	}
	p2.waitFor(`document.getElementById("status").dataset.myturn === "true"`)
	assert.Equal(t, tsoroTurns[:3], ts.get(g.ID).Record)
	assert.Empty(t, p1.eval(`document.querySelector('#around button[data-action="accept"]') ? "still there" : ""`))
	// Moves after the takeback: what the pages lack after its record.
	ts.play(g.ID, []string{s1, s2}, tsoroTurns[3:]...)
	n := len(tsoroTurns)
	for tb, link := range pages {
		tb.waitPly(n)
		tb.sameAsOpened(b, link, n)
		assert.Equal(t, "3", tb.eval(`String(window.recordFrom[window.recordFrom.lastIndexOf(0) + 1])`),
			"the first move after the takeback leaves out the 3 moves before it: %s", tb.eval(`String(window.recordFrom)`))
	}
}

// countEvents keeps, in window.recordFrom, the record_from of every
// event of the page's stream (0 for a whole record).
const countEvents = `window.recordFrom = [];
(() => {
  const Source = window.EventSource;
  window.EventSource = class extends Source {
    constructor(...args) {
      super(...args);
      this.addEventListener("state", (e) => window.recordFrom.push(JSON.parse(e.data).record_from || 0));
    }
  };
})();`

// sameAsOpened checks that the page shows, at ply, the board, the record
// and the status a page opening link then shows, which reads the whole
// game at once.
func (tb *tab) sameAsOpened(b *browser, link string, ply int) {
	tb.t.Helper()
	fresh := openSeat(b, b.base, link)
	fresh.waitPly(ply)
	const shown = `JSON.stringify({
		board: [...document.querySelectorAll("#board [data-site]")].map((e) => e.dataset.site + "=" + e.textContent.trim()),
		record: [...document.querySelectorAll("#record li")].map((li) => li.textContent.trim()),
		ply: document.getElementById("status").dataset.ply,
		slider: document.getElementById("plylabel").textContent })`
	want := fresh.eval(shown)
	require.Contains(tb.t, want, `"board":["`, "the board has sites")
	assert.Equal(tb.t, want, tb.eval(shown))
}

// TestBrowserUndo: against the computer, Undo takes back the computer's
// reply and the person's move at once.
func TestBrowserUndo(t *testing.T) {
	t.Parallel() // a browser of its own; the waits are for the page, not the processor
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
	t.Parallel() // a browser of its own; the waits are for the page, not the processor
	ts := newTestServer(t, newMemStore())
	g := ts.create(`{"game": "gore", "clock": {"initial": 2, "increment": 1}}`)
	b := newBrowser(t, ts.http.URL)
	p1, p2 := openSeat(b, ts.http.URL, link(g, 0)), openSeat(b, ts.http.URL, link(g, 1))
	p1.waitFor(`document.querySelectorAll("#clocks .clock").length === 2`)
	p1.clickSite("a1")
	p2.waitPly(1)
	p2.waitFor(`document.querySelector("#clocks .clock.running[data-player='2']") !== null`)
	for _, tb := range []*tab{p1, p2} {
		tb.waitFor(`document.getElementById("status").dataset.over === "true"`)
		require.Equal(t, "Player 1 wins on time Player 2 ran out of time.", tb.eval(`document.getElementById("status").textContent`))
		require.Equal(t, "0.0", tb.eval(`document.querySelector("#clocks .clock[data-player='2'] .time").textContent`))
	}
	p2.screenshot("lost-on-time")
	got := ts.get(g.ID)
	require.NotNil(t, got.Result)
	assert.Equal(t, "time", got.Result.Method)
}

// TestBrowserRulesChanged: a game whose rules changed since it began (the
// server's games were updated) says so under the status line; a game
// whose rules are as they were does not.
func TestBrowserRulesChanged(t *testing.T) {
	t.Parallel() // a browser of its own; the waits are for the page, not the processor
	st := newMemStore()
	ts := newTestServer(t, st)
	g := ts.create(`{"game": "tsoro", "variants": ["4x8"], "hold": [1, 2]}`)
	s1, s2 := ts.both(g)
	ts.play(g.ID, []string{s1, s2}, "a1", "d1")
	changed := changedServer(t, st, "tsoro", "variants:\n  4x8: {params: {holes: 8, bonus: 1}}\n")
	b := newBrowser(t, changed.http.URL)
	tb := openSeat(b, changed.http.URL, g.Seats[0].URL)
	tb.waitFor(`!document.getElementById("ruleschanged").hidden`)
	assert.Contains(t, tb.eval(`document.getElementById("ruleschanged").textContent`), "The rules of this game have changed since it began")
	tb.screenshot("rules-changed")
	same := openSeat(b, ts.http.URL, g.Seats[0].URL)
	assert.Equal(t, "true", same.eval(`String(document.getElementById("ruleschanged").hidden)`))
}

// TestBrowserFormRefusalDetailed: a new game the server refuses for what
// the form asked (here a clock of too little time, forced into the
// request) is said in the page's words followed by the server's, which
// name what does not go.
func TestBrowserFormRefusalDetailed(t *testing.T) {
	t.Parallel() // a browser of its own; the waits are for the page, not the processor
	ts := newTestServer(t, newMemStore(), WithDefaultGame("tsoro"))
	b := newBrowser(t, ts.http.URL)
	tb := b.tabFor(t)
	tb.do(beforeLoad(`{ const f = window.fetch;
			window.fetch = (u, i) => {
				if (i && i.method === "POST" && String(u).endsWith("/api/games")) { const b = JSON.parse(i.body); b.clock = { initial: 0.01, increment: 0 }; i = { ...i, body: JSON.stringify(b) }; }
				return f(u, i);
			}; }`), chromedp.Navigate(ts.http.URL+"/"))
	tb.waitFor(`document.querySelector('#ng-variants input[value="4x8"]') !== null`)
	tb.click("#ng-start")
	tb.waitFor(`!document.getElementById("error").hidden`)
	require.Equal(t, "This clock is not possible. Choose another time. (clock initial: 0.01 seconds is too little time (at least 0.1))", tb.text("#error"))
}
