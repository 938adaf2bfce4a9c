package postgres_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/host/store"
	"github.com/matombo/matombo/host/store/postgres/pgtest"
	_ "github.com/matombo/matombo/host/store/sqlite" // the comparison
	"github.com/matombo/matombo/host/store/storetest"
)

// loadHelperEnv makes the test binary a load helper process (see
// runLoadHelper): "<games> <moves per game>".
const loadHelperEnv = "MATOMBO_STORE_LOAD_HELPER"

// loadEnv turns on TestLoad: MATOMBO_STORE_LOAD=1 go test -run TestLoad -v ./host/store/postgres/
// It is a measurement, not a check, and stays out of CI.
const loadEnv = "MATOMBO_STORE_LOAD"

const (
	loadGames = 100 // concurrent games, spread over the processes
	loadMoves = 40  // moves per game
)

// loadCase is one line of the load test's table.
type loadCase struct {
	store        string // "sqlite" or "postgres"
	procs, games int    // processes, games in all
	moves        int    // per game
}

// loadResult is what a load helper process reports.
type loadResult struct {
	Latencies []int64 // microseconds per Append
	Errors    int
}

// runLoadHelper is a "server process" of the load test: it creates its
// games, prints "ready", waits for "go" on stdin, then plays its games
// concurrently (one goroutine per game, each move an Append for the next
// ply, as a server does for a person's move) and prints its latencies as
// JSON.
func runLoadHelper(dsn string, games, moves int) int {
	ctx := context.Background()
	s, err := store.Open(ctx, dsn)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer s.Close()
	ids := make([]string, games)
	for i := range ids {
		g := storetest.NewGame(false)
		if err := s.Create(ctx, g); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		ids[i] = g.ID
	}
	fmt.Println("ready")
	if _, err := bufio.NewReader(os.Stdin).ReadString('\n'); err != nil {
		return 2
	}
	var mu sync.Mutex
	var res loadResult
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Go(func() {
			lat := make([]int64, 0, moves)
			errs := 0
			for ply := range moves {
				start := time.Now()
				_, err := s.Append(ctx, id, store.Move{Ply: ply, Token: "m" + strconv.Itoa(ply)})
				lat = append(lat, time.Since(start).Microseconds())
				if err != nil {
					errs++
				}
			}
			mu.Lock()
			res.Latencies = append(res.Latencies, lat...)
			res.Errors += errs
			mu.Unlock()
		})
	}
	wg.Wait()
	if err := json.NewEncoder(os.Stdout).Encode(res); err != nil {
		return 2
	}
	return 0
}

// TestLoad measures moves per second and Append latency with 100
// concurrent games, on SQLite and on PostgreSQL, with one and with two
// processes sharing the database. The figures are in docs/serve.md.
func TestLoad(t *testing.T) {
	if os.Getenv(loadEnv) == "" {
		t.Skipf("a measurement: set %s=1 to run it", loadEnv)
	}
	// fsync on, as in production; MATOMBO_STORE_LOAD=nosync turns it off
	// on the PostgreSQL cluster, to see what durability costs.
	var opts []pgtest.Option
	if os.Getenv(loadEnv) != "nosync" {
		opts = append(opts, pgtest.Durable())
	}
	pg := pgtest.Start(t, opts...)
	t.Logf("%-8s %9s %5s %6s %8s %8s %8s %8s %8s %6s", "store", "processes", "games", "moves", "moves/s", "p50", "p90", "p99", "max", "errors")
	for _, tc := range []loadCase{
		{"sqlite", 1, 1, 400}, {"sqlite", 1, loadGames, loadMoves}, {"sqlite", 2, loadGames, loadMoves},
		{"postgres", 1, 1, 400}, {"postgres", 1, loadGames, loadMoves}, {"postgres", 2, loadGames, loadMoves},
	} {
		var dsn string
		if tc.store == "sqlite" {
			dsn = filepath.Join(t.TempDir(), "load.db")
		} else {
			dsn = pgtest.Database(t, pg)
		}
		lat, errs, elapsed := runLoad(t, dsn, tc)
		slices.Sort(lat)
		pct := func(p float64) time.Duration {
			return (time.Duration(lat[int(p*float64(len(lat)-1))]) * time.Microsecond).Round(10 * time.Microsecond)
		}
		t.Logf("%-8s %9d %5d %6d %8.0f %8s %8s %8s %8s %6d", tc.store, tc.procs, tc.games, len(lat),
			float64(len(lat))/elapsed.Seconds(), pct(0.5), pct(0.9), pct(0.99), pct(1), errs)
	}
}

// runLoad runs the load on dsn with tc.procs helper processes and returns
// every latency, the errors and the wall time of the moves.
func runLoad(t *testing.T, dsn string, tc loadCase) ([]int64, int, time.Duration) {
	type proc struct {
		cmd *exec.Cmd
		in  io.WriteCloser
		out *bufio.Reader
	}
	ps := make([]proc, tc.procs)
	for i := range ps {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), loadHelperEnv+"="+strconv.Itoa(tc.games/tc.procs)+" "+strconv.Itoa(tc.moves),
			"MATOMBO_STORE_DSN="+dsn)
		cmd.Stderr = os.Stderr
		in, err := cmd.StdinPipe()
		require.NoError(t, err)
		out, err := cmd.StdoutPipe()
		require.NoError(t, err)
		require.NoError(t, cmd.Start())
		t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
		ps[i] = proc{cmd: cmd, in: in, out: bufio.NewReader(out)}
	}
	for _, p := range ps {
		line, err := p.out.ReadString('\n')
		require.NoError(t, err)
		require.Equal(t, "ready", strings.TrimSpace(line))
	}
	start := time.Now()
	for _, p := range ps {
		_, err := io.WriteString(p.in, "go\n")
		require.NoError(t, err)
	}
	var all []int64
	errs := 0
	for _, p := range ps {
		var res loadResult
		require.NoError(t, json.NewDecoder(p.out).Decode(&res))
		all = append(all, res.Latencies...)
		errs += res.Errors
	}
	elapsed := time.Since(start)
	for _, p := range ps {
		require.NoError(t, p.cmd.Wait())
	}
	return all, errs, elapsed
}
