package server

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// focusedSite is a script for the site the keyboard's focus is on, with
// " target" when it is one to click, or the tag of the element focused
// when it is not a site.
const focusedSite = `(() => { const a = document.activeElement; const s = a && a.closest && a.closest("#board .site");
	return s ? s.dataset.site + (s.classList.contains("target") ? " target" : "") : (a ? a.tagName : "none") })()`

// TestBrowserKeyboardPlay plays English draughts against the computer with
// the keyboard alone: Tab to a piece, Enter to select it (Escape drops
// the selection), Tab to a square it may go to, Enter to move. The board is drawn again at each change;
// the focus stays on it: on the piece selected, and after the computer's
// reply on a site to click, so that the next move starts where the last
// one ended, not from the top of the page; the site it is on is framed.
func TestBrowserKeyboardPlay(t *testing.T) {
	t.Parallel() // a browser of its own; the waits are for the page, not the processor
	ts := newTestServer(t, newMemStore())
	b := newBrowser(t, ts.http.URL)
	g := ts.create(`{"game": "draughts", "seats": ["human", "random"]}`)
	tb := openAt(b, t, viewports[0], ts.http.URL, g.Seats[0].URL)
	tab := func() { tb.do(chromedp.KeyEvent("\t")) }
	enter := func() { tb.do(chromedp.KeyEvent("\r")) }
	for turn := range 3 {
		tb.waitFor(`document.getElementById("status").dataset.myturn === "true" && document.getElementById("board").dataset.animating === undefined`)
		ply, _, _ := tb.status()
		if turn == 0 {
			// From the top of the page to the first piece that may move.
			for i := 0; !strings.HasSuffix(tb.eval(focusedSite), " target"); i++ {
				require.Less(t, i, 20, "no site to click reached with Tab")
				tab()
			}
		}
		from := tb.eval(focusedSite)
		require.True(t, strings.HasSuffix(from, " target"), "turn %d: the focus is on a site to click, not %q", turn, from)
		enter()
		tb.waitFor(`document.querySelector("#board .site.selected") !== null`)
		require.Equal(t, from, tb.eval(focusedSite), "turn %d: the site selected keeps the focus", turn)
		if turn == 0 {
			// Escape drops the selection, as Cancel does; Enter selects again.
			tb.do(chromedp.KeyEvent("\x1b"))
			tb.waitFor(`document.querySelector("#board .site.selected") === null`)
			require.Equal(t, from, tb.eval(focusedSite), "the site keeps the focus")
			enter()
			tb.waitFor(`document.querySelector("#board .site.selected") !== null`)
		}
		for i := 0; ; i++ {
			require.Less(t, i, 10, "turn %d: no square to go to reached with Tab", turn)
			tab()
			f := tb.eval(focusedSite)
			if strings.HasSuffix(f, " target") && f != from {
				break
			}
		}
		require.Equal(t, "solid", tb.eval(`getComputedStyle(document.activeElement).outlineStyle`), "turn %d: the site the keyboard is on is framed", turn)
		enter()
		tb.waitFor(fmt.Sprintf(`Number(document.getElementById("status").dataset.ply) > %d`, ply))
	}
	require.GreaterOrEqual(t, len(ts.get(g.ID).Record), 5, "three moves played by keyboard, and the replies")
}

// focusedButton is a script for the button the keyboard's focus is on,
// by the move or action it makes, or the id or tag of the element
// focused when it is not a button.
const focusedButton = `(() => { const a = document.activeElement; if (!a) return "none";
	if (a.tagName === "BUTTON") return a.dataset.token || a.dataset.action || a.textContent;
	return a.id || a.tagName })()`

// tabTo presses Tab until the focus is on what the script says it is,
// and fails after limit presses.
func (tb *tab) tabTo(script, want string, limit int) {
	tb.t.Helper()
	for i := 0; tb.eval(script) != want; i++ {
		require.Less(tb.t, i, limit, "%s not reached with Tab; the focus is on %s", want, tb.eval(script))
		tb.do(chromedp.KeyEvent("\t"))
	}
}

// TestBrowserKeyboardButtons: a decision made with the keyboard (Enter on
// a button under the board, or on a move of "All legal moves") draws the
// buttons anew; the focus stays where the player was, not thrown to the
// top of the page: on the box of the buttons, from which Tab goes on to
// the next decision's buttons, never on another button, where Enter
// pressed again would make a move not asked for. The button the keyboard
// is on is framed; the box holding the focus is not (a frame round all
// its buttons would look as if they were one control).
func TestBrowserKeyboardButtons(t *testing.T) {
	t.Parallel() // a browser of its own; the waits are for the page, not the processor
	ts := newTestServer(t, newMemStore())
	b := newBrowser(t, ts.http.URL)
	t.Run("decision", func(t *testing.T) {
		// Player 2 decides to continue sowing or stop, after d7.
		g := ts.create(`{"game": "tsoro", "variants": ["4x8"], "hold": [1, 2]}`)
		ts.play(g.ID, ts.seatsOf(g), tsoroDecisions[:4]...)
		s1, s2 := ts.both(g)
		tb := openAt(b, t, viewports[0], ts.http.URL, fmt.Sprintf("/g/%s#player=2&seat=%s", g.ID, s2))
		tb.waitFor(`document.querySelector('#actions button[data-token="continue"]') !== null`)
		tb.tabTo(focusedButton, "continue", 40)
		require.Equal(t, "solid 3px", tb.eval(`(() => { const s = getComputedStyle(document.activeElement); return s.outlineStyle + " " + s.outlineWidth })()`), "the button the keyboard is on is framed")
		tb.do(chromedp.KeyEvent("\r"))
		tb.waitPly(5)
		require.Equal(t, "actions", tb.eval(focusedButton), "the focus stays with the buttons of the decisions")
		require.Equal(t, "none", tb.eval(`getComputedStyle(document.activeElement).outlineStyle`), "no frame round the box of the buttons")
		// Player 1 moves and takes the bonus captures; then Player 2's turn.
		ts.play(g.ID, []string{s1, s2}, tsoroDecisions[5:]...)
		tb.waitFor(`document.getElementById("status").dataset.myturn === "true" && document.querySelector("#board .site.target") !== null`)
		require.Equal(t, "actions", tb.eval(focusedButton), "the focus waited with the buttons of the decisions")
	})
	t.Run("all legal moves", func(t *testing.T) {
		g := ts.create(`{"game": "kalah", "seats": ["human", "random"]}`)
		tb := openAt(b, t, viewports[0], ts.http.URL, g.Seats[0].URL)
		tb.waitFor(`document.getElementById("status").dataset.myturn === "true"`)
		tb.tabTo(`document.activeElement.closest("#alltokens") ? "all" : ""`, "all", 60)
		tb.do(chromedp.KeyEvent("\r"))
		for turn := range 2 {
			tb.waitFor(`document.getElementById("status").dataset.myturn === "true" && document.querySelector("#tokens button") !== null`)
			ply, _, _ := tb.status()
			if turn > 0 {
				require.Equal(t, "tokens", tb.eval(`document.activeElement.id`), "the focus waited in the list of moves")
			}
			tb.tabTo(`document.activeElement.parentElement.id`, "tokens", 5)
			tb.do(chromedp.KeyEvent("\r"))
			tb.waitFor(fmt.Sprintf(`Number(document.getElementById("status").dataset.ply) > %d`, ply))
		}
		require.GreaterOrEqual(t, len(ts.get(g.ID).Record), 2)
	})
}
