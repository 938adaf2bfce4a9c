package store

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/matombo/matombo/host/store/internal/hub"
)

// Memory is a Store that keeps its games in the process's memory: for
// tests, and for programs that keep nothing after they stop. It keeps the
// whole contract (ply checks, claims and leases, watching) and can be made
// to fail like a database that does not answer (SetUnavailable). Open
// gives one for "memory:".
type Memory struct {
	mu      sync.Mutex
	games   map[string]*memGame
	changes *hub.Hub[Change]
	down    bool
	closed  bool
	now     func() time.Time
}

type memGame struct {
	g          *Game
	leaseOwner string
	leaseUntil time.Time
}

// NewMemory returns an empty store in memory; opts may set WithWatchBuffer.
func NewMemory(opts ...Option) *Memory {
	cfg := NewConfig(opts...)
	return &Memory{games: map[string]*memGame{}, changes: hub.New[Change](cfg.WatchBuffer), now: time.Now}
}

func openMemory(_ context.Context, dsn string, cfg Config) (Store, error) {
	if dsn != "memory:" && dsn != "memory://" {
		return nil, &Error{Op: "open", Detail: fmt.Sprintf("%q: a store in memory is named \"memory:\"", dsn)}
	}
	return &Memory{games: map[string]*memGame{}, changes: hub.New[Change](cfg.WatchBuffer), now: time.Now}, nil
}

// SetUnavailable makes every later call fail with ErrUnavailable (as a
// database that does not answer), or work again.
func (m *Memory) SetUnavailable(down bool) {
	m.mu.Lock()
	m.down = down
	m.mu.Unlock()
}

// check is called with m.mu held.
func (m *Memory) check(op, id string) error {
	switch {
	case m.closed:
		return &Error{Op: op, ID: id, Kind: ErrUnavailable, Detail: "the store is closed"}
	case m.down:
		return &Error{Op: op, ID: id, Kind: ErrUnavailable, Detail: "the store is set unavailable"}
	}
	return nil
}

func (m *Memory) ctxErr(ctx context.Context, op, id string) error {
	if err := ctx.Err(); err != nil {
		return &Error{Op: op, ID: id, Err: err}
	}
	return nil
}

// Create implements Store.
func (m *Memory) Create(ctx context.Context, g *Game) error {
	if err := m.ctxErr(ctx, "create", g.ID); err != nil {
		return err
	}
	if err := Check(g); err != nil {
		return &Error{Op: "create", ID: g.ID, Detail: err.Error()}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.check("create", g.ID); err != nil {
		return err
	}
	id := g.ID
	if id == "" {
		id = NewID()
	}
	if _, dup := m.games[id]; dup {
		return &Error{Op: "create", ID: id, Kind: ErrConflict, Detail: "a game with this ID exists already"}
	}
	now := m.now().UTC().Truncate(time.Microsecond)
	var old *memGame
	if g.RematchOf != "" {
		old = m.games[g.RematchOf]
		if old == nil {
			return &Error{Op: "create", ID: id, Kind: ErrNotFound, Detail: fmt.Sprintf("no game %q to be a rematch of", g.RematchOf)}
		}
		if old.g.Rematch != "" {
			return &Error{Op: "create", ID: id, Kind: ErrConflict, Detail: fmt.Sprintf("game %q has a rematch already: %s", g.RematchOf, old.g.Rematch)}
		}
	}
	c := g.Clone()
	c.ID, c.Created, c.Updated, c.Rematch = id, now, now, ""
	if c.Record == nil {
		c.Record = []string{}
	}
	m.games[id] = &memGame{g: c}
	g.ID, g.Created, g.Updated, g.Rematch = id, now, now, ""
	if g.Record == nil {
		g.Record = []string{}
	}
	m.changes.Publish(Change{ID: id, Ply: len(c.Record)})
	if old != nil {
		old.g.Rematch, old.g.Updated = id, now
		m.changes.Publish(Change{ID: old.g.ID, Ply: len(old.g.Record)})
	}
	return nil
}

// Get implements Store.
func (m *Memory) Get(ctx context.Context, id string) (*Game, error) {
	if err := m.ctxErr(ctx, "get", id); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.check("get", id); err != nil {
		return nil, err
	}
	mg := m.games[id]
	if mg == nil {
		return nil, &Error{Op: "get", ID: id, Kind: ErrNotFound}
	}
	return mg.g.Clone(), nil
}

// List implements Store.
func (m *Memory) List(ctx context.Context, limit int) ([]Summary, error) {
	if err := m.ctxErr(ctx, "list", ""); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.check("list", ""); err != nil {
		return nil, err
	}
	var out []Summary
	for _, mg := range m.games {
		g := mg.g
		players := make([]string, len(g.Seats))
		for i, s := range g.Seats {
			players[i] = s.Player
		}
		out = append(out, Summary{ID: g.ID, Game: g.Game, Variants: slices.Clone(g.Variants), Seats: players,
			Plies: len(g.Record), Over: g.Over(), ComputerDue: g.ComputerDue, Created: g.Created, Updated: g.Updated})
	}
	slices.SortFunc(out, func(a, b Summary) int { return b.Updated.Compare(a.Updated) })
	if len(out) > limit {
		out = out[:max(limit, 0)]
	}
	return out, nil
}

// Append implements Store.
func (m *Memory) Append(ctx context.Context, id string, mv Move) (*Game, error) {
	if err := m.ctxErr(ctx, "append", id); err != nil {
		return nil, err
	}
	if err := CheckMove(mv); err != nil {
		return nil, &Error{Op: "append", ID: id, Detail: err.Error()}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.check("append", id); err != nil {
		return nil, err
	}
	mg := m.games[id]
	if mg == nil {
		return nil, &Error{Op: "append", ID: id, Kind: ErrNotFound}
	}
	g := mg.g
	if err := CheckPly("append", id, mv.Ply, mv.Ply, len(g.Record), g.Over()); err != nil {
		return nil, err
	}
	g.Record = append(g.Record, mv.Token)
	g.Result, g.ComputerDue, g.Clock, g.Request = mv.Result.Clone(), mv.ComputerDue, mv.Clock.Clone(), nil
	m.touch(mg)
	return g.Clone(), nil
}

// touch notes a change of mg: its time, its claim cleared, and a Change
// for the watchers. The caller holds m.mu.
func (m *Memory) touch(mg *memGame) {
	mg.g.Updated = m.now().UTC().Truncate(time.Microsecond)
	mg.leaseOwner, mg.leaseUntil = "", time.Time{}
	m.changes.Publish(Change{ID: mg.g.ID, Ply: len(mg.g.Record)})
}

// Update implements Store.
func (m *Memory) Update(ctx context.Context, id string, u Update) (*Game, error) {
	if err := m.ctxErr(ctx, "update", id); err != nil {
		return nil, err
	}
	if err := CheckUpdate(u); err != nil {
		return nil, &Error{Op: "update", ID: id, Detail: err.Error()}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.check("update", id); err != nil {
		return nil, err
	}
	mg := m.games[id]
	if mg == nil {
		return nil, &Error{Op: "update", ID: id, Kind: ErrNotFound}
	}
	g := mg.g
	if err := CheckPly("update", id, u.Ply, u.To, len(g.Record), g.Over()); err != nil {
		return nil, err
	}
	if err := CheckSeats(u, len(g.Seats)); err != nil {
		return nil, &Error{Op: "update", ID: id, Detail: err.Error()}
	}
	if u.Seats != nil {
		g.Seats = slices.Clone(u.Seats)
	}
	g.Record = g.Record[:u.To]
	g.Result, g.ComputerDue, g.Clock = u.Result.Clone(), u.ComputerDue, u.Clock.Clone()
	g.Request = nil
	if u.Request != nil {
		r := *u.Request
		g.Request = &r
	}
	m.touch(mg)
	return g.Clone(), nil
}

// Claim implements Store.
func (m *Memory) Claim(ctx context.Context, owner string, lease time.Duration) (*Game, error) {
	if err := m.ctxErr(ctx, "claim", ""); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.check("claim", ""); err != nil {
		return nil, err
	}
	now := m.now()
	var best *memGame
	for _, mg := range m.games {
		g := mg.g
		if g.Over() || mg.leaseUntil.After(now) {
			continue
		}
		d := g.Clock.Deadline()
		if !g.ComputerDue && (d.IsZero() || d.After(now)) {
			continue
		}
		if best == nil || g.Updated.Before(best.g.Updated) {
			best = mg
		}
	}
	if best == nil {
		return nil, &Error{Op: "claim", Kind: ErrNotFound, Detail: "no game waits for a computer move or a clock"}
	}
	best.leaseOwner, best.leaseUntil = owner, now.Add(lease)
	return best.g.Clone(), nil
}

// Release implements Store.
func (m *Memory) Release(ctx context.Context, id, owner string) error {
	if err := m.ctxErr(ctx, "release", id); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.check("release", id); err != nil {
		return err
	}
	if mg := m.games[id]; mg != nil && mg.leaseOwner == owner {
		mg.leaseOwner, mg.leaseUntil = "", time.Time{}
	}
	return nil
}

// Watch implements Store.
func (m *Memory) Watch(ctx context.Context) (<-chan Change, error) {
	ch, ok := m.changes.Subscribe(ctx)
	if !ok {
		return nil, &Error{Op: "watch", Kind: ErrUnavailable, Detail: "the store is closed"}
	}
	return ch, nil
}

// Count implements Store.
func (m *Memory) Count(ctx context.Context) (int, error) {
	if err := m.ctxErr(ctx, "count", ""); err != nil {
		return 0, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.check("count", ""); err != nil {
		return 0, err
	}
	return len(m.games), nil
}

// Prune implements Pruner.
func (m *Memory) Prune(ctx context.Context, before time.Time, limit int) (int, error) {
	if err := m.ctxErr(ctx, "prune", ""); err != nil {
		return 0, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.check("prune", ""); err != nil {
		return 0, err
	}
	var old []*Game
	for _, mg := range m.games {
		if mg.g.Updated.Before(before) {
			old = append(old, mg.g)
		}
	}
	slices.SortFunc(old, func(a, b *Game) int { return a.Updated.Compare(b.Updated) })
	old = old[:min(len(old), max(limit, 0))]
	for _, g := range old {
		delete(m.games, g.ID)
	}
	return len(old), nil
}

// Ping implements Store.
func (m *Memory) Ping(ctx context.Context) error {
	if err := m.ctxErr(ctx, "ping", ""); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.check("ping", "")
}

// Close implements Store: the games are dropped and watchers closed.
func (m *Memory) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.closed {
		m.closed = true
		m.games = nil
		m.changes.Close()
	}
	return nil
}

var _ Store = (*Memory)(nil)
