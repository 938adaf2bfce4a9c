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
// the keyboard alone: Tab to a piece, Enter to select it, Tab to a square
// it may go to, Enter to move. The board is drawn again at each change;
// the focus stays on it: on the piece selected, and after the computer's
// reply on a site to click, so that the next move starts where the last
// one ended, not from the top of the page.
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
		for i := 0; ; i++ {
			require.Less(t, i, 10, "turn %d: no square to go to reached with Tab", turn)
			tab()
			f := tb.eval(focusedSite)
			if strings.HasSuffix(f, " target") && f != from {
				break
			}
		}
		enter()
		tb.waitFor(fmt.Sprintf(`Number(document.getElementById("status").dataset.ply) > %d`, ply))
	}
	require.GreaterOrEqual(t, len(ts.get(g.ID).Record), 5, "three moves played by keyboard, and the replies")
}
