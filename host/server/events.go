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

// maxCatchUp is how many missed states an event stream sends one by one;
// a client further behind gets the current state alone. Each event holds
// the record, so sending every missed state would cost time and bytes
// quadratic in the game's length.
const maxCatchUp = 8

// handleEvents streams a game's states as Server-Sent Events: first the
// current state, then one "state" event per move, each the game's JSON as
// GET /api/games/{id} gives it (without the board), with the ply as the
// event id. A client reconnecting with Last-Event-ID gets the states it
// missed, or, when it missed more than maxCatchUp, the current one. A
// client holds at most its quota of streams, the server its cap.
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
	sg, err := s.store.Get(r.Context(), id)
	if err != nil {
		s.storeError(w, err, id)
		return
	}
	sent := len(sg.Record) - 1
	if last, err := strconv.Atoi(r.Header.Get("Last-Event-ID")); err == nil && last >= 0 && last <= len(sg.Record) {
		sent = last
	}
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
	for {
		from := sent + 1
		if len(sg.Record)-sent > maxCatchUp {
			from = len(sg.Record) // too far behind: the current state alone
		}
		for ply := from; ply <= len(sg.Record); ply++ {
			v, err := s.gameAt(sg, ply, false)
			if err != nil {
				s.log.Error("event stream", "id", id, "err", err)
				return
			}
			b, _ := json.Marshal(v)
			if _, err := fmt.Fprintf(w, "id: %d\nevent: state\ndata: %s\n\n", ply, b); err != nil {
				return
			}
			sent = ply
		}
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
		sg, err = s.store.Get(r.Context(), id)
		if err != nil {
			return
		}
	}
}
