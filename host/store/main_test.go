package store_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/matombo/matombo/host/store"
	"github.com/matombo/matombo/host/store/pgtest"
)

// helperEnv makes the test binary a helper process (another "server"
// sharing the database) instead of running tests; see runHelper.
const helperEnv = "MATOMBO_STORE_HELPER"

func TestMain(m *testing.M) {
	if mode := os.Getenv(helperEnv); mode != "" {
		os.Exit(runHelper(mode, os.Getenv("MATOMBO_STORE_DSN"), os.Getenv("MATOMBO_STORE_GAME")))
	}
	code := m.Run()
	shared.remove()
	os.Exit(code)
}

// runHelper is the child side of the multi-process tests:
//
//	append: appends moves "m<ply>" to the game from its current ply on,
//	        printing "ack <ply>" after each Append returns, until killed
//	claim:  claims a due game with a 2s lease, prints "claimed <id>",
//	        then waits to be killed
func runHelper(mode, dsn, id string) int {
	ctx := context.Background()
	s, err := store.Open(ctx, dsn)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer s.Close()
	switch mode {
	case "load": // id is "<games> <moves per game>"
		var games, moves int
		if _, err := fmt.Sscan(id, &games, &moves); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		return runLoadHelper(dsn, games, moves)
	case "append":
		g, err := s.Get(ctx, id)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		fmt.Println("ready")
		for ply := len(g.Record); ; ply++ {
			if _, err := s.Append(ctx, id, ply, fmt.Sprintf("m%d", ply), false, nil, false); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 2
			}
			fmt.Printf("ack %d\n", ply) // os.Stdout is unbuffered: the ack leaves at once
		}
	case "claim":
		g, err := s.Claim(ctx, fmt.Sprintf("pid%d", os.Getpid()), 2*time.Second)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		fmt.Printf("claimed %s\n", g.ID)
		select {}
	}
	fmt.Fprintf(os.Stderr, "unknown helper mode %q\n", mode)
	return 2
}

// child is a helper process and its output lines.
type child struct {
	cmd   *exec.Cmd
	lines chan string // closed at the end of its output
}

// startChild runs the test binary as a helper in mode on dsn and game id.
func startChild(t *testing.T, mode, dsn, id string) *child {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"="+mode, "MATOMBO_STORE_DSN="+dsn, "MATOMBO_STORE_GAME="+id)
	cmd.Stderr = &testWriter{t: t}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &child{cmd: cmd, lines: make(chan string, 1<<16)}
	go func() {
		defer close(c.lines)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		for range c.lines {
		}
		_ = cmd.Wait()
	})
	return c
}

// next returns the child's next output line; it fails the test when the
// output ends first.
func (c *child) next(t *testing.T) string {
	t.Helper()
	line, ok := <-c.lines
	if !ok {
		t.Fatal("the helper process ended early")
	}
	return line
}

// kill sends SIGKILL and returns the lines printed before it died.
func (c *child) kill(t *testing.T) []string {
	t.Helper()
	if err := c.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	var rest []string
	for l := range c.lines {
		rest = append(rest, l)
	}
	_ = c.cmd.Wait()
	return rest
}

type testWriter struct {
	t  *testing.T
	mu sync.Mutex
}

func (w *testWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.t.Logf("helper: %s", p)
	return len(p), nil
}

var _ io.Writer = (*testWriter)(nil)

// sharedCluster is the PostgreSQL cluster the tests share, started on
// first use and removed by TestMain.
type sharedCluster struct {
	once sync.Once
	c    *pgtest.Cluster
	err  error
}

var shared sharedCluster

func (s *sharedCluster) get(t *testing.T) *pgtest.Cluster {
	t.Helper()
	s.once.Do(func() { s.c, s.err = pgtest.New() })
	if errors.Is(s.err, pgtest.ErrNoBinaries) {
		t.Skipf("PostgreSQL tests skipped: %v", s.err)
	}
	if s.err != nil {
		t.Fatal(s.err)
	}
	return s.c
}

func (s *sharedCluster) remove() {
	if s.c != nil {
		s.c.Remove()
	}
}

// backend is one kind of store the contract tests run against.
type backend struct {
	name string
	// dsn returns the connection string of a fresh, empty database.
	dsn func(t *testing.T) string
	// persistent: reopening the DSN finds the data (not ":memory:").
	persistent bool
	// shared: several Stores opened on one DSN share the data, as server
	// processes do (not ":memory:", where each Open is a new database).
	shared bool
	// postgres: PostgreSQL, whose server can be restarted under a store.
	postgres bool
}

var backends = []backend{
	{
		name:       "sqlite-file",
		dsn:        func(t *testing.T) string { return filepath.Join(t.TempDir(), "games.db") },
		persistent: true,
		shared:     true,
	},
	{
		name: "sqlite-memory",
		dsn:  func(t *testing.T) string { return ":memory:" },
	},
	{
		name:       "postgres",
		dsn:        func(t *testing.T) string { return pgtest.Database(t, shared.get(t)) },
		persistent: true,
		shared:     true,
		postgres:   true,
	},
}

// open opens dsn and closes the store when the test ends.
func open(t *testing.T, dsn string, opts ...store.Option) store.Store {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := store.Open(ctx, dsn, opts...)
	if err != nil {
		t.Fatalf("Open(%q): %v", dsn, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// openN returns n stores on one fresh database: n separate Stores (as n
// server processes have) where the backend shares, else one Store n
// times.
func openN(t *testing.T, b backend, n int) (string, []store.Store) {
	t.Helper()
	dsn := b.dsn(t)
	stores := make([]store.Store, n)
	for i := range stores {
		if i == 0 || b.shared {
			stores[i] = open(t, dsn)
		} else {
			stores[i] = stores[0]
		}
	}
	return dsn, stores
}

// forEach runs test against every backend.
func forEach(t *testing.T, test func(t *testing.T, b backend)) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) { test(t, b) })
	}
}

// testCtx is the context of one test step: generous, so a loaded machine
// does not fail it, but a hang does.
func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}
