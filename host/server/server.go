// Package server serves games over HTTP: a JSON API, Server-Sent Events for
// new states, and an embedded browser page that draws any game's board from
// its board data. Games live in a store.Store; a state is rebuilt from its
// stored record, and computer seats are played by a bounded pool of workers.
//
// The package uses only package host's public API and names no game.
package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/player"
	"github.com/matombo/matombo/host/store"
)

// Player chooses a move for the side to move; a computer seat is played by
// one. It is package player's Player.
type Player = player.Player

// PlayerFactory makes the player of a computer seat from its spec (for
// example "random" or "mcts:time=1s"). It returns an error naming the spec
// and what is allowed when the spec is not understood.
type PlayerFactory func(g *host.Game, spec string) (Player, error)

// Server is the game server. Create it with New, serve its Handler, and
// Close it when done; Close does not close the store.
type Server struct {
	lib     *host.Library
	store   store.Store
	opt     options
	log     *slog.Logger
	catalog *catalog
	cache   *stateCache
	hub     *hub
	mux     *http.ServeMux

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	wake   chan struct{} // wakes idle computer workers
	owner  string        // lease owner prefix of this process
}

type options struct {
	maxBody   int64
	cacheSize int
	workers   int
	think     time.Duration
	lease     time.Duration
	poll      time.Duration
	players   PlayerFactory
	rules     func(game string) (string, bool)
	computers []string
	first     string
	log       *slog.Logger
}

// Option configures a Server.
type Option func(*options)

// WithMaxBody sets the largest request body accepted, in bytes (default
// 16 KiB); larger bodies get 413.
func WithMaxBody(n int64) Option { return func(o *options) { o.maxBody = n } }

// WithCacheSize sets how many games' rebuilt states are kept in memory
// (default 512); the least recently used are dropped first.
func WithCacheSize(n int) Option { return func(o *options) { o.cacheSize = n } }

// WithWorkers sets how many computer moves may be thought about at once
// (default 2).
func WithWorkers(n int) Option { return func(o *options) { o.workers = n } }

// WithThinkTime bounds one computer move (default 10s); a player that has
// not answered by then is replaced by a random legal move.
func WithThinkTime(d time.Duration) Option { return func(o *options) { o.think = d } }

// WithLease sets how long a worker holds a game it is thinking about
// before another process may take it over (default 30s).
func WithLease(d time.Duration) Option { return func(o *options) { o.lease = d } }

// WithPollInterval sets how often idle workers look for computer moves
// made due by other processes or expired leases (default 2s).
func WithPollInterval(d time.Duration) Option { return func(o *options) { o.poll = d } }

// WithPlayers sets how computer seats are made (default ProjectPlayers).
func WithPlayers(f PlayerFactory) Option { return func(o *options) { o.players = f } }

// WithComputerPlayers names the computer player specs the new-game form
// offers, the first by default (default mcts:time=1s, alphabeta:time=500ms,
// greedy, random); any spec the PlayerFactory accepts may be typed in.
func WithComputerPlayers(specs ...string) Option {
	return func(o *options) { o.computers = append([]string(nil), specs...) }
}

// WithDefaultGame names the game the new-game form starts with (default:
// the first in the library's order).
func WithDefaultGame(name string) Option { return func(o *options) { o.first = name } }

// WithRules gives rules pages for games whose script folder has none (for
// example the shipped games' pages in package docs).
func WithRules(f func(game string) (string, bool)) Option {
	return func(o *options) { o.rules = f }
}

// WithLogger sets where the server logs problems (default: discarded).
func WithLogger(l *slog.Logger) Option { return func(o *options) { o.log = l } }

// New returns a server for the games of lib stored in st, and starts its
// computer workers and its watch of the store.
func New(lib *host.Library, st store.Store, opts ...Option) (*Server, error) {
	o := options{
		maxBody:   16 << 10,
		cacheSize: 512,
		workers:   2,
		think:     10 * time.Second,
		lease:     30 * time.Second,
		poll:      2 * time.Second,
		players:   ProjectPlayers,
		computers: defaultComputers,
		log:       slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
	for _, f := range opts {
		f(&o)
	}
	if o.maxBody < 1 || o.cacheSize < 1 || o.workers < 1 || o.think <= 0 || o.lease <= 0 || o.poll <= 0 {
		return nil, fmt.Errorf("server: body limit, cache size, workers and durations must be positive")
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{
		lib:    lib,
		store:  st,
		opt:    o,
		log:    o.log,
		cache:  newStateCache(o.cacheSize),
		hub:    newHub(),
		ctx:    ctx,
		cancel: cancel,
		wake:   make(chan struct{}, o.workers),
		owner:  "server-" + randomHex(8),
	}
	s.catalog = newCatalog(lib, o.rules, o.computers, o.first)
	changes, err := st.Watch(ctx)
	if err != nil {
		cancel()
		return nil, fmt.Errorf("server: watching the store: %w", err)
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		s.watch(changes)
	}()
	for i := range o.workers {
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.worker(fmt.Sprintf("%s/%d", s.owner, i))
		}()
	}
	s.mux = s.routes()
	return s, nil
}

// Handler returns the HTTP handler of the API, the events and the page.
func (s *Server) Handler() http.Handler { return s.secure(s.mux) }

// Close stops the computer workers and ends open event streams. It does
// not close the store.
func (s *Server) Close() error {
	s.cancel()
	s.wg.Wait()
	return nil
}

// HTTPServer returns an http.Server for h on addr with the timeouts a
// public server needs: reading headers and bodies, and idle keep-alive
// connections. It sets no write timeout, since event streams stay open.
func HTTPServer(addr string, h http.Handler) *http.Server {
	return &http.Server{
		Addr:              addr,
		Handler:           h,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       15 * time.Second,
		IdleTimeout:       60 * time.Second,
		MaxHeaderBytes:    16 << 10,
	}
}

// contentSecurityPolicy lets the page load only its own scripts, styles
// and API.
const contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// secure adds security headers to every response and turns a panic in a
// handler into a 500 instead of a dropped connection.
func (s *Server) secure(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", contentSecurityPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Frame-Options", "DENY")
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.log.Error("handler panic", "path", r.URL.Path, "panic", v)
				writeError(w, http.StatusInternalServerError, apiError{Error: "internal error"})
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// watch passes the store's changes to the event streams and the computer
// workers. When the store drops the watch (a receiver too far behind, a
// lost connection), it watches again and tells every stream to re-read,
// since changes may have been missed.
func (s *Server) watch(changes <-chan store.Change) {
	backoff := 50 * time.Millisecond
	for {
		for c := range changes {
			s.hub.notify(c.ID)
			s.wakeWorkers()
			backoff = 50 * time.Millisecond
		}
		for {
			if s.ctx.Err() != nil {
				return
			}
			var err error
			if changes, err = s.store.Watch(s.ctx); err == nil {
				break
			}
			s.log.Error("watching the store again", "err", err)
			select {
			case <-s.ctx.Done():
				return
			case <-time.After(backoff):
			}
			backoff = min(2*backoff, 5*time.Second)
		}
		s.hub.notifyAll()
		s.wakeWorkers()
	}
}

// wakeWorkers wakes idle computer workers to look for a move to make.
func (s *Server) wakeWorkers() {
	for range s.opt.workers {
		select {
		case s.wake <- struct{}{}:
		default:
			return
		}
	}
}

// randomHex returns n random bytes in hex.
func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // crypto/rand.Read never fails
	return hex.EncodeToString(b)
}

// newSecret returns a seat secret: 128 random bits in hex.
func newSecret() string { return randomHex(16) }

// storeStatus maps a store error to an HTTP status.
func storeStatus(err error) int {
	switch {
	case errors.Is(err, store.ErrNotFound):
		return http.StatusNotFound
	case errors.Is(err, store.ErrConflict):
		return http.StatusConflict
	case errors.Is(err, store.ErrUnavailable):
		return http.StatusServiceUnavailable
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return http.StatusServiceUnavailable
	default:
		return http.StatusInternalServerError
	}
}
