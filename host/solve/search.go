package solve

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"runtime"
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
// endgame databases. A position that repeats on the line searched stops it
// with a *CycleError: such games are for the retrograde engine.

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
	return fmt.Sprintf("%s: a position repeats on a line of play, which the search engine does not handle: use --engine retrograde", e.Game)
}

// searched is what the search engine found.
type searched struct {
	opening Entry
	moves   []MoveValue // the opening's, in the script's order
	nodes   int64

	mu  sync.Mutex // guards the searcher made on demand
	eng *engine
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
	entries   int   // transposition table entries (a power of two)
	k         int   // endgame database: at most k counters in play; 0: none
	dbBytes   int64 // its values
	buildPeak int64 // the most its building holds besides the values
	why       string
}

// searchBase is the memory of a search besides its table and databases:
// the Go runtime, the script machines and their states.
const searchBase = 24 << 20

func (p searchPlan) bytes() int64 {
	return searchBase + int64(p.entries)*ttEntryBytes + p.dbBytes + p.buildPeak
}

// autoEndgamePositions caps the database that Auto builds.
const autoEndgamePositions = 1_000_000

// planSearch sizes the table and the databases for cfg's budget.
func planSearch(g *host.Game, cfg *config) searchPlan {
	var p searchPlan
	tb := cfg.tableBytes
	if tb <= 0 {
		tb = min(cfg.maxBytes/4, 256<<20)
	}
	p.entries = 1 << max(10, bits.Len64(uint64(max(tb/ttEntryBytes, 1)))-1)
	bk, err := findBanks(g)
	if err != nil {
		p.why = err.Error()
		return p
	}
	n := len(bk.play)
	k := cfg.endgame
	if k < 0 {
		k = 0
		for k+1 < bk.total && endgamePositions(n, k+1) <= autoEndgamePositions {
			k++
		}
	}
	k = min(k, bk.total, MaxEndgame)
	if k > 0 {
		db := newEndgameDB(n, k)
		p.k, p.dbBytes = k, db.bytes()
		// Building holds, for its largest layer, a node (12 bytes), a state
		// byte and about 4 moves within the layer (4 bytes each) a position.
		p.buildPeak = 2 * db.layerSize(k) * (12 + 1 + 16)
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
	sr := &searched{eng: eng}
	sol.search = sr
	start := g.Start()
	v, err := eng.solve(ctx, start, 0)
	if err != nil {
		return nil, err
	}
	sr.opening = sol.makeEntry(v, -1, start.ToMove(), start.Over())
	if !start.Over() {
		// Each move of the opening, searched from the opening's value.
		for _, m := range start.Moves() {
			c := start.Clone()
			if err := c.Apply(m); err != nil {
				return nil, err
			}
			cv, err := eng.solve(ctx, c, v)
			if err != nil {
				return nil, err
			}
			e := sol.makeEntry(cv, -1, start.ToMove(), c.Over())
			plies := -1
			if c.Over() {
				plies = 1
			}
			sr.moves = append(sr.moves, MoveValue{Move: m, Token: g.Token(m), Value: e.Value, Margin: e.Margin, Plies: plies})
		}
	}
	sr.nodes = eng.nodes.Load()
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
		cfg := newConfig([]Option{WithTableBytes(64 << 20), WithThreads(1)})
		eng, err := newEngine(ctx, s.Game(), cfg)
		if err != nil {
			return Entry{}, err
		}
		sr.eng = eng
	}
	v, err := sr.eng.solve(ctx, s, 0)
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
}

// newEngine makes the table and loads or builds the databases.
func newEngine(ctx context.Context, g *host.Game, cfg *config) (*engine, error) {
	if err := searchable(g); err != nil {
		return nil, err
	}
	plan := planSearch(g, cfg)
	e := &engine{g: g, cfg: cfg, tt: newTTable(plan.entries)}
	if bk, err := findBanks(g); err == nil {
		e.bk = bk
		if plan.k > 0 {
			db, err := loadOrBuildEndgame(ctx, g, bk, plan.k, cfg.threads, cfg.progress, nil)
			switch {
			case err == nil:
				e.db = db
			case errors.Is(err, errNoDB):
				e.bk = nil // the banks' properties do not hold: no futility bounds either
			default:
				return nil, err
			}
		}
	}
	e.start = time.Now() // the search's rate counts from here
	return e, nil
}

// infDepth marks exact values in the table.
const infDepth = 255

// deepening is the last heuristic depth searched before the exact search.
const deepening = 12

// solve returns the exact value of s for Player 1, searching from guess.
func (e *engine) solve(ctx context.Context, s *host.State, guess score) (score, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	threads := e.cfg.threads
	type result struct {
		v   score
		err error
	}
	results := make(chan result, threads)
	for t := 0; t < threads; t++ {
		go func() {
			x := newSearcher(e, t)
			defer x.close()
			v, err := x.iterate(ctx, s, guess)
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

// searcher is one goroutine's search.
type searcher struct {
	e      *engine
	id     int
	r      *host.Runner
	sc     *scorer
	ctx    context.Context
	states [][]*host.State // per ply: the position, then its children
	moves  [][]host.Move
	order  [][]int
	keys   [][]int
	path   []uint64      // the keys of the line searched
	line   []*host.State // its positions
	counts []int
	buf    []byte
	nodes  int64
	root   *host.State
}

func newSearcher(e *engine, id int) *searcher {
	x := &searcher{e: e, id: id, r: e.g.NewRunner(), sc: newScorer(e.g)}
	if e.bk != nil {
		x.counts = make([]int, len(e.bk.play))
	}
	return x
}

func (x *searcher) close() {
	x.e.nodes.Add(x.nodes)
	x.r.Close()
}

// iterate deepens: heuristic searches of growing depth, then the exact
// one, each by MTD(f) from the previous value.
func (x *searcher) iterate(ctx context.Context, s *host.State, guess score) (score, error) {
	x.ctx = ctx
	x.root = s.Clone()
	g := guess
	for d := 2 + x.id%2; d <= deepening; d += 2 {
		v, err := x.mtdf(g, d)
		if err != nil {
			return 0, err
		}
		g = v
	}
	return x.mtdf(g, infDepth)
}

// mtdf narrows the value with null-window searches.
func (x *searcher) mtdf(g score, depth int) (score, error) {
	lo, hi := minScore, maxScore
	for lo < hi {
		beta := g
		if g == lo {
			beta = g + 1
		}
		v, err := x.ab(0, x.root, beta-1, beta, depth)
		if err != nil {
			return 0, err
		}
		if v < beta {
			hi = v
		} else {
			lo = v
		}
		g = v
	}
	return g, nil
}

const (
	minScore = score(-2 * outcomeUnit)
	maxScore = score(2 * outcomeUnit)
)

// slot makes room for the children of a position at ply.
func (x *searcher) slot(ply int) {
	for len(x.states) <= ply {
		x.states = append(x.states, nil)
		x.moves = append(x.moves, nil)
		x.order = append(x.order, nil)
		x.keys = append(x.keys, nil)
	}
}

// child returns the i-th child state of the position at ply: 0 for the
// table's move, 1+i for move i.
func (x *searcher) child(ply, i int) *host.State {
	for len(x.states[ply]) <= i {
		x.states[ply] = append(x.states[ply], x.e.g.Start())
	}
	return x.states[ply][i]
}

// ab is alpha-beta with fail-soft bounds on Player 1's score of s, at
// ply: a value <= alpha is an upper bound, >= beta a lower bound.
func (x *searcher) ab(ply int, s *host.State, alpha, beta score, depth int) (score, error) {
	e := x.e
	x.nodes++
	if x.nodes&4095 == 0 {
		if err := x.tick(); err != nil {
			return 0, err
		}
	}
	if s.Over() {
		v, err := x.sc.final(x.r, s)
		if err == nil && abs(v.margin()) > packLimit {
			err = &UnsupportedError{Game: e.g.Name(), Reason: fmt.Sprintf("a game ends with a margin of %d; the search engine tells margins up to %d apart", v.margin(), packLimit)}
		}
		return v, err
	}
	bank := 0
	if e.bk != nil {
		bank = e.bk.bankDiff(s)
		if e.db != nil {
			if g, ok := e.db.lookup(e.bk, s, x.counts, x.buf); ok {
				m := bank + g
				return makeScore(sign(m), m), nil
			}
		}
		rest := e.bk.inPlay(s)
		if hi := makeScore(sign(bank+rest), bank+rest); hi <= alpha {
			return hi, nil
		}
		if lo := makeScore(sign(bank-rest), bank-rest); lo >= beta {
			return lo, nil
		}
	}
	key := s.Key()
	ent, found := e.tt.probe(key)
	ttMove := -1
	if found {
		ttMove = int(ent.move)
		if int(ent.depth) >= depth {
			if ent.lo >= beta {
				return ent.lo, nil
			}
			if ent.hi <= alpha {
				return ent.hi, nil
			}
			if ent.lo == ent.hi {
				return ent.lo, nil
			}
		}
	}
	if depth == 0 {
		return x.static(s, bank)
	}
	for _, k := range x.path {
		if k == key {
			if err := x.checkCycle(s); err != nil {
				return 0, err
			}
		}
	}
	x.path = append(x.path, key)
	x.line = append(x.line, s)
	v, err := x.expand(ply, s, key, ttMove, alpha, beta, depth)
	x.path = x.path[:len(x.path)-1]
	x.line = x.line[:len(x.line)-1]
	return v, err
}

// expand searches the moves of s: the table's move first; then, unless it
// cut, the others, after an enhanced transposition cutoff, the most
// promising first.
func (x *searcher) expand(ply int, s *host.State, key uint64, ttMove int, alpha, beta score, depth int) (score, error) {
	e := x.e
	x.slot(ply)
	x.moves[ply] = append(x.moves[ply][:0], s.Moves()...)
	moves := x.moves[ply]
	if len(moves) > 255 {
		return 0, &UnsupportedError{Game: e.g.Name(), Reason: "a position has more than 255 moves"}
	}
	mover1 := s.ToMove() == 1
	best := minScore
	if !mover1 {
		best = maxScore
	}
	bestMove := -1
	a, b := alpha, beta
	nextDepth := depth - 1
	if depth == infDepth {
		nextDepth = infDepth
	}
	// visit searches child c (move i) and reports whether it cuts.
	visit := func(x *searcher, i int, c *host.State) (bool, error) {
		v, err := x.ab(ply+1, c, a, b, nextDepth)
		if err != nil {
			return false, err
		}
		if (mover1 && v > best) || (!mover1 && v < best) || bestMove < 0 {
			best, bestMove = v, i
		}
		if mover1 {
			a = max(a, v)
		} else {
			b = min(b, v)
		}
		return a >= b, nil
	}
	if ttMove >= 0 && ttMove < len(moves) {
		c := x.child(ply, 0)
		c.CopyFrom(s)
		if err := x.r.Apply(c, moves[ttMove]); err != nil {
			return 0, err
		}
		cut, err := visit(x, ttMove, c)
		if err != nil {
			return 0, err
		}
		if cut {
			e.tt.store(key, alpha, beta, best, bestMove, depth)
			return best, nil
		}
	}
	order, keys := x.order[ply][:0], x.keys[ply][:0]
	for i, m := range moves {
		if i == ttMove {
			continue
		}
		c := x.child(ply, i+1)
		c.CopyFrom(s)
		if err := x.r.Apply(c, m); err != nil {
			return 0, err
		}
		// Enhanced transposition cutoff: a move whose position the table
		// or a database already values beyond the window ends the search
		// here, before any is searched.
		if lo, hi, ok := x.known(c, nextDepth); ok {
			if mover1 && lo >= b {
				e.tt.store(key, alpha, beta, lo, i, depth)
				return lo, nil
			}
			if !mover1 && hi <= a {
				e.tt.store(key, alpha, beta, hi, i, depth)
				return hi, nil
			}
		}
		k := 0
		if e.bk != nil && !c.Over() {
			k = e.bk.bankDiff(c) * 4
			if !mover1 {
				k = -k
			}
		}
		if c.ToMove() == s.ToMove() {
			k += 2
		}
		order, keys = append(order, i), append(keys, k)
	}
	x.order[ply], x.keys[ply] = order, keys
	sortByKeys(order, keys)
	if ply == 0 && x.id > 0 && len(order) > 1 { // helpers start apart
		r := x.id % len(order)
		slices.Reverse(order[:r])
		slices.Reverse(order[r:])
		slices.Reverse(order)
	}
	for _, i := range order {
		cut, err := visit(x, i, x.states[ply][i+1])
		if err != nil {
			return 0, err
		}
		if cut {
			break
		}
	}
	e.tt.store(key, alpha, beta, best, bestMove, depth)
	return best, nil
}

// known returns bounds on c's value that a database or the table give
// without searching; ok is false when nothing is known.
func (x *searcher) known(c *host.State, depth int) (lo, hi score, ok bool) {
	e := x.e
	if c.Over() {
		return 0, 0, false // searching it costs no more
	}
	if e.db != nil {
		if g, ok := e.db.lookup(e.bk, c, x.counts, x.buf); ok {
			m := e.bk.bankDiff(c) + g
			v := makeScore(sign(m), m)
			return v, v, true
		}
	}
	if ent, ok := e.tt.probe(c.Key()); ok && int(ent.depth) >= depth {
		return ent.lo, ent.hi, true
	}
	return 0, 0, false
}

// sortByKeys orders moves by decreasing key (an insertion sort: there
// are few), keeping the script's order among equals.
func sortByKeys(order, keys []int) {
	for i := 1; i < len(order); i++ {
		for j := i; j > 0 && keys[j] > keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
}

// static is the heuristic value of s: the banks' difference, or the
// script's score so far.
func (x *searcher) static(s *host.State, bank int) (score, error) {
	m := bank
	if x.e.bk == nil {
		sc, err := x.r.Score(s, x.sc.buf[:0])
		if err != nil {
			return 0, err
		}
		if len(sc) >= 2 {
			m = sc[0] - sc[1]
		}
	}
	return makeScore(sign(m), m), nil
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

// tick stops a cancelled search and reports progress.
func (x *searcher) tick() error {
	if err := x.ctx.Err(); err != nil {
		return err
	}
	e := x.e
	n := e.nodes.Add(x.nodes)
	x.nodes = 0
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
	b := int64(len(e.tt.w)) * 8
	if e.db != nil {
		b += e.db.bytes()
	}
	var ms runtime.MemStats
	_ = ms
	return b
}
