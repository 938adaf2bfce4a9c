package server

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// smallPhone is the narrowest phone the page is tried at.
var smallPhone = viewport{name: "small phone", w: 360, h: 640, phone: true, suffix: "-small-phone"}

// TestBrowserErrorKeepsTheBoard: what went wrong (a click on a site that
// is no move) is said over the page, in view and whole, announced as an
// alert, and the board and the status do not move when it comes or goes;
// its button takes it away, and so does Escape. A long one scrolls within
// the screen.
func TestBrowserErrorKeepsTheBoard(t *testing.T) {
	t.Parallel() // a browser of its own; the waits are for the page, not the processor
	ts := newTestServer(t, newMemStore())
	b := newBrowser(t, ts.http.URL)
	for _, size := range append(viewports, smallPhone) {
		t.Run(size.name, func(t *testing.T) {
			g := ts.create(`{"game": "kalah", "hold": [1, 2]}`)
			tb := openAt(b, t, size, ts.http.URL, link(g, 0))
			tb.waitFor(`document.getElementById("status").dataset.myturn === "true"`)
			board, status := tb.rect("#board svg"), tb.rect("#status")
			require.Equal(t, "true", tb.eval(`String(document.getElementById("error-close").hidden)`), "no button without a message")

			tb.click(`#board .site:not(.target)[data-site="b3"]`)
			tb.waitFor(`!document.getElementById("error").hidden`)
			assert.Equal(t, "That move is not possible in this position: b3 is not one of your pits.", tb.text("#error"))
			assert.Equal(t, "alert", tb.eval(`document.getElementById("error").getAttribute("role")`))
			assert.Equal(t, board, tb.rect("#board svg"), "the board stays where it was")
			assert.Equal(t, status, tb.rect("#status"), "the status stays where it was")
			assert.True(t, tb.inView("#error"), "the message in view, whole")
			assert.True(t, tb.inView("#error-close"), "its button in view")
			assert.Equal(t, "Dismiss the message", tb.eval(`document.getElementById("error-close").getAttribute("aria-label")`))
			if size == smallPhone {
				tb.screenshot("error-small-phone")
			}

			tb.click("#error-close")
			tb.waitFor(`document.getElementById("error").hidden && document.getElementById("error-close").hidden`)
			assert.Equal(t, board, tb.rect("#board svg"), "the board stays where it was")

			// Escape takes the words away too.
			tb.click(`#board .site:not(.target)[data-site="b3"]`)
			tb.waitFor(`!document.getElementById("error").hidden`)
			tb.do(chromedp.KeyEvent("\x1b"))
			tb.waitFor(`document.getElementById("error").hidden && document.getElementById("error-close").hidden`)
			assert.Empty(t, ts.get(g.ID).Record, "no move made")

			// Taken away from the keyboard, on its button, the message
			// gives the keyboard back to where it was: the board's site.
			tb.eval(`document.querySelector('#board .site[data-site="a1"]').focus(), ""`)
			_, err := chromedp.Run(tb.ctx, chromedp.Evaluate[any](`import("/static/dom.js").then((m) => m.showError("Something went wrong."))`, chromedp.EvalAwaitPromise))
			require.NoError(t, err)
			tb.eval(`document.getElementById("error-close").focus(), ""`)
			tb.do(chromedp.KeyEvent("\r"))
			tb.waitFor(`document.getElementById("error").hidden`)
			assert.Equal(t, "a1", tb.eval(`String(document.activeElement.dataset && document.activeElement.dataset.site)`), "the keyboard back on the site")

			// A long message (a script's error quoted at length) scrolls
			// within the screen, its button in view.
			_, err = chromedp.Run(tb.ctx, chromedp.Evaluate[any](`import("/static/dom.js").then((m) => m.showError("A long message. ".repeat(400)))`, chromedp.EvalAwaitPromise))
			require.NoError(t, err)
			assert.True(t, tb.inView("#error"), "a long message within the screen")
			assert.True(t, tb.inView("#error-close"), "its button in view")
			assert.Equal(t, board, tb.rect("#board svg"), "the board stays where it was")
		})
	}
}

// TestBrowserSmallPhoneFits: on the narrowest phone the page is tried at,
// the front page and every shipped game's page fit the screen's width:
// nothing makes the page scroll sideways.
func TestBrowserSmallPhoneFits(t *testing.T) {
	t.Parallel() // a browser of its own; the waits are for the page, not the processor
	ts := newTestServer(t, newMemStore())
	b := newBrowser(t, ts.http.URL)
	const wider = `(() => { const w = innerWidth; const out = [...document.querySelectorAll("body *")].filter((e) => e.getBoundingClientRect().right > w + 0.5 && !e.closest("[hidden]")).map((e) => e.tagName + (e.id ? "#" + e.id : "") + (e.className && e.className.baseVal === undefined ? "." + e.className : "")).slice(0, 5);
		return document.documentElement.scrollWidth > w ? "scrolls: " + out.join(" ") : "" })()`
	home := b.tabFor(t)
	home.do(smallPhone.emulate(), chromedp.Navigate(ts.http.URL+"/"))
	home.waitFor(`document.querySelector('#ng-game option[value="tsoro"]') !== null`)
	assert.Empty(t, home.eval(wider), "the front page")
	for _, name := range lib().Games() {
		g := ts.create(`{"game": "` + name + `", "hold": [1, 2]}`)
		tb := openAt(b, t, smallPhone, ts.http.URL, link(g, 0))
		tb.waitFor(`document.getElementById("status").dataset.myturn === "true"`)
		assert.Empty(t, tb.eval(wider), name)
	}
}
