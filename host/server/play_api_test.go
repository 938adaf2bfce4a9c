package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/host/store"
)

// answer is an API answer: its status, its JSON fields and its body.
type answer struct {
	status int
	body   string
	code   string
}

func (ts *testServer) ask(method, path, body string) answer {
	ts.t.Helper()
	status, b := ts.do(method, path, body)
	var e struct {
		Code string `json:"code"`
	}
	_ = json.Unmarshal(b, &e)
	return answer{status: status, body: string(b), code: e.Code}
}

func seatBody(secret string, ply int, extra string) string {
	return fmt.Sprintf(`{"seat": %q, "ply": %d%s}`, secret, ply, extra)
}

// A game's creator holds only their own seat: the other person's seat is
// claimed once, through its invitation, by whoever opens it, and from
// then on only its holder moves for it. Neither the creator nor a
// spectator (no secret) nor the invitation itself can move for it (403).
func TestSeatsBelongToOnePerson(t *testing.T) {
	ts := newTestServer(t, newMemStore())
	g := ts.create(`{"game": "yematatu"}`)
	creator := secret(t, g.Seats[0].URL)
	require.NotEmpty(t, g.Seats[1].Invite)
	_, invite, _ := strings.Cut(g.Seats[1].Invite, "&invite=")
	status, _ := ts.move(g.ID, "b2", 0, creator)
	require.Equal(t, http.StatusOK, status)

	// Player 2's seat waits for its person: nobody moves for it. The
	// secret of no seat is refused as such, from the stored seats (see
	// TestStrangersRebuildNothing).
	for _, tc := range []struct {
		name, seat, code string
	}{
		{"the creator", creator, codeSeatWaiting},
		{"a spectator", "", codeNotYourSeat},
		{"the invitation itself", invite, codeNotYourSeat},
	} {
		status, b := ts.move(g.ID, "c1", 1, tc.seat)
		assert.Equal(t, http.StatusForbidden, status, "%s: %s", tc.name, b)
		assert.Contains(t, string(b), `"code":"`+tc.code+`"`, tc.name)
	}
	assert.True(t, ts.get(g.ID).Seats[1].Waiting)

	// Claimed once: the answer gives that seat's link, and only it.
	a := ts.ask("POST", "/api/games/"+g.ID+"/claim", `{"invite": "`+invite+`"}`)
	require.Equal(t, http.StatusOK, a.status, a.body)
	var claimed testGame
	require.NoError(t, json.Unmarshal([]byte(a.body), &claimed))
	assert.Empty(t, claimed.Seats[0].URL)
	require.NotEmpty(t, claimed.Seats[1].URL)
	assert.Empty(t, claimed.Seats[1].Invite)
	assert.False(t, claimed.Seats[1].Waiting)
	player2 := secret(t, claimed.Seats[1].URL)
	assert.NotEqual(t, invite, player2, "the seat's secret is new, not the invitation")
	a = ts.ask("POST", "/api/games/"+g.ID+"/claim", `{"invite": "`+invite+`"}`)
	assert.Equal(t, http.StatusConflict, a.status, a.body)
	assert.Equal(t, codeSeatTaken, a.code)
	a = ts.ask("POST", "/api/games/"+g.ID+"/claim", `{"invite": "0123456789abcdef0123456789abcdef"}`)
	assert.Equal(t, http.StatusForbidden, a.status, a.body)
	assert.Equal(t, codeUnknownInvite, a.code)

	// Now the seat is Player 2's holder's alone.
	for _, tc := range []struct{ name, seat string }{{"the creator", creator}, {"a spectator", ""}, {"the used invitation", invite}} {
		status, b := ts.move(g.ID, "c1", 1, tc.seat)
		assert.Equal(t, http.StatusForbidden, status, "%s: %s", tc.name, b)
		assert.Contains(t, string(b), `"code":"`+codeNotYourSeat+`"`, tc.name)
	}
	status, b := ts.move(g.ID, "c1", 1, player2)
	require.Equal(t, http.StatusOK, status, "%s", b)
	// A GET shows neither secret nor invitation.
	_, raw := ts.do("GET", "/api/games/"+g.ID, "")
	for _, s := range []string{creator, invite, player2} {
		assert.NotContains(t, string(raw), s)
	}

	// Holding both seats at one keyboard, or a seat that is no person's.
	both := ts.create(`{"game": "yematatu", "hold": [1, 2]}`)
	assert.NotEmpty(t, both.Seats[0].URL)
	assert.NotEmpty(t, both.Seats[1].URL)
	assert.Empty(t, both.Seats[1].Invite)
	second := ts.create(`{"game": "yematatu", "hold": [2]}`)
	assert.Empty(t, second.Seats[0].URL)
	assert.NotEmpty(t, second.Seats[0].Invite)
	assert.NotEmpty(t, second.Seats[1].URL)
	for body, words := range map[string]string{
		`{"game": "yematatu", "hold": [3]}`:                               "there is no seat 3",
		`{"game": "yematatu", "hold": [2], "seats": ["human", "random"]}`: "seat 2 is the computer's",
		`{"game": "yematatu", "hold": [1, 1]}`:                            "seat 1 is named twice",
	} {
		a := ts.ask("POST", "/api/games", body)
		assert.Equal(t, http.StatusUnprocessableEntity, a.status, body)
		assert.Equal(t, codeBadSeats, a.code, body)
		assert.Contains(t, a.body, words, body)
	}
}

// Resign, draw offers and abort: each ends the game as the players
// decide, with its method in the result (stored) and, for a resignation
// or a draw agreed, in the state.
func TestResignDrawAbort(t *testing.T) {
	st := newMemStore()
	ts := newTestServer(t, st)
	stored := func(id string) *store.Result {
		sg, err := st.Get(t.Context(), id)
		require.NoError(t, err)
		return sg.Result
	}
	post := func(id, what, body string) answer { return ts.ask("POST", "/api/games/"+id+"/"+what, body) }

	t.Run("abort before every player has moved", func(t *testing.T) {
		g := ts.create(`{"game": "yematatu", "hold": [1, 2]}`)
		s1, s2 := ts.both(g)
		ts.play(g.ID, []string{s1, s2}, "b2")
		a := post(g.ID, "abort", seatBody(s2, 1, ""))
		require.Equal(t, http.StatusOK, a.status, a.body)
		r := stored(g.ID)
		require.NotNil(t, r)
		assert.Equal(t, methodAborted, r.Method)
		assert.Equal(t, 0, r.Winner)
		assert.Equal(t, []float64{0, 0}, r.Scores, "an aborted game scores nothing")
		assert.Equal(t, 2, r.Seat, "the seat that aborted")
		status, _ := ts.move(g.ID, "c1", 1, s2)
		assert.Equal(t, http.StatusConflict, status)
		a = post(g.ID, "takeback", seatBody(s1, 1, ""))
		assert.Equal(t, codeGameOver, a.code, "an abort is not taken back: %s", a.body)

		g = ts.create(`{"game": "yematatu", "hold": [1, 2]}`)
		s1, s2 = ts.both(g)
		ts.play(g.ID, []string{s1, s2}, "b2", "c1")
		a = post(g.ID, "abort", seatBody(s1, 2, ""))
		assert.Equal(t, http.StatusConflict, a.status, a.body)
		assert.Equal(t, codeAbortTooLate, a.code)
	})

	t.Run("a draw offered, declined, withdrawn by a move, agreed", func(t *testing.T) {
		g := ts.create(`{"game": "yematatu", "hold": [1, 2]}`)
		s1, s2 := ts.both(g)
		ts.play(g.ID, []string{s1, s2}, "b2", "c1")
		a := post(g.ID, "draw", seatBody(s1, 2, ""))
		require.Equal(t, http.StatusOK, a.status, a.body)
		assert.Equal(t, &store.Request{Kind: "draw", Seat: 1, To: 2}, ts.get(g.ID).Request)
		a = post(g.ID, "draw", seatBody(s1, 2, ""))
		assert.Equal(t, codeRequestOpen, a.code, a.body)
		a = post(g.ID, "draw", seatBody(s1, 2, `, "accept": true`))
		assert.Equal(t, http.StatusForbidden, a.status, "the offerer does not accept their own offer: %s", a.body)
		a = post(g.ID, "draw", seatBody(s2, 2, `, "accept": false`))
		require.Equal(t, http.StatusOK, a.status, a.body)
		assert.Nil(t, ts.get(g.ID).Request, "declined")
		a = post(g.ID, "draw", seatBody(s2, 2, `, "accept": true`))
		assert.Equal(t, codeNoRequest, a.code, a.body)

		a = post(g.ID, "draw", seatBody(s2, 2, ""))
		require.Equal(t, http.StatusOK, a.status, a.body)
		ts.play(g.ID, []string{s1, s2}, "a1")
		assert.Nil(t, ts.get(g.ID).Request, "a move withdraws the offer")

		a = post(g.ID, "draw", seatBody(s2, 3, ""))
		require.Equal(t, http.StatusOK, a.status, a.body)
		a = post(g.ID, "draw", seatBody(s1, 3, `, "accept": true`))
		require.Equal(t, http.StatusOK, a.status, a.body)
		got := ts.get(g.ID)
		require.NotNil(t, got.Result)
		assert.Equal(t, methodAgreement, got.Result.Method)
		assert.Equal(t, 0, got.Result.Winner)
		assert.Equal(t, []float64{0.5, 0.5}, got.Result.Scores)
		var state struct {
			Over   bool   `json:"over"`
			Method string `json:"method"`
			Reason string `json:"reason"`
		}
		require.NoError(t, json.Unmarshal(got.State, &state))
		assert.True(t, state.Over)
		assert.Equal(t, "agreement", state.Method, "the state says how it ended")
		assert.Equal(t, "drawn by agreement", state.Reason)
		assert.Empty(t, got.Moves)
		assert.Equal(t, methodAgreement, stored(g.ID).Method, "and the store")
		// The position before the end is as it was.
		var before struct {
			Over bool `json:"over"`
		}
		_, raw := ts.do("GET", "/api/games/"+g.ID+"?ply=2", "")
		var at testGame
		require.NoError(t, json.Unmarshal(raw, &at))
		require.NoError(t, json.Unmarshal(at.State, &before))
		assert.False(t, before.Over)
	})

	t.Run("resign", func(t *testing.T) {
		g := ts.create(`{"game": "yematatu", "hold": [1, 2]}`)
		s1, s2 := ts.both(g)
		ts.play(g.ID, []string{s1, s2}, "b2", "c1", "a1")
		a := post(g.ID, "resign", seatBody("", 3, ""))
		assert.Equal(t, http.StatusForbidden, a.status, "a spectator does not resign: %s", a.body)
		assert.Equal(t, codeNotYourSeat, a.code)
		a = post(g.ID, "resign", seatBody(s2, 2, ""))
		assert.Equal(t, codeStalePly, a.code, a.body)
		a = post(g.ID, "resign", seatBody(s2, 3, ""))
		require.Equal(t, http.StatusOK, a.status, a.body)
		got := ts.get(g.ID)
		require.NotNil(t, got.Result)
		assert.Equal(t, methodResignation, got.Result.Method)
		assert.Equal(t, 1, got.Result.Winner)
		assert.Equal(t, "player 2 resigned", got.Result.Reason)
		assert.Equal(t, 2, got.Result.Seat, "the seat that resigned")
		assert.Contains(t, string(got.State), `"method":"resignation"`)
		assert.Equal(t, 1, got.state(t).Winner)
		a = post(g.ID, "resign", seatBody(s1, 3, ""))
		assert.Equal(t, codeGameOver, a.code, a.body)
		a = post(g.ID, "takeback", seatBody(s2, 3, ""))
		assert.Equal(t, codeGameOver, a.code, "a resignation is not taken back: %s", a.body)
		// A rematch follows as after any end.
		a = post(g.ID, "rematch", `{"seat": "`+s1+`"}`)
		assert.Equal(t, http.StatusCreated, a.status, a.body)
	})

	t.Run("against the computer", func(t *testing.T) {
		g := ts.create(`{"game": "yematatu", "seats": ["human", "random"]}`)
		me := secret(t, g.Seats[0].URL)
		a := post(g.ID, "draw", seatBody(me, 0, ""))
		assert.Equal(t, codeNoOpponent, a.code, a.body)
		a = post(g.ID, "resign", seatBody(me, 0, ""))
		require.Equal(t, http.StatusOK, a.status, a.body)
		assert.Equal(t, 2, ts.get(g.ID).Result.Winner)
	})
}

// Every error answer carries a stable code; a host error that has one
// gives its own.
func TestErrorCodes(t *testing.T) {
	ts := newTestServer(t, newMemStore())
	g := ts.create(`{"game": "yematatu"}`)
	s1 := secret(t, g.Seats[0].URL)
	for _, tc := range []struct {
		method, path, body string
		status             int
		code               string
	}{
		{"POST", "/api/games", `{"game": `, http.StatusBadRequest, codeBadRequest},
		{"POST", "/api/games", `{"game": "yematatu", "nosuch": 1}`, http.StatusBadRequest, codeBadRequest},
		{"POST", "/api/games", `{"game": "nosuch"}`, http.StatusUnprocessableEntity, codeUnknownGame},
		{"POST", "/api/games", `{"game": "tsoro", "variants": ["4x99"]}`, http.StatusUnprocessableEntity, codeBadConfig},
		{"POST", "/api/games", `{"game": "yematatu", "seats": ["human"]}`, http.StatusUnprocessableEntity, codeBadSeats},
		{"POST", "/api/games", `{"game": "yematatu", "seats": ["human", "mcts:time=1h"]}`, http.StatusUnprocessableEntity, codeBadSeats},
		{"POST", "/api/games", `{"game": "yematatu", "clock": {"initial": -1}}`, http.StatusUnprocessableEntity, codeBadClock},
		{"POST", "/api/games", `{"game": "yematatu", "x": "` + strings.Repeat("x", 17<<10) + `"}`, http.StatusRequestEntityTooLarge, codeBodyTooLarge},
		{"GET", "/api/games/nosuch", "", http.StatusNotFound, codeNotFound},
		{"GET", "/api/nosuch", "", http.StatusNotFound, codeNotFound},
		{"GET", "/api/catalog/nosuch/rules", "", http.StatusNotFound, codeNotFound},
		{"POST", "/api/games/" + g.ID + "/moves", `{"token": "z9", "ply": 0, "seat": "` + s1 + `"}`, http.StatusUnprocessableEntity, codeIllegalToken},
		{"POST", "/api/games/" + g.ID + "/moves", `{"token": "b2", "ply": 5, "seat": "` + s1 + `"}`, http.StatusConflict, codeStalePly},
		{"POST", "/api/games/" + g.ID + "/moves", `{"token": "b2", "ply": 0, "seat": "nope"}`, http.StatusForbidden, codeNotYourSeat},
		{"POST", "/api/games/" + g.ID + "/moves", `{"token": "b2", "seat": "` + s1 + `"}`, http.StatusBadRequest, codeBadRequest},
		{"POST", "/api/games/" + g.ID + "/takeback", seatBody(s1, 0, ""), http.StatusUnprocessableEntity, codeNothingToTake},
		{"POST", "/api/games/" + g.ID + "/rematch", `{"seat": "` + s1 + `"}`, http.StatusConflict, codeGameNotOver},
		{"GET", "/api/games/" + g.ID + "?ply=x", "", http.StatusBadRequest, codeBadRequest},
		{"GET", "/api/catalog/nosuch/computers", "", http.StatusUnprocessableEntity, codeUnknownGame},
		{"GET", "/api/catalog/tsoro/computers?param=holes", "", http.StatusBadRequest, codeBadRequest},
		// A query that reads two ways: a parameter twice, a pair not
		// well formed (which Go's url.Values would drop unsaid).
		{"GET", "/api/games/" + g.ID + "?ply=0&ply=1", "", http.StatusBadRequest, codeBadRequest},
		{"GET", "/api/games/" + g.ID + "?board=0&board=1", "", http.StatusBadRequest, codeBadRequest},
		{"GET", "/api/games/" + g.ID + "?ply=%zz", "", http.StatusBadRequest, codeBadRequest},
		{"GET", "/api/games/" + g.ID + "?board=0;ply=1", "", http.StatusBadRequest, codeBadRequest},
		{"GET", "/api/catalog/tsoro/computers?param=holes=6&param=holes=8", "", http.StatusBadRequest, codeBadRequest},
		{"GET", "/api/catalog/tsoro/computers?variant=4x8&variant=%", "", http.StatusBadRequest, codeBadRequest},
		{"GET", "/api/games/" + g.ID + "?ply=0&board=0", "", http.StatusOK, ""},
		{"GET", "/api/catalog/tsoro/computers?variant=4x8&param=bonus=1", "", http.StatusOK, ""},
	} {
		a := ts.ask(tc.method, tc.path, tc.body)
		assert.Equal(t, tc.status, a.status, "%s %s %.80s: %s", tc.method, tc.path, tc.body, a.body)
		assert.Equal(t, tc.code, a.code, "%s %s %.80s: %s", tc.method, tc.path, tc.body, a.body)
	}
	// The refusals of the guard and the quotas have codes too.
	res, b := ts.as("", "POST", "/api/games", `{"game": "yematatu"}`, "Origin", "http://attacker.example")
	assert.Equal(t, http.StatusForbidden, res.StatusCode)
	assert.Contains(t, string(b), `"code":"cross-site"`)
	res, b = ts.as("", "GET", "/api/catalog", "", "Host", "attacker.example")
	assert.Equal(t, http.StatusMisdirectedRequest, res.StatusCode)
	assert.Contains(t, string(b), `"code":"unknown-host"`)
	res, b = ts.as("", "POST", "/api/games", `{"game": "yematatu"}`, "Content-Type", "text/plain")
	assert.Equal(t, http.StatusUnsupportedMediaType, res.StatusCode)
	assert.Contains(t, string(b), `"code":"unsupported-media-type"`)
	limited := newTestServer(t, newMemStore(), WithLimits(Limits{GamesPerMinute: 1, RequestsPerSecond: 1000}))
	limited.create(`{"game": "yematatu"}`)
	a := limited.ask("POST", "/api/games", `{"game": "yematatu"}`)
	assert.Equal(t, http.StatusTooManyRequests, a.status)
	assert.Equal(t, codeOverQuota, a.code)
}

// codedError is an error with a code, as package host's typed errors
// have.
type codedError struct{ code string }

func (e *codedError) Error() string { return "coded: " + e.code }
func (e *codedError) Code() string  { return e.code }

func TestErrorCodeOfWrappedErrors(t *testing.T) {
	err := fmt.Errorf("replaying: %w", &codedError{code: "budget-steps"})
	assert.Equal(t, "budget-steps", errorCode(err, codeInternal))
	assert.Equal(t, codeInternal, errorCode(errors.New("plain"), codeInternal))
	assert.Equal(t, codeInternal, errorCode(&codedError{}, codeInternal), "an empty code is no code")
}

// An illegal move says which rule it breaks, in the script's words, before
// what part of the token is wrong.
func TestIllegalMoveSaysWhy(t *testing.T) {
	ts := newTestServer(t, newMemStore())
	g := ts.create(`{"game": "yematatu", "hold": [1, 2]}`)
	s1, s2 := ts.both(g)
	ts.play(g.ID, []string{s1, s2}, "b2")
	status, b := ts.move(g.ID, "b2", 1, s2)
	require.Equal(t, http.StatusUnprocessableEntity, status)
	assert.Contains(t, string(b), `"b2\" is not a legal move here: b2 is occupied (Y3); b2 is not possible for a drop now (possible: a1 b1 b3 c1 c2 c3)`)
	assert.Contains(t, string(b), `"code":"illegal-token"`)
	// The rule and the host's part apart, for a page to say one of them.
	assert.Contains(t, string(b), `"rule":"b2 is occupied (Y3)","reason":"b2 is not possible for a drop now (possible: a1 b1 b3 c1 c2 c3)"`)

	// A token the script's why function says nothing of has no rule.
	status, b = ts.move(g.ID, "z9", 1, s2)
	require.Equal(t, http.StatusUnprocessableEntity, status)
	assert.NotContains(t, string(b), `"rule"`)
	assert.Contains(t, string(b), `"reason":"z9 is not a site of this board`)

	g = ts.create(`{"game": "gore", "hold": [1, 2]}`)
	s1, _ = ts.both(g)
	status, b = ts.move(g.ID, "offer:a1", 0, s1)
	require.Equal(t, http.StatusUnprocessableEntity, status)
	assert.Contains(t, string(b), "an offer of 1 hole needs 6 captured counters of your opponent's (6 a hole), who has 0 (G6)")

	// A long token is quoted in part: the server does not send a client's
	// kilobytes back.
	status, b = ts.move(g.ID, strings.Repeat("z", 10000), 0, s1)
	require.Equal(t, http.StatusUnprocessableEntity, status)
	assert.Contains(t, string(b), `more bytes cut) is not a legal move here`)
	assert.Less(t, len(b), 4000, "%.200s", b)

	// So is any text of the request a refusal quotes: a seat spec of
	// 15 KB is named by its first 4 KiB.
	a := ts.ask("POST", "/api/games", `{"game": "yematatu", "seats": ["human", "mcts:`+strings.Repeat("x", 15000)+`"]}`)
	assert.Equal(t, http.StatusUnprocessableEntity, a.status)
	assert.Equal(t, codeBadSeats, a.code)
	assert.Contains(t, a.body, "more bytes cut")
	assert.Less(t, len(a.body), 6000, "%.200s", a.body)
}

// A timed game's next clock starts after the time the pages take to show
// the move, which no one is charged for: the view says how long
// (starts_in_ms), and the bank is full until then.
func TestClockWaitsForTheMoveToBeShown(t *testing.T) {
	ts := newTestServer(t, newMemStore())
	g := ts.create(`{"game": "kalah", "hold": [1, 2], "clock": {"initial": 60}}`)
	s1, s2 := ts.both(g)
	after := ts.play(g.ID, []string{s1, s2}, "a2")
	require.NotNil(t, after.Clock)
	assert.Equal(t, 2, after.Clock.Running)
	assert.Equal(t, int64(60000), after.Clock.Left[1])
	assert.Greater(t, after.Clock.StartsIn, int64(0))
	assert.LessOrEqual(t, after.Clock.StartsIn, maxShow.Milliseconds())

	now := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	c := &store.Clock{Initial: time.Minute, Remaining: []time.Duration{time.Minute, time.Minute}, Running: 1, Since: now}
	next, late := afterMove(c, 1, 2, now.Add(10*time.Second), 2*time.Second)
	require.False(t, late)
	assert.Equal(t, 50*time.Second, next.Remaining[0], "the mover is charged for their thinking")
	assert.Equal(t, time.Minute, next.Left(2, now.Add(11*time.Second)), "nothing while the move is shown")
	assert.Equal(t, time.Minute-time.Second, next.Left(2, now.Add(13*time.Second)))
	assert.Equal(t, now.Add(12*time.Second).Add(time.Minute), next.Deadline())
	over, _ := afterMove(next, 2, 0, now.Add(20*time.Second), 2*time.Second)
	assert.Equal(t, 0, over.Running, "no clock runs after the end")
}

// The computer seats offered for a configuration: perfect play only where
// it works, decided (in the background) before it is offered.
func TestComputersOffered(t *testing.T) {
	ts := newTestServer(t, newMemStore())
	decided := func(path string) computerView {
		deadline := time.Now().Add(2 * time.Minute)
		for {
			a := ts.ask("GET", path, "")
			require.Equal(t, http.StatusOK, a.status, a.body)
			var v computersView
			require.NoError(t, json.Unmarshal([]byte(a.body), &v))
			var perfect computerView
			for _, c := range v.Computers {
				if c.Player == perfectSeat {
					perfect = c
				} else {
					assert.True(t, c.Offered, "%s: %s", path, c.Player)
					assert.True(t, strings.HasPrefix(c.Name, "Computer ("), c.Name)
					assert.NotEmpty(t, c.Spec)
				}
			}
			if !perfect.Pending {
				return perfect
			}
			require.Greater(t, v.RetryAfter, 0)
			require.True(t, time.Now().Before(deadline), "perfect play still pending for %s", path)
			time.Sleep(50 * time.Millisecond)
		}
	}
	p := decided("/api/catalog/tictactoe/computers")
	assert.True(t, p.Offered, "tic-tac-toe is small: %+v", p)
	assert.Equal(t, "Computer (perfect play)", p.Name)
	p = decided("/api/catalog/tsoro/computers?variant=4x8&param=bonus=1")
	assert.False(t, p.Offered)
	assert.Contains(t, p.Why, "positions")
	// Created with it where it is offered.
	a := ts.ask("POST", "/api/games", `{"game": "tictactoe", "seats": ["human", "perfect"]}`)
	assert.Equal(t, http.StatusCreated, a.status, a.body)
}

// With a solution cache of its own (WithSolutionCache), the server writes
// the solutions it makes there, and another server reads them.
func TestSolutionCacheOption(t *testing.T) {
	dir := t.TempDir()
	ts := newTestServer(t, newMemStore(), WithSolutionCache(dir))
	for {
		a := ts.ask("POST", "/api/games", `{"game": "tictactoe", "seats": ["human", "perfect"]}`)
		if a.status == http.StatusCreated {
			break
		}
		require.Equal(t, codePerfectWait, a.code, a.body)
		time.Sleep(20 * time.Millisecond)
	}
	files, err := filepath.Glob(filepath.Join(dir, "tictactoe-*.solution"))
	require.NoError(t, err)
	require.Len(t, files, 1)
	info, err := os.Stat(files[0])
	require.NoError(t, err)
	assert.Greater(t, info.Size(), int64(0))
	// A server that solves nothing offers it from the cache.
	other := newTestServer(t, newMemStore(), WithSolutionCache(dir), WithPerfect(PerfectBudget{Positions: 0, Time: time.Minute, Memory: 64 << 20, SolvesPerMinute: 6}))
	for {
		a := other.ask("POST", "/api/games", `{"game": "tictactoe", "seats": ["human", "perfect"]}`)
		if a.status == http.StatusCreated {
			break
		}
		require.Equal(t, codePerfectWait, a.code, a.body)
		time.Sleep(20 * time.Millisecond)
	}
}

// Mounted under a path prefix in an existing mux: the page, its files,
// the API and the seat links follow the prefix; the rest of the mux is
// its own.
func TestBasePath(t *testing.T) {
	s, err := New(lib(), newMemStore(), WithBasePath("/games"), WithLimits(testLimits), WithSolutionCache(t.TempDir()))
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "the site's own page") })
	mux.Handle("/games/", s.Handler())
	mux.Handle("/games", s.Handler())
	hs := httptest.NewServer(mux)
	t.Cleanup(hs.Close)
	client := hs.Client()
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	get := func(path string) (int, string, http.Header) {
		res, err := client.Get(hs.URL + path)
		require.NoError(t, err)
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b), res.Header
	}
	status, page, _ := get("/games/")
	require.Equal(t, http.StatusOK, status)
	assert.Contains(t, page, `<meta name="matombo-base" content="/games">`)
	assert.Contains(t, page, `src="/games/static/app.js"`)
	assert.Contains(t, page, `href="/games/static/style.css"`)
	assert.NotContains(t, page, `"/static/`)
	status, _, _ = get("/games/static/app.js")
	assert.Equal(t, http.StatusOK, status)
	status, body, _ := get("/games/api/catalog")
	assert.Equal(t, http.StatusOK, status, body)
	status, _, h := get("/games")
	assert.Equal(t, http.StatusMovedPermanently, status)
	assert.Equal(t, "/games/", h.Get("Location"))
	status, body, _ = get("/")
	assert.Equal(t, http.StatusOK, status)
	assert.Equal(t, "the site's own page", body)
	status, body, _ = get("/api/catalog")
	assert.Equal(t, "the site's own page", body, "the API is under the prefix only")

	res, err := client.Post(hs.URL+"/games/api/games", "application/json", strings.NewReader(`{"game": "yematatu"}`))
	require.NoError(t, err)
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	require.Equal(t, http.StatusCreated, res.StatusCode, "%s", b)
	var g testGame
	require.NoError(t, json.Unmarshal(b, &g))
	assert.True(t, strings.HasPrefix(g.Seats[0].URL, "/games/g/"+g.ID+"#player=1&seat="), g.Seats[0].URL)
	assert.True(t, strings.HasPrefix(g.Seats[1].Invite, "/games/g/"+g.ID+"#player=2&invite="), g.Seats[1].Invite)
	status, page, _ = get("/games/g/" + g.ID)
	assert.Equal(t, http.StatusOK, status)
	assert.Contains(t, page, `content="/games"`)

	for _, bad := range []string{"games", "/games/", "/a b", "/a/../b", "/a?b"} {
		_, err := New(lib(), newMemStore(), WithBasePath(bad))
		assert.ErrorContains(t, err, "base path", bad)
	}
}

// While the other person's seat waits for its person, nobody is there to
// answer: an undo is made at once, and a draw cannot be offered.
func TestWaitingSeatHasNobodyToAsk(t *testing.T) {
	ts := newTestServer(t, newMemStore())
	g := ts.create(`{"game": "yematatu"}`)
	me := secret(t, g.Seats[0].URL)
	status, _ := ts.move(g.ID, "b2", 0, me)
	require.Equal(t, http.StatusOK, status)
	a := ts.ask("POST", "/api/games/"+g.ID+"/draw", seatBody(me, 1, ""))
	assert.Equal(t, codeNoOpponent, a.code, a.body)
	a = ts.ask("POST", "/api/games/"+g.ID+"/takeback", seatBody(me, 1, ""))
	require.Equal(t, http.StatusOK, a.status, a.body)
	assert.Empty(t, ts.get(g.ID).Record, "taken back at once")
	// Once the seat is claimed, a takeback is a proposal again.
	ts.claim(g.Seats[1].Invite)
	status, _ = ts.move(g.ID, "b2", 0, me)
	require.Equal(t, http.StatusOK, status)
	a = ts.ask("POST", "/api/games/"+g.ID+"/takeback", seatBody(me, 1, ""))
	require.Equal(t, http.StatusOK, a.status, a.body)
	got := ts.get(g.ID)
	assert.Equal(t, []string{"b2"}, got.Record)
	assert.Equal(t, &store.Request{Kind: "takeback", Seat: 1, To: 0}, got.Request)
}

// A stored game outlives the games the server plays: another server on the
// same store whose library changed the game's variant says so (the rules
// changed; the record still plays), and where the variant is gone or the
// record no longer plays, answers 409 game-changed saying why, not 500.
func TestStoredGameOfChangedGames(t *testing.T) {
	st := newMemStore()
	ts := newTestServer(t, st)
	g := ts.create(`{"game": "tsoro", "variants": ["4x8"], "hold": [1, 2]}`)
	s1, s2 := ts.both(g)
	ts.play(g.ID, []string{s1, s2}, "a1", "d1", "a8")
	assert.NotContains(t, ts.ask("GET", "/api/games/"+g.ID, "").body, "rules_changed")

	changed := func(variants string) *testServer { return changedServer(t, st, "tsoro", variants) }
	// 4x8 now plays one bonus capture: the record still plays.
	a := changed("variants:\n  4x8: {params: {holes: 8, bonus: 1}}\n").ask("GET", "/api/games/"+g.ID, "")
	require.Equal(t, http.StatusOK, a.status, a.body)
	assert.Contains(t, a.body, `"rules_changed":true`)

	for _, tc := range []struct{ name, variants, why string }{
		{"the variant dropped", "variants:\n  4x8: null\n", `unknown variant \"4x8\"`},
		{"a smaller board", "variants:\n  4x8: {params: {holes: 6}}\n", `replaying move 2 \"d1\" of the stored record: illegal token`},
	} {
		a := changed(tc.variants).ask("GET", "/api/games/"+g.ID, "")
		assert.Equal(t, http.StatusConflict, a.status, tc.name)
		assert.Equal(t, codeGameChanged, a.code, tc.name)
		assert.Contains(t, a.body, "this game of tsoro can no longer be opened here: the server's games have changed since it was made", tc.name)
		assert.Contains(t, a.body, tc.why, tc.name)
	}
}

// changedServer is a test server on st whose library is the shipped games
// with game's variants file replaced by variants.
func changedServer(t *testing.T, st store.Store, game, variants string) *testServer {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, game), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, game, "variants.yaml"), []byte(variants), 0o644))
	l := lib()
	require.NoError(t, l.AddDir(dir))
	return newTestServerOf(t, l, st)
}

// A time control out of bounds, or missing its time, is refused with a
// message that names the field and what it may be.
func TestClockRefusals(t *testing.T) {
	ts := newTestServer(t, newMemStore())
	for _, tc := range []struct{ clock, why string }{
		{`{}`, "clock initial: missing: give each seat's time, a number of seconds from 0.1 to 86400"},
		{`{"increment": 5}`, "clock initial: missing"},
		{`{"initial": -1}`, "clock initial: -1 is not a number of seconds from 0 to 86400"},
		{`{"initial": 0.01}`, "clock initial: 0.01 seconds is too little time (at least 0.1)"},
		{`{"initial": 60, "increment": 1e9}`, "clock increment: 1e9 is not a number of seconds from 0 to 3600"},
	} {
		a := ts.ask("POST", "/api/games", `{"game": "yematatu", "clock": `+tc.clock+`}`)
		assert.Equal(t, http.StatusUnprocessableEntity, a.status, "%s: %s", tc.clock, a.body)
		assert.Equal(t, codeBadClock, a.code, "%s: %s", tc.clock, a.body)
		assert.Contains(t, a.body, tc.why, "%s", tc.clock)
	}
}
