package solve

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/matombo/matombo/host"
)

// The search engine (Search) proves the value of a position by alpha-beta
// search with null windows (MTD(f), Plaat et al.), iterative deepening on
// a heuristic (the banks' difference) for move ordering and first guesses,
// a transposition table of bounded size shared by all goroutines (lazy
// SMP: each searches the same position with its own move order), and, in
// games whose counters are banked for good (see banks), futility bounds
// (the counters still in play bound what the margin can still change) and
// endgame databases. Before it searches any move of a position, it plays
// them all and looks at what is known of each (its end, the database, the
// futility bounds, the table): a move known to cut ends the search there
// (enhanced transposition cutoffs), a move known not to matter is not
// searched, and the others are searched in order (the moves that keep the
// turn, then those that bank most, and among those that bank the same,
// those that cut most often elsewhere in the search, the history
// heuristic, then the table's best move). A
// position that repeats on the line searched stops it with a *CycleError:
// such games are for the retrograde engine.

// MaxEndgame is the most counters an endgame database may hold in play.
const MaxEndgame = 64

// WithEndgame sets the search engine's endgame databases: positions with
// at most k counters in play (-1: chosen from the budget; 0: none).
func WithEndgame(k int) Option { return func(c *config) { c.endgame = k } }

// WithTableBytes sets the size of the search engine's transposition table.
func WithTableBytes(n int64) Option { return func(c *config) { c.tableBytes = n } }

// CycleError reports a position that repeats on a line of the search.
type CycleError struct{ Game string }

func (e *CycleError) Error() string {
	return fmt.Sprintf("%s: a position repeats on a line of play, which the search engine does not handle: solve it with the retrograde engine (solve.Retrograde)", e.Game)
}

// searched is what the search engine found.
type searched struct {
	opening Entry
	moves   []MoveValue // the opening's, in the script's order
	nodes   int64
	stats   SearchStats

	mu  sync.Mutex // guards the searcher made on demand
	eng *engine
	cfg *config // the options of the solve, for the searcher made on demand
}

// searchable says why g cannot be solved by search, or nil.
func searchable(g *host.Game) error {
	if g.Players() != 2 {
		return &UnsupportedError{Game: g.Name(), Reason: "the search engine treats games of two players"}
	}
	if !g.HasScore() {
		return &UnsupportedError{Game: g.Name(), Reason: "the search engine needs a game whose value is a score (a score function in its script)"}
	}
	return nil
}

// searchPlan is what a search will hold in memory.
type searchPlan struct {
	entries   int   // transposition table entries
	ttBytes   int64 // their memory
	k         int   // endgame database: at most k counters in play; 0: none
	dbBytes   int64 // its values
	buildPeak int64 // the most its building holds besides the values
	why       string
}

// searchBase is the memory of a search besides its table and databases:
// the Go runtime, the script machines and their states.
const searchBase = 24 << 20

func (p searchPlan) bytes() int64 {
	return searchBase + p.ttBytes + p.dbBytes + p.buildPeak
}

// autoEndgamePositions caps the database that Auto builds.
const autoEndgamePositions = 2_000_000

// planSearch sizes the table and the databases for cfg's budget.
func planSearch(g *host.Game, cfg *config) searchPlan {
	var p searchPlan
	tb := cfg.tableBytes
	if tb <= 0 {
		tb = min(cfg.maxBytes/4, 256<<20)
	}
	p.entries = ttBuckets(int(max(tb/ttEntryBytes, 1))) * ttWays
	p.ttBytes = int64(p.entries/ttWays) * ttBucketSize
	bk, err := findBanks(g)
	if err != nil {
		p.why = err.Error()
		return p
	}
	n := len(bk.play)
	sym := bk.mirror != nil
	k := cfg.endgame
	if k < 0 {
		k = 0
		for k+1 < bk.total && endgamePositions(n, k+1, sym) <= autoEndgamePositions {
			k++
		}
	}
	k = min(k, bk.total, MaxEndgame)
	if k > 0 {
		db := newEndgameDB(n, k, sym)
		p.k, p.dbBytes = k, db.bytes()
		// Building holds every value exactly (a byte a position) besides
		// the 4-bit codes; without the mirror it holds both sides to move.
		p.buildPeak = endgamePositions(n, k, false)
		p.dbBytes = endgamePositions(n, k, false) / 2
		p.dbBytes = max(p.dbBytes, db.bytes())
	}
	return p
}

// solveSearch solves g by search.
func solveSearch(ctx context.Context, g *host.Game, cfg *config) (*Solution, error) {
	eng, err := newEngine(ctx, g, cfg)
	if err != nil {
		return nil, err
	}
	sol := &Solution{game: g.Name(), fingerprint: g.Fingerprint(), engine: Search, hasScore: true, g: g}
	sr := &searched{eng: eng, cfg: cfg}
	sol.search = sr
	start := g.Start()
	if start.Over() {
		v, err := eng.solve(ctx, start)
		if err != nil {
			return nil, err
		}
		sr.opening = sol.makeEntry(v, -1, start.ToMove(), true)
	} else {
		// Each move of the opening is valued exactly, and the opening's
		// value is its best move's: searching the opening first as well
		// made every board's search larger (docs/solver-journal.md).
		var best score
		for i, m := range start.Moves() {
			c := start.Clone()
			if err := c.Apply(m); err != nil {
				return nil, err
			}
			cv, err := eng.solve(ctx, c)
			if err != nil {
				return nil, err
			}
			if i == 0 || (start.ToMove() == 1 && cv > best) || (start.ToMove() != 1 && cv < best) {
				best = cv
			}
			e := sol.makeEntry(cv, -1, start.ToMove(), c.Over())
			plies := -1
			if c.Over() {
				plies = 1
			}
			sr.moves = append(sr.moves, MoveValue{Move: m, Token: g.Token(m), Value: e.Value, Margin: e.Margin, Plies: plies})
		}
		sr.opening = sol.makeEntry(best, -1, start.ToMove(), false)
	}
	sr.nodes = eng.nodes.Load()
	sr.stats = eng.statistics()
	return sol, nil
}

// openingMoves returns the stored values of the opening's moves when s is
// the opening.
func (sr *searched) openingMoves(s *host.State) ([]MoveValue, bool) {
	if string(s.AppendPosition(nil)) != string(s.Game().Start().AppendPosition(nil)) || len(sr.moves) != len(s.Moves()) {
		return nil, false
	}
	out := slices.Clone(sr.moves)
	for i, m := range s.Moves() {
		if s.Game().Token(m) != out[i].Token {
			return nil, false
		}
		out[i].Move = m
	}
	return out, true
}

// check verifies the opening's value against its moves'.
func (sr *searched) check(sol *Solution) error {
	if len(sr.moves) == 0 {
		return nil
	}
	best := sr.moves[0]
	for _, mv := range sr.moves[1:] {
		if Better(mv, best) {
			best = mv
		}
	}
	if best.Value != sr.opening.Value || best.Margin != sr.opening.Margin {
		return &InconsistencyError{Game: sol.game, Position: "the opening", Stored: sr.opening,
			Derived: Entry{Value: best.Value, Margin: best.Margin, Plies: -1, ToMove: sr.opening.ToMove}}
	}
	return nil
}

// lookup searches s.
func (sr *searched) lookup(ctx context.Context, sol *Solution, s *host.State) (Entry, error) {
	if s.Over() {
		v, err := newScorer(s.Game()).final(nil, s)
		if err != nil {
			return Entry{}, err
		}
		return sol.makeEntry(v, 0, s.ToMove(), true), nil
	}
	sr.mu.Lock()
	defer sr.mu.Unlock()
	if sr.eng == nil {
		opts := []Option{WithTableBytes(64 << 20), WithThreads(1)}
		if sr.cfg != nil && sr.cfg.cacheDir != "" {
			opts = append(opts, WithCacheDir(sr.cfg.cacheDir))
		}
		eng, err := newEngine(ctx, s.Game(), newConfig(opts))
		if err != nil {
			return Entry{}, err
		}
		sr.eng = eng
	}
	v, err := sr.eng.solve(ctx, s)
	if err != nil {
		return Entry{}, err
	}
	return sol.makeEntry(v, -1, s.ToMove(), false), nil
}

// engine holds what the searches of one game share.
type engine struct {
	g        *host.Game
	cfg      *config
	tt       *ttable
	bk       *banks // nil: no banks
	db       *endgameDB
	nodes    atomic.Int64
	start    time.Time
	progress sync.Mutex
	lastShow time.Time

	statsMu sync.Mutex
	stats   SearchStats
}

// newEngine makes the table and loads or builds the databases.
func newEngine(ctx context.Context, g *host.Game, cfg *config) (*engine, error) {
	if err := searchable(g); err != nil {
		return nil, err
	}
	plan := planSearch(g, cfg)
	e := &engine{g: g, cfg: cfg, tt: newTTable(plan.entries, cfg.threads > 1)}
	if bk, err := findBanks(g); err == nil {
		e.bk = bk
		if plan.k > 0 {
			db, err := loadOrBuildEndgame(ctx, g, bk, plan.k, cfg, cfg.log)
			switch {
			case err == nil:
				e.db = db
				e.stats.EndgameCounters = db.k
				e.stats.EndgamePositions = db.positions()
			case errors.Is(err, errNoDB):
				e.bk = nil // the banks' properties do not hold: no futility bounds either
				// Said when asked for, not when chosen from the budget.
				if cfg.log != nil && cfg.endgame > 0 {
					cfg.log(err.Error() + "; searching without one, and without futility bounds")
				}
			default:
				return nil, err
			}
		}
	}
	e.start = time.Now() // the search's rate counts from here
	return e, nil
}

// infDepth marks exact values in the table.
const infDepth = 127

// deepening is the last heuristic depth searched before the exact search,
// deepStep the step between the depths searched.
const deepening, deepStep = 12, 2

// solve returns the exact value of s for Player 1.
func (e *engine) solve(ctx context.Context, s *host.State) (score, error) {
	b, err := e.solveWithin(ctx, s, window{})
	return b.lo, err
}

// solveWithin returns the value of s for Player 1: exact, or a bound at
// or beyond a side of w.
func (e *engine) solveWithin(ctx context.Context, s *host.State, w window) (bounded, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	threads := e.cfg.threads
	type result struct {
		v   bounded
		err error
	}
	results := make(chan result, threads)
	for t := 0; t < threads; t++ {
		go func() {
			x := newSearcher(e, t)
			v, err := x.iterate(ctx, s, w)
			x.close() // its counts are in before solve returns
			results <- result{v, err}
		}()
	}
	r := <-results // the first to finish has the value; the others stop
	cancel()
	for t := 1; t < threads; t++ {
		<-results
	}
	return r.v, r.err
}

// knowledge is what is known of a position without searching it: bounds
// on its score for Player 1, the table's best move, and what ordering its
// move needs.
type knowledge struct {
	key    uint64
	lo, hi score
	depth  int  // the depth to which the bounds hold (infDepth: for good)
	rel    bool // the table keys it by its counters in play, with bounds on what they bring
	move   int  // the table's best move; -1: none
	bank   int  // the banks' difference

	counts []int // its counters on the sites in play, in a game with banks (set by lookHere)
}

// searcher is one goroutine's search.
type searcher struct {
	e      *engine
	id     int
	r      *host.Runner
	sc     *scorer
	ctx    context.Context
	states [][]*host.State // per ply: the children of the position there
	moves  [][]host.Move
	know   [][]knowledge
	order  [][]int
	keys   [][]int64
	probe  [][]bool
	path   []uint64      // the keys of the line searched
	onPath [1024]int32   // of the keys of path, how many fall in each slot (key mod 1024): a key whose slot holds none is not on it
	line   []*host.State // its positions
	alt    []int
	nodes  int64 // positions searched since the last tick
	root   *host.State
	rootK  knowledge
	stats  SearchStats
	sink   uint64 // what touching the table read (so that the reads stay)
	// evicted counts the stores that replaced another key's entry since
	// the last tick.
	evicted int64

	// history counts, for each player, the cuts each move made in this
	// search (by historyIndex): among moves that bank the same, those
	// that cut most often elsewhere are searched first (the history
	// heuristic, Schaeffer 1989).
	history [2][historySize]int64
}

// historySize is the number of history counters a player (a power of 2).
const historySize = 1024

// historyIndex is the history counter of m: its kind and first site
// (moves that share them share a counter, which costs only order).
func historyIndex(m host.Move) int {
	return (int(m.Kind)*31 + m.Site(0) + 1) & (historySize - 1)
}

func newSearcher(e *engine, id int) *searcher {
	x := &searcher{e: e, id: id, r: e.g.NewRunner(), sc: newScorer(e.g)}
	if e.bk != nil {
		x.alt = make([]int, len(e.bk.play))
	}
	return x
}

func (x *searcher) close() {
	x.stats.Nodes += x.nodes
	x.e.nodes.Add(x.nodes)
	x.e.addStats(&x.stats)
	x.r.Close()
}

// iterate deepens: heuristic searches of growing depth (the first from
// 0), then the exact one within w, each by MTD(f) from the previous value.
func (x *searcher) iterate(ctx context.Context, s *host.State, w window) (bounded, error) {
	x.ctx = ctx
	x.r.SetContext(ctx)
	x.root = s.Clone()
	var g score
	for d := deepStep + x.id%2; d <= deepening; d += deepStep {
		v, err := x.mtdf(g, d, window{})
		if err != nil {
			return bounded{}, err
		}
		g = v.lo
	}
	return x.mtdf(g, infDepth, w)
}

// mtdf narrows the value with null-window searches from the guess g,
// until its bounds meet or one is at or beyond a side of w: the first
// search within w tests that side, so a position worth no more than w's
// lower side costs one search.
func (x *searcher) mtdf(g score, depth int, w window) (bounded, error) {
	lo, hi := minScore, maxScore
	wlo, whi := w.limits()
	g = min(max(g, wlo+1), whi-1)
	for lo < hi && hi > wlo && lo < whi {
		beta := g
		if g == lo {
			beta = g + 1
		}
		if err := x.look(x.root, depth, &x.rootK); err != nil {
			return bounded{}, err
		}
		x.stats.Passes++
		v, _, err := x.search(0, x.root, &x.rootK, beta-1, beta, depth)
		if err != nil {
			return bounded{}, err
		}
		if v < beta {
			hi = v
		} else {
			lo = v
		}
		g = v
	}
	return bounded{lo, hi}, nil
}

const (
	minScore = score(-2 * outcomeUnit)
	maxScore = score(2 * outcomeUnit)
)

// slot makes room for the children of a position at ply.
func (x *searcher) slot(ply, n int) {
	for len(x.states) <= ply {
		x.states = append(x.states, nil)
		x.moves = append(x.moves, nil)
		x.know = append(x.know, nil)
		x.order = append(x.order, nil)
		x.keys = append(x.keys, nil)
		x.probe = append(x.probe, nil)
	}
	for len(x.states[ply]) < n {
		x.states[ply] = append(x.states[ply], x.e.g.Start())
		x.know[ply] = append(x.know[ply], knowledge{})
	}
}

// look sets k to what is known of s without searching it: exact values of
// a finished game and of the database's positions, the futility bounds of
// the banks, the table's bounds for a search of the given depth.
//
// In a game whose database was built, the value of a position is the
// banks' difference plus what the counters in play bring, whatever the
// banks hold (building it checked so): positions that keep the opening's
// owners, hands and variables are then keyed in the table by their
// counters in play and the player to move, with bounds on what is to
// come, so that positions reached with other banks share what is known.
func (x *searcher) look(s *host.State, depth int, k *knowledge) error {
	probe, err := x.lookHere(s, k)
	if err == nil && probe {
		x.lookTable(depth, k)
	}
	return err
}

// lookHere is look without the table; it reports whether the table may
// say more.
func (x *searcher) lookHere(s *host.State, k *knowledge) (bool, error) {
	e := x.e
	k.move, k.depth, k.rel = -1, infDepth, false
	k.lo, k.hi = minScore, maxScore
	if e.bk != nil {
		if len(k.counts) != len(e.bk.play) {
			k.counts = make([]int, len(e.bk.play))
		}
		v := s.PositionView() // read in place: most of the values are not needed
		k.bank = e.bk.bankDiff(v)
		j := e.bk.readCounts(v, k.counts)
		fixed := e.db != nil && e.bk.fixedIn(v)
		if fixed && j <= e.db.k {
			dlo, dhi := e.db.probe(k.counts, j, s.ToMove(), x.alt)
			k.lo, k.hi = makeScore(sign(k.bank+dlo), k.bank+dlo), makeScore(sign(k.bank+dhi), k.bank+dhi)
			x.stats.EndgameHits++
			if k.lo == k.hi {
				return false, nil
			}
		}
		if s.Over() {
			return false, x.final(s, k)
		}
		k.lo = max(k.lo, makeScore(sign(k.bank-j), k.bank-j))
		k.hi = min(k.hi, makeScore(sign(k.bank+j), k.bank+j))
		if fixed {
			k.key, k.rel = countsKey(k.counts, s.ToMove()), true
			return true, nil
		}
	} else {
		if s.Over() {
			return false, x.final(s, k)
		}
		k.bank = 0
	}
	// Not keyed by its counters in play: by the position's own key (a
	// position played unlisted computes it only now).
	k.key = s.Key()
	return true, nil
}

// lookTable narrows k's bounds by the table's for a search of the given
// depth.
func (x *searcher) lookTable(depth int, k *knowledge) {
	e := x.e
	x.stats.Probes++
	if ent, ok := e.tt.probe(k.key); ok {
		x.stats.TableHits++
		k.move = ent.move
		if ent.depth >= depth {
			elo, ehi := ent.lo, ent.hi
			if k.rel {
				elo, ehi = fromRelative(elo, k.bank), fromRelative(ehi, k.bank)
			}
			lo, hi := max(k.lo, elo), min(k.hi, ehi)
			if lo <= hi { // a heuristic bound beyond an exact one is dropped
				k.lo, k.hi, k.depth = lo, hi, ent.depth
			}
		}
	}
}

// countsKey is the table's key of a position of a game with a database,
// by its counters in play and the player to move (see look).
func countsKey(counts []int, mover int) uint64 {
	h := (0x9e3779b97f4a7c15 ^ uint64(mover)) * 0xbf58476d1ce4e5b9
	h ^= h >> 29
	// Two counts a step (a count is below 2^32): each step is a bijection
	// of h for a given pair, as with one count a step, at half the cost.
	i := 0
	for ; i+1 < len(counts); i += 2 {
		h = (h ^ (uint64(uint32(counts[i])) | uint64(counts[i+1])<<32)) * 0xbf58476d1ce4e5b9
		h ^= h >> 29
	}
	if i < len(counts) {
		h = (h ^ uint64(uint32(counts[i]))) * 0xbf58476d1ce4e5b9
		h ^= h >> 29
	}
	return mix64(h)
}

// toRelative is a bound on a position's score as a bound on what its
// counters in play bring (an unbounded end stays unbounded).
func toRelative(v score, bank int) score {
	if v <= minScore || v >= maxScore {
		return v
	}
	return makeScore(0, v.margin()-bank)
}

// fromRelative is the bound on the score of a position with the given
// banks' difference from a bound on what its counters in play bring.
func fromRelative(r score, bank int) score {
	if r <= minScore || r >= maxScore {
		return r
	}
	m := r.margin() + bank
	return makeScore(sign(m), m)
}

// final sets k to the score of the finished game s.
func (x *searcher) final(s *host.State, k *knowledge) error {
	x.stats.Ends++
	v, err := x.sc.final(x.r, s)
	if err == nil && abs(v.margin()) > packLimit {
		err = &UnsupportedError{Game: x.e.g.Name(), Reason: fmt.Sprintf("a game ends with a margin of %d; the search engine tells margins up to %d apart", v.margin(), packLimit)}
	}
	k.lo, k.hi = v, v
	return err
}

// search returns s's score for Player 1 with fail-soft bounds, at ply: a
// value <= alpha is an upper bound, >= beta a lower bound; and the depth
// to which it holds (infDepth when no heuristic leaf was reached). k is
// what look found.
func (x *searcher) search(ply int, s *host.State, k *knowledge, alpha, beta score, depth int) (score, int, error) {
	switch {
	case k.lo >= beta || k.lo == k.hi:
		return k.lo, k.depth, nil
	case k.hi <= alpha:
		return k.hi, k.depth, nil
	case depth == 0:
		return min(max(makeScore(sign(k.bank), k.bank), k.lo), k.hi), 0, nil
	}
	if !s.Listed() { // expand played it without listing its moves
		if err := x.r.List(s); err != nil {
			return 0, 0, err
		}
		if s.Over() { // the script's blocked function ended it: its value is known
			if _, err := x.lookHere(s, k); err != nil {
				return 0, 0, err
			}
			return k.lo, k.depth, nil
		}
	}
	x.nodes++
	if x.nodes&4095 == 0 {
		if err := x.tick(); err != nil {
			return 0, 0, err
		}
	}
	onPath := &x.onPath[k.key%uint64(len(x.onPath))]
	if *onPath > 0 { // the key may be on the line: look
		for _, p := range x.path {
			if p == k.key {
				if err := x.checkCycle(s); err != nil {
					return 0, 0, err
				}
			}
		}
	}
	*onPath++
	x.path = append(x.path, k.key)
	x.line = append(x.line, s)
	v, rd, err := x.expand(ply, s, k, alpha, beta, depth)
	*onPath--
	x.path = x.path[:len(x.path)-1]
	x.line = x.line[:len(x.line)-1]
	if err != nil {
		return 0, 0, err
	}
	return min(max(v, k.lo), k.hi), rd, nil
}

// expand searches the moves of s: it plays them all and looks at each
// (ending the search when one is known to cut), then searches those that
// may matter, the most promising first.
func (x *searcher) expand(ply int, s *host.State, k *knowledge, alpha, beta score, depth int) (score, int, error) {
	e := x.e
	start := x.stats.Nodes + x.nodes
	moves := s.Moves()
	if len(moves) > 254 {
		return 0, 0, &UnsupportedError{Game: e.g.Name(), Reason: "a position has more than 254 moves"}
	}
	x.slot(ply, len(moves))
	x.moves[ply] = append(x.moves[ply][:0], moves...)
	moves = x.moves[ply]
	kids, know := x.states[ply], x.know[ply]
	parent := k.counts // look counted them
	mover1 := s.ToMove() == 1
	best := minScore
	if !mover1 {
		best = maxScore
	}
	bestMove := -1
	rd := infDepth // the depth the result holds to: the least of its moves'
	a, b := alpha, beta
	nextDepth := depth - 1
	if depth == infDepth {
		nextDepth = infDepth
	}
	store := func(v score) (score, int, error) {
		var evicts bool
		if k.rel {
			evicts = e.tt.store(k.key, toRelative(alpha, k.bank), toRelative(beta, k.bank), toRelative(v, k.bank), bestMove, rd, x.stats.Nodes+x.nodes-start)
		} else {
			evicts = e.tt.store(k.key, alpha, beta, v, bestMove, rd, x.stats.Nodes+x.nodes-start)
		}
		if evicts {
			x.evicted++
		}
		return v, rd, nil
	}
	deeper := func(d int) int { return min(d+1, infDepth) }
	// Play every move and look at what is known of each without the
	// table, stopping at a move whose exact value cuts; then probe the
	// table for the others, all the buckets first (their memory is read
	// at once, not one miss after the other).
	probe := x.probe[ply][:0]
	for i := range moves {
		c := kids[i]
		if err := x.r.ApplyToUnlisted(c, s, i); err != nil { // listed if searched
			return 0, 0, err
		}
		x.stats.Children++
		kk := &know[i]
		need, err := x.lookHere(c, kk)
		if err != nil {
			return 0, 0, err
		}
		if (mover1 && kk.lo >= b) || (!mover1 && kk.hi <= a) {
			x.stats.KnownCuts++
			best, bestMove, rd = kk.lo, i, deeper(kk.depth)
			if !mover1 {
				best = kk.hi
			}
			return store(best)
		}
		probe = append(probe, need)
	}
	x.probe[ply] = probe
	for i := range moves {
		if probe[i] {
			x.sink += e.tt.touch(know[i].key)
		}
	}
	order, keys := x.order[ply][:0], x.keys[ply][:0]
	for i := range moves {
		c := kids[i]
		kk := &know[i]
		if probe[i] {
			x.lookTable(nextDepth, kk)
		}
		lo, hi := kk.lo, kk.hi
		if mover1 {
			if lo >= b { // known to cut: an enhanced transposition cutoff
				x.stats.KnownCuts++
				best, bestMove, rd = lo, i, deeper(kk.depth)
				return store(lo)
			}
			if hi <= a || lo == hi { // nothing to search
				if hi > best || bestMove < 0 {
					best, bestMove = hi, i
				}
				a = max(a, lo)
				rd = min(rd, deeper(kk.depth))
				x.stats.KnownMoves++
				continue
			}
		} else {
			if hi <= a {
				x.stats.KnownCuts++
				best, bestMove, rd = hi, i, deeper(kk.depth)
				return store(hi)
			}
			if lo >= b || lo == hi {
				if lo < best || bestMove < 0 {
					best, bestMove = lo, i
				}
				b = min(b, hi)
				rd = min(rd, deeper(kk.depth))
				x.stats.KnownMoves++
				continue
			}
		}
		// Order: the moves that keep the turn, those that take the
		// fewest counters first (they leave the others' chances as they
		// were); then by what the move banks for the mover; among moves
		// that bank the same, by the cuts they made so far in this search
		// (history), then the table's move (first, ahead of the history,
		// it made the search larger: docs/solver-journal.md).
		gain := kk.bank - k.bank
		if !mover1 {
			gain = -gain
		}
		var key int64
		if c.ToMove() == s.ToMove() {
			key = 1<<62 + int64(1<<20-movedFrom(parent, kk.counts)+4*gain)<<32
		} else {
			key = int64(gain)<<32 + min(x.history[s.ToMove()-1][historyIndex(moves[i])], 1<<30-1)<<1
			if i == k.move {
				key++
			}
		}
		order, keys = append(order, i), append(keys, key)
	}
	x.order[ply], x.keys[ply] = order, keys
	sortByKeys(order, keys)
	if ply == 0 && x.id > 0 && len(order) > 1 { // helpers start apart
		r := x.id % len(order)
		slices.Reverse(order[:r])
		slices.Reverse(order[r:])
		slices.Reverse(order)
	}
	for n, i := range order {
		kk := &know[i]
		var v score
		var vd int
		switch {
		case mover1 && kk.hi <= a: // the window moved past it
			v, vd = kk.hi, kk.depth
		case !mover1 && kk.lo >= b:
			v, vd = kk.lo, kk.depth
		default:
			var err error
			if v, vd, err = x.search(ply+1, kids[i], kk, a, b, nextDepth); err != nil {
				return 0, 0, err
			}
		}
		if (mover1 && v > best) || (!mover1 && v < best) || bestMove < 0 {
			best, bestMove = v, i
		}
		if mover1 {
			a = max(a, v)
		} else {
			b = min(b, v)
		}
		if a >= b {
			x.history[s.ToMove()-1][historyIndex(moves[i])]++
			x.stats.Cuts++
			if n == 0 {
				x.stats.FirstCuts++
			}
			rd = deeper(vd) // the cut holds as far as the move that cut
			return store(best)
		}
		rd = min(rd, deeper(vd))
	}
	return store(best)
}

// movedFrom is the counters a move took from the sites in play: the
// decreases from parent's counts to kid's (none without a database, where
// neither is counted). It is counted only for the moves ordered by it.
func movedFrom(parent, kid []int) int {
	moved := 0
	for j, n := range parent {
		moved += max(n-kid[j], 0)
	}
	return moved
}

// sortByKeys orders moves by decreasing key (an insertion sort: there
// are few), keeping the script's order among equals.
func sortByKeys(order []int, keys []int64) {
	for i := 1; i < len(order); i++ {
		for j := i; j > 0 && keys[j] > keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
}

// checkCycle reports a repeated position (keys are hashes: the positions
// are compared).
func (x *searcher) checkCycle(s *host.State) error {
	enc := s.AppendPosition(nil)
	for _, p := range x.line {
		if string(p.AppendPosition(nil)) == string(enc) {
			return &CycleError{Game: x.e.g.Name()}
		}
	}
	return nil
}

// tick stops a cancelled search, and one past its budget of positions,
// and reports progress.
func (x *searcher) tick() error {
	if err := x.ctx.Err(); err != nil {
		return err
	}
	e := x.e
	x.stats.Nodes += x.nodes
	n := e.nodes.Add(x.nodes)
	x.nodes = 0
	e.tt.evictions(x.evicted)
	x.evicted = 0
	if limit := e.cfg.maxSearched; limit > 0 && n > limit {
		return &TooLargeError{Game: e.g.Name(), Engine: Search, MaxPositions: int(limit), Positions: int(n), Limit: LimitSearched}
	}
	if e.cfg.progress != nil && e.progress.TryLock() {
		if time.Since(e.lastShow) > 200*time.Millisecond {
			e.lastShow = time.Now()
			e.cfg.progress(Progress{Phase: "search", Nodes: n, Bytes: e.bytes(), Elapsed: time.Since(e.start), Done: -1})
		}
		e.progress.Unlock()
	}
	return nil
}

// bytes is the memory the engine holds.
func (e *engine) bytes() int64 {
	b := e.tt.bytes()
	if e.db != nil {
		b += e.db.bytes()
	}
	return b
}
