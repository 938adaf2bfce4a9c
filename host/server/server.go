// Package server serves games over HTTP: a JSON API, Server-Sent Events for
// new states, and an embedded browser page that draws any game's board from
// its board data. Games live in a store.Store; a state is rebuilt from its
// stored record, and computer seats are played by a bounded pool of workers.
//
// It trusts no client: the operator decides what a computer seat may cost
// (WithComputerSeats), every client has quotas and the server caps
// (WithLimits, LimitListener), computer moves are scheduled fairly by
// client, and requests from other sites or for other hosts are refused
// (WithHosts).
//
// The package uses only package host's public API and names no game.
package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"html"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"

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
	lib       *host.Library
	store     store.Store
	opt       options
	log       *slog.Logger
	catalog   *catalog
	cache     *stateCache
	hub       *hub
	mux       *http.ServeMux
	seats     computerSeats // the computer seats allowed
	clients   *clients      // quotas and counts by client
	sched     *scheduler    // games waiting for a computer move
	solutions *solutions    // perfect players
	// outageLog paces the log lines of a store that does not answer: one
	// every outageLogEvery however many requests it fails.
	outageLog rate.Sometimes

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	wake   chan struct{} // wakes the discovery of games due elsewhere
	owner  string        // lease owner prefix of this process
}

type options struct {
	maxBody   int64
	cacheSize int
	workers   int
	think     time.Duration
	thinkSet  bool // think was given
	lease     time.Duration
	poll      time.Duration
	players   PlayerFactory
	rules     func(game string) (string, bool)
	computers []string
	limits    Limits
	hosts     []string
	perfect   PerfectBudget
	first     string
	log       *slog.Logger
	base      string // the path prefix the server is mounted under, "" for none
	solutions string // the directory of the solution cache, "" for the user's
	expire    time.Duration
	games     []host.Option // given to every game the server loads
	lockWait  time.Duration // how long a request waits for a game another holds (see waitLock)
	writeWait time.Duration // how long a write of an answer waits for its client (see pace)
}

// Option configures a Server.
type Option func(*options)

// WithMaxBody sets the largest request body accepted, in bytes (default
// 16 KiB); larger bodies get 413.
func WithMaxBody(n int64) Option { return func(o *options) { o.maxBody = n } }

// WithCacheSize sets how many games' rebuilt states are kept in memory
// (default 512); the least recently used are dropped first.
func WithCacheSize(n int) Option { return func(o *options) { o.cacheSize = n } }

// WithGameOptions gives opts to every game the server loads, before the
// variants and parameters of the game played: host.WithLimits, say, for
// tighter budgets on scripts the server's operator does not trust (the
// defaults otherwise, see host.Limits).
func WithGameOptions(opts ...host.Option) Option {
	return func(o *options) { o.games = append(o.games, opts...) }
}

// WithWorkers sets how many computer moves may be thought about at once
// (default 2). Workers take the games waiting for a computer move fairly,
// the client served longest ago first.
func WithWorkers(n int) Option { return func(o *options) { o.workers = n } }

// WithThinkTime bounds one computer move, whatever its player's own
// budget (default 5s, or the longest time cap of the computer seats plus
// 3s); a player that has not answered by then is replaced by a random
// legal move.
func WithThinkTime(d time.Duration) Option {
	return func(o *options) { o.think, o.thinkSet = d, true }
}

// WithLockWait sets how long a request that changes a game (a move, a
// claim, a takeback, a proposal) waits for the request changing it before,
// one of whose script calls may run up to its time budget (default
// DefaultLockWait); then it gets 503 game-busy, with Retry-After. A
// computer worker waits as long, then leaves the game due for later (its
// lease runs out), free for the other games. Reads of a game never wait.
func WithLockWait(d time.Duration) Option { return func(o *options) { o.lockWait = d } }

// DefaultWriteWait is how long the server waits for a client to take each
// part of an answer (WithWriteWait).
const DefaultWriteWait = 30 * time.Second

// WithWriteWait sets how long the server waits for a client to take each
// part of an answer, an event of a stream as well as any other answer
// (default DefaultWriteWait); a client that has not taken it by then has
// its connection closed. A client that stops reading would otherwise hold
// its connection, and what the server wrote to it, for as long as it
// keeps it open.
func WithWriteWait(d time.Duration) Option { return func(o *options) { o.writeWait = d } }

// WithLease sets how long a worker holds a game it is thinking about
// before another process may take it over (default 30s).
func WithLease(d time.Duration) Option { return func(o *options) { o.lease = d } }

// WithPollInterval sets how often idle workers look for computer moves
// made due by other processes or expired leases (default 2s).
func WithPollInterval(d time.Duration) Option { return func(o *options) { o.poll = d } }

// WithPlayers sets how computer seats are made (default ProjectPlayers).
func WithPlayers(f PlayerFactory) Option { return func(o *options) { o.players = f } }

// WithComputerSeats sets the computer seats a game may have, each a
// player with the caps of its options, such as "mcts:time<=2s,threads<=2"
// (see ComputerSeat; default DefaultComputerSeats). A create request
// naming anything else gets 422 with the allowed seats, and a stored seat
// the server no longer allows plays random moves. New fails on a seat it
// cannot read.
func WithComputerSeats(seats ...string) Option {
	return func(o *options) { o.computers = append([]string(nil), seats...) }
}

// WithLimits sets the quotas of each client and the caps of the server
// (default DefaultLimits for the process's open-file limit).
func WithLimits(l Limits) Option { return func(o *options) { o.limits = l } }

// WithHosts sets the host names the server answers for besides localhost
// and IP addresses (the name people reach it by, e.g. play.example.org);
// a request for any other host gets 421.
func WithHosts(names ...string) Option {
	return func(o *options) {
		for _, n := range names {
			o.hosts = append(o.hosts, strings.ToLower(strings.TrimSuffix(n, ".")))
		}
	}
}

// WithPerfect sets what the server spends to offer perfect play (default
// DefaultPerfectBudget).
func WithPerfect(b PerfectBudget) Option { return func(o *options) { o.perfect = b } }

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

// WithBasePath mounts the server under a path prefix such as "/games", to
// share a host (or an http.ServeMux) with other handlers: every path it
// serves begins with the prefix (the page at /games/, its files, the API
// at /games/api/...), and the links it writes (seat links, the page's
// requests) follow it. Its Handler answers 404 outside the prefix and
// redirects the prefix itself to the prefix and a slash. The prefix is
// one or more path segments of letters, digits and - . _ ~, without a
// final slash; New refuses any other.
func WithBasePath(prefix string) Option { return func(o *options) { o.base = prefix } }

// WithSolutionCache sets the directory of the solution cache the server
// reads perfect players from and writes the solutions it makes to
// (default: the one of matombo solve, solve.CachePath, under the user's
// cache directory).
func WithSolutionCache(dir string) Option { return func(o *options) { o.solutions = dir } }

// WithExpiry makes the server delete the games nobody has changed for d,
// finished or not, with their records: it looks once a minute (more often
// for a d under 4 minutes) and deletes them in batches. The default, 0,
// keeps every game. New fails when d is positive and the store is not a
// store.Pruner.
func WithExpiry(d time.Duration) Option { return func(o *options) { o.expire = d } }

// basePathRE is what WithBasePath accepts.
var basePathRE = regexp.MustCompile(`^(/[A-Za-z0-9._~-]+)+$`)

// New returns a server for the games of lib stored in st, and starts its
// computer workers and its watch of the store.
//
// Besides lib and st, it reads the solution cache (see WithSolutionCache):
// when a computer seat may play perfectly (the seat "perfect", allowed by
// default), it loads the cached solutions of the library's games and
// their variants in the background, checks each against the rules, and
// writes the solutions it makes there (see PerfectBudget). It writes
// nothing else outside the store.
func New(lib *host.Library, st store.Store, opts ...Option) (*Server, error) {
	o := options{
		maxBody:   16 << 10,
		cacheSize: 512,
		workers:   2,
		think:     5 * time.Second,
		lease:     30 * time.Second,
		poll:      2 * time.Second,
		players:   ProjectPlayers,
		computers: DefaultComputerSeats(),
		limits:    DefaultLimits(OpenFileLimit()),
		perfect:   DefaultPerfectBudget(),
		log:       slog.New(slog.NewTextHandler(io.Discard, nil)),
		lockWait:  DefaultLockWait,
		writeWait: DefaultWriteWait,
	}
	for _, f := range opts {
		f(&o)
	}
	if o.maxBody < 1 || o.cacheSize < 1 || o.workers < 1 || o.think <= 0 || o.lease <= 0 || o.poll <= 0 || o.lockWait <= 0 || o.writeWait <= 0 {
		return nil, fmt.Errorf("server: body limit, cache size, workers and durations must be positive")
	}
	if o.base != "" && (!basePathRE.MatchString(o.base) || strings.Contains(o.base+"/", "/../") || strings.Contains(o.base+"/", "/./")) {
		return nil, fmt.Errorf("server: base path %q: want a path such as /games (segments of letters, digits and - . _ ~, no final slash)", o.base)
	}
	if o.expire < 0 {
		return nil, fmt.Errorf("server: expiry %s: want a positive duration, or 0 to keep every game", o.expire)
	}
	pruner, canPrune := st.(store.Pruner)
	if o.expire > 0 && !canPrune {
		return nil, fmt.Errorf("server: expiry %s: the store (%T) cannot delete games: it is not a store.Pruner", o.expire, st)
	}
	seats, err := parseComputerSeats(o.computers)
	if err != nil {
		return nil, err // a *SeatError naming the seat
	}
	cat := newCatalog(lib, o.games, o.rules, seats.names(), o.first, o.log)
	cat.Seats = seats.texts()
	if err := checkSeats(cat.loaded, seats, o.players); err != nil {
		return nil, err
	}
	cat.loaded = nil // the check's game: not kept open
	if !o.thinkSet {
		o.think = max(o.think, seats.maxTime()+3*time.Second)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{
		lib:       lib,
		store:     st,
		opt:       o,
		log:       o.log,
		cache:     newStateCache(o.cacheSize),
		hub:       newHub(),
		seats:     seats,
		clients:   newClients(o.limits),
		sched:     newScheduler(),
		solutions: newSolutions(ctx, o.perfect, o.solutions, o.log),
		ctx:       ctx,
		cancel:    cancel,
		wake:      make(chan struct{}, 1),
		outageLog: rate.Sometimes{Interval: outageLogEvery},
		owner:     "server-" + randomHex(8),
	}
	s.catalog = cat
	changes, err := st.Watch(ctx)
	if err != nil {
		cancel()
		return nil, fmt.Errorf("server: watching the store: %w", err)
	}
	s.wg.Add(2)
	go func() {
		defer s.wg.Done()
		s.watch(changes)
	}()
	go func() {
		defer s.wg.Done()
		s.discover()
	}()
	if o.expire > 0 {
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.expireGames(pruner)
		}()
	}
	for range o.workers {
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.worker()
		}()
	}
	if slices.ContainsFunc(seats, func(cs ComputerSeat) bool { return cs.Name == perfectSeat }) {
		s.solutions.warm(lib, cat)
	}
	s.mux = s.routes()
	return s, nil
}

// Handler returns the HTTP handler of the API, the events and the page,
// under the base path (WithBasePath) when there is one. Each write of an
// answer has a deadline (WithWriteWait); serve it with HTTPServer's
// timeouts, or a WriteTimeout of one's own, so that the answers net/http
// writes itself have one too.
func (s *Server) Handler() http.Handler {
	// jsonErrors wraps mount: its messages name the path the client sent,
	// with the base path.
	return s.pace(closeUnread(s.secure(jsonErrors(s.mount(s.guard(s.mux))))))
}

// closeUnread closes the connection after an answer to a request whose
// body was not read to its end: a refusal (a body too large or not JSON,
// from another site, over a quota, for no endpoint). net/http would
// otherwise read up to 256 KiB more of the body before it sends the
// answer, and again after it, and a client sending no more (a body that
// says it is larger than it is, a chunked one that never ends) would get
// its answer, and lose its connection, only when the read timeout ends
// it.
func closeUnread(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body == nil || r.Body == http.NoBody {
			next.ServeHTTP(w, r)
			return
		}
		body := &watchedBody{ReadCloser: r.Body}
		r2 := new(http.Request)
		*r2 = *r
		r2.Body = body
		next.ServeHTTP(&closingWriter{ResponseWriter: w, body: body}, r2)
		if !body.ended {
			// Nor after the answer: the connection closes once it is sent.
			_ = http.NewResponseController(w).SetReadDeadline(time.Now())
		}
	})
}

// watchedBody is a request body that knows whether it was read to its end.
type watchedBody struct {
	io.ReadCloser
	ended bool
}

func (b *watchedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF {
		b.ended = true
	}
	return n, err
}

// closingWriter asks for the connection to be closed when it answers a
// request whose body was not read to its end.
type closingWriter struct {
	http.ResponseWriter
	body    *watchedBody
	written bool
}

func (cw *closingWriter) WriteHeader(status int) {
	if !cw.written && status >= 200 {
		cw.written = true
		if !cw.body.ended {
			cw.Header().Set("Connection", "close")
		}
	}
	cw.ResponseWriter.WriteHeader(status)
}

func (cw *closingWriter) Write(b []byte) (int, error) {
	if !cw.written {
		cw.WriteHeader(http.StatusOK)
	}
	return cw.ResponseWriter.Write(b)
}

// Flush, FlushError and Unwrap keep the flushes, with their errors, and
// the deadlines.
func (cw *closingWriter) Flush() { cw.FlushError() }

func (cw *closingWriter) FlushError() error {
	if !cw.written {
		cw.WriteHeader(http.StatusOK)
	}
	return http.NewResponseController(cw.ResponseWriter).Flush()
}

func (cw *closingWriter) Unwrap() http.ResponseWriter { return cw.ResponseWriter }

// pace gives each write of an answer a deadline, the server's write wait
// from then: a client that stops reading (its connection's buffers full)
// has its connection closed when the wait runs out, rather than holding
// it, a goroutine and what was written for as long as it likes (clients
// from enough addresses, each under its quota of connections, would hold
// every connection the server allows). A client reading an answer, or an
// event stream, at any pace the wait allows is not disturbed.
func (s *Server) pace(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		pw := &pacedWriter{ResponseWriter: w, rc: http.NewResponseController(w), wait: s.opt.writeWait}
		pw.extend() // net/http's own "100 Continue" too
		next.ServeHTTP(pw, r)
	})
}

// pacedWriter sets a write deadline before each write of an answer.
type pacedWriter struct {
	http.ResponseWriter
	rc   *http.ResponseController
	wait time.Duration
}

// extend moves the connection's write deadline to the write wait from now;
// a ResponseWriter without deadlines (a test's recorder) is served as it
// is.
func (pw *pacedWriter) extend() { _ = pw.rc.SetWriteDeadline(time.Now().Add(pw.wait)) }

func (pw *pacedWriter) WriteHeader(status int) {
	pw.extend()
	pw.ResponseWriter.WriteHeader(status)
}

func (pw *pacedWriter) Write(b []byte) (int, error) {
	pw.extend()
	return pw.ResponseWriter.Write(b)
}

// Flush, FlushError and Unwrap keep the event streams' flushes, with
// their errors, and the other deadlines.
func (pw *pacedWriter) Flush() { pw.FlushError() }

func (pw *pacedWriter) FlushError() error {
	pw.extend()
	return pw.rc.Flush()
}

func (pw *pacedWriter) Unwrap() http.ResponseWriter { return pw.ResponseWriter }

// jsonErrors answers the errors net/http writes itself in plain text (the
// mux's 404 and 405, the file server's 404, a bad range's 416) as every
// other error: JSON with a code, keeping their status and headers (Allow).
func jsonErrors(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(&errorWriter{ResponseWriter: w, r: r}, r)
	})
}

// errorWriter turns an error answer written in plain text (http.Error),
// or with no body at all (the mux's answer to "GET *"), into JSON.
type errorWriter struct {
	http.ResponseWriter
	r       *http.Request
	dropped bool // the plain text body is dropped: the JSON one is written
}

func (ew *errorWriter) WriteHeader(status int) {
	h := ew.Header()
	if ct := h.Get("Content-Type"); status < 400 || ew.dropped || ct != "" && !strings.HasPrefix(ct, "text/plain") {
		ew.ResponseWriter.WriteHeader(status)
		return
	}
	ew.dropped = true
	msg, code := fmt.Sprintf("%s %s: %s", ew.r.Method, ew.r.URL.Path, strings.ToLower(http.StatusText(status))), codeBadRequest
	switch {
	case status == http.StatusNotFound:
		msg, code = fmt.Sprintf("nothing at %s", ew.r.URL.Path), codeNotFound
	case status == http.StatusMethodNotAllowed:
		msg, code = fmt.Sprintf("%s is not allowed on %s (allowed: %s)", ew.r.Method, ew.r.URL.Path, h.Get("Allow")), codeBadMethod
	case status >= 500:
		code = codeInternal
	}
	h.Del("Content-Length")
	writeError(ew.ResponseWriter, status, apiError{Error: msg, Code: code})
}

func (ew *errorWriter) Write(b []byte) (int, error) {
	if ew.dropped {
		return len(b), nil
	}
	return ew.ResponseWriter.Write(b)
}

// Flush, FlushError and Unwrap keep the event streams' flushes, with
// their errors, and deadlines.
func (ew *errorWriter) Flush() { ew.FlushError() }

func (ew *errorWriter) FlushError() error {
	return http.NewResponseController(ew.ResponseWriter).Flush()
}

func (ew *errorWriter) Unwrap() http.ResponseWriter { return ew.ResponseWriter }

// mount serves next under the base path: it strips the prefix from the
// request's path, answers 404 outside it and redirects the prefix alone to
// the prefix and a slash. The redirects next answers (the mux's, to a
// cleaned path or a folder's slash) stay under the prefix.
func (s *Server) mount(next http.Handler) http.Handler {
	base := s.opt.base
	if base == "" {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == base {
			to := base + "/"
			if r.URL.RawQuery != "" {
				to += "?" + r.URL.RawQuery
			}
			http.Redirect(w, r, to, http.StatusMovedPermanently)
			return
		}
		rest, ok := strings.CutPrefix(r.URL.Path, base)
		if !ok || !strings.HasPrefix(rest, "/") {
			writeError(w, http.StatusNotFound, apiError{Error: fmt.Sprintf("%s is outside this server's path %s/", r.URL.Path, base), Code: codeNotFound})
			return
		}
		r2 := new(http.Request)
		*r2 = *r
		r2.URL = new(url.URL)
		*r2.URL = *r.URL
		r2.URL.Path = rest
		r2.URL.RawPath = ""
		next.ServeHTTP(&mountedWriter{ResponseWriter: w, base: base}, r2)
	})
}

// mountedWriter puts the base path before the root-relative Location of a
// redirect, and writes the link of the redirect's body (http.Redirect's,
// for GET) to the same place.
type mountedWriter struct {
	http.ResponseWriter
	base string
	// moved is the redirect's Location once it was given the base path:
	// the body next writes names the path without it and is replaced.
	moved       string
	movedStatus int
	bodyWritten bool
}

func (mw *mountedWriter) WriteHeader(status int) {
	h := mw.Header()
	if loc := h.Get("Location"); status/100 == 3 && strings.HasPrefix(loc, "/") && !strings.HasPrefix(loc, "//") {
		mw.moved, mw.movedStatus = mw.base+loc, status
		h.Set("Location", mw.moved)
		h.Del("Content-Length")
	}
	mw.ResponseWriter.WriteHeader(status)
}

// Write writes p, or, for a redirect given the base path, its own link to
// the redirect's Location in place of the body written to it (once).
func (mw *mountedWriter) Write(p []byte) (int, error) {
	if mw.moved == "" {
		return mw.ResponseWriter.Write(p)
	}
	if !mw.bodyWritten {
		mw.bodyWritten = true
		body := "<a href=\"" + html.EscapeString(mw.moved) + "\">" + http.StatusText(mw.movedStatus) + "</a>.\n"
		if _, err := io.WriteString(mw.ResponseWriter, body); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// Flush, FlushError and Unwrap keep the event streams' flushes, with
// their errors, and deadlines.
func (mw *mountedWriter) Flush() { mw.FlushError() }

func (mw *mountedWriter) FlushError() error {
	return http.NewResponseController(mw.ResponseWriter).Flush()
}

func (mw *mountedWriter) Unwrap() http.ResponseWriter { return mw.ResponseWriter }

// Close stops the computer workers, the preparation of perfect players
// and the open event streams. It does not close the store.
func (s *Server) Close() error {
	s.cancel()
	s.wg.Wait()
	s.solutions.wait()
	return nil
}

// HTTPServer returns an http.Server for h on addr with the timeouts a
// public server needs: reading headers and bodies, writing answers, and
// idle keep-alive connections. Its write timeout, DefaultWriteWait, is
// the first deadline of each request's answer, which the Server's Handler
// moves on before each write (WithWriteWait), so that event streams stay
// open while their clients read them; it bounds the answers net/http
// writes itself (to a request it cannot read, say).
func HTTPServer(addr string, h http.Handler) *http.Server {
	return &http.Server{
		Addr:              addr,
		Handler:           h,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       15 * time.Second,
		WriteTimeout:      DefaultWriteWait,
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
				writeError(w, http.StatusInternalServerError, apiError{Error: "internal error", Code: codeInternal})
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// watch passes the store's changes to the event streams and the
// discovery of games due. When the store drops the watch (a receiver too far behind, a
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

// wakeWorkers wakes the discovery of games due for a computer move.
func (s *Server) wakeWorkers() {
	select {
	case s.wake <- struct{}{}:
	default:
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
