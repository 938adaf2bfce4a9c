package server

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rect is an element's place on the screen: top, bottom, left, right in
// CSS pixels, rounded.
func (tb *tab) rect(sel string) [4]int {
	tb.t.Helper()
	var r [4]int
	s := tb.eval(`(() => { const e = document.querySelector(` + strconv.Quote(sel) + `); if (!e) return "";
		const r = e.getBoundingClientRect(); return [r.top, r.bottom, r.left, r.right].map(Math.round).join(" ") })()`)
	n, err := fmt.Sscan(s, &r[0], &r[1], &r[2], &r[3])
	require.NoError(tb.t, err, "%s: %q", sel, s)
	require.Equal(tb.t, 4, n)
	return r
}

// TestBrowserPhoneBarKeepsTheBoard: on a phone, selecting a piece brings
// up the decision bar (the selection and Cancel), and the board does not
// move: what the decision asks goes to the bar (in view however far the
// board is scrolled), and its room stays in the status. The bar covers neither the board's last row nor the
// piece selected, which the bar names as the moves do (by number);
// Cancel takes the bar away, and the board stays.
func TestBrowserPhoneBarKeepsTheBoard(t *testing.T) {
	t.Parallel() // a browser of its own; the waits are for the page, not the processor
	ts := newTestServer(t, newMemStore())
	b := newBrowser(t, ts.http.URL)
	g := ts.create(`{"game": "draughts", "seats": ["human", "random"]}`)
	tb := openAt(b, t, viewports[1], ts.http.URL, g.Seats[0].URL)
	tb.waitFor(`document.getElementById("status").dataset.myturn === "true" && document.querySelector("#board .site.target") !== null`)
	require.NotEmpty(t, tb.text("#status .asks"), "the status says what the decision asks")
	before := tb.rect("#board svg")
	status := tb.rect("#status")
	require.Equal(t, "false", tb.eval(`String(document.getElementById("actions").classList.contains("bar"))`))

	tb.click("#board .site.target")
	tb.waitFor(`document.getElementById("actions").classList.contains("bar") && document.querySelector("#board .site.selected") !== null`)
	assert.Equal(t, before, tb.rect("#board svg"), "the board stays where it was")
	assert.Equal(t, status, tb.rect("#status"), "the status keeps its room")
	bar := tb.rect("#actions")
	assert.GreaterOrEqual(t, bar[0], before[1], "the bar is below the board's last row")
	assert.GreaterOrEqual(t, bar[0], tb.rect("#board .site.selected")[1], "the bar leaves the selected piece in view")
	assert.Equal(t, tb.text("#status .asks"), tb.text("#actions .prompt"), "the bar says what the decision asks")
	assert.True(t, tb.inView("#actions .prompt"))
	assert.Equal(t, "hidden", tb.eval(`getComputedStyle(document.querySelector("#status .asks")).visibility`), "said once: in the bar, its room kept in the status")
	// The board's moves write its squares by number (11-15): the page
	// names the square selected so too, not by its name (c11).
	site := tb.eval(`document.querySelector("#board .site.selected").dataset.site`)
	number, err := strconv.Atoi(strings.TrimLeft(site, "abcdefghijklmnopqrstuvwxyz"))
	require.NoError(t, err, site)
	assert.Equal(t, fmt.Sprintf("Selected %d", number), tb.text("#actions .hint"))
	assert.True(t, strings.HasPrefix(tb.eval(`document.querySelector("#board .site.selected").getAttribute("aria-label")`), fmt.Sprintf("%d: ", number)))
	tb.screenshot("phone-selected")

	tb.click(`#actions button[data-action="cancel"]`)
	tb.waitFor(`!document.getElementById("actions").classList.contains("bar")`)
	assert.Equal(t, before, tb.rect("#board svg"), "the board stays where it was")
	assert.Equal(t, "visible", tb.eval(`getComputedStyle(document.querySelector("#status .asks")).visibility`))
}

// TestBrowserTurnKeepsTheBoard: when the turn passes, the status line
// above the board changes its words (the opponent's turn on one line;
// one's own on two, on a phone, with what the decision asks), but keeps
// its room: the board does not move up when the words get shorter. Only
// a question longer than any before (a rule of three lines) makes the
// status grow, and the board moves down by as much, once.
func TestBrowserTurnKeepsTheBoard(t *testing.T) {
	t.Parallel() // a browser of its own; the waits are for the page, not the processor
	ts := newTestServer(t, newMemStore())
	b := newBrowser(t, ts.http.URL)
	for _, game := range []string{"yematatu", "tsoro", "kalah", "draughts"} {
		for _, size := range viewports {
			t.Run(game+" "+size.name, func(t *testing.T) {
				// The browser holds Player 1's seat; Player 2's moves come
				// from the API. Each player plays their first legal move.
				g := ts.create(`{"game": "` + game + `", "hold": [1, 2]}`)
				s1, s2 := ts.both(g)
				tb := openAt(b, t, size, ts.http.URL, fmt.Sprintf("/g/%s#player=1&seat=%s", g.ID, s1))
				tb.waitFor(`document.getElementById("status").dataset.myturn === "true"`)
				board, status := tb.rect("#board svg"), tb.rect("#status")
				for ply := 1; ply <= 6; ply++ {
					cur := ts.get(g.ID)
					st := cur.state(t)
					if st.Over {
						break
					}
					ts.play(g.ID, []string{s1, s2}, st.Legal[0])
					next := ts.get(g.ID).state(t)
					tb.waitFor(fmt.Sprintf(`document.getElementById("status").dataset.ply === "%d" && document.getElementById("status").dataset.myturn === "%t"`, len(cur.Record)+1, next.ToMove == 1 && !next.Over))
					tb.waitFor(`!document.querySelector("#board .animating")`)
					nowBoard, nowStatus, words := tb.rect("#board svg"), tb.rect("#status"), tb.text("#status")
					grew := nowStatus[1] - status[1]
					assert.GreaterOrEqual(t, grew, 0, "after %s, the status reading %q: it keeps its room", st.Legal[0], words)
					assert.InDelta(t, board[0]+grew, nowBoard[0], 1, "after %s, the status reading %q: the board moves only as the status grows (by a pixel rounded)", st.Legal[0], words)
					if ply == 1 && next.ToMove == 2 {
						assert.Equal(t, board, nowBoard, "the turn passing to the opponent leaves the board where it was")
					}
					board, status = nowBoard, nowStatus
				}
			})
		}
	}
}
