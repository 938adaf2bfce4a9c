// Package analysis plays many games of a game with two players of the
// caller's choice and measures what a rule designer wants to know: how
// often each seat wins and how often games are drawn (with 95% Wilson
// intervals), whether games end and how long they take, how many choices a
// player has, how games end. docs/analysis.md defines every measure.
//
// A run is reproducible: game i plays with a seed derived from the run's
// seed and i alone, so a run split into shards (games i, i+N, i+2N, ...)
// plays exactly the same games, and Merge adds the shards' raw counts into
// the Result one run would give.
package analysis

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/match"
	"github.com/matombo/matombo/host/player"
)

// Player chooses the moves of one seat.
type Player = player.Player

// PlayerMaker makes the player a spec names, for one seat of one game; seed
// is that seat's seed in that game, so that games can be played in any
// order and on any machine.
type PlayerMaker func(g *host.Game, spec string, seed uint64) (Player, error)

// Random makes the player spec "random": uniformly random legal moves.
func Random(g *host.Game, spec string, seed uint64) (Player, error) {
	if spec != "random" {
		return nil, fmt.Errorf("player %q: unknown player (known: random)", spec)
	}
	return player.NewRandom(seed), nil
}

// Option changes a run.
type Option func(*config)

type config struct {
	games         int
	seed          uint64
	p1, p2        string
	maker         PlayerMaker
	parallel      int
	shard, shards int
	maxPlies      int
	progress      func(done, total int)
}

// WithGames sets how many games the whole run plays (default 100).
func WithGames(n int) Option { return func(c *config) { c.games = n } }

// WithSeed sets the run's seed (default 1).
func WithSeed(seed uint64) Option { return func(c *config) { c.seed = seed } }

// WithPlayers sets the specs of the two seats (default "random" both).
func WithPlayers(p1, p2 string) Option { return func(c *config) { c.p1, c.p2 = p1, p2 } }

// WithPlayerMaker sets how player specs become players (default Random).
func WithPlayerMaker(m PlayerMaker) Option { return func(c *config) { c.maker = m } }

// WithParallel plays k games at once (default 1).
func WithParallel(k int) Option { return func(c *config) { c.parallel = k } }

// WithShard plays only shard i of n: the games i, i+n, i+2n, ... of the
// run (0 <= i < n).
func WithShard(i, n int) Option { return func(c *config) { c.shard, c.shards = i, n } }

// WithMaxPlies stops a game unfinished after n plies (default: the game's
// own cap, else match.DefaultPlyCap).
func WithMaxPlies(n int) Option { return func(c *config) { c.maxPlies = n } }

// WithProgress has the run report the games done now and then.
func WithProgress(f func(done, total int)) Option { return func(c *config) { c.progress = f } }

// Run plays the games of the run (or of its shard) and returns their raw
// counts. Games are played in any order when parallel; the counts do not
// depend on it.
func Run(ctx context.Context, g *host.Game, opts ...Option) (*Result, error) {
	cfg := config{games: 100, seed: 1, p1: "random", p2: "random", maker: Random, parallel: 1, shards: 1}
	for _, o := range opts {
		o(&cfg)
	}
	if g.Players() != 2 {
		return nil, fmt.Errorf("analyze %s: it has %d players; analysis seats two", g.Name(), g.Players())
	}
	switch {
	case cfg.games < 1:
		return nil, fmt.Errorf("analyze: %d games: want at least 1", cfg.games)
	case cfg.shards < 1 || cfg.shard < 0 || cfg.shard >= cfg.shards:
		return nil, fmt.Errorf("analyze: shard %d/%d: want I/N with 0 <= I < N", cfg.shard, cfg.shards)
	}
	cfg.parallel = max(cfg.parallel, 1)
	limit := match.PlyCap(g, cfg.maxPlies)
	// Make the players of game 0 now, so that a bad spec fails before any
	// work starts.
	for _, spec := range []string{cfg.p1, cfg.p2} {
		if _, err := cfg.maker(g, spec, 0); err != nil {
			return nil, err
		}
	}
	res := newResult(g, cfg, limit)
	total := shardGames(cfg.games, cfg.shard, cfg.shards)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan int)
	var mu sync.Mutex
	var firstErr error
	done := 0
	var wg sync.WaitGroup
	for w := 0; w < cfg.parallel; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				rec, err := playGame(ctx, g, cfg, i, limit)
				mu.Lock()
				if err != nil {
					if firstErr == nil {
						firstErr = err
						cancel()
					}
				} else {
					res.add(rec)
					done++
					if cfg.progress != nil {
						cfg.progress(done, total)
					}
				}
				mu.Unlock()
			}
		}()
	}
	for k := range total {
		if ctx.Err() != nil {
			break
		}
		jobs <- cfg.shard + k*cfg.shards // < cfg.games: no overflow
	}
	close(jobs)
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return res, nil
}

// shardGames is how many of the games 0..games-1 shard i of n plays: the
// games i, i+n, i+2n, ..., counted without stepping (a step of a huge n
// would wrap around).
func shardGames(games, i, n int) int {
	if i >= games {
		return 0
	}
	return (games-i-1)/n + 1
}

// record is what one game did.
type record struct {
	plies, turns, legal int
	over                bool
	winner              int
	reason              string
	notes               []string
	captures            int
	leadChanges         int
	margin              int // Player 1's tally less Player 2's at the end
}

// playGame plays game i of the run.
func playGame(ctx context.Context, g *host.Game, cfg config, i, limit int) (record, error) {
	seed := match.GameSeed(cfg.seed, i)
	seats := make([]player.Player, 2)
	for k, spec := range []string{cfg.p1, cfg.p2} {
		p, err := cfg.maker(g, spec, match.GameSeed(seed, k+1))
		if err != nil {
			return record{}, err
		}
		seats[k] = p
	}
	r := g.NewRunner()
	defer r.Close()
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	s := g.Start()
	o := &observer{t: newTally(g, r), limit: limit, mover: s.ToMove(), stop: stop}
	o.rec.turns, o.rec.legal = 1, len(s.Moves())
	err := match.Play(ctx, s, seats, limit, r, o.ply)
	rec := o.rec
	if o.err != nil {
		return rec, fmt.Errorf("game %d (seed %d), the score after ply %d: %w", i+1, seed, o.errPly, o.err)
	}
	var pe *match.PlayError
	if errors.As(err, &pe) {
		return rec, fmt.Errorf("game %d (seed %d), %s: %w", i+1, seed, cfg.spec(pe.Seat), err)
	}
	if err != nil {
		return rec, err
	}
	out := s.Outcome()
	rec.over, rec.winner, rec.reason, rec.notes = out.Over, out.Winner, out.Reason, out.Notes
	rec.captures = s.Captured(1) + s.Captured(2)
	if rec.over {
		a, b, err := o.t.read(s)
		if err != nil {
			return rec, fmt.Errorf("game %d (seed %d), the final score: %w", i+1, seed, err)
		}
		rec.margin = a - b
	}
	return rec, nil
}

// observer counts what one game does, ply by ply.
type observer struct {
	rec         record
	t           *tally
	limit       int
	mover, lead int    // the player to move, the player ahead (0: none yet)
	err         error  // the first error reading the tally, which stops the game
	errPly      int    // the ply after which it came
	stop        func() // stops the game
}

// ply counts the ply just played into s.
func (o *observer) ply(s *host.State, _ host.Move) {
	o.rec.plies++
	l, err := o.t.leader(s)
	if err != nil && o.err == nil {
		o.err, o.errPly = err, o.rec.plies
		o.stop()
	}
	if l != 0 && l != o.lead {
		if o.lead != 0 {
			o.rec.leadChanges++
		}
		o.lead = l
	}
	if s.Over() || o.rec.plies >= o.limit {
		return
	}
	if s.ToMove() != o.mover {
		o.rec.turns++
		o.mover = s.ToMove()
	}
	o.rec.legal += len(s.Moves())
}

// spec names the player of a seat, for errors.
func (c config) spec(seat int) string {
	if seat == 1 {
		return fmt.Sprintf("Player 1 (%s)", c.p1)
	}
	return fmt.Sprintf("Player 2 (%s)", c.p2)
}

// What the lead and the margins are read from (Result.Lead).
const (
	LeadScore    = "score"    // the game's score (State.Score)
	LeadCaptured = "captured" // the players' captured totals
)

// leadFrom is what the lead of g is read from: its score when it has
// one, else the captured totals.
func leadFrom(g *host.Game) string {
	if g.HasScore() {
		return LeadScore
	}
	return LeadCaptured
}

// tally reads the two players' tallies of a state: the game's score
// through one runner (a script call per read only when the score is a
// script function), or the captured totals.
type tally struct {
	r   *host.Runner // nil: the captured totals
	buf []int
}

// newTally returns the tally of g's states, read with r.
func newTally(g *host.Game, r *host.Runner) *tally {
	if leadFrom(g) != LeadScore {
		return &tally{}
	}
	return &tally{r: r, buf: make([]int, 0, 2)}
}

// read returns Player 1's and Player 2's tallies of s.
func (t *tally) read(s *host.State) (a, b int, err error) {
	if t.r == nil {
		return s.Captured(1), s.Captured(2), nil
	}
	if t.buf, err = t.r.Score(s, t.buf[:0]); err != nil {
		return 0, 0, err
	}
	if len(t.buf) != 2 {
		return 0, 0, fmt.Errorf("%d scores for 2 players", len(t.buf))
	}
	return t.buf[0], t.buf[1], nil
}

// leader is the player with the larger tally, 0 when level.
func (t *tally) leader(s *host.State) (int, error) {
	switch a, b, err := t.read(s); {
	case err != nil:
		return 0, err
	case a > b:
		return 1, nil
	case b > a:
		return 2, nil
	}
	return 0, nil
}
