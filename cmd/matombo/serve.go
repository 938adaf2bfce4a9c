package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/matombo/matombo/docs"
	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/server"
	"github.com/matombo/matombo/host/store"
	_ "github.com/matombo/matombo/host/store/postgres" // --db postgres://...
	_ "github.com/matombo/matombo/host/store/sqlite"   // --db FILE, the default
)

const serveAbout = `
Serves the games in the browser: a page that draws any game's board, a JSON
API and live updates (docs/serve.md). Games are stored in a SQLite file, so
they survive a restart; each person's seat is a secret link. Computer seats
move by themselves; the operator decides which there are and what each may
spend (--computer, e.g. 'mcts:time<=2s,threads<=2'), and every client has
quotas (--client-*). Behind a reverse proxy, name the public host with
--host and the proxy with --trusted-proxy. "Running it for other people" in
docs/serve.md has the details. Stop with Ctrl-C (or SIGINT, SIGTERM): a
graceful shutdown, exit status 0; a second one ends it at once.`

// serveConfig is what serve needs from the command line.
type serveConfig struct {
	addr    string
	db      string
	workers int
	lib     *host.Library
	seats   []string              // --computer; nil: the server's defaults
	hosts   []string              // --host
	limits  *server.Limits        // nil: the server's defaults
	perfect *server.PerfectBudget // nil: the server's default
	base    string                // --base-path: the path prefix the server is served under
	cache   string                // --solutions: the solution cache, "" for matombo solve's
	expire  time.Duration         // --expire: delete games unchanged that long, 0 for never
	wait    time.Duration         // --lock-wait: how long a change of a game waits for the one before
	ready   func(url string)      // called once the server listens (tests)
}

// runServe is `matombo serve`.
// firstShippedGame is the game the new-game form starts with: the first
// of the shipped games, as the README presents them.
const firstShippedGame = "tsoro"

func runServe(e *env, args []string) int {
	c := newCLI(e, "serve", "[--addr HOST:PORT] [--db PATH] [--games DIR]... [--computer SPEC]... [--host NAME]... [--trusted-proxy CIDR]... [--base-path PREFIX] [--solutions DIR] [--lock-wait DURATION]", serveAbout)
	var dirs, seats, hosts, proxies stringList
	c.fs.Var(&dirs, "games", "add or override games from the folder `DIR` (repeatable)")
	addr := c.fs.String("addr", "127.0.0.1:8080", "listen on `HOST:PORT`")
	db := c.textFlag("db", "", "name a file (or :memory:, or a postgres:// URL)", "store games in the SQLite file `PATH` (\":memory:\" keeps them in memory only; "+
		"a postgres:// URL uses PostgreSQL); default "+displayPath(defaultDBPath()))
	workers := c.intFlag("workers", 2, 1, maxWorkers, "computer moves thought about at once, at most `N`")
	c.fs.Var(&seats, "computer", "allow the computer seat `SPEC`, a player with the caps of its options, e.g. 'mcts:time<=2s,threads<=2' "+
		"(repeatable; default: "+strings.Join(server.DefaultComputerSeats(), " ")+")")
	c.fs.Var(&hosts, "host", "answer requests for the host `NAME` too (repeatable; localhost and IP addresses always)")
	c.fs.Var(&proxies, "trusted-proxy", "take the client's address from X-Forwarded-For on connections from the network `CIDR`, e.g. 127.0.0.1/32 (repeatable)")
	lim := server.DefaultLimits(server.OpenFileLimit())
	gamesPerMinute := c.intFlag("client-games", lim.GamesPerMinute, 0, maxQuota, "games one client may create a minute, `N` (0: no limit)")
	requests := c.intFlag("client-requests", lim.RequestsPerSecond, 0, maxQuota, "API requests one client may make a second, `N` (0: no limit)")
	clientStreams := c.intFlag("client-streams", lim.ClientStreams, 0, maxQuota, "event streams one client may hold open, `N` (0: no limit)")
	thinking := c.intFlag("client-thinking", lim.ClientThinking, 0, maxQuota, "games of one client waiting for the computer at once, `N` (0: no limit)")
	clientConns := c.intFlag("client-conns", lim.ClientConns, 0, maxQuota, "connections one client may hold, `N` (0: no limit)")
	streams := c.intFlag("max-streams", lim.Streams, 0, maxQuota, "event streams the server holds open, at most `N` (default: from the open-file limit; 0: no limit)")
	games := c.intFlag("max-games", lim.Games, 0, maxStoredGames, "games the store may hold, at most `N`; new games over it are refused (0: no limit)")
	var expire time.Duration
	durationVar(c.fs, &expire, "expire", 0, 0, maxExpiry, "delete the games nobody has changed for `DURATION`, finished or not, e.g. 720h (0: keep every game; at least "+minExpiry.String()+")")
	var lockWait time.Duration
	durationVar(c.fs, &lockWait, "lock-wait", server.DefaultLockWait, minLockWait, maxLockWait,
		"a change of a game (a move, a claim) waits at most `DURATION` for the one before it, then gets 503 game-busy; reads never wait (from "+
			minLockWait.String()+" to "+maxLockWait.String()+")")
	conns := c.intFlag("max-conns", lim.Conns, 0, maxQuota, "connections the server holds, at most `N` (default: from the open-file limit; 0: no limit)")
	basePath := c.fs.String("base-path", "", "serve everything under the path `PREFIX`, e.g. /games (behind a proxy that forwards that path)")
	cacheDir := c.textFlag("solutions", "", "name a folder", "read and write the solutions of perfect play in the folder `DIR` (default: the cache of matombo solve)")
	perfectPositions := c.intFlag("perfect-positions", server.DefaultPerfectBudget().Positions, 0, maxPositions,
		"solve a game for perfect play, off the request path, when it has at most `N` positions (0: only solutions already cached)")
	pos, status, ok := c.parse(args)
	if !ok {
		return status
	}
	if len(pos) > 0 {
		return c.usageError("unexpected argument %q: serve takes no arguments", pos[0])
	}
	if err := checkAddr(*addr); err != nil {
		return c.usageError("--addr %s: %v", *addr, err)
	}
	if expire > 0 && expire < minExpiry {
		return c.usageError("--expire %s: too small: the least is %s (0 keeps every game)", expire, minExpiry)
	}
	for _, spec := range seats {
		if _, err := server.ParseComputerSeat(spec); err != nil {
			return c.usageError("--computer: %v", err)
		}
	}
	lim.GamesPerMinute, lim.RequestsPerSecond, lim.ClientStreams, lim.ClientThinking = *gamesPerMinute, *requests, *clientStreams, *thinking
	lim.ClientConns, lim.Streams, lim.Conns, lim.Games = *clientConns, *streams, *conns, *games
	for _, p := range proxies {
		prefix, err := netip.ParsePrefix(p)
		if err != nil {
			a, aerr := netip.ParseAddr(p)
			if aerr != nil {
				return c.usageError("--trusted-proxy %s: want an address or a network such as 10.0.0.0/8", p)
			}
			prefix = netip.PrefixFrom(a, a.BitLen())
		}
		lim.TrustedProxies = append(lim.TrustedProxies, prefix.Masked())
	}
	for _, h := range hosts {
		if h == "" || strings.ContainsAny(h, "/:@ ") {
			return c.usageError("--host %q: want a host name such as play.example.org", h)
		}
	}
	if info, err := os.Stat(*cacheDir); *cacheDir != "" && err == nil && !info.IsDir() {
		// Checked now: a file here would fail only when a perfect seat
		// first needs a solution, in the log of a running server.
		return c.usageError("--solutions %s: not a folder", *cacheDir)
	}
	perfect := server.DefaultPerfectBudget()
	perfect.Positions = *perfectPositions
	lib, err := libraryWith(dirs)
	if err != nil {
		return c.fail(err) // a folder that is missing or unreadable is no usage error
	}
	cfg := serveConfig{addr: *addr, db: *db, workers: *workers, lib: lib, hosts: hosts, limits: &lim, perfect: &perfect,
		base: strings.TrimSuffix(*basePath, "/"), cache: *cacheDir, expire: expire, wait: lockWait}
	if len(seats) > 0 {
		cfg.seats = seats
	}
	if cfg.db == "" {
		cfg.db = defaultDBPath()
		if err := os.MkdirAll(filepath.Dir(cfg.db), 0o700); err != nil {
			return c.fail(fmt.Errorf("creating the folder of the game database: %w", err))
		}
	}
	// Ctrl-C, SIGINT or SIGTERM is the server's normal end: a graceful
	// shutdown, exit status 0 (see serve).
	ctx, stop := e.interruptContext(context.Background())
	defer stop()
	if err := serve(ctx, e, cfg); err != nil {
		return c.fail(err)
	}
	return exitOK
}

// maxQuota bounds the quota and cap flags of serve.
const maxQuota = 1_000_000

// checkAddr refuses an --addr that is not HOST:PORT with a port number:
// a usage error, before anything starts. One that cannot be listened on
// (in use, not an address of this machine) fails when serve listens.
func checkAddr(addr string) error {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("want HOST:PORT, such as 127.0.0.1:8080 or :8080 (%v)", err)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return fmt.Errorf("port %q: want a number from 0 to 65535", port)
	}
	return nil
}

// The bounds of --expire: at least a minute (a shorter one would delete
// games whose players are thinking), at most ten years.
const (
	minExpiry = time.Minute
	maxExpiry = 10 * 365 * 24 * time.Hour
)

// The bounds of --lock-wait: a tenth of a second (less would refuse two
// changes of a game that merely come together), at most five minutes (a
// move's script call takes 30 s at most by default; a longer wait only
// holds connections).
const (
	minLockWait = 100 * time.Millisecond
	maxLockWait = 5 * time.Minute
)

// maxStoredGames bounds --max-games.
const maxStoredGames = 1_000_000_000

// serve runs the server until ctx ends, then shuts it down. A signal
// that stops the opening of the store is an error that wraps it.
func serve(ctx context.Context, e *env, cfg serveConfig) error {
	st, err := store.Open(ctx, cfg.db)
	if ie, ok := interruption(ctx); ok && err != nil {
		return fmt.Errorf("stopped: %w while opening the game database", ie)
	}
	if err != nil {
		return fmt.Errorf("opening the game database %s: %w", store.Redact(cfg.db), err)
	}
	defer st.Close()
	logger := slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	opts := []server.Option{server.WithRules(docs.Rules), server.WithLogger(logger), server.WithWorkers(cfg.workers),
		server.WithDefaultGame(firstShippedGame)}
	if cfg.seats != nil {
		opts = append(opts, server.WithComputerSeats(cfg.seats...))
	}
	if cfg.limits != nil {
		opts = append(opts, server.WithLimits(*cfg.limits))
	}
	if cfg.perfect != nil {
		opts = append(opts, server.WithPerfect(*cfg.perfect))
	}
	if cfg.base != "" {
		opts = append(opts, server.WithBasePath(cfg.base))
	}
	if cfg.cache != "" {
		opts = append(opts, server.WithSolutionCache(cfg.cache))
	}
	if cfg.expire > 0 {
		opts = append(opts, server.WithExpiry(cfg.expire))
	}
	if cfg.wait > 0 {
		opts = append(opts, server.WithLockWait(cfg.wait))
	}
	// The name the server listens on is one it answers for.
	hosts := cfg.hosts
	if h, _, err := net.SplitHostPort(cfg.addr); err == nil && h != "" {
		if _, err := netip.ParseAddr(h); err != nil {
			hosts = append(hosts, h)
		}
	}
	opts = append(opts, server.WithHosts(hosts...))
	srv, err := server.New(cfg.lib, st, opts...)
	var se *server.SeatError
	if errors.As(err, &se) {
		return usageErr{"--computer: " + err.Error()}
	}
	if err != nil && cfg.base != "" && strings.Contains(err.Error(), "base path") {
		return usageErr{"--base-path: " + err.Error()}
	}
	if err != nil {
		return err
	}
	defer srv.Close()
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return fmt.Errorf("--addr %s: %w", cfg.addr, err) // in use, or not this machine's: no usage error
	}
	hs := server.HTTPServer(cfg.addr, srv.Handler())
	url := "http://" + ln.Addr().String() + cfg.base + "/"
	fmt.Fprintf(e.stdout, "matombo serve: playing at %s (games stored in %s; Ctrl-C stops)\n", url, displayPath(store.Redact(cfg.db)))
	if cfg.ready != nil {
		cfg.ready(url)
	}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(srv.LimitListener(ln)) }()
	select {
	case err := <-done:
		return fmt.Errorf("serving: %w", err)
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	srv.Close() // ends the event streams and the thinking, so that Shutdown need not wait for them
	if err := hs.Shutdown(shutdown); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("stopping the server: %w", err)
	}
	fmt.Fprintln(e.stdout, "matombo serve: stopped")
	return nil
}

// defaultDBPath is games.db in the user's data directory: $XDG_DATA_HOME/matombo,
// else ~/.local/share/matombo; where there is no home, the user's config
// directory or the working directory.
func defaultDBPath() string {
	if d := os.Getenv("XDG_DATA_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "matombo", "games.db")
	}
	if home, err := os.UserHomeDir(); err == nil && home != "" {
		return filepath.Join(home, ".local", "share", "matombo", "games.db")
	}
	if d, err := os.UserConfigDir(); err == nil {
		return filepath.Join(d, "matombo", "games.db")
	}
	return "matombo-games.db"
}

// displayPath shortens a path in the home directory to ~/...
func displayPath(p string) string {
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return p
	}
	if rel, err := filepath.Rel(home, p); err == nil && filepath.IsLocal(rel) {
		return filepath.Join("~", rel)
	}
	return p
}
