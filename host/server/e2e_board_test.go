package server

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// TestBrowserCheckeredBoard opens the shipped games whose boards are
// declared checkered at a set-up position (their fen parameter) with a
// king on the board and a capture of two jumps to make: the board is a
// grid of squares (the sites the dark ones, no lines), the king a stack
// with a crown, the hands the scripts keep to themselves are not shown,
// only the piece that must capture is ringed, after the first jump the
// piece that goes on is marked and its landing square is the one target,
// and with animations on a piece moves as a piece.
// Any JavaScript error fails it.
func TestBrowserCheckeredBoard(t *testing.T) {
	t.Parallel() // a browser of its own; the waits are for the page, not the processor
	ts := newTestServer(t, newMemStore())
	b := newBrowser(t, ts.http.URL)
	tests := []struct {
		game    string
		fen     string
		seats   string // the create request's seats: the person moves first
		seat    int    // the person's seat
		squares int    // dark and light
		king    string // the crowned piece's square
		from    string // the one piece that may capture
		jump    string // its first landing square
		next    string // its second
		shot    string // the screenshot written with MATOMBO_SCREENSHOTS
	}{
		{"draughts", "B:B9,K1:W14,23,32", `["human", "random"]`, 0, 64, "a1", "c9", "e18", "g27", "draughts-capture"},
		{"drafti", "B:B9,K1:W14,23,32", `["random", "human"]`, 1, 64, "h1", "f9", "d18", "b27", "drafti-capture"},
	}
	for _, tt := range tests {
		t.Run(tt.game, func(t *testing.T) {
			g := ts.create(`{"game": "` + tt.game + `", "params": {"fen": "` + tt.fen + `"}, "seats": ` + tt.seats + `}`)
			tb := b.tabFor(t)
			tb.do(chromedp.EmulateViewport(1280, 900), chromedp.Navigate(ts.http.URL+g.Seats[tt.seat].URL))
			tb.waitFor(`document.getElementById("status").dataset.myturn === "true"`)
			count := func(sel string) int {
				var n int
				require.NoError(t, json.Unmarshal([]byte(tb.eval(`String(document.querySelectorAll(`+quoteJS(sel)+`).length)`)), &n))
				return n
			}
			require.Equal(t, tt.squares, count("#board rect.square"), "the squares of the board")
			require.Equal(t, count("#board .site"), count("#board .site rect.square.dark"), "every site is a dark square")
			require.Zero(t, count("#board line.line"), "a checkered board draws no lines")
			require.Equal(t, 1, count(`#board .site[data-site="`+tt.king+`"] .stack .crown`), "the king on %s wears a crown", tt.king)
			require.Equal(t, 1, count("#board .stack"), "one king on the board")
			require.Zero(t, count(`#board .site[data-site="`+tt.king+`"] .count`), "a king is not a number")
			require.NotContains(t, tb.eval(`document.getElementById("scores").textContent`), "In hand", "the crowns in hand are not shown")
			targets := func() string {
				return tb.eval(`[...document.querySelectorAll("#board .site.target")].map((e) => e.dataset.site).join(" ")`)
			}
			require.Equal(t, tt.from, targets(), "only the piece that must capture is ringed")
			tb.clickSite(tt.from)
			tb.clickSite(tt.jump)
			tb.waitPly(1)
			tb.waitFor(`document.getElementById("status").dataset.myturn === "true"`)
			require.Equal(t, tt.next, targets(), "the capture goes on to one square")
			require.Equal(t, tt.jump, tb.eval(`[...document.querySelectorAll("#board .site.goes-on")].map((e) => e.dataset.site).join(" ")`),
				"the piece that goes on is marked")
			tb.screenshot(tt.shot)
			// The last jump and the computer's reply, animated: a piece
			// moves as the piece it is, not as a numbered counter.
			tb.eval(`(() => { localStorage.setItem("matombo:setting:speed", JSON.stringify("slow")); return "" })()`)
			tb.clickSite(tt.next)
			tb.waitFor(`document.querySelector("#board .token.pieces circle.owner` + fmt.Sprint(tt.seat+1) + `, #board .token.pieces circle.owner` + fmt.Sprint(2-tt.seat) + `") !== null`)
			require.Equal(t, "", tb.eval(`[...document.querySelectorAll("#board .token.pieces text")].map((e) => e.textContent).join(" ")`), "a man in flight has no number")
			tb.waitFor(`Number(document.getElementById("status").dataset.ply) >= 3 && document.getElementById("status").dataset.myturn === "true" && document.getElementById("board").dataset.animating === undefined`)
			require.Zero(t, count("#board .site.goes-on"), "the turn is over")
		})
	}
}

// quoteJS writes s as a JavaScript string literal.
func quoteJS(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
