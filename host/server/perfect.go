package server

import (
	"container/list"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/player"
	"github.com/matombo/matombo/host/safefile"
	"github.com/matombo/matombo/host/solve"
)

// PerfectBudget bounds what the server spends to offer perfect play: a
// game's exact solution is loaded from the solution cache (`matombo
// solve` writes it) or solved, once per game configuration, in the
// background, never on a request's path. Until it is ready a request for
// a perfect seat gets 503 with Retry-After; a game too large for the
// budget gets 422 saying why.
type PerfectBudget struct {
	// Positions is the most positions one solve explores; 0 solves
	// nothing and offers only the solutions already cached.
	Positions int
	// Time is the most one load or solve (with its check) takes.
	Time time.Duration
	// Memory is the most the solutions at hand take together, in bytes
	// (estimated from their positions).
	Memory int64
	// SolvesPerMinute is how many loads or solves may start a minute,
	// over all clients.
	SolvesPerMinute int
}

// DefaultPerfectBudget solves games of up to 100,000 positions (the
// three-in-a-row games, in well under a second) within 10 seconds each, six a
// minute, and holds at most 256 MiB of solutions.
func DefaultPerfectBudget() PerfectBudget {
	return PerfectBudget{Positions: 100_000, Time: 10 * time.Second, Memory: 256 << 20, SolvesPerMinute: 6}
}

// perfectRetry is the Retry-After of a perfect seat being prepared.
const perfectRetry = 5

// solutions are the perfect players of game configurations, by the
// game's fingerprint, and their preparation: one at a time.
type solutions struct {
	ctx    context.Context
	budget PerfectBudget
	dir    string // the solution cache; "" for solve's own
	log    *slog.Logger

	mu      sync.Mutex
	entries map[string]*solutionEntry
	failed  *list.List    // fingerprints of failed entries, most recent first
	used    int64         // memory of the ready solutions
	busy    bool          // a preparation runs
	idle    chan struct{} // closed when the running preparation ends
	limiter *rate.Limiter
	wg      sync.WaitGroup
}

// solutionEntry is one game configuration's perfect play.
type solutionEntry struct {
	ready  chan struct{} // closed when the preparation has ended
	player Player        // set when it succeeded
	reason string        // why not, when it failed
	el     *list.Element // in failed
}

// maxFailed is how many failed configurations are remembered.
const maxFailed = 1024

func newSolutions(ctx context.Context, b PerfectBudget, dir string, log *slog.Logger) *solutions {
	ss := &solutions{ctx: ctx, budget: b, dir: dir, log: log, entries: map[string]*solutionEntry{}, failed: list.New()}
	if b.SolvesPerMinute > 0 {
		ss.limiter = rate.NewLimiter(rate.Limit(float64(b.SolvesPerMinute)/60), b.SolvesPerMinute)
	}
	return ss
}

// offer says whether a perfect seat can be had for g now: nil when it
// is ready, else the refusal: 503 while it is prepared (starting the
// preparation when none runs), 422 when it cannot be.
func (ss *solutions) offer(g *host.Game) *refusal {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	e := ss.entries[g.Fingerprint()]
	if e == nil {
		if ss.busy {
			return &refusal{http.StatusServiceUnavailable, codePerfectWait, "perfect play is being prepared for another game; try again shortly", perfectRetry}
		}
		if ss.limiter != nil && !ss.limiter.Allow() {
			return &refusal{http.StatusServiceUnavailable, codePerfectWait, "perfect play was prepared for many games this minute; try again shortly", perfectRetry * 2}
		}
		ss.start(g)
		return &refusal{http.StatusServiceUnavailable, codePerfectWait, fmt.Sprintf("perfect play for %s is being prepared; try again in a few seconds", titleOf(g)), perfectRetry}
	}
	select {
	case <-e.ready:
	default:
		return &refusal{http.StatusServiceUnavailable, codePerfectWait, fmt.Sprintf("perfect play for %s is being prepared; try again in a few seconds", titleOf(g)), perfectRetry}
	}
	if e.player == nil {
		return &refusal{http.StatusUnprocessableEntity, codePerfectNo, fmt.Sprintf("perfect play is not offered for %s: %s", gameName(g), e.reason), 0}
	}
	return nil
}

// status says whether perfect play for g is offered: ready (offered),
// failed (not, and why), or being prepared (pending), which it starts
// when it can (one preparation at a time, within the rate).
func (ss *solutions) status(g *host.Game) (offered, pending bool, why string) {
	no := ss.offer(g)
	switch {
	case no == nil:
		return true, false, ""
	case no.status == http.StatusServiceUnavailable:
		return false, true, no.msg
	}
	return false, false, no.msg
}

// player returns the perfect player of g, waiting for its preparation
// (started when needed, whatever the rate, after the one running) until
// ctx ends.
func (ss *solutions) player(ctx context.Context, g *host.Game) (Player, error) {
	var e *solutionEntry
	for e == nil {
		ss.mu.Lock()
		e = ss.entries[g.Fingerprint()]
		if e == nil && !ss.busy {
			e = ss.start(g)
		}
		idle := ss.idle
		ss.mu.Unlock()
		if e == nil {
			select {
			case <-idle:
			case <-ctx.Done():
				return nil, fmt.Errorf("perfect play for %s waits for another game's: %w", gameName(g), ctx.Err())
			}
		}
	}
	select {
	case <-e.ready:
	case <-ctx.Done():
		return nil, fmt.Errorf("perfect play for %s is still being prepared: %w", gameName(g), ctx.Err())
	}
	if e.player == nil {
		return nil, fmt.Errorf("perfect play is not offered for %s: %s", gameName(g), e.reason)
	}
	return e.player, nil
}

// start begins the preparation of g's entry. The caller holds mu.
func (ss *solutions) start(g *host.Game) *solutionEntry {
	e := &solutionEntry{ready: make(chan struct{})}
	ss.entries[g.Fingerprint()] = e
	ss.busy = true
	idle := make(chan struct{})
	ss.idle = idle
	ss.wg.Add(1)
	go func() {
		defer ss.wg.Done()
		p, mem, err := ss.prepareRecovering(g)
		ss.mu.Lock()
		defer ss.mu.Unlock()
		ss.busy = false
		defer close(idle)
		switch {
		case err == nil && ss.used+mem > ss.budget.Memory:
			err = fmt.Errorf("its solution (about %s) does not fit in the memory the server keeps for solutions", solve.FormatBytes(mem))
		case err == nil:
			ss.used += mem
			e.player = p
		}
		if err != nil {
			e.reason = err.Error()
			if ss.ctx.Err() != nil {
				delete(ss.entries, g.Fingerprint()) // stopped, not failed
			} else {
				ss.log.Info("perfect play not offered", "game", gameName(g), "reason", e.reason)
				e.el = ss.failed.PushFront(g.Fingerprint())
				for ss.failed.Len() > maxFailed {
					delete(ss.entries, ss.failed.Remove(ss.failed.Back()).(string))
				}
			}
		}
		close(e.ready)
	}()
	return e
}

// prepare loads g's cached solution or solves g, within the budget, and
// checks the solution against the rules; it returns the player and the
// memory the solution takes.
// prepareRecovering is prepare, with a panic (a defect in the host or the
// solver) logged with its stack and made the reason the game has no
// perfect play, instead of ending the server.
func (ss *solutions) prepareRecovering(g *host.Game) (p Player, mem int64, err error) {
	defer func() {
		if v := recover(); v != nil {
			ss.log.Error("preparing perfect play panicked", "game", gameName(g), "panic", v, "stack", string(debug.Stack()))
			p, mem, err = nil, 0, fmt.Errorf("preparing its solution failed (panic: %v)", v)
		}
	}()
	return ss.prepare(g)
}

func (ss *solutions) prepare(g *host.Game) (Player, int64, error) {
	ctx, cancel := context.WithTimeout(ss.ctx, ss.budget.Time)
	defer cancel()
	if g.Players() != 2 {
		return nil, 0, fmt.Errorf("it has %d players; perfect play is for two", g.Players())
	}
	bpp := int64(solve.BytesPerPosition(g))
	var sol *solve.Solution
	if path, err := ss.cachePath(g); err == nil && safefile.IsRegular(path) {
		// A cache file is data from disk: bounded by the memory it
		// would take, and checked against the rules before it is used.
		if info, err := os.Stat(path); err == nil && info.Size() > ss.budget.Memory {
			return nil, 0, fmt.Errorf("its cached solution (%s) is larger than the memory the server keeps for solutions", solve.FormatBytes(info.Size()))
		}
		if sol, err = ss.loadCached(path, g); err != nil {
			ss.log.Warn("cached solution not used", "game", gameName(g), "err", err)
			sol = nil
		} else if err := sol.Check(ctx, g); err != nil {
			if ctx.Err() != nil {
				// Stopped (the server closing, the time allowed spent):
				// the solution was not found wrong, only not checked.
				return nil, 0, err
			}
			ss.log.Warn("cached solution not used: it does not agree with the rules", "game", gameName(g), "err", err)
			sol = nil
		}
	}
	if sol == nil {
		positions := int64(ss.budget.Positions)
		if bpp > 0 {
			positions = min(positions, ss.budget.Memory/bpp)
		}
		if positions <= 0 {
			return nil, 0, errors.New("its solution is not cached on the server (run matombo solve there)")
		}
		var err error
		// The table engine, on one core: it stops at the positions and
		// bytes of the budget (the search engine is for solves run by
		// hand, with matombo solve).
		opts := []solve.Option{solve.WithEngine(solve.Retrograde), solve.WithMaxPositions(int(positions)),
			solve.WithMaxBytes(ss.budget.Memory), solve.WithThreads(1)}
		if sol, err = solve.Solve(ctx, g, opts...); err != nil {
			if errors.Is(err, context.DeadlineExceeded) {
				return nil, 0, fmt.Errorf("solving it takes longer than the %v the server allows", ss.budget.Time)
			}
			var tl *solve.TooLargeError
			if errors.As(err, &tl) && tl.Positions > 0 && tl.Positions >= tl.MaxPositions {
				return nil, 0, fmt.Errorf("it has more than %d positions, more than the server solves", positions)
			}
			if errors.As(err, &tl) {
				return nil, 0, fmt.Errorf("solving it needs more than the %s the server keeps for solutions", solve.FormatBytes(ss.budget.Memory))
			}
			return nil, 0, err
		}
		if err := ss.saveCached(sol, g); err != nil {
			ss.log.Warn("caching a solution", "game", gameName(g), "err", err)
		}
	}
	return player.FromSolution(sol), int64(sol.Positions()) * bpp, nil
}

// warm starts loading the cached solutions of the games' default
// configurations and named variants, one after the other, so that their
// perfect seats are ready before anyone asks. Games without a cached
// solution are left for a request to ask for, and games that did not
// load for the catalog are left out.
func (ss *solutions) warm(lib *host.Library, cat *catalog) {
	ss.wg.Add(1)
	go func() {
		defer ss.wg.Done()
		for _, cg := range cat.Games {
			if cg.Error != "" {
				continue
			}
			name := cg.Name
			g, err := lib.Load(name, cat.opts...)
			if err != nil {
				continue
			}
			configs := []*host.Game{g}
			for _, v := range g.Variants() {
				if vg, err := lib.Load(name, append(slices.Clip(cat.opts), host.WithVariant(v.Name))...); err == nil {
					configs = append(configs, vg)
				}
			}
			for _, c := range configs {
				if path, err := ss.cachePath(c); err != nil || !safefile.IsRegular(path) {
					continue
				}
				if _, err := ss.player(ss.ctx, c); ss.ctx.Err() != nil {
					return
				} else if err != nil {
					ss.log.Debug("warming perfect play", "game", gameName(c), "err", err)
				}
			}
		}
	}()
}

// cachePath is the file of g's solution in the solution cache.
func (ss *solutions) cachePath(g *host.Game) (string, error) {
	if ss.dir == "" {
		return solve.CachePath(g)
	}
	return filepath.Join(ss.dir, filepath.Base(g.Name()+"-"+g.Fingerprint()+".solution")), nil
}

// loadCached reads g's solution from the cache file at path (its
// checksum and fingerprint checked; its values are checked by the
// caller).
func (ss *solutions) loadCached(path string, g *host.Game) (*solve.Solution, error) {
	if ss.dir == "" {
		return solve.LoadCached(g)
	}
	f, err := safefile.Open(path, ss.budget.Memory)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return solve.Read(f, g)
}

// saveCached writes g's solution to the cache, atomically: through a
// temporary file in the same directory, synced and renamed.
func (ss *solutions) saveCached(sol *solve.Solution, g *host.Game) error {
	if ss.dir == "" {
		_, err := solve.SaveCached(sol, g)
		return err
	}
	path, _ := ss.cachePath(g)
	if err := os.MkdirAll(ss.dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(ss.dir, ".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := sol.WriteTo(tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// wait waits for the preparations to stop (after the server's context
// ends).
func (ss *solutions) wait() { ss.wg.Wait() }

// titleOf is g's title for players, with its variants in their words:
// "Title (a variant's title, another's)".
func titleOf(g *host.Game) string {
	if v := g.ChosenVariants(); len(v) > 0 {
		return g.Title() + " (" + strings.Join(variantTitles(g, v), ", ") + ")"
	}
	return g.Title()
}

// gameName names a game configuration for the log: its name and variants.
func gameName(g *host.Game) string {
	name := g.Name()
	for _, v := range g.ChosenVariants() {
		name += " " + v
	}
	return name
}
