package storetest

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/host/store"
)

// The helper processes of RunProcesses are the test binary itself, told by
// the environment what to do.
const (
	helperEnv = "MATOMBO_STORETEST_HELPER"
	dsnEnv    = "MATOMBO_STORETEST_DSN"
	gameEnv   = "MATOMBO_STORETEST_GAME"
)

// HelperMain turns the test binary into a helper process of RunProcesses
// when the environment says so, and exits; otherwise it returns at once.
// A backend that runs RunProcesses calls it first in its TestMain:
//
//	func TestMain(m *testing.M) {
//		storetest.HelperMain(mystore.Open)
//		os.Exit(m.Run())
//	}
func HelperMain(open func(ctx context.Context, dsn string, opts ...store.Option) (store.Store, error)) {
	mode := os.Getenv(helperEnv)
	if mode == "" {
		return
	}
	os.Exit(runHelper(open, mode, os.Getenv(dsnEnv), os.Getenv(gameEnv)))
}

// runHelper is the child side of the tests with processes:
//
//	append: appends moves "m<ply>" to the game from its current ply on,
//	        printing "ack <ply>" after each Append returns, until killed
//	claim:  claims a due game with a 2s lease, prints "claimed <id>",
//	        then waits to be killed
func runHelper(open func(ctx context.Context, dsn string, opts ...store.Option) (store.Store, error), mode, dsn, id string) int {
	ctx := context.Background()
	s, err := open(ctx, dsn)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer s.Close()
	switch mode {
	case "append":
		g, err := s.Get(ctx, id)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		fmt.Println("ready")
		for ply := len(g.Record); ; ply++ {
			if _, err := s.Append(ctx, id, store.Move{Ply: ply, Token: fmt.Sprintf("m%d", ply)}); err != nil {
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

// RunProcesses runs the tests that need other processes, each on a fresh
// database whose name newDSN returns and open opens, as HelperMain's
// processes do: a process appending moves is killed with SIGKILL and every
// move it acknowledged is stored; a watcher sees another process's moves;
// a process killed while holding a claim loses the game to another when
// its lease runs out. The test binary's TestMain must call HelperMain.
func RunProcesses(t *testing.T, newDSN func(t *testing.T) string,
	open func(ctx context.Context, dsn string, opts ...store.Option) (store.Store, error)) {
	opener := func(t *testing.T, dsn string) store.Store {
		t.Helper()
		return mustOpen(t, func(ctx context.Context) (store.Store, error) { return open(ctx, dsn) })
	}
	t.Run("Kill9", func(t *testing.T) {
		ctx := Ctx(t)
		dsn := newDSN(t)
		s, err := open(ctx, dsn)
		require.NoError(t, err)
		g := NewGame(false)
		require.NoError(t, s.Create(ctx, g))
		require.NoError(t, s.Close())

		c := startChild(t, "append", dsn, g.ID)
		require.Equal(t, "ready", c.next(t))
		acked := -1
		for acked < 40 {
			line := c.next(t)
			n, err := strconv.Atoi(strings.TrimPrefix(line, "ack "))
			require.NoError(t, err, "helper line %q", line)
			acked = n
		}
		for _, line := range c.kill(t) {
			if n, err := strconv.Atoi(strings.TrimPrefix(line, "ack ")); err == nil {
				acked = n
			}
		}
		got, err := opener(t, dsn).Get(ctx, g.ID)
		require.NoError(t, err)
		require.GreaterOrEqual(t, len(got.Record), acked+1, "every acknowledged move is stored")
		for i, tok := range got.Record {
			require.Equal(t, "m"+strconv.Itoa(i), tok)
		}
		t.Logf("acknowledged %d moves, stored %d", acked+1, len(got.Record))
	})
	t.Run("TwoProcesses", func(t *testing.T) {
		ctx := Ctx(t)
		dsn := newDSN(t)
		s := opener(t, dsn)
		changes, err := s.Watch(ctx)
		require.NoError(t, err)
		g := NewGame(false)
		require.NoError(t, s.Create(ctx, g))

		c := startChild(t, "append", dsn, g.ID)
		require.Equal(t, "ready", c.next(t))
		for ply := range 5 {
			require.Equal(t, "ack "+strconv.Itoa(ply), c.next(t))
		}
		// The child goes on appending: the changes seen may be merged.
		for seen := 0; seen < 5; {
			select {
			case ch, ok := <-changes:
				require.True(t, ok, "the watch channel closed")
				if ch.ID == g.ID {
					seen = max(seen, ch.Ply)
				}
			case <-ctx.Done():
				t.Fatalf("the moves made by the other process never arrived (saw %d)", seen)
			}
		}
		c.kill(t)

		// Killed while holding a claim.
		h := NewGame(true)
		require.NoError(t, s.Create(ctx, h))
		c = startChild(t, "claim", dsn, "")
		require.Equal(t, "claimed "+h.ID, c.next(t))
		c.kill(t)
		for {
			got, err := s.Claim(ctx, "survivor", time.Hour)
			if err == nil {
				require.Equal(t, h.ID, got.ID)
				break
			}
			RequireKind(t, err, store.ErrNotFound)
			select {
			case <-ctx.Done():
				t.Fatal("the dead process's lease never ran out")
			case <-time.After(100 * time.Millisecond):
			}
		}
	})
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
	cmd.Env = append(os.Environ(), helperEnv+"="+mode, dsnEnv+"="+dsn, gameEnv+"="+id)
	cmd.Stderr = &testWriter{t: t}
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
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
	require.NoError(t, c.cmd.Process.Kill())
	var rest []string
	for l := range c.lines {
		rest = append(rest, l)
	}
	_ = c.cmd.Wait()
	return rest
}

// testWriter logs a helper's standard error in the test's log.
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
