package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/matombo/matombo/host/store"
)

// hub tells the event streams of a game that it has changed, and holds
// what the streams of one game share (a feed).
type hub struct {
	mu    sync.Mutex
	feeds map[string]*feed
}

func newHub() *hub { return &hub{feeds: map[string]*feed{}} }

// feed is what the subscribers of one game share: the game as last read
// from the store and the events built from it, so that a change costs one
// read of the store and one event per ply however many streams watch the
// game (each stream reading and building for itself, a thousand streams
// on one game made every move a thousand reads and encodings, and the
// mover and every other game waited behind them).
type feed struct {
	subs     map[chan struct{}]struct{} // guarded by the hub's mu
	watchers atomic.Int32               // len(subs), read without the hub's mu

	mu      sync.Mutex
	gen     uint64        // changes notified so far
	readGen uint64        // gen when the read of sg began
	sg      *store.Game   // the game as last read, nil before the first read
	reading chan struct{} // closed when the read under way ends; nil when none is
	events  map[eventKey][]byte

	build sync.Mutex // one stream builds an event of sg while the others wait for it
}

// subscribe returns the feed of game id, a channel that receives a signal
// (coalesced) whenever the game changes, and a function ending the
// subscription.
func (h *hub) subscribe(id string) (*feed, <-chan struct{}, func()) {
	c := make(chan struct{}, 1)
	h.mu.Lock()
	f := h.feeds[id]
	if f == nil {
		f = &feed{subs: map[chan struct{}]struct{}{}}
		h.feeds[id] = f
	}
	f.subs[c] = struct{}{}
	f.watchers.Store(int32(len(f.subs)))
	h.mu.Unlock()
	return f, c, func() {
		h.mu.Lock()
		delete(f.subs, c)
		f.watchers.Store(int32(len(f.subs)))
		if len(f.subs) == 0 && h.feeds[id] == f {
			delete(h.feeds, id)
		}
		h.mu.Unlock()
	}
}

// notify signals the subscribers of game id.
func (h *hub) notify(id string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if f := h.feeds[id]; f != nil {
		f.changed()
	}
}

// notifyAll signals every subscriber.
func (h *hub) notifyAll() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, f := range h.feeds {
		f.changed()
	}
}

// changed counts a change of the feed's game, so that the next read of
// it goes to the store, and signals its subscribers. The caller holds the
// hub's mu.
func (f *feed) changed() {
	f.mu.Lock()
	f.gen++
	f.mu.Unlock()
	for c := range f.subs {
		select {
		case c <- struct{}{}:
		default:
		}
	}
}

// game returns the stored game as read by read after the latest change
// notified: the one read already when a read began after it, else a new
// read, which the feed's other streams share (one reads, the others wait
// for it). With fresh, it reads the game itself (a stream that begins:
// a game unchanged for a while has run its clock since it was last read,
// may be due to lose on time, and its events show the time left when
// they were built), and the feed's later readers share that read.
func (f *feed) game(ctx context.Context, read func(context.Context) (*store.Game, error), fresh bool) (*store.Game, error) {
	for {
		f.mu.Lock()
		gen := f.gen
		var done chan struct{}
		switch {
		case fresh:
		case f.sg != nil && f.readGen == f.gen:
			sg := f.sg
			f.mu.Unlock()
			return sg, nil
		case f.reading != nil:
			wait := f.reading
			f.mu.Unlock()
			select {
			case <-wait:
				continue // read, or failed: look again
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		default:
			done = make(chan struct{})
			f.reading = done
		}
		f.mu.Unlock()
		sg, err := read(ctx)
		f.mu.Lock()
		if done != nil {
			f.reading = nil
			close(done)
		}
		if err == nil && (f.sg == nil || gen >= f.readGen) {
			f.sg, f.readGen, f.events = sg, gen, nil
		}
		f.mu.Unlock()
		return sg, err
	}
}

// eventKey names an event of a feed's game: its ply, and the moves of
// the record it leaves out (record_from), which its stream sent before.
type eventKey struct{ ply, from int }

// event returns the event of sg at ply leaving out the first from moves
// of the record, built by build: kept for the feed's other streams when
// there are others and sg is the feed's game as last read (a game watched
// once keeps no event after it is sent).
func (f *feed) event(sg *store.Game, ply, from int, build func() ([]byte, error)) ([]byte, error) {
	shared := func() bool { // a recent ply of the game as last read, which every stream sends
		return f.sg == sg && ply >= len(sg.Record)-maxCatchUp && f.watchers.Load() > 1
	}
	f.mu.Lock()
	ok := shared()
	f.mu.Unlock()
	if !ok {
		return build()
	}
	f.build.Lock()
	defer f.build.Unlock()
	f.mu.Lock()
	var b []byte
	key := eventKey{ply, from}
	if ok = shared(); ok { // the events are still sg's
		b, ok = f.events[key]
	}
	f.mu.Unlock()
	if ok {
		return b, nil
	}
	b, err := build()
	if err != nil {
		return nil, err
	}
	f.mu.Lock()
	if shared() {
		if f.events == nil {
			f.events = map[eventKey][]byte{}
		}
		f.events[key] = b
	}
	f.mu.Unlock()
	return b, nil
}

// keepAlive is how often an idle event stream gets a comment, so that
// proxies keep it open.
const keepAlive = 25 * time.Second

// maxCatchUp is how many missed states a resumed event stream sends one by
// one; a client further behind gets the current state alone. Each event
// holds a state, each state before the last replayed from a checkpoint,
// so sending every missed state would cost time and bytes growing with
// the number of moves missed. Once the stream runs, every move
// made is sent (a turn of several decisions as several events): those
// cost what making the moves cost.
const maxCatchUp = 8

// handleEvents streams a game's states as Server-Sent Events: first the
// current state, then one "state" event per move, each the game's JSON as
// GET /api/games/{id} gives it (without the board), with the number of
// moves as the event id; a change that is no move (a takeback, a proposal,
// a loss on time, a rematch) sends the game as it is then. An event's
// record is the whole record in the stream's first event, and whenever
// the record is not the one the stream's last event carried followed by
// more moves (a takeback); otherwise it is the moves that one lacked,
// after its record_from moves, as GET ?since=N answers (see since.go). A
// client reconnecting with Last-Event-ID gets the states after the ones
// it had, the first with the whole record, or, when it missed more than
// maxCatchUp, the current one. A client holds at most its quota of
// streams, the server its cap.
func (s *Server) handleEvents(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	release, no := s.clients.openStream(s.clientKey(r))
	if no != nil {
		no.write(w)
		return
	}
	defer release()
	f, changed, stop := s.hub.subscribe(id)
	defer stop()
	read := func(ctx context.Context) (*store.Game, error) { return s.getGame(ctx, id) }
	sg, err := f.game(r.Context(), read, true)
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
	if r.Method == http.MethodHead {
		// The headers alone: a stream nobody can read (nothing of it
		// reaches the connection) would hold its place for as long as
		// the client keeps the connection, without reading anything.
		return
	}
	tick := time.NewTicker(keepAlive)
	defer tick.Stop()
	// The record the client holds: the whole record of the last event
	// sent on this stream, none before the first.
	var held []string
	send := func(ply int) bool {
		from := 0
		if isPrefix(held, sg.Record) {
			from = len(held) // the record only grew: the moves the client lacks
		}
		ev, err := f.event(sg, ply, from, func() ([]byte, error) {
			v, err := s.gameAt(r.Context(), sg, ply, false)
			if err != nil {
				return nil, err
			}
			leaveOut(v, from)
			b, err := json.Marshal(v)
			if err != nil {
				return nil, err
			}
			return fmt.Appendf(nil, "id: %d\nevent: state\ndata: %s\n\n", ply, b), nil
		})
		if err != nil {
			if r.Context().Err() == nil && s.ctx.Err() == nil {
				s.log.Error("event stream", "id", id, "err", err)
			}
			return false
		}
		if _, err = w.Write(ev); err != nil {
			return false
		}
		held = sg.Record
		return true
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
		if sg, err = f.game(r.Context(), read, false); err != nil {
			return
		}
	}
}
