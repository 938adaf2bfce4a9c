package server

import (
	"container/list"
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/params"
	"github.com/matombo/matombo/host/store"
)

// entry is one game's rebuilt current state. Its lock serializes the
// moves made on the game by this process; the fields below it but shown
// are the holder's. The reads of the game take no lock: they answer from
// shown, which the holder replaces after each change the store commits.
type entry struct {
	shown   atomic.Pointer[snapshot] // what the entry showed after its last committed change; nil before
	held    chan struct{}            // the game's lock: full while held
	game    *host.Game
	seats   []store.Seat // the stored seats, with their secrets
	record  []string     // the tokens state was rebuilt from
	movers  []int        // the player who made each move of record
	state   *host.State  // the state after record
	last    *moveView    // the move that led to state
	updated time.Time    // the stored game's Updated that record is from
	stored  *store.Game  // the stored game as last read or written, with record; read only
	// marks are states of the record every spacing plies (marks[k] after
	// k*spacing moves), so that an earlier ply is rebuilt from the mark
	// before it in at most spacing moves. There are at most maxMarks:
	// then every other one is dropped and the spacing doubles.
	marks   []*host.State
	spacing int
}

// newEntry returns an empty entry, its lock free.
func newEntry() *entry {
	return &entry{held: make(chan struct{}, 1)}
}

// lock waits for the game's lock until ctx ends, and returns ctx's cause
// (context.Cause: ctx's error when it has none), wrapped, when it ends
// first: a request whose client left while another
// holds the game (a slow store write, the computer's move being stored)
// stops at once, and the holder's work goes on. A free lock is taken
// even when ctx has ended, as the work it guards checks ctx itself.
func (e *entry) lock(ctx context.Context) error {
	if e.tryLock() {
		return nil
	}
	select {
	case e.held <- struct{}{}:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("waiting for the game's other request to finish: %w", context.Cause(ctx))
	}
}

// tryLock takes the game's lock when it is free and reports whether it
// did.
func (e *entry) tryLock() bool {
	select {
	case e.held <- struct{}{}:
		return true
	default:
		return false
	}
}

// unlock frees the game's lock, taken by lock.
func (e *entry) unlock() {
	<-e.held
}

// Checkpoints of a cached game: an earlier ply costs at most
// markSpacing moves to rebuild until the game has markSpacing*maxMarks
// plies, and the entry holds at most maxMarks states.
const (
	markSpacing = 32
	maxMarks    = 128
)

// mark keeps st, the state after ply moves of the entry's record, when
// ply is the next checkpoint. The caller holds e's lock.
func (e *entry) mark(ply int, st *host.State) {
	if e.spacing == 0 {
		e.spacing = markSpacing
	}
	if ply%e.spacing != 0 || ply/e.spacing != len(e.marks) {
		return
	}
	e.marks = append(e.marks, st.Clone())
	if len(e.marks) > maxMarks {
		kept := e.marks[:0]
		for i := 0; i < len(e.marks); i += 2 {
			kept = append(kept, e.marks[i])
		}
		clear(e.marks[len(kept):])
		e.marks, e.spacing = kept, 2*e.spacing
	}
}

// trimMarks drops the checkpoints after ply. The caller holds e's lock.
func (e *entry) trimMarks(ply int) {
	if e.spacing == 0 || len(e.marks) <= ply/e.spacing+1 {
		return
	}
	keep := ply/e.spacing + 1
	clear(e.marks[keep:])
	e.marks = e.marks[:keep]
}

// resetMarks forgets the checkpoints (the record changed otherwise than
// by moves added: a takeback, another record) and keeps the opening's.
func (e *entry) resetMarks() {
	e.marks, e.spacing = nil, markSpacing
	e.mark(0, e.game.Start())
}

// stateAt returns the state after ply moves of the entry's record and the
// move that led to it, from the checkpoint before it; ctx stops the
// replay. The caller holds e's lock and has synced e; 0 <= ply <=
// len(e.record).
func (e *entry) stateAt(ctx context.Context, ply int) (*host.State, *moveView, error) {
	if ply == len(e.record) {
		return e.state, e.last, nil
	}
	if len(e.marks) == 0 {
		e.resetMarks()
	}
	return replayFrom(ctx, e.game, e.marks, e.spacing, e.record, ply)
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
	e := newEntry()
	c.items[id] = c.order.PushFront(&cacheItem{id: id, e: e})
	for c.order.Len() > c.max {
		el := c.order.Back()
		c.order.Remove(el)
		delete(c.items, el.Value.(*cacheItem).id)
	}
	return e
}

// lookup returns the entry of game id when it is cached, as the most
// recently used.
func (c *stateCache) lookup(id string) (*entry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.items[id]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(el)
	return el.Value.(*cacheItem).e, true
}

// len is the number of cached games.
func (c *stateCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}

// changedError is a stored game that the server's games can no longer
// open: the game, a variant or a parameter value it was made with is gone
// from the library, or its record is no longer legal by the rules (the
// operator changed the games the server plays). Not a failure of the
// server: it answers 409, code game-changed.
type changedError struct {
	game string
	err  error
}

func (e *changedError) Error() string {
	return fmt.Sprintf("this game of %s can no longer be opened here: the server's games have changed since it was made (%v)", e.game, e.err)
}

func (e *changedError) Unwrap() error { return e.err }

// loadGame is loadGame of the server's library, refusing at once, with
// the error it met then, a game whose script ran into the time budget
// when the server started (catalog.hung): loading it again would hang
// again, taking the whole time budget (30 s) of every request for it.
func (s *Server) loadGame(name string, variants []string, params map[string]any) (*host.Game, error) {
	if s.catalog != nil && s.catalog.hung[name] != nil {
		return nil, s.catalog.hung[name]
	}
	return loadGame(s.lib, s.opt.games, name, variants, params)
}

// loadGame loads the game a stored game is played with, with opts first.
func loadGame(lib *host.Library, opts []host.Option, name string, variants []string, params map[string]any) (*host.Game, error) {
	opts = append(slices.Clip(opts), host.WithVariant(variants...))
	for _, o := range overrides(params) {
		opts = append(opts, host.WithParam(o.Name, o.Value))
	}
	return lib.Load(name, opts...)
}

// overrides are the parameters of a request as a load sets them: by
// name, in order.
func overrides(params map[string]any) []host.Override {
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]host.Override, len(keys))
	for i, k := range keys {
		out[i] = host.Override{Name: k, Value: params[k]}
	}
	return out
}

// checkConfig refuses, without loading it, a game that a load would
// refuse for its name, variants or parameters, with the error the load
// gives: the game's variants and parameters are the catalog's, read when
// the server started, so that a client's bad requests cost no run of a
// script. A game the catalog could not load is left to its load.
func (s *Server) checkConfig(name string, variants []string, values map[string]any) error {
	if !slices.Contains(s.lib.Games(), name) {
		return &host.ConfigError{Msg: fmt.Sprintf("unknown game %q", name), Allowed: s.lib.Games()}
	}
	if err := s.catalog.hung[name]; err != nil {
		return err
	}
	shape, ok := s.catalog.shapes[name]
	if !ok {
		return nil
	}
	_, err := params.Resolve(shape.specs, shape.variants, variants, overrides(values))
	return err
}

// replay plays tokens on s, recording their effects (the state JSON
// carries those of the last), and returns the last move played (nil when
// tokens is empty) and the player who made each. When e is not nil, the
// checkpoints of e are taken on the way; tokens then start at ply from of
// e's record. ctx stops the replay, within a script call too (a client
// that leaves, the server's end): the error then satisfies errors.Is with
// ctx's error.
func replay(ctx context.Context, s *host.State, tokens []string, e *entry, from int) (*moveView, []int, error) {
	var last *moveView
	movers := make([]int, 0, len(tokens))
	if len(tokens) == 0 {
		return nil, movers, nil
	}
	r := s.Game().NewRunner()
	defer r.Close()
	r.SetContext(ctx)
	r.Record(true)
	for i, tok := range tokens {
		if err := ctx.Err(); err != nil {
			return nil, nil, fmt.Errorf("replaying the stored record stopped at move %d: %w", s.Ply()+1, err)
		}
		movers = append(movers, s.ToMove())
		m, err := s.ParseMove(tok)
		if err == nil {
			err = r.Apply(s, m)
		}
		if err != nil {
			return nil, nil, fmt.Errorf("replaying move %d %q of the stored record: %w", s.Ply()+1, tok, err)
		}
		if e != nil {
			e.mark(from+i+1, s)
		}
		if i == len(tokens)-1 {
			v := newMoveView(s.Game(), m)
			last = &v
		}
	}
	return last, movers, nil
}

// sync brings e up to the stored game sg: it loads the game when needed and
// plays the moves of sg's record that e has not seen, or rebuilds the state
// from the opening when the records differ (a takeback). An sg older than
// what e shows (read before a change e has seen) is left as it is: callers
// compare lengths, and the store refuses a change made on a stale ply. ctx
// stops the replay (a client that left, the server's end); e then stays
// as it was. The caller holds e's lock.
func (s *Server) sync(ctx context.Context, e *entry, sg *store.Game) error {
	if e.game == nil {
		g, err := s.openStored(sg)
		if err != nil {
			return err
		}
		e.game, e.seats, e.state, e.record, e.movers, e.last = g, sg.Seats, g.Start(), nil, nil, nil
		e.resetMarks()
	}
	if slices.Equal(sg.Record, e.record) {
		if e.stored == nil || !sg.Updated.Before(e.updated) {
			e.stored = sg
		}
		e.updated = later(e.updated, sg.Updated)
		e.publish()
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
		last, movers, err = replay(ctx, next, sg.Record[len(e.record):], e, len(e.record))
		movers = append(slices.Clone(e.movers), movers...)
	} else {
		// Another record (a takeback): from the opening.
		e.resetMarks()
		next = e.game.Start()
		last, movers, err = replay(ctx, next, sg.Record, e, 0)
	}
	if err != nil {
		// The checkpoints taken on the way are of sg's record, which e
		// does not show: keep those of e's own.
		e.trimMarks(len(e.record))
		return storedGameError(sg, err)
	}
	e.state, e.last, e.movers, e.stored = next, last, movers, sg
	e.record = append([]string(nil), sg.Record...)
	e.updated = later(e.updated, sg.Updated)
	e.publish()
	return nil
}

// openStored loads the game the stored game sg is played with: a
// *changedError when the game, a variant or a parameter value it was
// made with is no longer in the library.
func (s *Server) openStored(sg *store.Game) (*host.Game, error) {
	g, err := s.loadGame(sg.Game, sg.Variants, sg.Params)
	if err != nil {
		var ce *host.ConfigError
		if errors.As(err, &ce) && ce.Pos.File == "" {
			// The game, a variant or a parameter value it was made
			// with is no longer in the library (not a broken file).
			return nil, &changedError{game: sg.Game, err: err}
		}
		return nil, fmt.Errorf("loading game %s of stored game %s: %w", sg.Game, sg.ID, err)
	}
	return g, nil
}

// storedGameError is the error of a replay of stored game sg that
// failed: a *changedError when a move of its record is no longer legal
// (the rules changed under the record).
func storedGameError(sg *store.Game, err error) error {
	var ill *host.IllegalMoveError
	if errors.As(err, &ill) {
		return &changedError{game: sg.Game, err: err}
	}
	return fmt.Errorf("stored game %s: %w", sg.ID, err)
}

// set makes e show the stored game sg, whose record is e's with one move
// more: state after it, and the move m made by mover. The caller holds
// e's lock.
func (e *entry) set(sg *store.Game, state *host.State, m *moveView, mover int) {
	e.state, e.last = state, m
	e.record = append([]string(nil), sg.Record...)
	e.movers = append(e.movers[:len(e.record)-1:len(e.record)-1], mover)
	e.mark(len(e.record), state)
	e.updated = later(e.updated, sg.Updated)
	e.stored = sg
	e.publish()
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
