package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
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
(e.g. "mcts:time=1s" or "random", see docs/players.md) move by
themselves. Stop with Ctrl-C.`

// serveConfig is what serve needs from the command line.
type serveConfig struct {
	addr    string
	db      string
	workers int
	lib     *host.Library
	ready   func(url string) // called once the server listens (tests)
}

// runServe is `matombo serve`.
// firstShippedGame is the game the new-game form starts with: the first
// of the shipped games, as the README presents them.
const firstShippedGame = "tsoro"

func runServe(e *env, args []string) int {
	c := newCLI(e, "serve", "[--addr HOST:PORT] [--db PATH] [--games DIR]...", serveAbout)
	var dirs stringList
	c.fs.Var(&dirs, "games", "add or override games from the folder `DIR` (repeatable)")
	addr := c.fs.String("addr", "127.0.0.1:8080", "listen on `HOST:PORT`")
	db := c.fs.String("db", "", "store games in the SQLite file `PATH` (\":memory:\" keeps them in memory only; "+
		"a postgres:// URL uses PostgreSQL); default "+displayPath(defaultDBPath()))
	workers := c.fs.Int("workers", 2, "computer moves thought about at once, at most `N`")
	pos, status, ok := c.parse(args)
	if !ok {
		return status
	}
	if len(pos) > 0 {
		return c.usageError("unexpected argument %q: serve takes no arguments", pos[0])
	}
	if *workers < 1 {
		return c.usageError("--workers %d: want at least 1", *workers)
	}
	lib, err := libraryWith(dirs)
	if err != nil {
		return c.fail(usageErr{err.Error()})
	}
	cfg := serveConfig{addr: *addr, db: *db, workers: *workers, lib: lib}
	if cfg.db == "" {
		cfg.db = defaultDBPath()
		if err := os.MkdirAll(filepath.Dir(cfg.db), 0o700); err != nil {
			return c.fail(fmt.Errorf("creating the folder of the game database: %w", err))
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := serve(ctx, e, cfg); err != nil {
		return c.fail(err)
	}
	return exitOK
}

// serve runs the server until ctx ends, then shuts it down.
func serve(ctx context.Context, e *env, cfg serveConfig) error {
	st, err := store.Open(ctx, cfg.db)
	if err != nil {
		return fmt.Errorf("opening the game database %s: %w", store.Redact(cfg.db), err)
	}
	defer st.Close()
	logger := slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	srv, err := server.New(cfg.lib, st, server.WithRules(docs.Rules), server.WithLogger(logger), server.WithWorkers(cfg.workers),
		server.WithDefaultGame(firstShippedGame))
	if err != nil {
		return err
	}
	defer srv.Close()
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return usageErr{fmt.Sprintf("--addr %s: %v", cfg.addr, err)}
	}
	hs := server.HTTPServer(cfg.addr, srv.Handler())
	url := "http://" + ln.Addr().String() + "/"
	fmt.Fprintf(e.stdout, "matombo serve: playing at %s (games stored in %s; Ctrl-C stops)\n", url, displayPath(store.Redact(cfg.db)))
	if cfg.ready != nil {
		cfg.ready(url)
	}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return fmt.Errorf("serving: %w", err)
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	srv.Close() // ends the event streams, so that Shutdown need not wait for them
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
