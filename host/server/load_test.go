package server

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/host/store"
	_ "github.com/matombo/matombo/host/store/sqlite"
)

// TestLoad is the loopback load test of docs/serve.md: many concurrent
// games of human moves against a server on a SQLite file, measuring the
// latency of each move request. It runs only with MATOMBO_LOADTEST=1 (not
// in CI):
//
//	MATOMBO_LOADTEST=1 go test -run TestLoad -v ./host/server/
//
// MATOMBO_LOADTEST_GAMES and MATOMBO_LOADTEST_MOVES change the number of
// games (default 100) and the moves per game (default 60);
// MATOMBO_LOADTEST_DB names the database (default a SQLite file in a
// temporary folder; ":memory:" or a postgres:// URL).
func TestLoad(t *testing.T) {
	if os.Getenv("MATOMBO_LOADTEST") == "" {
		t.Skip("set MATOMBO_LOADTEST=1 to run the load test")
	}
	games, moves := envInt("MATOMBO_LOADTEST_GAMES", 100), envInt("MATOMBO_LOADTEST_MOVES", 60)
	dsn := os.Getenv("MATOMBO_LOADTEST_DB") // default: a SQLite file in a temporary folder
	if dsn == "" {
		dsn = filepath.Join(t.TempDir(), "load.db")
	}
	st, err := store.Open(context.Background(), dsn)
	require.NoError(t, err)
	defer st.Close()
	ts := newTestServer(t, st)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: games}}
	kinds := []string{`{"game": "tsoro", "variants": ["4x8"]}`, `{"game": "gore"}`, `{"game": "yematatu"}`}

	var mu sync.Mutex
	var latencies []time.Duration
	var wg sync.WaitGroup
	start := time.Now()
	for i := range games {
		g := ts.create(kinds[i%len(kinds)])
		seats := ts.seatsOf(g)
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(i), 1))
			cur := g
			var mine []time.Duration
			for range moves {
				st := cur.state(t)
				if st.Over {
					break
				}
				tok := st.Legal[rng.IntN(len(st.Legal))]
				body, _ := json.Marshal(map[string]any{"token": tok, "ply": len(cur.Record), "seat": seats[st.ToMove-1]})
				t0 := time.Now()
				res, err := client.Post(ts.http.URL+"/api/games/"+g.ID+"/moves", "application/json", strings.NewReader(string(body)))
				if err != nil {
					t.Error(err)
					return
				}
				var next testGame
				err = json.NewDecoder(res.Body).Decode(&next)
				res.Body.Close()
				mine = append(mine, time.Since(t0))
				if err != nil || res.StatusCode != http.StatusOK {
					t.Errorf("move %s: status %d, %v", tok, res.StatusCode, err)
					return
				}
				cur = next
			}
			mu.Lock()
			latencies = append(latencies, mine...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	slices.Sort(latencies)
	n := len(latencies)
	require.Positive(t, n)
	q := func(p float64) time.Duration { return latencies[min(n-1, int(p*float64(n)))] }
	t.Logf("%d games, %d moves in %v (%.0f moves/s): median %v, p90 %v, p99 %v, max %v",
		games, n, elapsed.Round(time.Millisecond), float64(n)/elapsed.Seconds(),
		q(0.5).Round(10*time.Microsecond), q(0.9).Round(10*time.Microsecond), q(0.99).Round(10*time.Microsecond), latencies[n-1].Round(10*time.Microsecond))
}

func envInt(name string, def int) int {
	var n int
	if _, err := fmt.Sscan(os.Getenv(name), &n); err != nil || n < 1 {
		return def
	}
	return n
}
