package server

import (
	"bufio"
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An event stream sends the whole record in its first event, and in an
// event whose record is not the last one's with moves added (a takeback);
// any other event carries the moves the stream's last event lacked, after
// its record_from moves, as GET ?since=N answers: a change that adds no
// move (a proposal) carries none. A stream resumed with Last-Event-ID
// starts whole again.
func TestEventsSendTheMovesLacked(t *testing.T) {
	ts := newTestServer(t, newMemStore())
	// Player 1's second move: the first legal one after b2 c1.
	h := ts.create(`{"game": "yematatu", "hold": [1, 2]}`)
	h1, h2 := ts.both(h)
	third := ts.play(h.ID, []string{h1, h2}, "b2", "c1").Moves[0].Token
	g := ts.create(`{"game": "yematatu", "hold": [1, 2]}`)
	s1, s2 := ts.both(g)
	status, b := ts.move(g.ID, "b2", 0, s1)
	require.Equal(t, http.StatusOK, status, "%s", b)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ev := ts.events(ctx, g.ID)
	ok := func(a answer) {
		t.Helper()
		require.Equal(t, http.StatusOK, a.status, a.body)
	}
	for _, step := range []struct {
		name   string
		do     func()
		from   int      // record_from of the event
		sent   []string // its record as sent
		record []string // the record it completes
		movers []int    // their movers, completed
	}{
		{"the first event", func() {}, 0, []string{"b2"}, []string{"b2"}, []int{1}},
		{"a move", func() { ok(ts.ask("POST", "/api/games/"+g.ID+"/moves", `{"token": "c1", "ply": 1, "seat": "`+s2+`"}`)) },
			1, []string{"c1"}, []string{"b2", "c1"}, []int{1, 2}},
		{"another move", func() {
			ok(ts.ask("POST", "/api/games/"+g.ID+"/moves", `{"token": "`+third+`", "ply": 2, "seat": "`+s1+`"}`))
		},
			2, []string{third}, []string{"b2", "c1", third}, []int{1, 2, 1}},
		{"a takeback proposed", func() { ok(ts.ask("POST", "/api/games/"+g.ID+"/takeback", seatBody(s2, 3, ""))) },
			3, []string{}, []string{"b2", "c1", third}, []int{1, 2, 1}},
		{"the takeback made", func() { ok(ts.ask("POST", "/api/games/"+g.ID+"/takeback", seatBody(s1, 3, `, "accept": true`))) },
			0, []string{"b2"}, []string{"b2"}, []int{1}},
		{"a move after it", func() { ok(ts.ask("POST", "/api/games/"+g.ID+"/moves", `{"token": "c1", "ply": 1, "seat": "`+s2+`"}`)) },
			1, []string{"c1"}, []string{"b2", "c1"}, []int{1, 2}},
	} {
		step.do()
		_, got := ev.next()
		assert.Equal(t, step.from, ev.sent.RecordFrom, step.name)
		assert.Equal(t, step.sent, ev.sent.Record, step.name)
		assert.Equal(t, step.record, got.Record, step.name)
		assert.Equal(t, step.movers, got.Movers, step.name)
		assert.Equal(t, len(step.record), got.Ply, step.name)
	}

	// Resumed after event 0: the states missed one by one, the first
	// with the whole record, the next with none to add.
	req, err := http.NewRequestWithContext(ctx, "GET", ts.http.URL+"/api/games/"+g.ID+"/events", nil)
	require.NoError(t, err)
	req.Header.Set("Last-Event-ID", "0")
	res, err := ts.http.Client().Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	re := &sseReader{t: t, res: res, sc: bufio.NewScanner(res.Body)}
	re.sc.Buffer(make([]byte, 1<<20), 1<<20)
	for _, want := range []struct {
		id   string
		from int
		sent []string
	}{{"1", 0, []string{"b2", "c1"}}, {"2", 2, []string{}}} {
		id, got := re.next()
		assert.Equal(t, want.id, id)
		assert.Equal(t, want.from, re.sent.RecordFrom, "event %s", id)
		assert.Equal(t, want.sent, re.sent.Record, "event %s", id)
		assert.Equal(t, []string{"b2", "c1"}, got.Record, "event %s", id)
	}
}
