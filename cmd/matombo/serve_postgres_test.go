package main

// Several `matombo serve` processes on one PostgreSQL database, as behind
// a load balancer: real processes (this test binary run as matombo), a
// real PostgreSQL (a throwaway cluster from host/store/postgres/pgtest).

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host/store"
	"github.com/matombo/matombo/host/store/postgres/pgtest"
)

// asMatomboEnv makes this test binary behave as the matombo command, so
// the tests can start server processes.
const asMatomboEnv = "MATOMBO_TEST_AS_MATOMBO"

func init() {
	if os.Getenv(asMatomboEnv) != "" {
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
}

// pgServer is one `matombo serve` process.
type pgServer struct {
	t      *testing.T
	cmd    *exec.Cmd
	url    string // http://127.0.0.1:PORT/
	banner string // the line that says so
}

var pgPlayingAt = regexp.MustCompile(`playing at (\S+)`)

// startPGServer starts `matombo serve --db dsn` on a free port and waits
// until it listens.
func startPGServer(t *testing.T, dsn string, args ...string) *pgServer {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"serve", "--db", dsn, "--addr", "127.0.0.1:0"}, args...)...)
	cmd.Env = append(os.Environ(), asMatomboEnv+"=1")
	cmd.Stderr = pgLogWriter{t}
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	p := &pgServer{t: t, cmd: cmd}
	t.Cleanup(p.kill)
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if m := pgPlayingAt.FindStringSubmatch(sc.Text()); m != nil {
			p.url, p.banner = m[1], sc.Text()
			break
		}
	}
	require.NotEmpty(t, p.url, "the server did not start")
	go io.Copy(io.Discard, out)
	return p
}

// kill ends the process with SIGKILL.
func (p *pgServer) kill() {
	if p.cmd.ProcessState == nil {
		_ = p.cmd.Process.Kill()
		_ = p.cmd.Wait()
	}
}

type pgLogWriter struct{ t *testing.T }

func (w pgLogWriter) Write(b []byte) (int, error) {
	w.t.Logf("server: %s", bytes.TrimSpace(b))
	return len(b), nil
}

// pgGame is what the API answers about a game.
type pgGame struct {
	ID         string   `json:"id"`
	Record     []string `json:"record"`
	RecordFrom int      `json:"record_from"` // the moves of the record left out
	Seats      []struct {
		Player string `json:"player"`
		URL    string `json:"url"`
	} `json:"seats"`
	State struct {
		ToMove int      `json:"to_move"`
		Legal  []string `json:"legal"`
		Over   bool     `json:"over"`
	} `json:"state"`
}

// do sends a request and returns the status and body.
func (p *pgServer) do(method, path, body string) (int, []byte) {
	p.t.Helper()
	req, err := http.NewRequest(method, strings.TrimSuffix(p.url, "/")+path, strings.NewReader(body))
	require.NoError(p.t, err)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(p.t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(p.t, err)
	return res.StatusCode, b
}

func (p *pgServer) create(body string) pgGame {
	p.t.Helper()
	status, b := p.do("POST", "/api/games", body)
	require.Equal(p.t, http.StatusCreated, status, "%s", b)
	var g pgGame
	require.NoError(p.t, json.Unmarshal(b, &g))
	return g
}

func (p *pgServer) get(id string) pgGame {
	p.t.Helper()
	status, b := p.do("GET", "/api/games/"+id, "")
	require.Equal(p.t, http.StatusOK, status, "%s", b)
	var g pgGame
	require.NoError(p.t, json.Unmarshal(b, &g))
	return g
}

func (p *pgServer) move(id, token string, ply int, seat string) (int, []byte) {
	p.t.Helper()
	return p.do("POST", "/api/games/"+id+"/moves", fmt.Sprintf(`{"token": %q, "ply": %d, "seat": %q}`, token, ply, seat))
}

// pgSeatSecret returns the secret of a seat link.
func pgSeatSecret(t *testing.T, url string) string {
	_, s, ok := strings.Cut(url, "&seat=")
	require.True(t, ok, "seat link %q has a secret", url)
	return s
}

// pgEvents is a game's event stream on one process.
type pgEvents struct {
	t    *testing.T
	sc   *bufio.Scanner
	held []string // the last event's record, whole
}

func (p *pgServer) events(ctx context.Context, id string) *pgEvents {
	p.t.Helper()
	req, err := http.NewRequestWithContext(ctx, "GET", strings.TrimSuffix(p.url, "/")+"/api/games/"+id+"/events", nil)
	require.NoError(p.t, err)
	res, err := http.DefaultClient.Do(req)
	require.NoError(p.t, err)
	require.Equal(p.t, http.StatusOK, res.StatusCode)
	p.t.Cleanup(func() { res.Body.Close() })
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	return &pgEvents{t: p.t, sc: sc}
}

// next returns the next state event's game, its record completed with
// the moves the stream's last event carried when it leaves them out
// (record_from).
func (e *pgEvents) next() pgGame {
	e.t.Helper()
	var data string
	for e.sc.Scan() {
		line := e.sc.Text()
		switch {
		case strings.HasPrefix(line, "data: "):
			data = line[6:]
		case line == "" && data != "":
			var g pgGame
			require.NoError(e.t, json.Unmarshal([]byte(data), &g))
			if g.RecordFrom > 0 {
				require.LessOrEqual(e.t, g.RecordFrom, len(e.held), "an event leaves out moves the stream did not send")
				g.Record = append(slices.Clone(e.held[:g.RecordFrom]), g.Record...)
			}
			e.held = g.Record
			return g
		}
	}
	e.t.Fatalf("the event stream ended: %v", e.sc.Err())
	return pgGame{}
}

// until returns the first event whose record has n moves, skipping
// earlier ones.
func (e *pgEvents) until(n int) pgGame {
	e.t.Helper()
	for {
		g := e.next()
		if len(g.Record) >= n {
			return g
		}
	}
}

// TestServePostgresTwoProcesses: a game created on A is served by B; a
// move made on B arrives on A's event stream; moves racing through A and
// B for one ply give exactly one 200; A killed mid-game, B plays on.
func TestServePostgresTwoProcesses(t *testing.T) {
	c := pgtest.Start(t)
	dsn := pgtest.Database(t, c)
	withPassword := strings.Replace(dsn, "postgres@", "postgres:secret@", 1) // trust auth ignores it
	a, b := startPGServer(t, withPassword), startPGServer(t, dsn)
	assert.NotContains(t, a.banner, "secret", "the password is not printed")
	assert.Contains(t, a.banner, "postgres:xxxxx@")
	g := a.create(`{"game": "yematatu", "hold": [1, 2]}`)
	seats := []string{pgSeatSecret(t, g.Seats[0].URL), pgSeatSecret(t, g.Seats[1].URL)}
	assert.Equal(t, g.ID, b.get(g.ID).ID, "B serves the game created on A")

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	evA := a.events(ctx, g.ID)
	evA.next() // the current state
	status, body := b.move(g.ID, g.State.Legal[0], 0, seats[0])
	require.Equal(t, http.StatusOK, status, "%s", body)
	got := evA.until(1)
	assert.Equal(t, []string{g.State.Legal[0]}, got.Record, "the move made on B arrives on A")

	// Racing moves for ply 1 through both processes.
	legal := got.State.Legal
	statuses := make([]int, 8)
	var wg sync.WaitGroup
	for i := range statuses {
		p := []*pgServer{a, b}[i%2]
		wg.Go(func() { statuses[i], _ = p.move(g.ID, legal[i%len(legal)], 1, seats[1]) })
	}
	wg.Wait()
	got = evA.until(2)
	for i, s := range statuses {
		// The move stored is answered 200 to each request that sent it
		// (the same move sent again), any other 409.
		want := http.StatusConflict
		if legal[i%len(legal)] == got.Record[1] {
			want = http.StatusOK
		}
		assert.Equal(t, want, s, "%s", legal[i%len(legal)])
	}

	// A dies; B has the game and takes its moves.
	a.kill()
	cur := b.get(g.ID)
	assert.Equal(t, got.Record, cur.Record)
	status, body = b.move(g.ID, cur.State.Legal[0], 2, seats[cur.State.ToMove-1])
	require.Equal(t, http.StatusOK, status, "%s", body)
}

// TestServePostgresComputerOnce: three processes play computer-only
// games to their ends; every stored record replays to the end, each
// ply once (TestServePostgresKilledWhileThinking kills one).
func TestServePostgresComputerOnce(t *testing.T) {
	c := pgtest.Start(t)
	dsn := pgtest.Database(t, c)
	procs := []*pgServer{startPGServer(t, dsn), startPGServer(t, dsn), startPGServer(t, dsn)}
	var ids []string
	for range 2 {
		for _, p := range procs {
			ids = append(ids, p.create(`{"game": "yematatu", "seats": ["random", "random"]}`).ID)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	lib := games.Library()
	for i, id := range ids {
		ev := procs[(i+1)%3].events(ctx, id)
		var last pgGame
		for plies := 0; ; {
			last = ev.next()
			require.GreaterOrEqual(t, len(last.Record), plies, "the record only grows")
			plies = len(last.Record)
			if last.State.Over {
				break
			}
		}
		gm, err := lib.Load("yematatu")
		require.NoError(t, err)
		st, err := gm.Replay(last.Record)
		require.NoError(t, err, "the stored record is a legal game")
		assert.True(t, st.Over())
	}
	// Each ply once: the store's record has no gaps or repeats, by its
	// primary key; and every game is over with no claim left.
	s, err := store.Open(ctx, dsn)
	require.NoError(t, err)
	defer s.Close()
	for _, id := range ids {
		g, err := s.Get(ctx, id)
		require.NoError(t, err)
		assert.True(t, g.Over())
		assert.False(t, g.ComputerDue)
	}
}

// TestServePostgresRestart: the database stops under a running server:
// its API answers 503 with a message; when the database is back, the
// same process serves and takes moves again, and its events flow.
func TestServePostgresRestart(t *testing.T) {
	c := pgtest.Start(t)
	dsn := pgtest.Database(t, c)
	a := startPGServer(t, dsn)
	g := a.create(`{"game": "yematatu", "hold": [1, 2]}`)
	seats := []string{pgSeatSecret(t, g.Seats[0].URL), pgSeatSecret(t, g.Seats[1].URL)}

	require.NoError(t, c.Stop())
	status, body := a.do("GET", "/api/games/"+g.ID, "")
	assert.Equal(t, http.StatusServiceUnavailable, status, "%s", body)
	assert.Contains(t, string(body), "unavailable")
	status, body = a.move(g.ID, g.State.Legal[0], 0, seats[0])
	assert.Equal(t, http.StatusServiceUnavailable, status, "%s", body)

	require.NoError(t, c.Start())
	deadline := time.Now().Add(2 * time.Minute)
	for {
		status, body = a.do("GET", "/api/games/"+g.ID, "")
		if status == http.StatusOK {
			break
		}
		require.Equal(t, http.StatusServiceUnavailable, status, "%s", body)
		require.True(t, time.Now().Before(deadline), "the server did not recover")
		time.Sleep(100 * time.Millisecond)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ev := a.events(ctx, g.ID)
	ev.next()
	status, body = a.move(g.ID, g.State.Legal[0], 0, seats[0])
	require.Equal(t, http.StatusOK, status, "%s", body)
	assert.Equal(t, []string{g.State.Legal[0]}, ev.until(1).Record)
}

// TestServePostgresKilledWhileThinking: the process thinking about a
// computer's move is killed; another process takes the move over when the
// dead one's lease runs out, and plays it.
func TestServePostgresKilledWhileThinking(t *testing.T) {
	c := pgtest.Start(t)
	dsn := pgtest.Database(t, c)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	a := startPGServer(t, dsn, "--computer", "mcts:time<=5s")
	g := a.create(`{"game": "yematatu", "seats": ["mcts:time=5s", "human"]}`)

	conn, err := pgx.Connect(ctx, dsn)
	require.NoError(t, err)
	defer conn.Close(context.Background())
	for { // wait until A has claimed the move (and thinks)
		var owner *string
		require.NoError(t, conn.QueryRow(ctx, `SELECT lease_owner FROM games WHERE id = $1`, g.ID).Scan(&owner))
		if owner != nil {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatal("no process claimed the computer's move")
		case <-time.After(20 * time.Millisecond):
		}
	}
	a.kill()
	var plies int
	require.NoError(t, conn.QueryRow(ctx, `SELECT plies FROM games WHERE id = $1`, g.ID).Scan(&plies))
	if plies > 0 {
		t.Log("A stored its move before it was killed; B has nothing to take over")
	}

	b := startPGServer(t, dsn)
	ev := b.events(ctx, g.ID)
	got := ev.until(1)
	assert.Len(t, got.Record, 1, "the computer's move, played once")
	assert.Equal(t, 2, got.State.ToMove, "the person is to move")
}

// TestServePostgresLossOnTime: a timed game is played on A, and A is
// killed; nobody is connected when Player 2's time runs out, and one of
// the two other processes ends the game on time, once.
func TestServePostgresLossOnTime(t *testing.T) {
	c := pgtest.Start(t)
	dsn := pgtest.Database(t, c)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	a := startPGServer(t, dsn)
	g := a.create(`{"game": "gore", "clock": {"initial": 1}}`)
	status, b := a.move(g.ID, "a1", 0, pgSeatSecret(t, g.Seats[0].URL))
	require.Equal(t, http.StatusOK, status, "%s", b)
	a.kill()
	startPGServer(t, dsn)
	startPGServer(t, dsn)

	conn, err := pgx.Connect(ctx, dsn)
	require.NoError(t, err)
	defer conn.Close(context.Background())
	for {
		var over bool
		var result []byte
		require.NoError(t, conn.QueryRow(ctx, `SELECT over, coalesce(result::text, '') FROM games WHERE id = $1`, g.ID).Scan(&over, &result))
		if over {
			var r struct {
				Winner int    `json:"winner"`
				Method string `json:"method"`
			}
			require.NoError(t, json.Unmarshal(result, &r))
			assert.Equal(t, 1, r.Winner)
			assert.Equal(t, "time", r.Method)
			break
		}
		select {
		case <-ctx.Done():
			t.Fatal("no process ended the game on time")
		case <-time.After(50 * time.Millisecond):
		}
	}
	var plies int
	require.NoError(t, conn.QueryRow(ctx, `SELECT plies FROM games WHERE id = $1`, g.ID).Scan(&plies))
	assert.Equal(t, 1, plies, "no move after the loss on time")
}
