package server

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/matombo/matombo/host/store"
)

// memStore is an in-memory store.Store for tests: it keeps the store's
// contract (ply checks, leases, watching) without a database.
type memStore struct {
	mu       sync.Mutex
	games    map[string]*store.Game
	leases   map[string]memLease
	watchers map[chan store.Change]struct{}
	next     int
	down     bool // every call fails with store.ErrUnavailable
}

type memLease struct {
	owner string
	until time.Time
}

func newMemStore() *memStore {
	return &memStore{games: map[string]*store.Game{}, leases: map[string]memLease{}, watchers: map[chan store.Change]struct{}{}}
}

func (m *memStore) setDown(down bool) {
	m.mu.Lock()
	m.down = down
	m.mu.Unlock()
}

func copyGame(g *store.Game) *store.Game {
	c := *g
	c.Variants = slices.Clone(g.Variants)
	c.Params = maps.Clone(g.Params)
	c.Seats = slices.Clone(g.Seats)
	c.Record = slices.Clone(g.Record)
	c.Result = slices.Clone(g.Result)
	return &c
}

func (m *memStore) check() error {
	if m.down {
		return fmt.Errorf("memstore: %w", store.ErrUnavailable)
	}
	return nil
}

func (m *memStore) Create(ctx context.Context, g *store.Game) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.check(); err != nil {
		return err
	}
	if g.ID == "" {
		m.next++
		g.ID = fmt.Sprintf("g%d", m.next)
	}
	if g.Record == nil {
		g.Record = []string{}
	}
	g.Created = time.Now()
	g.Updated = g.Created
	// Params round-trip through JSON, as in a database.
	b, _ := json.Marshal(g.Params)
	c := copyGame(g)
	c.Params = nil
	json.Unmarshal(b, &c.Params)
	m.games[g.ID] = c
	return nil
}

func (m *memStore) Get(ctx context.Context, id string) (*store.Game, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.check(); err != nil {
		return nil, err
	}
	g, ok := m.games[id]
	if !ok {
		return nil, fmt.Errorf("memstore: game %q: %w", id, store.ErrNotFound)
	}
	return copyGame(g), nil
}

func (m *memStore) Append(ctx context.Context, id string, ply int, token string, over bool, result json.RawMessage, computerDue bool) (*store.Game, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.check(); err != nil {
		return nil, err
	}
	g, ok := m.games[id]
	if !ok {
		return nil, fmt.Errorf("memstore: game %q: %w", id, store.ErrNotFound)
	}
	if len(g.Record) != ply {
		return nil, fmt.Errorf("memstore: game %q is at ply %d, not %d: %w", id, len(g.Record), ply, store.ErrConflict)
	}
	g.Record = append(g.Record, token)
	g.Over, g.Result, g.ComputerDue = over, slices.Clone(result), computerDue
	g.Updated = time.Now()
	delete(m.leases, id)
	for c := range m.watchers {
		select {
		case c <- store.Change{ID: id, Ply: ply + 1}:
		default:
		}
	}
	return copyGame(g), nil
}

func (m *memStore) Claim(ctx context.Context, owner string, lease time.Duration) (*store.Game, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.check(); err != nil {
		return nil, err
	}
	now := time.Now()
	ids := slices.Sorted(maps.Keys(m.games))
	for _, id := range ids {
		g := m.games[id]
		if !g.ComputerDue {
			continue
		}
		if l, ok := m.leases[id]; ok && l.until.After(now) {
			continue
		}
		m.leases[id] = memLease{owner: owner, until: now.Add(lease)}
		return copyGame(g), nil
	}
	return nil, fmt.Errorf("memstore: no computer move due: %w", store.ErrNotFound)
}

func (m *memStore) Watch(ctx context.Context) (<-chan store.Change, error) {
	c := make(chan store.Change, 4096)
	m.mu.Lock()
	m.watchers[c] = struct{}{}
	m.mu.Unlock()
	out := make(chan store.Change)
	go func() {
		defer close(out)
		defer func() {
			m.mu.Lock()
			delete(m.watchers, c)
			m.mu.Unlock()
		}()
		for {
			select {
			case <-ctx.Done():
				return
			case ch := <-c:
				select {
				case out <- ch:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	return out, nil
}

func (m *memStore) Count(ctx context.Context) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.check(); err != nil {
		return 0, err
	}
	return len(m.games), nil
}

func (m *memStore) Ping(ctx context.Context) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.check()
}

func (m *memStore) Close() error { return nil }
