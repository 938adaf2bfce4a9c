// Package solve computes the exact value of every position of a small game
// reachable from its opening, by retrograde analysis through the host API:
// the rule script is the only rules.
//
// Semantics. A position is what the repetition rules compare (see State.Key):
// the ply count and the history are not part of it. A position where the
// game is over is terminal and has the script's result (terminal positions
// are told apart by their result, which may depend on the move that reached
// them). From the others,
// a player wins when they can force a terminal win, loses when the opponent
// can force one, and every other position is a draw: from it either side
// can keep the game going for ever or reach a drawn end. Under a
// third-repetition rule endless play ends in a draw by repetition, so these
// are the values of the game under perfect play from the opening (a winner
// never repeats a position, since every winning move brings the end
// nearer). The game's ply cap is not applied. Under perfect play the winner
// hurries and the loser delays: Plies is the number of plies to the end when
// both do.
//
// Only games of two players are solved. A player may move several times in
// a row: values follow ToMove.
package solve

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"runtime"
	"time"

	"github.com/matombo/matombo/host"
)

// Value is the result of a position under perfect play for the player to
// move.
type Value int8

// The values of a position for the player to move.
const (
	Loss Value = -1
	Draw Value = 0
	Win  Value = 1
)

// String returns "win", "draw" or "loss".
func (v Value) String() string {
	switch v {
	case Win:
		return "win"
	case Loss:
		return "loss"
	default:
		return "draw"
	}
}

// For returns the value for player p of a value for player mover.
func (v Value) For(p, mover int) Value {
	if p == mover {
		return v
	}
	return -v
}

// Entry is what the solution knows of one position.
type Entry struct {
	Value    Value // for the player to move
	Margin   int   // in games with a score: the mover's score minus the other's at the end; 0 otherwise
	Plies    int   // plies to the end under perfect play; -1 for a draw
	ToMove   int   // the player to move
	Terminal bool  // the game is over in this position
}

// Counts are how many positions are won, drawn and lost for the player to
// move.
type Counts struct {
	Won   int `json:"won"`
	Drawn int `json:"drawn"`
	Lost  int `json:"lost"`
}

// Solution holds what solving a game found: with the table engine
// (Retrograde), the value of every position reachable from the opening;
// with the search engine (Search), the value of the opening and of each of
// its moves, and a searcher that values other positions on demand. It is
// safe for concurrent reads.
type Solution struct {
	game        string
	fingerprint string
	engine      Engine
	hasScore    bool
	g           *host.Game
	nvals       int // values in a position's encoding

	// The table engine's positions: keys are a result class (0: not over,
	// c: classes[c-1]) and the position's encoding, padded with zeros.
	tab       *posTable
	classes   []score
	classIdx  map[score]byte
	val       chunked[score] // for Player 1
	plies     chunked[int32]
	flags     chunked[uint8]
	terminals int

	// The search engine's.
	search *searched

	sum [sha256.Size]byte // the checksum of the file it was read from
}

// DefaultMaxPositions is how many positions the table engine stores at
// most unless told otherwise.
const DefaultMaxPositions = 50_000_000

// DefaultMaxBytes is the memory a solve may take unless told otherwise.
const DefaultMaxBytes = 2 << 30

// Engine is a way of solving a game.
type Engine int

// The engines.
const (
	// Auto chooses: Search for games whose value is a score and that have
	// more positions than the budget allows, Retrograde otherwise.
	Auto Engine = iota
	// Retrograde values every position reachable from the opening and keeps
	// them all: any game of two players, cycles included, whose positions
	// fit in memory.
	Retrograde
	// Search proves the value of the opening by alpha-beta search (MTD(f))
	// with a transposition table of bounded size and endgame databases:
	// games without cycles, of any size.
	Search
)

// String is the engine's name, as the --engine flag takes it.
func (e Engine) String() string {
	switch e {
	case Retrograde:
		return "retrograde"
	case Search:
		return "search"
	}
	return "auto"
}

// ParseEngine reads an engine's name.
func ParseEngine(s string) (Engine, error) {
	for _, e := range []Engine{Auto, Retrograde, Search} {
		if e.String() == s {
			return e, nil
		}
	}
	return Auto, fmt.Errorf("unknown engine %q (auto, retrograde or search)", s)
}

// Option changes how Solve works.
type Option func(*config)

type config struct {
	maxPositions int
	maxSearched  int64 // positions the search engine may search; 0: no limit
	maxBytes     int64
	engine       Engine
	threads      int
	endgame      int // counters of the largest endgame database; -1: chosen from the budget
	tableBytes   int64
	cacheDir     string
	progress     func(Progress)
	log          func(string)
	window       window // WithAbove, WithBelow: SolvePosition's only
}

// dir is the folder of cached solutions and databases.
func (c *config) dir() (string, error) {
	if c.cacheDir != "" {
		return c.cacheDir, nil
	}
	return defaultCacheDir()
}

// Progress is what a solve reports now and then.
type Progress struct {
	Phase     string        // "positions", "endgame database" or "search"
	Positions int           // positions stored (table engine, databases)
	Expanded  int           // positions whose moves were played
	Nodes     int64         // positions searched (search engine)
	Bytes     int64         // memory held
	Elapsed   time.Duration // since the start
	Done      float64       // share of the phase done, when known (databases); -1 otherwise
}

// WithMaxPositions bounds the work of the engine that runs: the table
// engine stores at most n positions (DefaultMaxPositions unless set), the
// search engine searches at most n (no limit unless set); past it, Solve
// stops with a *TooLargeError.
func WithMaxPositions(n int) Option {
	return func(c *config) { c.maxPositions, c.maxSearched = n, int64(max(n, 1)) }
}

// WithCacheDir sets the folder where solutions and endgame databases are
// cached (by default matombo/solve under the user's cache directory, see
// os.UserCacheDir): Solve reads and writes its databases there, and
// CachePath, LoadCached and SaveCached use it.
func WithCacheDir(dir string) Option { return func(c *config) { c.cacheDir = dir } }

// WithLog has Solve report what it could not do but did without (a cached
// database that was damaged and built again, one it could not write, a
// database asked for with WithEndgame that the game's rules do not allow,
// and why).
func WithLog(f func(string)) Option { return func(c *config) { c.log = f } }

// WithMaxBytes sets how much memory a solve may take: a solve whose
// estimate is larger is refused before it starts, and one that grows past
// it stops with a *TooLargeError.
func WithMaxBytes(n int64) Option { return func(c *config) { c.maxBytes = n } }

// WithEngine chooses the engine (Auto by default).
func WithEngine(e Engine) Option { return func(c *config) { c.engine = e } }

// WithThreads sets how many goroutines solve (the number of CPUs by
// default).
func WithThreads(n int) Option { return func(c *config) { c.threads = n } }

// WithProgress has Solve report its progress now and then, from one
// goroutine at a time.
func WithProgress(f func(Progress)) Option { return func(c *config) { c.progress = f } }

// TooLargeError is returned when a game needs more than allowed. Its
// message names the options of this package (WithMaxPositions,
// WithMaxBytes); a program with flags of its own words it from the
// fields (Limit says which was reached).
type TooLargeError struct {
	Game          string
	Engine        Engine
	Limit         Limit // the limit reached
	MaxPositions  int   // the cap on positions, when it was the one reached
	MaxBytes      int64 // the memory budget
	BytesPerPos   int   // the estimate per position (table engine)
	EstimateBytes int64 // what the solve needs, at least
	Positions     int   // positions stored (table engine) or searched (search engine) when it stopped; 0 when refused before starting
	Why           string
}

// Limit is what stopped a solve that was too large.
type Limit int

// The limits of a solve.
const (
	// LimitMemory: the solve needs more memory than WithMaxBytes allows
	// (refused before it starts when Positions is 0).
	LimitMemory Limit = iota
	// LimitPositions: the table engine found more positions than
	// WithMaxPositions allows.
	LimitPositions
	// LimitSearched: the search engine searched more positions than
	// WithMaxPositions allows.
	LimitSearched
)

func (e *TooLargeError) Error() string {
	if e.Why != "" {
		return fmt.Sprintf("%s: %s", e.Game, e.Why)
	}
	switch e.Limit {
	case LimitSearched:
		return fmt.Sprintf("%s: the search engine searched %d positions, more than the %d allowed (solve.WithMaxPositions), without finishing",
			e.Game, e.Positions, e.MaxPositions)
	case LimitPositions:
		return fmt.Sprintf("%s has more than %d positions reachable from the opening; storing them needs more than %s (about %d bytes a position): allow more (solve.WithMaxPositions) to try anyway, or solve it with the search engine (solve.Search)",
			e.Game, e.MaxPositions, FormatBytes(e.EstimateBytes), e.BytesPerPos)
	}
	if e.Positions > 0 {
		return fmt.Sprintf("%s has more positions than fit in %s (solve.WithMaxBytes): stopped after storing %d of them (about %d bytes a position); allow more memory, or solve it with the search engine (solve.Search)",
			e.Game, FormatBytes(e.MaxBytes), e.Positions, e.BytesPerPos)
	}
	return fmt.Sprintf("solving %s with the %s engine needs about %s, more than the budget of %s (solve.WithMaxBytes)",
		e.Game, e.Engine, FormatBytes(e.EstimateBytes), FormatBytes(e.MaxBytes))
}

// UnsupportedError is returned for games the solver cannot treat.
type UnsupportedError struct {
	Game   string
	Reason string
}

func (e *UnsupportedError) Error() string {
	return fmt.Sprintf("cannot solve %s: %s", e.Game, e.Reason)
}

// BytesPerPosition estimates the memory one position of g takes in the
// table engine: its key (the position's encoding and a result byte), its
// value (4 bytes), distance (4) and flags (1), and its share of the index
// (4-byte slots, 53% to 80% full: about 6).
func BytesPerPosition(g *host.Game) int {
	w := 1 + len(g.Start().AppendPosition(nil))
	return w + 9 + 6
}

// FormatBytes writes a number of bytes for people: "12.3 MB".
func FormatBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

func newConfig(opts []Option) *config {
	cfg := &config{maxPositions: DefaultMaxPositions, maxBytes: DefaultMaxBytes, threads: runtime.NumCPU(), endgame: -1}
	for _, o := range opts {
		o(cfg)
	}
	cfg.threads = max(cfg.threads, 1)
	return cfg
}

// Solve solves g with the chosen engine (see Engine). Stopped by ctx, it
// returns an error wrapping a *host.CanceledError (errors.Is with
// context.Canceled or context.DeadlineExceeded holds).
func Solve(ctx context.Context, g *host.Game, opts ...Option) (*Solution, error) {
	sol, err := solve(ctx, g, opts)
	if err != nil && ctx.Err() != nil {
		var ce *host.CanceledError
		if !errors.As(err, &ce) {
			err = fmt.Errorf("solving %s: %w", g.Name(), canceled(ctx))
		}
	}
	return sol, err
}

// canceled is the error of a solve stopped because ctx is done.
func canceled(ctx context.Context) *host.CanceledError {
	e := &host.CanceledError{Err: ctx.Err()}
	if e.Err == nil {
		e.Err = context.Canceled
	}
	if c := context.Cause(ctx); c != nil && c != e.Err {
		e.Cause = c
	}
	return e
}

func solve(ctx context.Context, g *host.Game, opts []Option) (*Solution, error) {
	cfg := newConfig(opts)
	if cfg.window.set() {
		return nil, errors.New("WithAbove and WithBelow bound the search of one position: give them to SolvePosition, not Solve")
	}
	if g.Players() != 2 {
		return nil, &UnsupportedError{Game: g.Name(), Reason: fmt.Sprintf("it has %d players; the solver treats two", g.Players())}
	}
	est, err := Estimate(g, opts...)
	if err != nil {
		return nil, err
	}
	if est.Engine != Search && est.Positions < 1 {
		// A budget below one position: the table needs one at least (it
		// said "needs about 0 B, more than the budget of 5 B").
		est.Bytes = max(est.Bytes, int64(est.BytesPerPosition))
	}
	if est.Bytes > cfg.maxBytes {
		return nil, &TooLargeError{Game: g.Name(), Engine: est.Engine, MaxBytes: cfg.maxBytes, EstimateBytes: est.Bytes, BytesPerPos: est.BytesPerPosition}
	}
	if est.Engine == Search {
		return solveSearch(ctx, g, cfg)
	}
	sol := newTableSolution(g, cfg)
	if err := sol.exhaust(ctx, g, cfg); err != nil {
		return nil, err
	}
	return sol, nil
}

// newTableSolution returns an empty solution for the table engine.
func newTableSolution(g *host.Game, cfg *config) *Solution {
	enc := g.Start().AppendPosition(nil)
	hint := 1 << 12
	if cfg != nil {
		hint = min(hint, cfg.maxPositions)
	}
	return &Solution{
		game: g.Name(), fingerprint: g.Fingerprint(), engine: Retrograde, hasScore: g.HasScore(), g: g,
		nvals: countVarints(enc), tab: newPosTable(1+len(enc), hint), classIdx: map[score]byte{},
	}
}

// countVarints is the number of varints in b.
func countVarints(b []byte) int {
	n := 0
	for _, c := range b {
		if c < 0x80 {
			n++
		}
	}
	return n
}

// appendKey appends the key of s's position with the result class to dst.
func (sol *Solution) appendKey(dst []byte, s *host.State, class byte) []byte {
	dst = append(dst, class)
	return s.AppendPosition(dst)
}

// enc returns the position encoding of id's key, without its padding.
func (sol *Solution) enc(id int32) []byte {
	k := sol.tab.key(id)[1:]
	n, i := 0, 0
	for ; i < len(k) && n < sol.nvals; i++ {
		if k[i] < 0x80 {
			n++
		}
	}
	return k[:i]
}

// addClass returns the class of a result, adding it when it is new.
func (sol *Solution) addClass(v score) (byte, error) {
	if c, ok := sol.classIdx[v]; ok {
		return c, nil
	}
	if len(sol.classes) == 255 {
		return 0, &UnsupportedError{Game: sol.game, Reason: "its games end with more than 255 different results (winner and margin)"}
	}
	sol.classes = append(sol.classes, v)
	c := byte(len(sol.classes))
	sol.classIdx[v] = c
	return c, nil
}

// classOf returns the class of a result, 0 when no position has it.
func (sol *Solution) classOf(v score) byte { return sol.classIdx[v] }

// insert adds a key to the table (padding it, or widening the table) and
// makes room for its value.
func (sol *Solution) insert(key []byte, cfg *config) (int32, bool, error) {
	t := sol.tab
	if len(key) > t.width {
		t.widen(len(key))
	}
	for len(key) < t.width {
		key = append(key, 0)
	}
	if id, found := t.find(key); found {
		return id, false, nil
	}
	if n := t.Len(); n >= cfg.maxPositions || (n%256 == 0 && sol.bytes() > cfg.maxBytes) {
		limit := LimitMemory
		need := max(int64(BytesPerPosition(sol.g))*int64(n), sol.bytes()) // what is in use: more than the budget
		if n >= cfg.maxPositions {
			limit, need = LimitPositions, int64(BytesPerPosition(sol.g))*int64(n)
		}
		return 0, false, &TooLargeError{Game: sol.game, Engine: Retrograde, Limit: limit, MaxPositions: cfg.maxPositions, MaxBytes: cfg.maxBytes,
			BytesPerPos: BytesPerPosition(sol.g), EstimateBytes: need, Positions: n}
	}
	id, _ := t.insert(key)
	sol.val.append(0)
	sol.plies.append(0)
	sol.flags.append(0)
	return id, true, nil
}

// bytes is the memory the table solution holds.
func (sol *Solution) bytes() int64 {
	if sol.tab == nil {
		return 0
	}
	return sol.tab.bytes() + sol.val.capBytes(4) + sol.plies.capBytes(4) + sol.flags.capBytes(1)
}

func (sol *Solution) tokenOf(m host.Move) string { return sol.g.Token(m) }

// Game is the name of the solved game.
func (sol *Solution) Game() string { return sol.game }

// Fingerprint identifies the game, variant and parameters solved.
func (sol *Solution) Fingerprint() string { return sol.fingerprint }

// Engine is the engine that solved the game.
func (sol *Solution) Engine() Engine { return sol.engine }

// HasScore reports whether the game's value is a score, so that entries
// carry margins.
func (sol *Solution) HasScore() bool { return sol.hasScore }

// Positions is how many positions the solution holds: with the table
// engine, every position reachable from the opening, terminal ones
// included; with the search engine, the positions the search visited.
func (sol *Solution) Positions() int {
	if sol.search != nil {
		return int(sol.search.nodes)
	}
	return sol.tab.Len()
}

// Terminals is how many of the positions are over (table engine).
func (sol *Solution) Terminals() int { return sol.terminals }

// Counts are how many positions are won, drawn and lost for the player to
// move, terminal ones included (table engine; zero for the search
// engine).
func (sol *Solution) Counts() Counts {
	var c Counts
	for id := int32(0); int(id) < sol.val.len(); id++ {
		switch (*sol.val.at(id)).value(sol.mover(id)) {
		case Win:
			c.Won++
		case Loss:
			c.Lost++
		default:
			c.Drawn++
		}
	}
	return c
}

// Opening is the entry of the opening position.
func (sol *Solution) Opening() Entry {
	if sol.search != nil {
		return sol.search.opening
	}
	return sol.entry(0)
}

func (sol *Solution) entry(id int32) Entry {
	return sol.makeEntry((*sol.val.at(id)), int((*sol.plies.at(id))), sol.mover(id), (*sol.flags.at(id))&flagTerminal != 0)
}

// makeEntry makes the entry of a position worth v for Player 1.
func (sol *Solution) makeEntry(v score, plies, mover int, terminal bool) Entry {
	e := Entry{Value: v.value(mover), Plies: plies, ToMove: mover, Terminal: terminal}
	if sol.hasScore {
		e.Margin = v.forPlayer(mover).margin()
	}
	return e
}

// Lookup returns the entry of s's position; ok is false when the position
// is not reachable from the opening. A search solution searches the
// position (see LookupContext).
func (sol *Solution) Lookup(s *host.State) (e Entry, ok bool) {
	e, err := sol.LookupContext(context.Background(), s)
	return e, err == nil
}

// LookupContext returns the entry of s's position. A table solution has
// it or returns a *NotFoundError; a search solution searches it, which
// may take long: ctx stops it.
func (sol *Solution) LookupContext(ctx context.Context, s *host.State) (Entry, error) {
	if s.Game().Fingerprint() != sol.fingerprint {
		return Entry{}, fmt.Errorf("a position of %s (%s) given to a solution of %s (%s)", s.Game().Name(), s.Game().Fingerprint(), sol.game, sol.fingerprint)
	}
	if sol.search != nil {
		return sol.search.lookup(ctx, sol, s)
	}
	class := byte(0)
	if s.Over() {
		v, err := newScorer(s.Game()).final(nil, s)
		if err != nil {
			return Entry{}, err
		}
		if class = sol.classOf(v); class == 0 {
			return Entry{}, &NotFoundError{Game: sol.game, What: "this finished position"}
		}
	}
	key := sol.appendKey(make([]byte, 0, sol.tab.width), s, class)
	if len(key) > sol.tab.width {
		return Entry{}, &NotFoundError{Game: sol.game, What: "this position"}
	}
	for len(key) < sol.tab.width {
		key = append(key, 0)
	}
	id, ok := sol.tab.find(key)
	if !ok {
		return Entry{}, &NotFoundError{Game: sol.game, What: "this position"}
	}
	return sol.entry(id), nil
}
