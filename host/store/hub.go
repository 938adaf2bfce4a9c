package store

import (
	"context"
	"sync"
)

// hub fans changes out to the channels of Watch. One source (a poller or
// a listener) publishes; every subscriber gets every change published
// after it subscribed, or is dropped when its buffer is full.
type hub struct {
	buffer int

	done chan struct{} // closed by close

	mu     sync.Mutex
	subs   map[chan Change]struct{}
	closed bool
}

func newHub(buffer int) *hub {
	return &hub{buffer: buffer, done: make(chan struct{}), subs: make(map[chan Change]struct{})}
}

// subscribe returns a channel of changes that is closed when ctx ends,
// when the hub closes or when the receiver falls a buffer behind.
func (h *hub) subscribe(ctx context.Context) (<-chan Change, bool) {
	ch := make(chan Change, h.buffer)
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil, false
	}
	h.subs[ch] = struct{}{}
	h.mu.Unlock()
	go func() {
		select {
		case <-ctx.Done():
			h.drop(ch)
		case <-h.done:
		}
	}()
	return ch, true
}

// drop closes ch unless it was dropped already.
func (h *hub) drop(ch chan Change) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.subs[ch]; ok {
		delete(h.subs, ch)
		close(ch)
	}
}

// publish delivers c to every subscriber without blocking.
func (h *hub) publish(c Change) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for ch := range h.subs {
		select {
		case ch <- c:
		default: // too far behind: drop it, it re-reads when it re-watches
			delete(h.subs, ch)
			close(ch)
		}
	}
}

// count returns the number of subscribers.
func (h *hub) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.subs)
}

// close closes every subscriber and refuses new ones.
func (h *hub) close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return
	}
	h.closed = true
	close(h.done)
	for ch := range h.subs {
		delete(h.subs, ch)
		close(ch)
	}
}
