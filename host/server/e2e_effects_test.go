package server

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/host"
)

// effect is one effect of the state JSON.
type effect struct {
	Kind  string `json:"kind"`
	Site  string `json:"site"`
	From  string `json:"from"`
	To    string `json:"to"`
	Count int    `json:"count"`
}

// effectsOf returns the effects recorded in a state's JSON.
func effectsOf(t *testing.T, s *host.State) []effect {
	t.Helper()
	b, err := json.Marshal(s)
	require.NoError(t, err)
	var st struct {
		Effects []effect `json:"effects"`
	}
	require.NoError(t, json.Unmarshal(b, &st))
	return st.Effects
}

// relayCaptureTurn finds, in random Tsoro 4x8 games, a turn of Player 2
// that sows a relay (a ply with two pick-ups or more) and captures. It
// returns the record up to the turn and the turn's moves.
func relayCaptureTurn(t *testing.T) (before, turn []string) {
	t.Helper()
	g, err := lib().Load("tsoro", host.WithVariant("4x8"))
	require.NoError(t, err)
	for seed := uint64(1); seed < 500; seed++ {
		rng := rand.New(rand.NewPCG(seed, 7))
		s := g.Start()
		var rec []string
		for !s.Over() && len(rec) < 80 {
			start := len(rec)
			player := s.ToMove()
			relay, capture := false, false
			for !s.Over() && s.ToMove() == player {
				moves := s.Moves()
				m := moves[rng.IntN(len(moves))]
				rec = append(rec, g.Token(m))
				require.NoError(t, s.ApplyRecorded(m))
				takes := 0
				for _, e := range effectsOf(t, s) {
					switch e.Kind {
					case "take":
						takes++
					case "capture":
						capture = true
					}
				}
				relay = relay || takes >= 2
			}
			// A turn of Player 2 after Player 1's first turn, ending with
			// Player 1 to move.
			if player == 2 && relay && capture && start > 1 && !s.Over() {
				return rec[:start], rec[start:]
			}
		}
	}
	t.Fatal("no turn of Player 2 with a relay and a capture in 500 random games")
	return nil, nil
}

// scripted plays the moves of a record, whatever the position's ply.
type scripted []string

func (r scripted) Choose(ctx context.Context, s *host.State) (host.Move, error) {
	if s.Ply() >= len(r) {
		return host.Move{}, fmt.Errorf("the script has no move for ply %d", s.Ply())
	}
	return s.ParseMove(r[s.Ply()])
}

// TestBrowserTurnAnimated: the computer's Tsoro 4x8 turn with a relay lap
// and a capture is animated on the page (its pick-ups, drops and the
// capture), and then the page marks exactly the sites its effects name,
// the captured ones apart.
func TestBrowserTurnAnimated(t *testing.T) {
	t.Parallel() // a browser of its own; the waits are for the page, not the processor
	before, turn := relayCaptureTurn(t)
	record := append(slices.Clone(before), turn...)
	players := func(g *host.Game, spec string) (Player, error) {
		if spec == "scripted" {
			return scripted(record), nil
		}
		return ProjectPlayers(g, spec)
	}
	ts := newTestServer(t, newMemStore(), WithPlayers(players), WithComputerSeats("scripted"))
	g := ts.create(`{"game": "tsoro", "variants": ["4x8"], "seats": ["human", "scripted"]}`)
	me := secret(t, g.Seats[0].URL)
	// Play up to Player 1's last move before the turn; the computer plays
	// its moves of the record meanwhile.
	for ply := 0; ply < len(before)-1; ply++ {
		cur := waitFor(t, ts, g.ID, func(g testGame) bool { return len(g.Record) >= ply })
		if cur.state(t).ToMove == 1 && len(cur.Record) == ply {
			status, b := ts.move(g.ID, before[ply], ply, me)
			require.Equal(t, 200, status, "%s", b)
		}
	}
	waitFor(t, ts, g.ID, func(g testGame) bool { return len(g.Record) == len(before)-1 && g.state(t).ToMove == 1 })

	b := newBrowser(t, ts.http.URL)
	tb := b.tab()
	tb.do(chromedp.EmulateViewport(1100, 900), chromedp.Navigate(ts.http.URL+"/"))
	tb.eval(`(() => { localStorage.setItem("matombo:setting:speed", JSON.stringify("slow")); return "" })()`)
	tb.do(chromedp.Navigate(ts.http.URL + g.Seats[0].URL))
	tb.waitFor(`document.getElementById("status").dataset.myturn === "true"`)
	// The computer's turn is animated: seen by an observer of the page's
	// changes, not by polling, which a loaded machine can starve past the
	// whole animation.
	tb.eval(fmt.Sprintf(`(() => {
		window.sawTurn = { animating: false, inFlight: false };
		new MutationObserver(() => {
			if (document.getElementById("board").dataset.animating !== "true" || Number(document.getElementById("status").dataset.ply) <= %d) return;
			window.sawTurn.animating = true;
			if (document.querySelector("#board .token") !== null) window.sawTurn.inFlight = true;
		}).observe(document.body, { subtree: true, childList: true, attributes: true });
		return "";
	})()`, len(before)))
	// Player 1's last move, by its token; the computer's turn follows.
	last := before[len(before)-1]
	tb.eval(fmt.Sprintf(`(() => { document.querySelector('#tokens button[data-token=%q]').click(); return "" })()`, last))
	// Mid-animation: counters in flight.
	tb.waitFor(`window.sawTurn.animating && window.sawTurn.inFlight`)
	if tb.eval(`String(document.querySelector("#board .token") !== null)`) == "true" {
		tb.screenshot("tsoro-animation")
	}
	tb.waitPly(len(record))
	tb.waitFor(`document.getElementById("board").dataset.animating === undefined && document.getElementById("status").dataset.myturn === "true"`)

	// The marks: exactly the sites the turn's effects name.
	sown, captured := map[string]bool{}, map[string]bool{}
	gm, err := lib().Load("tsoro", host.WithVariant("4x8"))
	require.NoError(t, err)
	s := gm.Start()
	for i, tok := range record {
		m, err := s.ParseMove(tok)
		require.NoError(t, err)
		require.NoError(t, s.ApplyRecorded(m))
		if i < len(before) {
			continue
		}
		for _, e := range effectsOf(t, s) {
			for _, site := range []string{e.Site, e.From, e.To} {
				if site == "" {
					continue
				}
				if e.Kind == "capture" {
					captured[site] = true
				} else {
					sown[site] = true
				}
			}
		}
	}
	var want, wantCaptured []string
	for site := range sown {
		if !captured[site] {
			want = append(want, site)
		}
	}
	for site := range captured {
		wantCaptured = append(wantCaptured, site)
	}
	sort.Strings(want)
	sort.Strings(wantCaptured)
	require.NotEmpty(t, wantCaptured)
	got := strings.Fields(tb.eval(`Array.from(document.querySelectorAll('#board [data-changed]:not([data-changed="captured"])')).map((g) => g.dataset.site).sort().join(" ")`))
	gotCaptured := strings.Fields(tb.eval(`Array.from(document.querySelectorAll('#board [data-changed="captured"]')).map((g) => g.dataset.site).sort().join(" ")`))
	assert.Equal(t, want, got, "the sites sown")
	assert.Equal(t, wantCaptured, gotCaptured, "the sites captured")
	tb.screenshot("tsoro-turn")
	// The record shows the turn on one line, with its player.
	line := tb.eval(`Array.from(document.querySelectorAll("#record li")).pop().textContent.trim()`)
	assert.Equal(t, "Player 2 "+strings.Join(turn, " "), strings.Join(strings.Fields(line), " "))

	// A click on the turn in the record replays it (a click on the board
	// skips to its end), and marks it again.
	tb.click(`#record li:last-child .who`)
	tb.waitFor(`document.getElementById("board").dataset.animating === "true"`)
	tb.do(chromedp.Click(chromedp.CSS(`#board`)))
	tb.waitFor(`document.getElementById("board").dataset.animating === undefined && document.querySelector('#board [data-changed="captured"]') !== null`)
	assert.Equal(t, wantCaptured, strings.Fields(tb.eval(`Array.from(document.querySelectorAll('#board [data-changed="captured"]')).map((g) => g.dataset.site).sort().join(" ")`)))
	// The turn before: Player 1's last move, replayed from the position
	// before it.
	tb.do(chromedp.Click(chromedp.CSS(`#prevturn`)))
	tb.waitFor(`document.getElementById("status").textContent.includes("viewing the position after move ` + fmt.Sprint(len(before)) + ` of")`)
	tb.waitFor(`document.getElementById("board").dataset.animating === undefined`)
	assert.NotEmpty(t, tb.eval(`Array.from(document.querySelectorAll('#board [data-changed]')).map((g) => g.dataset.site).join(" ")`))
}

// TestBrowserScores: Kalah's page shows the seeds in each player's store,
// labelled as the script names its score; Tsoro Yematatu's shows none.
func TestBrowserScores(t *testing.T) {
	t.Parallel() // a browser of its own; the waits are for the page, not the processor
	ts := newTestServer(t, newMemStore())
	g := ts.create(`{"game": "kalah"}`)
	s1, s2 := ts.both(g)
	end := ts.play(g.ID, []string{s1, s2}, "a3", "a6", "b1", "a1")
	var st struct {
		Score []int `json:"score"`
	}
	require.NoError(t, json.Unmarshal(end.State, &st))
	require.Len(t, st.Score, 2)
	require.NotEqual(t, []int{0, 0}, st.Score)
	label := end.Board
	b := newBrowser(t, ts.http.URL)
	tb := b.tab()
	tb.do(chromedp.EmulateViewport(1100, 800), chromedp.Navigate(ts.http.URL+g.Seats[0].URL))
	tb.waitPly(len(end.Record))
	for p := 1; p <= 2; p++ {
		text := tb.eval(fmt.Sprintf(`document.querySelector('#scores [data-player="%d"]').textContent`, p))
		assert.Contains(t, text, fmt.Sprintf("Seeds: %d", st.Score[p-1]), "player %d", p)
	}
	_ = label
	// The stores stand at the ends of the board, beside both rows: Player
	// 1's (a7) east of a6, Player 2's (b7) west of b1.
	cx := func(site string) float64 {
		var v float64
		fmt.Sscan(tb.eval(fmt.Sprintf(`String((() => { const r = document.querySelector('[data-site="%s"] .hole').getBoundingClientRect(); return r.left + r.width / 2 })())`, site)), &v)
		return v
	}
	cy := func(site string) float64 {
		var v float64
		fmt.Sscan(tb.eval(fmt.Sprintf(`String((() => { const r = document.querySelector('[data-site="%s"] .hole').getBoundingClientRect(); return r.top + r.height / 2 })())`, site)), &v)
		return v
	}
	assert.Greater(t, cx("a7"), cx("a6"))
	assert.Less(t, cx("b7"), cx("b1"))
	assert.Greater(t, cy("a7"), cy("b6"), "between the rows")
	assert.Less(t, cy("a7"), cy("a6"), "between the rows")
	tb.screenshot("kalah-turn")

	y := ts.create(`{"game": "yematatu"}`)
	tb.do(chromedp.Navigate(ts.http.URL + y.Seats[0].URL))
	tb.waitFor(`document.querySelector('#scores [data-player="1"]') !== null`)
	assert.Empty(t, tb.eval(`Array.from(document.querySelectorAll("#scores .score")).map((e) => e.textContent).filter((t) => !t.startsWith("In hand")).join()`))
	assert.NotContains(t, tb.eval(`document.getElementById("scores").textContent`), "captured")
}
