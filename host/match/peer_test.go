package match

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/player"
)

// TestPeerMatch plays a match between one of our players and a peer
// program that speaks a line protocol on stdin and stdout (for the
// comparison with OpenSpiel's MCTS in docs/players.md). It is skipped
// unless MATOMBO_PEER names the program; the project's tests never need
// one. The protocol, one line each way:
//
//	new GAME SEED  -> ok          (a new game: kalah or oware)
//	play TOKEN     -> ok          (every move of the game, in order)
//	go MS          -> move TOKEN  (the peer's move after MS milliseconds)
//
// Settings, from the environment: MATOMBO_PEER_GAME (kalah),
// MATOMBO_PEER_VARIANT (none; draughts' openspiel for OpenSpiel's checkers),
// MATOMBO_PEER_MS (100: the peer's time a move), MATOMBO_PEER_SPEC (ours;
// default "mcts:time=<MS>ms"), MATOMBO_PEER_GAMES (40), MATOMBO_PEER_SEED
// (1).
// Seats alternate; the summary and a line per game are logged (go test -v).
func TestPeerMatch(t *testing.T) {
	path := os.Getenv("MATOMBO_PEER")
	if path == "" {
		t.Skip("MATOMBO_PEER names no peer program")
	}
	env := func(key, def string) string {
		if v := os.Getenv(key); v != "" {
			return v
		}
		return def
	}
	name := env("MATOMBO_PEER_GAME", "kalah")
	ms, err := strconv.Atoi(env("MATOMBO_PEER_MS", "100"))
	require.NoError(t, err)
	spec := env("MATOMBO_PEER_SPEC", fmt.Sprintf("mcts:time=%dms", ms))
	n, err := strconv.Atoi(env("MATOMBO_PEER_GAMES", "40"))
	require.NoError(t, err)
	seed, err := strconv.ParseUint(env("MATOMBO_PEER_SEED", "1"), 10, 64)
	require.NoError(t, err)

	var opts []host.Option
	if v := os.Getenv("MATOMBO_PEER_VARIANT"); v != "" {
		opts = append(opts, host.WithVariant(v))
	}
	g, err := games.Library().Load(name, opts...)
	require.NoError(t, err)
	ours, err := Spec(g, spec)
	require.NoError(t, err)
	peer, err := startPeer(path)
	require.NoError(t, err)
	defer peer.close()

	res := &Result{Entrants: [2]string{spec, "peer:" + strconv.Itoa(ms) + "ms"}, Seed: seed, MaxPlies: PlyCap(g, 0)}
	for i := range n {
		rec := Game{Index: i, First: i % 2, Winner: -1}
		gameSeed := GameSeed(seed, i)
		p, err := ours.New(GameSeed(gameSeed, 1+rec.First))
		require.NoError(t, err)
		_, err = peer.ask(fmt.Sprintf("new %s %d", name, gameSeed%1_000_000_007), "ok")
		require.NoError(t, err)
		seats := []player.Player{
			timed{p: p, think: &rec.Think[0], moves: &rec.Moves[0], search: &rec.Search[0]},
			timed{p: peerPlayer{peer, ms}, think: &rec.Think[1], moves: &rec.Moves[1], search: &rec.Search[1]},
		}
		if rec.First == 1 {
			seats[0], seats[1] = seats[1], seats[0]
		}
		s := g.Start()
		err = Play(context.Background(), s, seats, res.MaxPlies, nil, func(s *host.State, m host.Move) {
			if _, err := peer.ask("play "+g.Token(m), "ok"); err != nil {
				t.Fatalf("game %d: the peer refused %s: %v", i+1, g.Token(m), err)
			}
		})
		rec.Plies, rec.Err = s.Ply(), err
		if err == nil {
			rec.Over = s.Over()
			if w := s.Outcome().Winner; rec.Over && w != 0 {
				rec.Winner = (rec.First + w - 1) % 2
			}
		}
		res.Games = append(res.Games, rec)
		t.Logf("game %d: ours is Player %d, winner entrant %d, %d plies, %v", i+1, 1+rec.First, rec.Winner, rec.Plies, err)
	}
	sum := res.Summary()
	t.Logf("%s %s vs %s: %d games, W-D-L %d-%d-%d, score %.3f [%.3f, %.3f], Elo %+.0f (%+.0f to %+.0f), %.1f plies, ms/move %.1f / %.1f, failed %d",
		name, spec, res.Entrants[1], sum.Games, sum.Wins[0], sum.Draws, sum.Wins[1], sum.Score, sum.ScoreLow, sum.ScoreHigh,
		sum.Elo, sum.EloLow, sum.EloHigh, sum.PliesMean, sum.MsPerMove[0], sum.MsPerMove[1], sum.Failed)
}

// peerProcess is a running peer program.
type peerProcess struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

func startPeer(path string) (*peerProcess, error) {
	cmd := exec.Command(path)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &peerProcess{cmd: cmd, in: in, out: bufio.NewReader(out)}, nil
}

// ask sends a line and returns the answer, which must start with want.
func (p *peerProcess) ask(line, want string) (string, error) {
	if _, err := fmt.Fprintln(p.in, line); err != nil {
		return "", err
	}
	ans, err := p.out.ReadString('\n')
	if err != nil {
		return "", err
	}
	ans = strings.TrimSpace(ans)
	if !strings.HasPrefix(ans, want) {
		return "", fmt.Errorf("%q answered %q", line, ans)
	}
	return strings.TrimSpace(strings.TrimPrefix(ans, want)), nil
}

func (p *peerProcess) close() {
	fmt.Fprintln(p.in, "quit")
	p.in.Close()
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		p.cmd.Process.Kill()
	}
}

// peerPlayer asks the peer for its move.
type peerPlayer struct {
	p  *peerProcess
	ms int
}

func (pp peerPlayer) Choose(ctx context.Context, s *host.State) (host.Move, error) {
	tok, err := pp.p.ask(fmt.Sprintf("go %d", pp.ms), "move ")
	if err != nil {
		return host.NoMove, err
	}
	return s.ParseMove(tok)
}

// TestBinaryMatch plays one of our players against a player of another
// build of matombo, asked for each move with `matombo move` (for
// comparisons with an earlier release). It is skipped unless
// MATOMBO_OTHER names that build's binary. Settings: MATOMBO_OTHER_GAME
// (tsoro), MATOMBO_OTHER_VARIANT (none), MATOMBO_OTHER_SPEC (the other
// build's player, default "alphabeta:time=100ms"), MATOMBO_PEER_SPEC (ours,
// default the same), MATOMBO_PEER_GAMES (20), MATOMBO_PEER_SEED (1).
func TestBinaryMatch(t *testing.T) {
	bin := os.Getenv("MATOMBO_OTHER")
	if bin == "" {
		t.Skip("MATOMBO_OTHER names no other build")
	}
	env := func(key, def string) string {
		if v := os.Getenv(key); v != "" {
			return v
		}
		return def
	}
	name, variant := env("MATOMBO_OTHER_GAME", "tsoro"), os.Getenv("MATOMBO_OTHER_VARIANT")
	theirs := env("MATOMBO_OTHER_SPEC", "alphabeta:time=100ms")
	spec := env("MATOMBO_PEER_SPEC", theirs)
	n, err := strconv.Atoi(env("MATOMBO_PEER_GAMES", "20"))
	require.NoError(t, err)
	seed, err := strconv.ParseUint(env("MATOMBO_PEER_SEED", "1"), 10, 64)
	require.NoError(t, err)
	var opts []host.Option
	args := []string{"move", name, "--player", theirs}
	if variant != "" {
		opts = append(opts, host.WithVariant(variant))
		args = append(args, "--variant", variant)
	}
	g, err := games.Library().Load(name, opts...)
	require.NoError(t, err)
	ours, err := Spec(g, spec)
	require.NoError(t, err)
	other := Entrant{Name: "other:" + theirs, New: func(seed uint64) (player.Player, error) {
		return &binaryPlayer{bin: bin, args: append(append([]string{}, args...), "--seed", fmt.Sprint(seed))}, nil
	}}
	res, err := Run(context.Background(), g, ours, other, WithGames(n), WithSeed(seed))
	require.NoError(t, err)
	sum := res.Summary()
	t.Logf("%s %s vs %s: %d games, W-D-L %d-%d-%d, score %.3f [%.3f, %.3f], Elo %+.0f (%+.0f to %+.0f), %.1f plies, ms/move %.1f / %.1f, failed %d %v",
		name+" "+variant, spec, other.Name, sum.Games, sum.Wins[0], sum.Draws, sum.Wins[1], sum.Score, sum.ScoreLow, sum.ScoreHigh,
		sum.Elo, sum.EloLow, sum.EloHigh, sum.PliesMean, sum.MsPerMove[0], sum.MsPerMove[1], sum.Failed, res.Failures())
}

// binaryPlayer asks another build's `matombo move` for each move, with
// the game's record so far; it keeps the record of the moves it sees.
type binaryPlayer struct {
	bin    string
	args   []string
	record []string
}

func (bp *binaryPlayer) Choose(ctx context.Context, s *host.State) (host.Move, error) {
	// The record is replayed from the opening: find the moves played since
	// the last call by replaying the legal tokens (the state has no
	// history), which the match loop makes cheap: the other side's moves
	// since then are at most one turn.
	tokens, err := recordOf(s, bp.record)
	if err != nil {
		return host.NoMove, err
	}
	out, err := exec.CommandContext(ctx, bp.bin, append(append([]string{}, bp.args...), tokens...)...).Output()
	if err != nil {
		return host.NoMove, fmt.Errorf("%s: %w", bp.bin, err)
	}
	tok := strings.TrimSpace(string(out))
	m, err := s.ParseMove(tok)
	if err != nil {
		return host.NoMove, err
	}
	bp.record = append(tokens, tok)
	return m, nil
}

// recordOf extends a known record (a prefix of the game's) to the record
// of s by a search over the legal tokens of at most a few plies.
func recordOf(s *host.State, known []string) ([]string, error) {
	g := s.Game()
	st := g.Start()
	for _, tok := range known {
		if err := st.Play(tok); err != nil {
			return nil, err
		}
	}
	var find func(st *host.State, rec []string, depth int) []string
	find = func(st *host.State, rec []string, depth int) []string {
		if st.Ply() == s.Ply() {
			if st.Key() == s.Key() {
				return rec
			}
			return nil
		}
		if depth == 0 || st.Over() {
			return nil
		}
		for _, tok := range st.Legal() {
			next := st.Clone()
			if next.Play(tok) != nil {
				continue
			}
			if r := find(next, append(append([]string{}, rec...), tok), depth-1); r != nil {
				return r
			}
		}
		return nil
	}
	if r := find(st, append([]string{}, known...), 8); r != nil {
		return r, nil
	}
	return nil, fmt.Errorf("no record of at most 8 plies after %v reaches the position", known)
}
