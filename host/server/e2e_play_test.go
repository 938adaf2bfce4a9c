package server

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/host"
)

// Browser tests of playing as players expect (seats that belong to one
// person, a phone's decision bar, fair clocks, words, resign and draws,
// the record, perfect play, variants, winning lines, orientation), each at
// a desktop's and a phone's size. A JavaScript error the page logs fails
// them (see tab).

// recordUntil plays random games of a game (seeded, the same every run)
// and returns the record of the first position where done holds.
func recordUntil(t *testing.T, game string, variants []string, done func(*host.State) bool) []string {
	t.Helper()
	g, err := lib().Load(game, host.WithVariant(variants...))
	require.NoError(t, err)
	for seed := uint64(1); seed < 1000; seed++ {
		rng := rand.New(rand.NewPCG(seed, 11))
		s := g.Start()
		var rec []string
		for !s.Over() && len(rec) < 200 {
			if len(rec) > 0 && done(s) {
				return rec
			}
			moves := s.Moves()
			m := moves[rng.IntN(len(moves))]
			rec = append(rec, g.Token(m))
			require.NoError(t, s.Apply(m))
		}
	}
	t.Fatalf("no position of %s found in 1000 random games", game)
	return nil
}

// text is the text of an element, "" when there is none.
func (tb *tab) text(sel string) string {
	tb.t.Helper()
	return tb.eval(fmt.Sprintf(`(() => { const e = document.querySelector(%q); return e ? e.textContent : "" })()`, sel))
}

// count is the number of elements a selector finds.
func (tb *tab) count(sel string) int {
	tb.t.Helper()
	var n int
	_, err := fmt.Sscan(tb.eval(fmt.Sprintf(`String(document.querySelectorAll(%q).length)`, sel)), &n)
	require.NoError(tb.t, err)
	return n
}

// inView reports whether the element is wholly inside the window, as it
// is, without scrolling.
func (tb *tab) inView(sel string) bool {
	tb.t.Helper()
	return tb.eval(fmt.Sprintf(`(() => { const e = document.querySelector(%q); if (!e) return "missing";
		const r = e.getBoundingClientRect();
		return String(r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth) })()`, sel)) == "true"
}

// open opens a link of the server in a new tab of the size.
func openAt(b *browser, t *testing.T, size viewport, base, link string) *tab {
	tb := b.tabFor(t)
	tb.do(size.emulate(), chromedp.Navigate(base+link))
	tb.waitFor(`document.getElementById("status") && document.getElementById("status").dataset.ply !== undefined`)
	return tb
}

// TestBrowserSeatsBelongToOnePerson: the creator's browser holds only its
// creator's seat: the other person's seat is an invitation the first other
// browser claims; the creator's page never plays for it, the spectator
// link never plays (in the creator's own browser either), a used
// invitation only watches, and a seat link opened in the same tab (only
// the part after # differs) is taken.
func TestBrowserSeatsBelongToOnePerson(t *testing.T) {
	t.Parallel() // a browser of its own; the waits are for the page, not the processor
	ts := newTestServer(t, newMemStore())
	b := newBrowser(t, ts.http.URL)
	for _, size := range viewports {
		t.Run(size.name, func(t *testing.T) {
			creator := b.tabFor(t)
			creator.do(size.emulate(), chromedp.Navigate(ts.http.URL+"/"))
			creator.waitFor(`document.querySelector('#ng-game option[value="yematatu"]') !== null`)
			creator.do(chromedp.SetValue(chromedp.CSS("#ng-game"), "yematatu"))
			creator.eval(`(() => { document.getElementById("ng-game").dispatchEvent(new Event("change")); return "" })()`)
			creator.waitFor(`document.querySelector('[data-seat="2"]') !== null`)
			creator.do(chromedp.SetValue(chromedp.CSS(`[data-seat="2"]`), "human"))
			creator.eval(`(() => { document.querySelector('[data-seat="2"]').dispatchEvent(new Event("change")); return "" })()`)
			require.Equal(t, "1", creator.eval(`document.getElementById("ng-hold").value`), "the creator plays Player 1")
			require.Contains(t, creator.eval(`document.getElementById("ng-hold").textContent`), "Both seats here")
			creator.do(chromedp.Click(chromedp.ID("ng-start")))
			creator.waitFor(`location.hash.includes("player=1&seat=") && document.getElementById("status").dataset.myturn === "true"`)
			creator.waitFor(`document.querySelector('input[data-share="2"]') !== null`)
			invite := creator.eval(`document.querySelector('input[data-share="2"]').value`)
			require.Contains(t, invite, "#player=2&invite=")
			require.Contains(t, creator.text("#share"), "Invitation for Player 2")
			// "Copy the link" copies it; where the browser refuses the
			// clipboard, the link is selected for the player to copy.
			creator.eval(`(() => { Object.defineProperty(navigator, "clipboard", { configurable: true, value: { writeText: async (t) => { window.copied = t; } } }); return "" })()`)
			creator.click(`#share button[data-action="copy-invite"]`)
			creator.waitFor(`window.copied !== undefined && document.querySelector('#share button[data-action="copy-invite"]').textContent === "Copied"`)
			require.Equal(t, invite, creator.eval(`window.copied`))
			creator.eval(`(() => { Object.defineProperty(navigator, "clipboard", { configurable: true, value: { writeText: async () => { throw new Error("refused"); } } }); return "" })()`)
			creator.click(`#share button[data-action="copy-invite"]`)
			creator.waitFor(`document.querySelector('#share button[data-action="copy-invite"]').textContent === "Selected: copy it"`)
			require.Equal(t, "true", creator.eval(`String(document.activeElement === document.querySelector('input[data-share="2"]'))`), "the link is selected")
			require.Contains(t, creator.text("#scores"), "Player 2: Invited, not here yet")
			seatLink := creator.eval(`location.href`)
			id := strings.TrimPrefix(creator.eval(`location.pathname`), "/g/")

			// The spectator link, in the creator's own browser: it watches,
			// shows no invitation, and offers the way back to the seat.
			creator.do(chromedp.Navigate(ts.http.URL + "/g/" + id))
			creator.waitFor(`document.querySelector('[data-action="play-seat"]') !== null`)
			require.Equal(t, "false", creator.eval(`document.getElementById("status").dataset.myturn`))
			require.Equal(t, 0, creator.count("#board .site.target"))
			require.Equal(t, 0, creator.count("input[data-share]"))
			require.Equal(t, 0, creator.count("#around button"))
			creator.click(`[data-action="play-seat"]`)
			creator.waitFor(`document.getElementById("status").dataset.myturn === "true"`)
			creator.clickSite("b2")
			creator.waitPly(1)

			// Player 2's turn: the creator cannot play it.
			creator.waitFor(`document.getElementById("status").textContent.includes("waiting for them to open their invitation link")`)
			require.Equal(t, "false", creator.eval(`document.getElementById("status").dataset.myturn`))
			require.Equal(t, 0, creator.count("#board .site.target"))
			if size.phone {
				creator.screenshot("invitation-phone")
			} else {
				creator.screenshot("invitation")
			}

			// Another browser claims the seat with the invitation.
			guest := openAt(b, t, size, "", invite)
			guest.waitFor(`location.hash.includes("player=2&seat=") && document.getElementById("status").dataset.myturn === "true"`)
			creator.waitFor(`document.querySelector('[data-joined="2"]') !== null`)
			require.Contains(t, creator.text("#scores"), "Player 2: A person", "a person's seat in the page's words, not the API's name")
			guest.clickSite("c1")
			creator.waitPly(2)
			creator.waitFor(`document.getElementById("status").dataset.myturn === "true"`)

			// A third browser opening the used invitation only watches.
			late := openAt(b, t, size, "", invite)
			late.waitFor(`document.getElementById("error").textContent.includes("used already")`)
			require.Equal(t, "/g/"+id, late.eval(`location.pathname`))
			require.Equal(t, "", late.eval(`location.hash`))
			late.waitFor(`document.getElementById("scores").textContent.includes("Player 1: A person")`) // a spectator reads each person's seat so
			require.Equal(t, 0, late.count("#board .site.target"))

			// The guest's seat link opened in the creator's tab: only the
			// part after # differs, and the page is loaded for it.
			guestLink := guest.eval(`location.href`)
			require.NotEqual(t, seatLink, guestLink)
			creator.do(chromedp.Navigate(guestLink))
			creator.waitFor(`location.hash.includes("player=2&seat=") && document.getElementById("scores").textContent.includes("Player 2: You")`)
		})
	}
}

// TestBrowserPhoneDecisionBar: Tsoro 4x21 at a continue/stop decision.
// On a phone the decision stays in view in a bar at the bottom and the
// status says what it asks; the long board stands upright, fits the
// width and its holes and numbers stay readable.
func TestBrowserPhoneDecisionBar(t *testing.T) {
	t.Parallel() // a browser of its own; the waits are for the page, not the processor
	rec := recordUntil(t, "tsoro", nil, func(s *host.State) bool {
		return s.ToMove() == 1 && strings.Contains(strings.Join(s.Legal(), " "), "continue")
	})
	ts := newTestServer(t, newMemStore())
	b := newBrowser(t, ts.http.URL)
	for _, size := range viewports {
		t.Run(size.name, func(t *testing.T) {
			g := ts.create(`{"game": "tsoro", "hold": [1, 2]}`)
			ts.play(g.ID, ts.seatsOf(g), rec...)
			tb := b.tabFor(t)
			tb.do(size.emulate(), chromedp.Navigate(ts.http.URL+link(g, 1)))
			tb.waitFor(`location.hash.includes("player=2")`)
			tb.do(chromedp.Navigate(ts.http.URL + link(g, 0)))
			tb.waitPly(len(rec))
			tb.waitFor(`document.querySelector('#actions button[data-token="continue"]') !== null`)
			require.Contains(t, tb.text("#status"), "Your lap ended on your head", "the status says what the decision asks")
			require.Equal(t, "Continue sowing", tb.text(`#actions button[data-token="continue"]`))
			require.Equal(t, "Stop here", tb.text(`#actions button[data-token="stop"]`))
			require.True(t, tb.inView(`#actions button[data-token="continue"]`), "continue in view")
			require.True(t, tb.inView(`#actions button[data-token="stop"]`), "stop in view")
			require.Equal(t, "true", tb.eval(`String(document.documentElement.scrollWidth <= innerWidth + 1)`), "the page fits the width")
			if size.phone {
				require.Equal(t, "fixed", tb.eval(`getComputedStyle(document.getElementById("actions")).position`))
				// Upright: the columns go down the screen.
				require.Equal(t, "true", tb.eval(`String(document.querySelector('[data-site="a1"] circle').getBoundingClientRect().top < document.querySelector('[data-site="a21"] circle').getBoundingClientRect().top)`))
				// Readable: holes of 28 pixels or more, numbers of 10 or more.
				hole := tb.eval(`String(Math.round(document.querySelector('#board .hole').getBoundingClientRect().width))`)
				assert.GreaterOrEqual(t, atoi(t, hole), 28, "hole width")
				font := tb.eval(`String(Math.round(document.querySelector('#board .count').getBoundingClientRect().height))`)
				assert.GreaterOrEqual(t, atoi(t, font), 10, "number height")
				// About a screen long, not the 1,557 pixels it was.
				height := tb.eval(`String(Math.round(document.querySelector('#board svg').getBoundingClientRect().height))`)
				assert.Less(t, atoi(t, height), 1250, "board height")
			}
			// The status keeps no room for words it does not show (on a
			// phone, the question is the bar's): no empty band above the
			// board.
			band := tb.eval(`(() => { const s = document.getElementById("status"), r = document.createRange(); r.selectNodeContents(s);
				return String(Math.round(s.getBoundingClientRect().bottom - r.getBoundingClientRect().bottom)) })()`)
			assert.LessOrEqual(t, atoi(t, band), 2, "the status's room below its words")
			tb.screenshot("tsoro-decision" + size.suffix)
			tb.click(`#actions button[data-token="stop"]`)
			tb.waitPly(len(rec) + 1)
			require.Equal(t, 0, tb.count("#actions button"), "the bar goes with the decision")
			require.Equal(t, "false", tb.eval(`String(document.body.classList.contains("has-bar"))`))
		})
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	var n int
	_, err := fmt.Sscan(s, &n)
	require.NoError(t, err, s)
	return n
}

// TestBrowserClockChargesThinkingOnly: Kalah with a clock; Player 1's move
// is animated on Player 2's page while Player 2's bank stays full (the
// server starts it after the move has been shown, and the page fits the
// animation into that time); the clocks keep counting during a replay's
// animation; the server's clock is the one shown.
func TestBrowserClockChargesThinkingOnly(t *testing.T) {
	t.Parallel() // a browser of its own; the waits are for the page, not the processor
	ts := newTestServer(t, newMemStore())
	b := newBrowser(t, ts.http.URL)
	for _, size := range viewports {
		t.Run(size.name, func(t *testing.T) {
			g := ts.create(`{"game": "kalah", "hold": [1, 2], "clock": {"initial": 20}}`)
			s1, _ := ts.both(g)
			p2 := b.tabFor(t)
			p2.do(size.emulate(), reduceMotion(false), chromedp.Navigate(ts.http.URL+link(g, 1)))
			p2.waitPly(0)
			p2.eval(`(() => { localStorage.setItem("matombo:setting:speed", JSON.stringify("slow")); return "" })()`)
			p2.do(chromedp.Reload())
			p2.waitPly(0)
			// Sample Player 2's clock at every frame while the board is
			// animated, within the time the page gives the animation (on a
			// machine too busy to draw a frame in time, a frame may come
			// after it: what matters is what the page planned). The page
			// plans to end before the clock starts.
			p2.eval(`(() => {
				window.samples = [];
				window.all = [];
				window.allT = [];
				window.plans = [];
				const tick = () => {
					const d = document.getElementById("board").dataset;
					const shown = document.querySelector("#clocks .clock[data-player='2'] .time").textContent;
					if (d.animating) {
						window.all.push(shown);
						window.allT.push(performance.now());
					}
					if (d.animating && d.until) {
						if (performance.now() < Number(d.until)) window.samples.push(shown);
						window.plans.push(Number(d.until));
					}
					requestAnimationFrame(tick);
				};
				requestAnimationFrame(tick);
				return "";
			})()`)
			status, body := ts.move(g.ID, "a2", 0, s1)
			require.Equal(t, http.StatusOK, status, "%s", body)
			p2.waitFor(`window.plans.length > 0`)
			p2.waitPly(1)
			p2.waitFor(`document.getElementById("board").dataset.animating === undefined`)
			require.Equal(t, "true", p2.eval(`String(Math.max(...window.plans) <= Number(document.getElementById("clocks").dataset.starts))`),
				"the animation is planned to end before Player 2's clock starts")
			samples := p2.eval(`window.samples.join(" ")`)
			for _, s := range strings.Fields(samples) {
				require.Equal(t, "0:20", s, "Player 2 is not charged while the move is shown: %s", samples)
			}
			// Then Player 2's clock runs, from the server's state.
			p2.waitFor(`document.querySelector("#clocks .clock[data-player='2'] .time").textContent !== "0:20"`)
			require.Equal(t, "true", p2.eval(`String(document.querySelector("#clocks .clock[data-player='2']").classList.contains("running"))`))
			// During a replay's animation (slow: seconds) the running clock
			// keeps counting.
			p2.eval(`(() => { window.all = []; window.allT = []; return "" })()`)
			p2.click(`#record li[data-turn="0"]`)
			// Samples over more than a second of the animation (slow: it
			// lasts seconds), whatever the frames the machine can draw.
			p2.waitFor(`window.allT.length > 1 && window.allT[window.allT.length - 1] - window.allT[0] > 1200`)
			distinct := map[string]bool{}
			for _, s := range strings.Fields(p2.eval(`window.all.join(" ")`)) {
				distinct[s] = true
			}
			assert.Greater(t, len(distinct), 1, "the clock counts during an animation")
			got := ts.get(g.ID)
			require.NotNil(t, got.Clock)
			assert.Equal(t, 2, got.Clock.Running)
			assert.Equal(t, int64(20000), got.Clock.Left[0], "the clocks start with the first move")
		})
	}
}

// TestBrowserWords: computer seats by a name a player understands (the
// spec only in a details line), tags and move kinds in the script's words,
// decisions as buttons in words, and no orphan hint.
func TestBrowserWords(t *testing.T) {
	t.Parallel() // a browser of its own; the waits are for the page, not the processor
	ts := newTestServer(t, newMemStore())
	b := newBrowser(t, ts.http.URL)
	for _, size := range viewports {
		t.Run(size.name, func(t *testing.T) {
			g := ts.create(`{"game": "tsoro", "variants": ["4x8"], "seats": ["human", "mcts:iterations=50"]}`)
			tb := openAt(b, t, size, ts.http.URL, g.Seats[0].URL)
			tb.waitFor(`document.getElementById("status").dataset.myturn === "true"`)
			scores := tb.text("#scores")
			require.Contains(t, scores, "Player 1: You")
			require.Contains(t, scores, "Player 2: Computer (strong, 2 s a move)")
			require.Contains(t, tb.eval(`document.querySelector("#scores details").textContent`), "Player 2: mcts:time=2s,iterations=50,threads=")
			require.Equal(t, "false", tb.eval(`String(document.querySelector("#scores details").open)`), "the spec is in a closed details line")
			require.Equal(t, "The computer's settings", tb.text("#scores details summary"))
			legend := tb.text("#legend")
			require.Contains(t, legend, "A head: a lap that ends on your own occupied head may sow on or stop there")
			require.NotContains(t, legend, "tagged")
			body := tb.eval(`document.body.innerText`)
			require.NotContains(t, body, "or click a highlighted site")
			require.NotContains(t, body, "computer mcts")
			require.NotContains(t, tb.text("#status"), "mcts")
		})
	}
}

// TestBrowserTagMarks: a board of several tags marks each with a shape of
// its own, and the legend shows each tag's shape beside its words (Bao la
// Kiswahili's front rows and houses; a house is in a front row and has
// both marks). On a phone, what the decision asks is said once.
func TestBrowserTagMarks(t *testing.T) {
	t.Parallel() // a browser of its own; the waits are for the page, not the processor
	ts := newTestServer(t, newMemStore())
	b := newBrowser(t, ts.http.URL)
	g := ts.create(`{"game": "baokiswahili", "seats": ["human", "human"]}`)
	tb := openAt(b, t, viewports[0], ts.http.URL, g.Seats[0].URL)
	tb.waitFor(`document.querySelectorAll("#legend .tagdoc").length === 2`)
	legend := strings.Split(tb.eval(`Array.from(document.querySelectorAll("#legend .tagdoc")).map((e) => e.textContent.slice(0, 2)).join("|")`), "|")
	require.Len(t, legend, 2)
	assert.NotEqual(t, legend[0], legend[1], "each tag has its own mark in the legend")
	shapes := tb.eval(`(() => {
		const d = {};
		for (const m of document.querySelectorAll("#board .tagmark")) d[m.dataset.tag] = m.getAttribute("d").replace(/[-\d. ]+/g, "");
		return Object.keys(d).sort().map((k) => k + "=" + d[k]).join(" ");
	})()`)
	assert.Equal(t, "front=Mlllz house=Maaz", shapes)
	assert.Equal(t, "2", tb.eval(`String(document.querySelectorAll('#board .tagmark[data-tag="house"]').length)`))
	// On a phone the status says what the decision asks, and a decision
	// without buttons (no bar) does not say it again below the board.
	phone := openAt(b, t, viewports[1], ts.http.URL, g.Seats[0].URL)
	phone.waitFor(`document.getElementById("status").dataset.myturn === "true" && document.querySelector("#actions .prompt") !== null`)
	require.Contains(t, phone.text("#status .asks"), "put a seed from your hand")
	assert.Equal(t, "none", phone.eval(`getComputedStyle(document.querySelector("#actions .prompt")).display`))
	assert.Equal(t, "true", phone.eval(`String(document.querySelector("#actions .prompt").textContent === document.querySelector("#status .asks").textContent)`))
}

// TestBrowserResignDrawAbort: two browsers; an abort before every player
// has moved, a draw offered and declined, then offered and accepted, a
// resignation confirmed; each result on both pages and in the API, and
// no Undo after the end.
func TestBrowserResignDrawAbort(t *testing.T) {
	t.Parallel() // a browser of its own; the waits are for the page, not the processor
	ts := newTestServer(t, newMemStore())
	b := newBrowser(t, ts.http.URL)
	for _, size := range viewports {
		t.Run(size.name, func(t *testing.T) {
			pages := func(g testGame) (*tab, *tab) {
				p1, p2 := openAt(b, t, size, ts.http.URL, link(g, 0)), openAt(b, t, size, ts.http.URL, link(g, 1))
				p2.waitFor(`location.hash.includes("seat=")`)
				return p1, p2
			}
			both := func(cond string, tabs ...*tab) {
				for _, tb := range tabs {
					tb.waitFor(cond)
				}
			}

			// Abort: before every player has moved.
			g := ts.create(`{"game": "yematatu"}`)
			p1, p2 := pages(g)
			p1.clickAction("abort")
			both(`document.getElementById("status").textContent === "Game aborted Player 1 aborted the game before every player had moved."`, p1, p2)
			assert.Equal(t, "aborted", ts.get(g.ID).Result.Method)
			require.Equal(t, 0, p1.count(`#around button[data-action="takeback"]`))

			// A draw: offered, declined, offered again, accepted.
			g = ts.create(`{"game": "yematatu", "hold": [1, 2]}`)
			s1, s2 := ts.both(g)
			ts.play(g.ID, []string{s1, s2}, "b2", "c1")
			p1, p2 = pages(g)
			both(`document.getElementById("status").dataset.ply === "2"`, p1, p2)
			require.Equal(t, 0, p1.count(`#around button[data-action="abort"]`), "every player has moved: no abort")
			p1.clickAction("draw")
			p2.waitFor(`document.getElementById("around").textContent.includes("Player 1 offers a draw.")`)
			p1.waitFor(`document.getElementById("around").textContent.includes("You offered a draw")`)
			p2.screenshot("draw-offer" + size.suffix)
			p2.clickAction("decline")
			both(`!document.getElementById("around").textContent.includes("offer")`, p1, p2)
			p2.clickAction("draw")
			p1.waitFor(`document.getElementById("around").textContent.includes("Player 2 offers a draw.")`)
			p1.clickAction("accept")
			both(`document.getElementById("status").textContent === "Draw by agreement"`, p1, p2)
			got := ts.get(g.ID)
			assert.Equal(t, "agreement", got.Result.Method)
			assert.Contains(t, string(got.State), `"method":"agreement"`)
			require.Equal(t, 0, p1.count(`#around button[data-action="takeback"]`), "no Undo after the end")
			require.Equal(t, 1, p1.count(`#around button[data-action="rematch"]`))

			// A resignation, confirmed.
			g = ts.create(`{"game": "yematatu", "hold": [1, 2]}`)
			s1, s2 = ts.both(g)
			ts.play(g.ID, []string{s1, s2}, "b2", "c1")
			p1, p2 = pages(g)
			p1.clickAction("resign")
			p1.clickAction("resign-cancel")
			p1.waitFor(`document.querySelector('#around button[data-action="resign"]') !== null`)
			require.Nil(t, ts.get(g.ID).Result, "cancelled")
			p1.clickAction("resign")
			p1.clickAction("resign-confirm")
			both(`document.getElementById("status").textContent === "Player 2 wins Player 1 resigned."`, p1, p2)
			got = ts.get(g.ID)
			assert.Equal(t, "resignation", got.Result.Method)
			assert.Equal(t, 2, got.Result.Winner)
			p2.screenshot("resigned" + size.suffix)
		})
	}
}

// TestBrowserUndoAfterTheEnd: against the computer, no Undo once the game
// is over.
func TestBrowserUndoAfterTheEnd(t *testing.T) {
	t.Parallel() // a browser of its own; the waits are for the page, not the processor
	ts := newTestServer(t, newMemStore())
	g := ts.create(`{"game": "yematatu", "variants": ["square"], "seats": ["human", "random"]}`)
	me := secret(t, g.Seats[0].URL)
	b := newBrowser(t, ts.http.URL)
	tb := openAt(b, t, viewports[0], ts.http.URL, g.Seats[0].URL)
	// Play until the game is over, by the API.
	for {
		cur := ts.waitGame(g.ID, func(g testGame) bool { st := g.state(t); return st.Over || st.ToMove == 1 })
		st := cur.state(t)
		if st.Over {
			break
		}
		ts.move(g.ID, st.Legal[0], len(cur.Record), me)
	}
	tb.waitFor(`document.getElementById("status").dataset.over === "true"`)
	require.Equal(t, 0, tb.count(`#around button[data-action="takeback"]`))
	require.Equal(t, 1, tb.count(`#around button[data-action="rematch"]`))
}

// TestBrowserRecordStepping: one source of truth for the position shown:
// the status, the slider, its label and the record agree; a past position
// shows no thinking computer and no Undo; "Back to the game" returns at
// once, even during a replay.
func TestBrowserRecordStepping(t *testing.T) {
	t.Parallel() // a browser of its own; the waits are for the page, not the processor
	ts := newTestServer(t, newMemStore())
	b := newBrowser(t, ts.http.URL)
	for _, size := range viewports {
		t.Run(size.name, func(t *testing.T) {
			g := ts.create(`{"game": "gore", "seats": ["human", "random"]}`)
			me := secret(t, g.Seats[0].URL)
			for ply := 0; ply < 6; ply += 2 {
				cur := ts.waitGame(g.ID, func(g testGame) bool { return len(g.Record) >= ply })
				status, body := ts.move(g.ID, cur.state(t).Legal[0], ply, me)
				require.Equal(t, http.StatusOK, status, "%s", body)
			}
			ts.waitGame(g.ID, func(g testGame) bool { return len(g.Record) >= 6 })
			tb := openAt(b, t, size, ts.http.URL, g.Seats[0].URL)
			tb.waitPly(6)
			tb.waitFor(`document.getElementById("status").dataset.myturn === "true"`)
			agree := func(shown int) {
				t.Helper()
				tb.waitFor(fmt.Sprintf(`document.getElementById("status").dataset.shown === "%d"`, shown))
				require.Equal(t, fmt.Sprint(shown), tb.eval(`document.getElementById("ply").value`))
				require.Equal(t, fmt.Sprintf("Move %d of 6", shown), tb.text("#plylabel"))
				status := tb.text("#status")
				require.Contains(t, status, fmt.Sprintf("viewing the position after move %d of 6", shown))
				require.NotContains(t, status, "thinking")
				require.Equal(t, 0, tb.count("#around button"), "no Undo or other action in a past position")
				require.Equal(t, 0, tb.count("#board .site.target"))
				cur := tb.eval(`(() => { const li = document.querySelector("#record li.current"); return li ? li.dataset.first + "-" + li.dataset.last : "" })()`)
				if shown > 0 {
					require.NotEmpty(t, cur)
					var first, last int
					fmt.Sscanf(cur, "%d-%d", &first, &last)
					require.True(t, first <= shown && shown <= last, "the record's turn %s holds move %d", cur, shown)
				}
			}
			tb.do(chromedp.Click(chromedp.ID("prevturn")))
			agree(5)
			tb.do(chromedp.Click(chromedp.ID("prevturn")))
			agree(4)
			tb.do(chromedp.Click(chromedp.ID("nextturn")))
			agree(5)
			tb.do(chromedp.Click(chromedp.ID("live")))
			tb.waitFor(`document.getElementById("status").dataset.shown === "6"`)
			require.Equal(t, "true", tb.eval(`document.getElementById("status").dataset.myturn`))

			// "Back to the game" during a slow replay returns at once.
			tb.do(chromedp.SetValue(chromedp.ID("speed"), "slow"))
			tb.eval(`(() => { document.getElementById("speed").dispatchEvent(new Event("change")); return "" })()`)
			tb.do(reduceMotion(false))
			tb.click(`#record li[data-turn="0"]`)
			tb.waitFor(`document.getElementById("board").dataset.animating === "true"`)
			tb.do(chromedp.Click(chromedp.ID("live")))
			tb.waitFor(`document.getElementById("status").dataset.shown === "6" && document.getElementById("board").dataset.animating === undefined && document.getElementById("status").dataset.myturn === "true"`)
			require.NotZero(t, tb.count(`#board .site.target`), "the live position, to play")
			tb.do(chromedp.SetValue(chromedp.ID("speed"), "off"))
			tb.eval(`(() => { document.getElementById("speed").dispatchEvent(new Event("change")); return "" })()`)
		})
	}
}

// TestBrowserPerfectOffered: the form offers perfect play only where the
// server has decided it works: not for Tsoro, yes for Tic-tac-toe.
func TestBrowserPerfectOffered(t *testing.T) {
	t.Parallel() // a browser of its own; the waits are for the page, not the processor
	ts := newTestServer(t, newMemStore())
	b := newBrowser(t, ts.http.URL)
	for _, size := range viewports {
		t.Run(size.name, func(t *testing.T) {
			tb := b.tabFor(t)
			tb.do(size.emulate(), chromedp.Navigate(ts.http.URL+"/"))
			perfect := `document.querySelector('[data-seat="2"] option[data-computer="perfect"]')`
			tb.waitFor(perfect + ` !== null`)
			// Tsoro: decided not offered (hidden), after being checked.
			tb.waitFor(perfect + `.hidden && ` + perfect + `.disabled`)
			require.Contains(t, tb.eval(perfect+`.title`), "positions")
			tb.do(chromedp.SetValue(chromedp.CSS("#ng-game"), "tictactoe"))
			tb.eval(`(() => { document.getElementById("ng-game").dispatchEvent(new Event("change")); return "" })()`)
			tb.waitFor(`!` + perfect + `.hidden && !` + perfect + `.disabled && ` + perfect + `.textContent === "Computer (perfect play)"`)
			tb.do(chromedp.SetValue(chromedp.CSS(`[data-seat="2"]`), "perfect"))
			tb.eval(`(() => { document.querySelector('[data-seat="2"]').dispatchEvent(new Event("change")); return "" })()`)
			require.Equal(t, "Plays as perfect", tb.text(`[data-spec="2"] .spec-text`))
			require.Equal(t, "false", tb.eval(`String(document.querySelector('[data-spec="2"]').open)`), "the spec is in a closed details line")
			tb.do(chromedp.Click(chromedp.ID("ng-start")))
			tb.waitFor(`location.pathname.startsWith("/g/") && document.getElementById("status").dataset.myturn === "true"`)
			require.Contains(t, tb.text("#scores"), "Player 2: Computer (perfect play)")
		})
	}
}

// TestBrowserWinningLine: the three in a row of a finished Tic-tac-toe
// game is drawn, as a line through them.
func TestBrowserWinningLine(t *testing.T) {
	t.Parallel() // a browser of its own; the waits are for the page, not the processor
	ts := newTestServer(t, newMemStore())
	b := newBrowser(t, ts.http.URL)
	for _, size := range viewports {
		t.Run(size.name, func(t *testing.T) {
			g := ts.create(`{"game": "tictactoe", "hold": [1, 2]}`)
			ts.play(g.ID, ts.seatsOf(g), "a1", "b1", "a2", "b2", "a3")
			tb := openAt(b, t, size, ts.http.URL, link(g, 0))
			tb.waitFor(`document.getElementById("status").dataset.over === "true"`)
			require.Equal(t, "a1 a2 a3", tb.eval(`(() => { const l = document.querySelector("#board .winline"); return l ? l.dataset.sites : "" })()`))
			require.Equal(t, 3, tb.count("#board .site.won"))
			tb.screenshot("tictactoe-won" + size.suffix)
		})
	}
}

// TestBrowserOrientationAcrossRematch: a player keeps the board turned as
// they had it across a rematch that swaps the sides, and "Turn the board"
// turns it round.
func TestBrowserOrientationAcrossRematch(t *testing.T) {
	t.Parallel() // a browser of its own; the waits are for the page, not the processor
	ts := newTestServer(t, newMemStore())
	b := newBrowser(t, ts.http.URL)
	for _, size := range viewports {
		t.Run(size.name, func(t *testing.T) {
			g := ts.create(`{"game": "tictactoe", "hold": [1, 2]}`)
			s := ts.seatsOf(g)
			p1 := openAt(b, t, size, ts.http.URL, link(g, 0))
			// Row a at the bottom for Player 1.
			aBelowC := `String(document.querySelector('[data-site="a1"] rect').getBoundingClientRect().top > document.querySelector('[data-site="c1"] rect').getBoundingClientRect().top)`
			require.Equal(t, "true", p1.eval(aBelowC))
			ts.play(g.ID, s, "a1", "b1", "a2", "b2", "a3")
			p1.waitFor(`document.getElementById("status").dataset.over === "true"`)
			p1.clickAction("rematch")
			p1.waitFor(`location.pathname !== "/g/` + g.ID + `" && document.getElementById("status").dataset.ply === "0"`)
			require.Contains(t, p1.text("#scores"), "Player 2: You")
			require.Equal(t, "true", p1.eval(aBelowC), "the board is as the player had it")
			p1.do(chromedp.Click(chromedp.ID("turn")))
			p1.waitFor(aBelowC + ` === "false"`)
			p1.do(chromedp.Reload())
			p1.waitFor(`document.getElementById("status").dataset.ply === "0"`)
			require.Equal(t, "false", p1.eval(aBelowC), "kept")
		})
	}
}

// TestBrowserBasePath: the page served under a path prefix in another
// mux: its files, its API calls, its seat links and its events follow the
// prefix; a game is created from the form and played by clicking.
func TestBrowserBasePath(t *testing.T) {
	t.Parallel() // a browser of its own; the waits are for the page, not the processor
	s, err := New(lib(), newMemStore(), WithBasePath("/games"), WithLimits(testLimits), WithSolutionCache(t.TempDir()))
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "the site's own page") })
	mux.Handle("/games/", s.Handler())
	hs := httptest.NewServer(mux)
	t.Cleanup(func() {
		hs.CloseClientConnections()
		hs.Close()
	})
	b := newBrowser(t, hs.URL)
	tb := b.tab()
	tb.do(chromedp.EmulateViewport(1280, 900), chromedp.Navigate(hs.URL+"/games/"))
	tb.waitFor(`document.querySelector('#ng-game option[value="yematatu"]') !== null`)
	tb.do(chromedp.SetValue(chromedp.CSS("#ng-game"), "yematatu"))
	tb.eval(`(() => { document.getElementById("ng-game").dispatchEvent(new Event("change")); return "" })()`)
	tb.waitFor(`document.querySelector('[data-seat="2"]') !== null`)
	tb.do(chromedp.SetValue(chromedp.CSS(`[data-seat="2"]`), "random"))
	tb.eval(`(() => { document.querySelector('[data-seat="2"]').dispatchEvent(new Event("change")); return "" })()`)
	tb.do(chromedp.Click(chromedp.ID("ng-start")))
	tb.waitFor(`location.pathname.startsWith("/games/g/") && document.getElementById("status").dataset.myturn === "true"`)
	tb.click(`#board .site.target`)
	tb.waitPly(2) // the move, and the computer's reply through the event stream
	require.Equal(t, "/games/", tb.eval(`document.querySelector("a.brand").getAttribute("href")`))
	tb.do(chromedp.Navigate(hs.URL + "/games/"))
	tb.waitFor(`document.querySelectorAll("#mygames-list li[data-status]").length === 1`)
	require.True(t, strings.HasPrefix(tb.eval(`document.querySelector("#mygames-list a").getAttribute("href")`), "/games/g/"))
}

// TestBrowserPlainLabels: what a player is told is in words, never the
// code's. The seats' computer choices are never named by the player's code
// name ("Computer (mcts)"), not even while the server has not said (here:
// never says) how it names them; and each site's label (its tooltip, what
// a screen reader says) reads as a sentence: "a2: empty", "b2: a piece of
// player 1", not "a2: 0 empty".
func TestBrowserPlainLabels(t *testing.T) {
	t.Parallel() // a browser of its own; the waits are for the page, not the processor
	ts := newTestServer(t, newMemStore())
	b := newBrowser(t, ts.http.URL)
	for _, size := range viewports {
		t.Run(size.name, func(t *testing.T) {
			// The front page whose question for the computers is never answered.
			tb := b.tabFor(t)
			tb.do(size.emulate(), beforeLoad(`{ const f = window.fetch;
					window.fetch = (u, i) => String(u).includes("/computers") ? new Promise(() => {}) : f(u, i); }`), chromedp.Navigate(ts.http.URL+"/"))
			tb.waitFor(`document.querySelectorAll('[data-seat="2"] option[data-computer]').length > 0`)
			names := tb.eval(`[...document.querySelectorAll("option[data-computer]")].map((o) => o.textContent).join("; ")`)
			for _, code := range []string{"mcts", "alphabeta", "greedy", "(random)", "(perfect)"} {
				require.NotContains(t, names, code, "the computers named by their code")
			}

			g := ts.create(`{"game": "tictactoe", "hold": [1, 2]}`)
			s1, s2 := ts.both(g)
			ts.play(g.ID, []string{s1, s2}, "b2")
			p := openAt(b, t, size, ts.http.URL, link(g, 1))
			p.waitPly(1)
			label := func(site string) string {
				return p.eval(fmt.Sprintf(`document.querySelector('#board .site[data-site=%q]').getAttribute("aria-label")`, site))
			}
			require.Equal(t, "a2: empty", label("a2"))
			require.Equal(t, "b2: a piece of Player 1", label("b2"))

			k := ts.create(`{"game": "kalah", "seats": ["human", "human"]}`)
			kp := openAt(b, t, size, ts.http.URL, link(k, 0))
			kp.waitPly(0)
			labels := kp.eval(`[...document.querySelectorAll("#board .site")].map((e) => e.getAttribute("aria-label")).join("\n")`)
			require.Regexp(t, `(?m)^\S+: 4 counters$`, labels)
			require.Regexp(t, `(?m)^\S+: 0 counters`, labels)
		})
	}
}

// TestBrowserSelectedSiteAgain: a move from a hole that goes on at the
// same hole (Bao la Kiswahili's b1xb1: a seed into b1, sown from the
// kichwa b1) has no green ring to show it, the selection's ring being
// over it: the hint under the board says to click the hole again, and
// doing so plays the move.
func TestBrowserSelectedSiteAgain(t *testing.T) {
	t.Parallel() // a browser of its own; the waits are for the page, not the processor
	ts := newTestServer(t, newMemStore())
	b := newBrowser(t, ts.http.URL)
	rec := []string{"b6-b5", "c4xc8", "b3xb1", "c2xc1"}
	for _, size := range viewports {
		t.Run(size.name, func(t *testing.T) {
			g := ts.create(`{"game": "baokiswahili", "hold": [1, 2]}`)
			ts.play(g.ID, ts.seatsOf(g), rec...)
			st := ts.get(g.ID).state(t)
			require.Contains(t, st.Legal, "b1xb1")
			tb := openAt(b, t, size, ts.http.URL, link(g, 0))
			tb.waitPly(len(rec))
			tb.waitFor(`document.getElementById("status").dataset.myturn === "true"`)
			tb.clickSite("b1")
			tb.waitFor(`document.querySelector("#board .site.selected[data-site='b1']") !== null`)
			require.Contains(t, tb.text(`#actions .hint[data-again]`), "click b1 again")
			require.True(t, tb.inView(`#actions .hint[data-again]`), "the hint in view")
			tb.clickSite("b1")
			tb.waitPly(len(rec) + 1)
			require.Equal(t, "b1xb1", ts.get(g.ID).Record[len(rec)])
		})
	}
}

// TestBrowserStaleMoveSaid: a move the server refuses because the game
// changed first (here the page's request is made to name another ply, as
// when another tab or the opponent got there first) is told in a
// player's words, not the server's "the game is at ply 0, not 7", and the
// page shows the game as it is, still to play.
func TestBrowserStaleMoveSaid(t *testing.T) {
	t.Parallel() // a browser of its own; the waits are for the page, not the processor
	ts := newTestServer(t, newMemStore())
	b := newBrowser(t, ts.http.URL)
	for _, size := range viewports {
		t.Run(size.name, func(t *testing.T) {
			g := ts.create(`{"game": "kalah", "seats": ["human", "random"]}`)
			tb := b.tabFor(t)
			tb.do(size.emulate(), beforeLoad(`{ const f = window.fetch;
					window.fetch = (u, i) => {
						if (i && i.body && String(u).includes("/move")) { const b = JSON.parse(i.body); b.ply = 7; i = { ...i, body: JSON.stringify(b) }; }
						return f(u, i);
					}; }`), chromedp.Navigate(ts.http.URL+g.Seats[0].URL))
			tb.waitFor(`document.getElementById("status").dataset.myturn === "true"`)
			tb.click(`#board .site.target`)
			tb.waitFor(`!document.getElementById("error").hidden`)
			msg := tb.text("#error")
			require.Equal(t, "Another move was made first: the board now shows the game as it is.", msg)
			require.NotContains(t, msg, "ply")
			tb.waitFor(`document.getElementById("status").dataset.myturn === "true" && document.querySelector("#board .site.target") !== null`)
			require.Empty(t, ts.get(g.ID).Record)
		})
	}
}

// TestBrowserProposalPendingSaid: a takeback proposed, or a draw offered,
// while the other player's proposal already waits (the page has not heard
// of it yet: here its event stream is cut) is refused by the server with
// its "player 2 has proposed a draw already"; the page says it in a
// player's words, and then shows the proposal waiting, to answer.
func TestBrowserProposalPendingSaid(t *testing.T) {
	t.Parallel() // a browser of its own; the waits are for the page, not the processor
	ts := newTestServer(t, newMemStore())
	b := newBrowser(t, ts.http.URL)
	const said = "A proposal (a takeback or a draw) waits for its answer first: it is shown below the board."
	for _, size := range viewports {
		for _, c := range []struct {
			name, ask, other, shown string
		}{
			{"takeback while a draw waits", "takeback", "draw", "Player 2 offers a draw."},
			{"draw while a takeback waits", "draw", "takeback", "Player 2 proposes to take back 1 move."},
		} {
			t.Run(size.name+"/"+c.name, func(t *testing.T) {
				g := ts.create(`{"game": "yematatu", "hold": [1, 2]}`)
				s1, s2 := ts.both(g)
				ts.play(g.ID, []string{s1, s2}, "b2", "c1")
				tb := b.tabFor(t)
				tb.do(size.emulate(), beforeLoad(`window.EventSource = class { addEventListener() {} close() {} };`), chromedp.Navigate(ts.http.URL+g.Seats[0].URL))
				tb.waitFor(fmt.Sprintf(`document.querySelector('#around button[data-action=%q]') !== null`, c.ask))
				status, _, body := ts.post("/api/games/"+g.ID+"/"+c.other, map[string]any{"seat": s2, "ply": 2})
				require.Equal(t, http.StatusOK, status, body)
				tb.clickAction(c.ask)
				tb.waitFor(`!document.getElementById("error").hidden`)
				msg := tb.text("#error")
				require.Equal(t, said, msg)
				require.NotContains(t, msg, "has proposed", "not the server's words")
				tb.waitFor(fmt.Sprintf(`document.getElementById("around").textContent.includes(%q)`, c.shown))
				require.Equal(t, 1, tb.count(`#around button[data-action="accept"]`))
				require.True(t, tb.inView("#error") || size.phone, "the words in view")
				require.Nil(t, ts.get(g.ID).Result)
			})
		}
	}
}

// TestBrowserSelectedSiteAgainOnce: on a phone, a hole tapped (a touch,
// as a finger makes it) whose move goes on at the same hole is selected
// once, not played, and the hint to tap it again is said once, as is what
// the decision asks: in the bar of the choices, in view, and not again in
// the status above the board.
func TestBrowserSelectedSiteAgainOnce(t *testing.T) {
	t.Parallel() // a browser of its own; the waits are for the page, not the processor
	ts := newTestServer(t, newMemStore())
	b := newBrowser(t, ts.http.URL)
	rec := []string{"b6-b5", "c4xc8", "b3xb1", "c2xc1"}
	g := ts.create(`{"game": "baokiswahili", "hold": [1, 2]}`)
	ts.play(g.ID, ts.seatsOf(g), rec...)
	phone := viewports[1]
	require.True(t, phone.phone)
	tb := openAt(b, t, phone, ts.http.URL, link(g, 0))
	tb.waitPly(len(rec))
	tb.waitFor(`document.getElementById("status").dataset.myturn === "true"`)
	prompt := tb.text("#status .asks")
	require.NotEmpty(t, prompt)
	tb.eval(`(document.querySelector("#board .site[data-site='b1']").scrollIntoView({ block: "center" }), "")`)
	var x, y float64
	_, err := fmt.Sscan(tb.eval(`(() => { const r = document.querySelector("#board .site[data-site='b1']").getBoundingClientRect();
		return (r.left + r.width / 2) + " " + (r.top + r.height / 2) })()`), &x, &y)
	require.NoError(t, err)
	tb.do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: input.DispatchTouchEventTypeTouchStart, TouchPoints: []*input.TouchPoint{{X: x, Y: y}}}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, tg, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: input.DispatchTouchEventTypeTouchEnd, TouchPoints: []*input.TouchPoint{}})
		return err
	}))
	tb.waitFor(`document.querySelector("#board .site.selected[data-site='b1']") !== null && document.querySelector("#actions .hint[data-again]") !== null`)
	require.Equal(t, 1, tb.count(`#board .site.selected`), "one tap selects one hole")
	require.Equal(t, 1, tb.count(`[data-again]`), "one hint")
	hint := tb.text(`#actions .hint[data-again]`)
	require.Contains(t, hint, "click b1 again")
	// What a person sees: the page's text as shown (innerText leaves out
	// what is hidden).
	shown := tb.eval(`document.body.innerText`)
	assert.Equal(t, 1, strings.Count(shown, "again for the move"), "the hint is said once: %s", shown)
	assert.Equal(t, 1, strings.Count(shown, prompt), "what the decision asks is said once: %s", shown)
	require.True(t, tb.inView(`#actions .hint[data-again]`), "the hint in view")
	require.True(t, tb.inView(`#actions .prompt`), "what is asked in view, beside it")
	require.Len(t, ts.get(g.ID).Record, len(rec), "the tap played nothing")
	// Cancelled, the bar goes and the status says what is asked again.
	tb.click(`#actions button[data-action="cancel"]`)
	tb.waitFor(`document.querySelector("[data-again]") === null`)
	assert.Equal(t, 1, strings.Count(tb.eval(`document.body.innerText`), prompt))
	assert.NotEqual(t, "none", tb.eval(`getComputedStyle(document.querySelector("#status .asks")).display`))
}

// TestBrowserComputerSettingsStayOpen: "The computer's settings", opened,
// stays open when the computer moves and the page is drawn anew.
func TestBrowserComputerSettingsStayOpen(t *testing.T) {
	t.Parallel() // a browser of its own; the waits are for the page, not the processor
	ts := newTestServer(t, newMemStore())
	b := newBrowser(t, ts.http.URL)
	g := ts.create(`{"game": "kalah", "seats": ["human", "random"]}`)
	tb := openAt(b, t, viewports[0], ts.http.URL, g.Seats[0].URL)
	tb.waitFor(`document.getElementById("status").dataset.myturn === "true"`)
	tb.click("#scores details.specs summary")
	tb.waitFor(`document.querySelector("#scores details.specs").open`)
	ply, _, _ := tb.status()
	tb.click("#board .site.target")
	tb.waitFor(fmt.Sprintf(`Number(document.getElementById("status").dataset.ply) > %d && document.getElementById("status").dataset.myturn === "true"`, ply))
	require.Equal(t, "true", tb.eval(`String(document.querySelector("#scores details.specs").open)`), "the settings opened stay open")
}
