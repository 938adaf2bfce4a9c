// Package hub fans the changes of a store out to the channels of its
// Watch callers.
package hub

import (
	"context"
	"sync"
)

// Hub fans changes out to the channels of Watch. One source (a poller, a
// listener, the store's own writes) publishes; every subscriber gets every
// change published after it subscribed, or is dropped when its buffer is
// full.
type Hub[T any] struct {
	buffer int

	done chan struct{} // closed by close

	mu     sync.Mutex
	subs   map[chan T]struct{}
	closed bool
}

// New returns a hub whose subscribers buffer buffer changes.
func New[T any](buffer int) *Hub[T] {
	return &Hub[T]{buffer: buffer, done: make(chan struct{}), subs: make(map[chan T]struct{})}
}

// Subscribe returns a channel of changes that is closed when ctx ends,
// when the hub closes or when the receiver falls a buffer behind.
func (h *Hub[T]) Subscribe(ctx context.Context) (<-chan T, bool) {
	ch := make(chan T, h.buffer)
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
func (h *Hub[T]) drop(ch chan T) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.subs[ch]; ok {
		delete(h.subs, ch)
		close(ch)
	}
}

// Publish delivers c to every subscriber without blocking.
func (h *Hub[T]) Publish(c T) {
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

// Count returns the number of subscribers.
func (h *Hub[T]) Count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.subs)
}

// Close closes every subscriber and refuses new ones.
func (h *Hub[T]) Close() {
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
