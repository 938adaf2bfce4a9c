package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// hub tells the event streams of a game that it has changed.
type hub struct {
	mu   sync.Mutex
	subs map[string]map[chan struct{}]struct{}
}

func newHub() *hub { return &hub{subs: map[string]map[chan struct{}]struct{}{}} }

// subscribe returns a channel that receives a signal (coalesced) whenever
// game id changes, and a function ending the subscription.
func (h *hub) subscribe(id string) (<-chan struct{}, func()) {
	c := make(chan struct{}, 1)
	h.mu.Lock()
	if h.subs[id] == nil {
		h.subs[id] = map[chan struct{}]struct{}{}
	}
	h.subs[id][c] = struct{}{}
	h.mu.Unlock()
	return c, func() {
		h.mu.Lock()
		delete(h.subs[id], c)
		if len(h.subs[id]) == 0 {
			delete(h.subs, id)
		}
		h.mu.Unlock()
	}
}

// notify signals the subscribers of game id.
func (h *hub) notify(id string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for c := range h.subs[id] {
		select {
		case c <- struct{}{}:
		default:
		}
	}
}

// notifyAll signals every subscriber.
func (h *hub) notifyAll() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, subs := range h.subs {
		for c := range subs {
			select {
			case c <- struct{}{}:
			default:
			}
		}
	}
}

// keepAlive is how often an idle event stream gets a comment, so that
// proxies keep it open.
const keepAlive = 25 * time.Second

// maxCatchUp is how many missed states a resumed event stream sends one by
// one; a client further behind gets the current state alone. Each event
// holds the record, so sending every missed state would cost time and
// bytes quadratic in the game's length. Once the stream runs, every move
// made is sent (a turn of several decisions as several events): those
// cost what making the moves cost.
const maxCatchUp = 8

// handleEvents streams a game's states as Server-Sent Events: first the
// current state, then one "state" event per move, each the game's JSON as
// GET /api/games/{id} gives it (without the board), with the number of
// moves as the event id; a change that is no move (a takeback, a proposal,
// a loss on time, a rematch) sends the game as it is then. A client
// reconnecting with Last-Event-ID gets the states after the ones it had,
// or, when it missed more than maxCatchUp, the current one. A client holds
// at most its quota of streams, the server its cap.
func (s *Server) handleEvents(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	release, no := s.clients.openStream(s.clientKey(r))
	if no != nil {
		no.write(w)
		return
	}
	defer release()
	changed, stop := s.hub.subscribe(id)
	defer stop()
	sg, err := s.getGame(r.Context(), id)
	if err != nil {
		s.storeError(w, err, id)
		return
	}
	// What the client has: the record up to the Last-Event-ID it got, or
	// nothing; the current state is always sent first.
	sent := sg.Record
	if last, err := strconv.Atoi(r.Header.Get("Last-Event-ID")); err == nil && last >= 0 && last <= len(sg.Record) {
		sent = sg.Record[:last]
	}
	var sentUpdated time.Time
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	rc := http.NewResponseController(w)
	// The stream outlives the server's read timeout, which would otherwise
	// end it (and cancel its context) once the timeout passes.
	if err := rc.SetReadDeadline(time.Time{}); err != nil && !errors.Is(err, http.ErrNotSupported) {
		s.log.Error("event stream: clearing the read deadline", "err", err)
	}
	w.WriteHeader(http.StatusOK)
	tick := time.NewTicker(keepAlive)
	defer tick.Stop()
	send := func(ply int) bool {
		v, err := s.gameAt(r.Context(), sg, ply, false)
		if err != nil {
			if r.Context().Err() == nil && s.ctx.Err() == nil {
				s.log.Error("event stream", "id", id, "err", err)
			}
			return false
		}
		b, _ := json.Marshal(v)
		_, err = fmt.Fprintf(w, "id: %d\nevent: state\ndata: %s\n\n", ply, b)
		return err == nil
	}
	for resuming := true; ; resuming = false {
		switch {
		case len(sg.Record) > len(sent) && isPrefix(sent, sg.Record):
			from := len(sent) + 1
			if resuming && len(sg.Record)-len(sent) > maxCatchUp {
				from = len(sg.Record) // too far behind: the current state alone
			}
			for ply := from; ply <= len(sg.Record); ply++ {
				if !send(ply) {
					return
				}
			}
		case !equalRecords(sent, sg.Record) || !sg.Updated.Equal(sentUpdated):
			if !send(len(sg.Record)) {
				return
			}
		}
		sent, sentUpdated = sg.Record, sg.Updated
		if err := rc.Flush(); err != nil {
			return
		}
		select {
		case <-r.Context().Done():
			return
		case <-s.ctx.Done():
			return
		case <-tick.C:
			if _, err := fmt.Fprint(w, ": keep-alive\n\n"); err != nil {
				return
			}
			continue
		case <-changed:
		}
		if sg, err = s.getGame(r.Context(), id); err != nil {
			return
		}
	}
}
