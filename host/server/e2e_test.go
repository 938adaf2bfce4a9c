package server

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// End-to-end tests of the page in a real headless Chromium (Debian's
// chromium package). They skip when no Chromium is installed. With
// MATOMBO_SCREENSHOTS=1 they write the screenshots of docs/images.

// chromiumPath finds a Chromium binary: $MATOMBO_CHROMIUM, then the usual
// names on the PATH.
func chromiumPath() string {
	if p := os.Getenv("MATOMBO_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// browser is one headless Chromium for a test.
type browser struct {
	t    *testing.T
	root context.Context // the browser's first tab
	base string          // the server's URL
}

func newBrowser(t *testing.T, base string) *browser {
	t.Helper()
	path := chromiumPath()
	if path == "" {
		t.Skip("no chromium binary found (install Debian's chromium package, or set MATOMBO_CHROMIUM): browser tests skipped")
	}
	dir, err := os.MkdirTemp("", "matombo-chromium")
	require.NoError(t, err)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-first-run", true),
		chromedp.UserDataDir(dir),
	)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	root, cancelRoot := chromedp.NewContext(alloc)
	t.Cleanup(func() {
		cancelRoot()
		cancelAlloc()
		// Chromium's children may still write there for a moment.
		for range 50 {
			if os.RemoveAll(dir) == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
	require.NoError(t, chromedp.Do(root), "starting chromium")
	return &browser{t: t, root: root, base: base}
}

// tab is one page in its own browser context (its own storage), with the
// JavaScript errors it logs collected.
type tab struct {
	t    *testing.T
	ctx  context.Context
	mu   sync.Mutex
	errs []string
}

func (b *browser) tab() *tab {
	b.t.Helper()
	return b.tabFor(b.t)
}

// tabFor is a tab for test t (a subtest of the browser's test), closed
// and checked for JavaScript errors when t ends.
func (b *browser) tabFor(t *testing.T) *tab {
	t.Helper()
	ctx, cancel := chromedp.NewContext(b.root, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	require.NoError(t, chromedp.Do(ctx))
	ctx, cancelTimeout := context.WithTimeout(ctx, 6*time.Minute)
	t.Cleanup(cancelTimeout)
	tb := &tab{t: t, ctx: ctx}
	// The tabs prefer reduced motion, so the page animates nothing unless
	// a test asks for it (TestBrowserTurnAnimated chooses a speed).
	require.NoError(t, chromedp.Do(ctx, reduceMotion(true)))
	go func() {
		for m, err := range chromedp.Console(ctx) {
			if err != nil {
				return
			}
			// Failed requests (a 409 or 422 the page handles) are the
			// network's; everything else at error level is the page's.
			if m.IsException() || m.Type == chromedp.ConsoleError && m.Source != "network" {
				tb.mu.Lock()
				tb.errs = append(tb.errs, m.String())
				tb.mu.Unlock()
			}
		}
	}()
	t.Cleanup(tb.checkErrors)
	return tb
}

// reduceMotion makes the tab prefer reduced motion (or not).
func reduceMotion(on bool) chromedp.Action[chromedp.Void] {
	v := "no-preference"
	if on {
		v = "reduce"
	}
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: v}}})
		return err
	})
}

// checkErrors fails the test if the page logged a JavaScript error.
func (tb *tab) checkErrors() {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	for _, e := range tb.errs {
		tb.t.Errorf("the page logged a JavaScript error: %s", e)
	}
}

func (tb *tab) do(actions ...chromedp.Action[chromedp.Void]) {
	tb.t.Helper()
	require.NoError(tb.t, chromedp.Do(tb.ctx, actions...))
}

// beforeLoad runs script in every document the tab loads from then on,
// before the page's own scripts: a test's stand-in for window.fetch or
// EventSource.
func beforeLoad(script string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: script})
		return err
	})
}

func (tb *tab) eval(js string) string {
	tb.t.Helper()
	s, err := chromedp.Run(tb.ctx, chromedp.Evaluate[string](js))
	require.NoError(tb.t, err, js)
	return s
}

// pollTimeout bounds one wait for the page; generous for a loaded machine.
var pollTimeout = 2 * time.Minute

// waitFor waits until a JavaScript condition holds. A condition that
// cannot be evaluated yet (the page is loading, again after a link that
// differs only after #) is false until it can.
func (tb *tab) waitFor(cond string) {
	tb.t.Helper()
	deadline := time.Now().Add(pollTimeout)
	safe := "(() => { try { return Boolean(" + cond + "); } catch (e) { return false; } })()"
	var err error
	for {
		_, err = chromedp.Run(tb.ctx, chromedp.Poll[chromedp.Void](safe, chromedp.WithPollingTimeout(time.Until(deadline)), chromedp.WithPollingInterval(20*time.Millisecond)))
		// A page that is still loading has no JavaScript context yet: try again.
		if err == nil || !strings.Contains(err.Error(), "-32000") || time.Now().After(deadline) {
			break
		}
	}
	if err != nil {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(tb.ctx), 5*time.Second)
		defer cancel()
		page, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`location.href + "\n" + document.body.innerText.slice(0, 2000)`))
		tb.t.Fatalf("waiting for %s: %v\nthe page shows: %s\nerrors: %v", cond, err, page, tb.errs)
	}
	tb.checkNow()
}

// checkNow stops the test at the first JavaScript error.
func (tb *tab) checkNow() {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	if len(tb.errs) > 0 {
		tb.t.Fatalf("the page logged a JavaScript error: %s", strings.Join(tb.errs, "; "))
	}
}

// status reads the status line's data: the live ply, whether it is this
// page's turn, whether the game is over.
func (tb *tab) status() (ply int, mine, over bool) {
	s := tb.eval(`(() => { const d = document.getElementById("status").dataset; return d.ply + " " + d.myturn + " " + d.over })()`)
	f := strings.Fields(s)
	require.Len(tb.t, f, 3, s)
	ply, _ = strconv.Atoi(f[0])
	return ply, f[1] == "true", f[2] == "true"
}

// waitPly waits until the page shows the live game at ply n or later, its
// animations done.
func (tb *tab) waitPly(n int) {
	tb.t.Helper()
	tb.waitFor(fmt.Sprintf(`Number(document.getElementById("status").dataset.ply) >= %d && document.getElementById("board").dataset.animating === undefined`, n))
}

// click clicks the first element sel finds, once it is there, in one step
// in the page: the page draws its board and buttons again at each change,
// and an element found and then clicked in two steps may be gone between
// them.
func (tb *tab) click(sel string) {
	tb.t.Helper()
	tb.waitFor(fmt.Sprintf(`(() => { const e = document.querySelector(%q); if (!e) return false;
		e.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true, view: window })); return true; })()`, sel))
}

// clickSite clicks the site with the given name on the board.
func (tb *tab) clickSite(name string) {
	tb.t.Helper()
	tb.click(fmt.Sprintf(`#board .site.target[data-site=%q]`, name))
}

// clickButton clicks the move button of a decision.
func (tb *tab) clickButton(token string) {
	tb.t.Helper()
	tb.click(fmt.Sprintf(`#actions button[data-token=%q]`, token))
}

// screenshot writes docs/images/NAME.png when MATOMBO_SCREENSHOTS is set:
// the whole page, or on a phone's screen what the screen shows (a bar
// fixed to its bottom stays there).
func (tb *tab) screenshot(name string) {
	tb.t.Helper()
	if os.Getenv("MATOMBO_SCREENSHOTS") == "" {
		return
	}
	shot := chromedp.FullScreenshot(100)
	if tb.eval(`String(innerWidth <= 600)`) == "true" {
		shot = chromedp.CaptureScreenshot()
	}
	b, err := chromedp.Run(tb.ctx, shot)
	require.NoError(tb.t, err)
	dir := filepath.Join("..", "..", "docs", "images")
	require.NoError(tb.t, os.MkdirAll(dir, 0o755))
	require.NoError(tb.t, os.WriteFile(filepath.Join(dir, name+".png"), b, 0o644))
}

// TestBrowserAgainstComputer starts a Tsoro Yematatu game against the
// computer from the new-game form and plays it to its end by clicking.
func TestBrowserAgainstComputer(t *testing.T) {
	t.Parallel() // a browser of its own; the waits are for the page, not the processor
	ts := newTestServer(t, newMemStore())
	b := newBrowser(t, ts.http.URL)
	tb := b.tab()
	tb.do(chromedp.EmulateViewport(1100, 900), chromedp.Navigate(ts.http.URL+"/"))
	tb.waitFor(`document.querySelector('#ng-game option[value="yematatu"]') !== null`)
	tb.do(chromedp.SetValue(chromedp.CSS("#ng-game"), "yematatu"))
	tb.eval(`(() => { document.getElementById("ng-game").dispatchEvent(new Event("change")); return "" })()`)
	tb.waitFor(`document.querySelector('[data-seat="2"]') !== null && document.querySelector('[data-seat="2"]').value.startsWith("mcts")`)
	_, err := chromedp.Run(tb.ctx, chromedp.WaitEvent(page.LoadEventFired, nil, chromedp.Click(chromedp.ID("ng-start"))))
	require.NoError(t, err)
	tb.waitFor(`location.pathname.startsWith("/g/") && document.getElementById("status").dataset.ply !== undefined`)
	for moves := 0; ; moves++ {
		require.Less(t, moves, 400, "the game did not end")
		tb.waitFor(`document.getElementById("status").dataset.myturn === "true" || document.getElementById("status").dataset.over === "true"`)
		ply, mine, over := tb.status()
		if over {
			break
		}
		require.True(t, mine)
		if moves == 2 {
			tb.screenshot("yematatu-against-computer")
		}
		// Click a highlighted site; a move of two sites (from, to) takes a
		// second click on one of the sites highlighted then.
		tb.click(`#board .site.target`)
		if tb.eval(`document.querySelector("#board .site.selected") ? "yes" : "no"`) == "yes" {
			tb.click(`#board .site.target:not(.selected)`)
		}
		tb.waitPly(ply + 1)
	}
	text := tb.eval(`document.getElementById("status").textContent`)
	require.Regexp(t, `^(Player [12] wins|Draw)`, text)
	// The points' names, on request.
	require.Equal(t, "0", tb.eval(`String(document.querySelectorAll("#board text.name").length)`))
	tb.do(chromedp.Click(chromedp.ID("names")))
	tb.waitFor(`document.querySelectorAll("#board text.name").length === 7`)
	// Time travel: the slider shows the opening again.
	tb.eval(`(() => { const s = document.getElementById("ply"); s.value = "0"; s.dispatchEvent(new Event("input")); return "" })()`)
	tb.waitFor(`document.getElementById("status").textContent.includes("viewing the position after move 0")`)
	tb.waitFor(`document.querySelectorAll("#board .piece1, #board .piece2").length === 0`)
}

// tsoroDecisions is a Tsoro 4x8 record with a continue/stop decision
// (after d7) and two bonus captures (xd3, xd6), from the conformance
// scenarios.
var tsoroDecisions = []string{"a1", "d1", "a2", "d7", "continue", "a7", "xd3", "xd6"}

// TestBrowserDecisions plays Tsoro 4x8 through a continue/stop decision and
// bonus captures by clicking, one person holding both seats.
func TestBrowserDecisions(t *testing.T) {
	t.Parallel() // a browser of its own; the waits are for the page, not the processor
	ts := newTestServer(t, newMemStore())
	g := ts.create(`{"game": "tsoro", "variants": ["4x8"], "seats": ["human", "human"]}`)
	b := newBrowser(t, ts.http.URL)
	tb := b.tab()
	tb.do(chromedp.EmulateViewport(1100, 900))
	// Visit the creator's seat link and the other seat's invitation: the
	// page keeps both secrets.
	tb.do(chromedp.Navigate(ts.http.URL + link(g, 1)))
	tb.waitFor(`location.hash.includes("seat=")`)
	tb.do(chromedp.Navigate("about:blank"), chromedp.Navigate(ts.http.URL+link(g, 0)))
	tb.waitPly(0)
	for i, tok := range tsoroDecisions {
		tb.waitFor(`document.getElementById("status").dataset.myturn === "true"`)
		switch {
		case tok == "continue":
			// The decision is two buttons and no site.
			tb.waitFor(`document.querySelector('#actions button[data-token="stop"]') !== null`)
			require.Equal(t, "0", tb.eval(`String(document.querySelectorAll("#board .site.target").length)`))
			tb.screenshot("tsoro-decision-4x8")
			tb.clickButton(tok)
		case i == 0:
			// No ring of a legal move covers a tag's mark (a head's).
			require.Equal(t, "0", tb.eval(`String((() => {
				const rings = Array.from(document.querySelectorAll("#board .ring"));
				return Array.from(document.querySelectorAll("#board .tagmark")).filter((m) => {
					const b = m.getBBox(), x = b.x + b.width / 2, y = b.y + b.height / 2;
					return rings.some((r) => Math.hypot(x - r.cx.baseVal.value, y - r.cy.baseVal.value) < r.r.baseVal.value + 3 + b.width / 2);
				}).length;
			})())`))
			require.NotEqual(t, "0", tb.eval(`String(document.querySelectorAll("#board .tagmark").length)`))
			tb.clickSite(tok)
		case strings.HasPrefix(tok, "x"):
			// A bonus capture is a click on a highlighted hole of the opponent.
			n := tb.eval(`String(document.querySelectorAll("#board .site.target").length)`)
			require.NotEqual(t, "0", n)
			tb.clickSite(tok[1:])
		default:
			tb.clickSite(tok)
		}
		tb.waitPly(i + 1)
	}
	got := ts.get(g.ID)
	require.Equal(t, tsoroDecisions, got.Record)
	require.JSONEq(t, string(stateAfter(t, "tsoro", []string{"4x8"}, tsoroDecisions)), string(got.State))
	// The last turn is told whole, every decision of it.
	require.Equal(t, "Last turn: Player 1 a7 xd3 xd6 (move 8)", tb.eval(`document.getElementById("last").textContent`))
	// Holding both seats, "Undo" takes the last turn (a7 xd3 xd6) back at
	// once: the page proposes and accepts it.
	tb.click(`#around button[data-action="takeback"]`)
	tb.waitFor(`document.getElementById("status").dataset.ply === "5"`)
	require.Equal(t, tsoroDecisions[:5], ts.get(g.ID).Record)
}

// goreTrade is a Goré record up to an offer of two holes (the last two
// tokens are made by clicking).
var goreTrade = []string{"a2", "b4", "a1", "b2", "a4", "b4", "a1", "b1", "a4", "b3", "a2", "b1", "a1", "b4", "a2",
	"b2", "a3", "b2", "a1", "b4", "a4", "b1", "a2", "b2", "a2", "b3", "a3", "b1", "a3", "offer:b2,b4", "accept"}

// TestBrowserTwoSeats plays one game from two browsers through their seat
// links; each sees the other's moves arrive. It ends with an offer of
// several holes chosen on the board and its acceptance.
func TestBrowserTwoSeats(t *testing.T) {
	t.Parallel() // a browser of its own; the waits are for the page, not the processor
	ts := newTestServer(t, newMemStore())
	g := ts.create(`{"game": "gore", "seats": ["human", "human"]}`)
	b := newBrowser(t, ts.http.URL)
	tabs := []*tab{b.tab(), b.tab()}
	for i, tb := range tabs {
		tb.do(chromedp.EmulateViewport(1000, 900), chromedp.Navigate(ts.http.URL+link(g, i)))
		tb.waitPly(0)
	}
	require.Contains(t, tabs[0].eval(`document.querySelector('#share').textContent`), "spectator")
	// Each player sees their own row at the bottom.
	below := `String(document.querySelector('[data-site="a1"] circle').getAttribute("cy") - document.querySelector('[data-site="b1"] circle').getAttribute("cy") > 0)`
	require.Equal(t, "true", tabs[0].eval(below), "player 1's row a at the bottom")
	require.Equal(t, "false", tabs[1].eval(below), "player 2's row b at the bottom")
	for ply, tok := range goreTrade {
		mover := tabs[ply%2]
		if ply == 29 {
			mover = tabs[1]
		}
		if ply == 30 {
			mover = tabs[0]
		}
		mover.waitPly(ply)
		mover.waitFor(`document.getElementById("status").dataset.myturn === "true"`)
		switch {
		case strings.HasPrefix(tok, "offer:"):
			require.Equal(t, "Offer holes…", mover.eval(`document.querySelector('#actions button[data-kind="offer"]').textContent`))
			mover.click(`#actions button[data-kind="offer"]`)
			for _, site := range strings.Split(strings.TrimPrefix(tok, "offer:"), ",") {
				mover.clickSite(site)
			}
			// The confirmation says the decision in words.
			mover.waitFor(fmt.Sprintf(`document.querySelector('#actions button[data-token=%q]') !== null`, tok))
			require.Equal(t, "Offer holes b2 and b4", mover.eval(fmt.Sprintf(`document.querySelector('#actions button[data-token=%q]').textContent`, tok)))
			mover.clickButton(tok)
		case tok == "accept":
			mover.waitFor(`document.querySelector('#actions button[data-token="accept"]') !== null`)
			require.Equal(t, "Accept the offer", mover.eval(`document.querySelector('#actions button[data-token="accept"]').textContent`))
			mover.clickButton(tok)
		default:
			mover.clickSite(tok)
		}
		// Both pages show the move: the mover from its answer, the other
		// from the event stream.
		for _, tb := range tabs {
			tb.waitPly(ply + 1)
		}
	}
	got := ts.get(g.ID)
	require.Equal(t, goreTrade, got.Record)
	// The traded holes are drawn in their new owner's colour.
	tabs[0].waitFor(`document.querySelectorAll("#board .hole.traded1").length === 2`)
	tabs[0].screenshot("gore-trade")
}

// TestBrowserScreenshots writes the screenshots of the docs: every shipped
// game a few moves in against the computer, at a desktop's size
// (docs/images/GAME.png) and a phone's (GAME-phone.png, what the screen
// shows), each checked for a page that fits the width.
func TestBrowserScreenshots(t *testing.T) {
	t.Parallel() // a browser of its own; the waits are for the page, not the processor
	if os.Getenv("MATOMBO_SCREENSHOTS") == "" {
		t.Skip("set MATOMBO_SCREENSHOTS=1 to write docs/images")
	}
	ts := newTestServer(t, newMemStore())
	b := newBrowser(t, ts.http.URL)
	for _, name := range lib().Games() {
		g := ts.create(`{"game": "` + name + `", "seats": ["human", "random"]}`)
		me := secret(t, g.Seats[0].URL)
		// A few moves in, the same every run: Player 1's first legal
		// move each time, the computer's random replies.
		for {
			cur := ts.waitGame(g.ID, func(g testGame) bool { st := g.state(t); return st.Over || st.ToMove == 1 })
			st := cur.state(t)
			if st.Over || len(cur.Record) >= 4 {
				break
			}
			ts.move(g.ID, st.Legal[0], len(cur.Record), me)
		}
		for _, size := range viewports {
			tb := b.tabFor(t)
			tb.do(size.emulate(), chromedp.Navigate(ts.http.URL+g.Seats[0].URL))
			tb.waitFor(`document.getElementById("status").dataset.myturn === "true" || document.getElementById("status").dataset.over === "true"`)
			require.Equal(t, "true", tb.eval(`String(document.documentElement.scrollWidth <= innerWidth + 1)`), "%s at %s fits the width", name, size.name)
			tb.screenshot(name + size.suffix)
		}
	}
}

// TestBrowserMoveChoices runs the page's move logic (web/moves.js) in the
// browser on made-up move lists: kinds no shipped game has, such as two
// kinds of move on one site, or a move of three sites in order.
func TestBrowserMoveChoices(t *testing.T) {
	t.Parallel() // a browser of its own; the waits are for the page, not the processor
	ts := newTestServer(t, newMemStore())
	b := newBrowser(t, ts.http.URL)
	tb := b.tab()
	tb.do(chromedp.Navigate(ts.http.URL + "/"))
	tests := []struct{ name, js, want string }{
		{"one site, one move: play it",
			`m.click(m.classify([{token: "a1", kind: "sow", sites: ["a1"]}], kinds).fixed, [], "a1")`,
			`{"play":"a1"}`},
		{"one site, two kinds: offer both",
			`m.click(m.classify([{token: "a1", kind: "sow", sites: ["a1"]}, {token: "xa1", kind: "take", sites: ["a1"]}], kinds).fixed, [], "a1")`,
			`{"sel":["a1"],"choices":[{"token":"a1","kind":"sow","sites":["a1"]},{"token":"xa1","kind":"take","sites":["a1"]}]}`},
		{"from and to: the first click selects",
			`m.click(m.classify([{token: "a1-b2", kind: "move", sites: ["a1", "b2"]}], kinds).fixed, [], "a1")`,
			`{"sel":["a1"],"choices":[]}`},
		{"from and to: the second click plays",
			`m.click(m.classify([{token: "a1-b2", kind: "move", sites: ["a1", "b2"]}], kinds).fixed, ["a1"], "b2")`,
			`{"play":"a1-b2"}`},
		{"a click elsewhere starts again",
			`m.click(m.classify([{token: "a1-b2", kind: "move", sites: ["a1", "b2"]}, {token: "c1-b2", kind: "move", sites: ["c1", "b2"]}], kinds).fixed, ["a1"], "c1")`,
			`{"sel":["c1"],"choices":[]}`},
		{"three sites in order",
			`m.click(m.classify([{token: "a1b2c3", kind: "tri", sites: ["a1", "b2", "c3"]}], kinds).fixed, ["a1", "b2"], "c3")`,
			`{"play":"a1b2c3"}`},
		{"a site no move names clears the choice",
			`m.click(m.classify([{token: "a1", kind: "sow", sites: ["a1"]}], kinds).fixed, [], "z9")`,
			`{"sel":[],"choices":[]}`},
		{"buttons and lists",
			`(() => { const c = m.classify([{token: "pass", kind: "pass", sites: []}, {token: "offer:a1,a2", kind: "offer", sites: ["a1", "a2"]}], kinds);
			  return {buttons: c.buttons.map((x) => x.token), lists: [...c.lists.keys()], sites: [...m.listSites(c.lists.get("offer"))],
			    match: m.listMatch(c.lists.get("offer"), new Set(["a2", "a1"])).token, none: m.listMatch(c.lists.get("offer"), new Set(["a1"]))} })()`,
			`{"buttons":["pass"],"lists":["offer"],"sites":["a1","a2"],"match":"offer:a1,a2","none":null}`},
		{"labels of kinds",
			`[m.kindLabel({name: "offer", template: "offer:{sites}"}), m.kindLabel({name: "x", template: "{1}"})]`,
			`["offer","x"]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			js := `import("/static/moves.js").then((m) => {
				const kinds = [{name: "sow", template: "{1}", sites: 1}, {name: "take", template: "x{1}", sites: 1},
					{name: "move", template: "{from}-{to}", sites: 2}, {name: "tri", template: "{1}{2}{3}", sites: 3},
					{name: "pass", template: "pass", sites: 0}, {name: "offer", template: "offer:{sites}", sites: -1}];
				return JSON.stringify(` + tt.js + `);
			})`
			got, err := chromedp.Run(tb.ctx, chromedp.Evaluate[string](js, chromedp.EvalAwaitPromise))
			require.NoError(t, err)
			require.JSONEq(t, tt.want, got)
		})
	}
}

// TestBrowserCounted: the new-game form says a count before what it
// counts ("Standard — 21 holes per row"), and a count of 1 agrees with
// it (web/text.js counted).
func TestBrowserCounted(t *testing.T) {
	t.Parallel() // a browser of its own; the waits are for the page, not the processor
	ts := newTestServer(t, newMemStore())
	b := newBrowser(t, ts.http.URL)
	tb := b.tab()
	tb.do(chromedp.Navigate(ts.http.URL + "/"))
	tests := []struct {
		n           int
		label, want string
	}{
		{21, "Holes per row", "21 holes per row"},
		{1, "Holes per row", "1 hole per row"},
		{2, "Bonus captures after a capture", "2 bonus captures after a capture"},
		{1, "Bonus captures after a capture", "1 bonus capture after a capture"},
		{1, "Seeds", "1 seed"},
		{0, "Seeds", "0 seeds"},
		{1, "Seeds in each hole", "1 seed in each hole"},
		{1, "Bonus", "1 bonus"},
		{1, "Laps of sowing", "1 lap of sowing"},
		{1, "Boxes", "1 box"},
		{1, "Empty rows", "1 empty row"},
		{1, "Counties", "1 county"},
		{1, "FMJD points", "1 FMJD point"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			js := fmt.Sprintf(`import("/static/text.js").then((m) => m.counted(%d, %q))`, tt.n, tt.label)
			got, err := chromedp.Run(tb.ctx, chromedp.Evaluate[string](js, chromedp.EvalAwaitPromise))
			require.NoError(t, err)
			require.Equal(t, tt.want, got)
		})
	}
}

// viewport is a window size the page is tried at.
type viewport struct {
	name   string
	w, h   int64
	phone  bool
	suffix string // of the screenshots' names
}

// viewports are the sizes every point of the page is tried at: a desktop
// window and a phone.
var viewports = []viewport{
	{name: "desktop", w: 1280, h: 900},
	{name: "phone", w: 390, h: 844, phone: true, suffix: "-phone"},
}

// emulate sets the tab's window to the size (a phone's with touch and its
// pixel ratio).
func (v viewport) emulate() chromedp.Action[chromedp.Void] {
	if v.phone {
		return chromedp.EmulateViewport(v.w, v.h, chromedp.EmulateScale(2), chromedp.EmulateMobile)
	}
	return chromedp.EmulateViewport(v.w, v.h)
}
