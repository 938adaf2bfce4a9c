package server

import (
	"container/list"
	"fmt"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/store"
)

// entry is one game's rebuilt current state. Its mutex serializes the
// moves made on the game by this process.
type entry struct {
	mu      sync.Mutex
	game    *host.Game
	seats   []store.Seat // the stored seats, with their secrets
	record  []string     // the tokens state was rebuilt from
	movers  []int        // the player who made each move of record
	state   *host.State  // the state after record
	last    *moveView    // the move that led to state
	updated time.Time    // the stored game's Updated that record is from
	stored  *store.Game  // the stored game as last read or written, with record; read only
}

// stateCache keeps the rebuilt states of the most recently used games.
type stateCache struct {
	mu    sync.Mutex
	max   int
	order *list.List // of *cacheItem, most recent first
	items map[string]*list.Element
}

type cacheItem struct {
	id string
	e  *entry
}

func newStateCache(max int) *stateCache {
	return &stateCache{max: max, order: list.New(), items: map[string]*list.Element{}}
}

// get returns the entry of game id, a new empty one when it is not cached,
// and drops the least recently used entries beyond the cap.
func (c *stateCache) get(id string) *entry {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.items[id]; ok {
		c.order.MoveToFront(el)
		return el.Value.(*cacheItem).e
	}
	e := &entry{}
	c.items[id] = c.order.PushFront(&cacheItem{id: id, e: e})
	for c.order.Len() > c.max {
		el := c.order.Back()
		c.order.Remove(el)
		delete(c.items, el.Value.(*cacheItem).id)
	}
	return e
}

// len is the number of cached games.
func (c *stateCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}

// loadGame loads the game a stored game is played with.
func loadGame(lib *host.Library, name string, variants []string, params map[string]any) (*host.Game, error) {
	opts := []host.Option{host.WithVariant(variants...)}
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		opts = append(opts, host.WithParam(k, params[k]))
	}
	return lib.Load(name, opts...)
}

// replay plays tokens on s, recording their effects (the state JSON
// carries those of the last), and returns the last move played (nil when
// tokens is empty) and the player who made each.
func replay(s *host.State, tokens []string) (*moveView, []int, error) {
	var last *moveView
	movers := make([]int, 0, len(tokens))
	for i, tok := range tokens {
		movers = append(movers, s.ToMove())
		m, err := s.ParseMove(tok)
		if err == nil {
			err = s.ApplyRecorded(m)
		}
		if err != nil {
			return nil, nil, fmt.Errorf("replaying move %d %q of the stored record: %w", s.Ply()+1, tok, err)
		}
		if i == len(tokens)-1 {
			v := newMoveView(s.Game(), m)
			last = &v
		}
	}
	return last, movers, nil
}

// rebuild returns the state after a record, from the opening, the last
// move of the record (nil when it is empty) and the player who made each
// move.
func rebuild(g *host.Game, record []string) (*host.State, *moveView, []int, error) {
	s := g.Start()
	last, movers, err := replay(s, record)
	if err != nil {
		return nil, nil, nil, err
	}
	return s, last, movers, nil
}

// sync brings e up to the stored game sg: it loads the game when needed and
// plays the moves of sg's record that e has not seen, or rebuilds the state
// from the opening when the records differ (a takeback). An sg older than
// what e shows (read before a change e has seen) is left as it is: callers
// compare lengths, and the store refuses a change made on a stale ply. The
// caller holds e.mu.
func (s *Server) sync(e *entry, sg *store.Game) error {
	if e.game == nil {
		g, err := loadGame(s.lib, sg.Game, sg.Variants, sg.Params)
		if err != nil {
			return fmt.Errorf("loading game %s of stored game %s: %w", sg.Game, sg.ID, err)
		}
		e.game, e.seats, e.state, e.record, e.movers, e.last = g, sg.Seats, g.Start(), nil, nil, nil
	}
	if slices.Equal(sg.Record, e.record) {
		if e.stored == nil || !sg.Updated.Before(e.updated) {
			e.stored = sg
		}
		e.updated = later(e.updated, sg.Updated)
		return nil
	}
	if isPrefix(sg.Record, e.record) && !sg.Updated.After(e.updated) {
		return nil // read before the latest move e has seen
	}
	var next *host.State
	var last *moveView
	var movers []int
	var err error
	if len(e.record) > 0 && isPrefix(e.record, sg.Record) {
		next = e.state.Clone() // play only the moves made since
		last, movers, err = replay(next, sg.Record[len(e.record):])
		movers = append(slices.Clone(e.movers), movers...)
	} else {
		next, last, movers, err = rebuild(e.game, sg.Record)
	}
	if err != nil {
		return fmt.Errorf("stored game %s: %w", sg.ID, err)
	}
	e.state, e.last, e.movers, e.stored = next, last, movers, sg
	e.record = append([]string(nil), sg.Record...)
	e.updated = later(e.updated, sg.Updated)
	return nil
}

// set makes e show the stored game sg, whose record is e's with one move
// more: state after it, and the move m made by mover. The caller holds
// e.mu.
func (e *entry) set(sg *store.Game, state *host.State, m *moveView, mover int) {
	e.state, e.last = state, m
	e.record = append([]string(nil), sg.Record...)
	e.movers = append(e.movers[:len(e.record)-1:len(e.record)-1], mover)
	e.updated = later(e.updated, sg.Updated)
	e.stored = sg
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

func isPrefix(a, b []string) bool {
	if len(a) > len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
