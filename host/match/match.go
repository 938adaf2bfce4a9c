// Package match plays games between computer players and rates them: the
// game loop with its ply cap, matches of many games on several goroutines
// with seats alternating, and the statistics of a score (Wilson intervals
// and Elo differences). `matombo match`, `matombo analyze`, the server and
// embedders share it.
//
// A match is reproducible: game i and seat k get seeds derived from the
// match's seed, i and k alone (GameSeed), so with iteration or depth
// budgets the same match plays the same games, in any order and on any
// number of goroutines.
package match

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/player"
)

// DefaultPlyCap is the ply cap of a game whose script declares none.
const DefaultPlyCap = 100_000

// PlyCap is the ply cap of a game of g: n when positive, else the game's
// own cap, else DefaultPlyCap.
func PlyCap(g *host.Game, n int) int {
	switch {
	case n > 0:
		return n
	case g.MaxPlies() > 0:
		return g.MaxPlies()
	}
	return DefaultPlyCap
}

// GameSeed is the seed of game i of a run with the given seed (and, applied
// again, of seat k of that game): a mix of the two (SplitMix64), so that
// neighbouring games are unrelated.
func GameSeed(seed uint64, i int) uint64 {
	z := seed + uint64(i+1)*0x9E3779B97F4A7C15
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// Play plays one game from s (which it changes) with players by seat
// (players[0] is Player 1) until it is over or has maxPlies plies (see
// PlyCap). After each ply it calls observe, when not nil, with the state
// and the move played. Every move is applied with r (nil: a runner of the
// call's own). A player's error, an illegal move or ctx's end stop the
// game with an error naming the seat and the ply.
func Play(ctx context.Context, s *host.State, players []player.Player, maxPlies int, r *host.Runner, observe func(s *host.State, m host.Move)) error {
	g := s.Game()
	if len(players) != g.Players() {
		return fmt.Errorf("%s has %d players, %d were given", g.Name(), g.Players(), len(players))
	}
	if r == nil {
		r = g.NewRunner()
		defer r.Close()
	}
	for !s.Over() && s.Ply() < maxPlies {
		if err := ctx.Err(); err != nil {
			return err
		}
		p := s.ToMove()
		m, err := players[p-1].Choose(ctx, s)
		if err != nil {
			return &PlayError{Seat: p, Ply: s.Ply() + 1, Err: err}
		}
		if err := r.Apply(s, m); err != nil {
			return &PlayError{Seat: p, Ply: s.Ply() + 1, Move: g.Token(m), Err: err}
		}
		if observe != nil {
			observe(s, m)
		}
	}
	return nil
}

// PlayError is a game stopped by a player: its error, or an illegal move.
type PlayError struct {
	Seat int    // the player number
	Ply  int    // the ply it was to play, from 1
	Move string // the move's token when the move was refused
	Err  error
}

func (e *PlayError) Error() string {
	if e.Move != "" {
		return fmt.Sprintf("Player %d at ply %d played %s: %v", e.Seat, e.Ply, e.Move, e.Err)
	}
	return fmt.Sprintf("Player %d at ply %d: %v", e.Seat, e.Ply, e.Err)
}

// Unwrap returns the cause.
func (e *PlayError) Unwrap() error { return e.Err }

// Entrant is one side of a match: a name and how to make its player for
// one game from that game's seed for it.
type Entrant struct {
	Name string
	New  func(seed uint64) (player.Player, error)
}

// Spec is the entrant of a player spec for game g: each game's player is
// built by player.New, seeded with the game's seed unless the spec names a
// seed of its own. A bad spec is refused now.
func Spec(g *host.Game, spec string, opts ...player.Option) (Entrant, error) {
	sp, err := player.ParseSpec(spec)
	if err != nil {
		return Entrant{}, err
	}
	if _, err := player.New(g, spec, opts...); err != nil {
		return Entrant{}, err
	}
	_, ownSeed := sp.Get("seed")
	return Entrant{Name: spec, New: func(seed uint64) (player.Player, error) {
		if ownSeed {
			return player.New(g, spec, opts...)
		}
		return player.New(g, sp.With("seed", fmt.Sprint(seed)).String(), opts...)
	}}, nil
}

// Option changes a match.
type Option func(*config)

type config struct {
	games    int
	seed     uint64
	parallel int
	maxPlies int
	opening  int
	progress func(done, total int)
}

// WithGames sets the number of games (default 20).
func WithGames(n int) Option { return func(c *config) { c.games = n } }

// WithSeed sets the match's seed (default 1).
func WithSeed(seed uint64) Option { return func(c *config) { c.seed = seed } }

// WithParallel plays k games at once, each on its own goroutine (default 1).
func WithParallel(k int) Option { return func(c *config) { c.parallel = k } }

// WithMaxPlies stops a game unfinished after n plies, a draw (default: the
// game's own cap, see PlyCap).
func WithMaxPlies(n int) Option { return func(c *config) { c.maxPlies = n } }

// WithOpening starts every game with n plies of uniformly random moves
// before the players take over; games 1 and 2, 3 and 4, ... share their
// opening with the seats swapped (default 0: none). Players that search a
// fixed depth or number of iterations play few distinct games from the
// game's start; random openings make the games of a match differ, and the
// pairs keep the openings fair to both entrants. The opening's plies count
// in the games' lengths; a game that the opening ends counts as it ended.
func WithOpening(n int) Option { return func(c *config) { c.opening = n } }

// WithProgress has the match call f after every game, from one goroutine
// at a time.
func WithProgress(f func(done, total int)) Option { return func(c *config) { c.progress = f } }

// Game is the record of one game of a match.
type Game struct {
	Index  int              // from 0
	First  int              // the entrant that played Player 1 (0 or 1)
	Winner int              // the winning entrant, -1 for a draw, an unfinished game or a failed one
	Over   bool             // the game ended by a rule (not at the ply cap)
	Plies  int              // plies played
	Think  [2]time.Duration // thinking time by entrant
	Moves  [2]int           // moves chosen by entrant
	// Search is the work of the searches by entrant, from player.StatsOf:
	// alpha-beta's nodes, MCTS's iterations (0 for other players).
	Search [2]int64
	Err    error // the game failed: it counts in no score
}

// Result is a match: its entrants, seed and games in order.
type Result struct {
	Entrants [2]string
	Seed     uint64
	MaxPlies int
	Games    []Game
}

// Run plays a match of two entrants on g, a game of two players: the
// entrants alternate seats (entrant 0 is Player 1 in games 0, 2, 4, ...)
// and get a new player every game. A game that fails (a player's error or
// an illegal move) is recorded with its error and the match goes on. Run
// returns an error only for a match it cannot start, or with the games
// finished so far when ctx ends.
func Run(ctx context.Context, g *host.Game, a, b Entrant, opts ...Option) (*Result, error) {
	cfg := config{games: 20, seed: 1, parallel: 1}
	for _, o := range opts {
		o(&cfg)
	}
	switch {
	case g.Players() != 2:
		return nil, fmt.Errorf("match: %s has %d players; a match seats two", g.Name(), g.Players())
	case cfg.games < 1:
		return nil, fmt.Errorf("match: %d games: want at least 1", cfg.games)
	case a.New == nil || b.New == nil:
		return nil, errors.New("match: an entrant has no New function")
	case cfg.opening < 0:
		return nil, fmt.Errorf("match: an opening of %d plies: want 0 or more", cfg.opening)
	}
	cfg.parallel = min(max(cfg.parallel, 1), cfg.games)
	res := &Result{Entrants: [2]string{a.Name, b.Name}, Seed: cfg.seed, MaxPlies: PlyCap(g, cfg.maxPlies), Games: make([]Game, cfg.games)}
	entrants := [2]Entrant{a, b}
	jobs := make(chan int)
	var mu sync.Mutex
	done := 0
	var wg sync.WaitGroup
	for range cfg.parallel {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				rec := playOne(ctx, g, entrants, i, cfg.seed, res.MaxPlies, cfg.opening)
				mu.Lock()
				res.Games[i] = rec
				done++
				if cfg.progress != nil {
					cfg.progress(done, cfg.games)
				}
				mu.Unlock()
			}
		}()
	}
	n := 0
	for ; n < cfg.games && ctx.Err() == nil; n++ {
		select {
		case jobs <- n:
		case <-ctx.Done():
		}
	}
	close(jobs)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		kept := res.Games[:0]
		for _, gm := range res.Games {
			if gm.Err == nil && (gm.Plies > 0 || gm.Over) {
				kept = append(kept, gm)
			}
		}
		res.Games = kept
		return res, err
	}
	return res, nil
}

// openingStream sets the seeds of the openings apart from the players'.
const openingStream = 0x6F70656E696E67 // "opening"

// playOne plays game i of a match, from an opening of that many random
// plies.
func playOne(ctx context.Context, g *host.Game, entrants [2]Entrant, i int, seed uint64, maxPlies, opening int) Game {
	rec := Game{Index: i, First: i % 2, Winner: -1}
	gameSeed := GameSeed(seed, i)
	players := make([]player.Player, 2)
	for seat := 1; seat <= 2; seat++ {
		e := (rec.First + seat - 1) % 2
		p, err := entrants[e].New(GameSeed(gameSeed, seat))
		if err != nil {
			rec.Err = fmt.Errorf("game %d: %s: %w", i+1, entrants[e].Name, err)
			return rec
		}
		players[seat-1] = timed{p: p, think: &rec.Think[e], moves: &rec.Moves[e], search: &rec.Search[e]}
	}
	s := g.Start()
	r := g.NewRunner()
	defer r.Close()
	var err error
	if opening > 0 {
		// Games 2k and 2k+1 share the opening: its seed is the pair's.
		rnd := player.NewRandom(GameSeed(seed^openingStream, i/2))
		if err = Play(ctx, s, []player.Player{rnd, rnd}, min(opening, maxPlies), r, nil); err != nil {
			rec.Err = fmt.Errorf("game %d (seed %d): the opening: %w", i+1, seed, err)
			return rec
		}
	}
	err = Play(ctx, s, players, maxPlies, r, nil)
	rec.Plies = s.Ply()
	if err != nil {
		var pe *PlayError
		if errors.As(err, &pe) {
			err = fmt.Errorf("game %d (seed %d): %s as %w", i+1, seed, entrants[(rec.First+pe.Seat-1)%2].Name, err)
		} else {
			err = fmt.Errorf("game %d (seed %d): %w", i+1, seed, err)
		}
		rec.Err = err
		return rec
	}
	rec.Over = s.Over()
	if w := s.Outcome().Winner; rec.Over && w != 0 {
		rec.Winner = (rec.First + w - 1) % 2
	}
	return rec
}

// timed is a player whose thinking time, moves and search work are added
// up.
type timed struct {
	p      player.Player
	think  *time.Duration
	moves  *int
	search *int64
}

func (t timed) Choose(ctx context.Context, s *host.State) (host.Move, error) {
	start := time.Now()
	m, err := t.p.Choose(ctx, s)
	*t.think += time.Since(start)
	*t.moves++
	*t.search += int64(player.StatsOf(t.p).Iterations)
	return m, err
}
