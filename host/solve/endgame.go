package solve

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/matombo/matombo/host"
)

// An endgame database holds the value of every position with at most k
// counters in play, whatever the banks hold: the margin the counters in
// play will still bring to the player to move, under perfect play (a
// number from -k to k).
//
// Positions are indexed by the combinatorial rank of their counts on the
// sites in play, layer by layer (0 counters in play, then 1, ...). When
// the board has a mirror that swaps the players (see banks.mirror), only
// positions with Player 1 to move are stored: one with Player 2 to move is
// looked up as its mirror image. Values take 4 bits a position: when every
// counter in play ends with one player or the other, the margin to come
// and the counters in play have the same parity, and the database stores
// x, the counters the mover will win, else the margin plus the counters; a
// layer of more than 15 values stores a window of 14 exact values around
// the counters on the mover's side, the codes 0 and 15 saying "this or
// less" and "this or more" (bounds the search uses as bounds).
//
// A database is computed once by retrograde analysis, from the smaller
// counts upward (a move never brings counters back into play, so a
// position's moves lead to its own layer or to smaller ones); within a
// layer, in parallel, each position's value is computed from its moves',
// depth first for the moves that stay in the layer, a few positions of a
// worker's chunk together (their moves are played, then the values the
// moves reach are read at once, so that their reads wait for memory
// together rather than one after the other). It is saved in the
// cache folder under a digest of how the game's moves act on such
// positions, so that boards that differ only in their opening (the same
// pits with 3, 4 or 5 counters each) share it.
type endgameDB struct {
	k, n   int
	sym    bool    // one side to move (Player 1), the other by the mirror
	half   bool    // values in halves: the margin and the counters have the same parity
	offset []int64 // index of the first position of each layer
	// tab[p][r] = C(r+p, p), the ways to put at most r counters on p sites
	// (r counters on p+1 sites).
	tab [][]int64
	// sfx[(i-1)*(k+1)+s] = C(s+last-i, last-i+1), for the sites i after
	// the first (last = n-1) and s counters on site i and those after it:
	// what rank takes away for them.
	sfx    []int64
	own    []bool // the play sites of Player 1 in the opening (the window's centre)
	mirror []int
	nib    []byte // 4 bits a position
	digest string
}

// endgamePositions is the number of positions of a database of k counters
// on n sites in play: one or both players to move, every way to put at
// most k counters on the sites.
func endgamePositions(n, k int, sym bool) int64 {
	p := binomial(int64(k+n), int64(n))
	if !sym {
		p *= 2
	}
	return p
}

func binomial(a, b int64) int64 {
	if b < 0 || b > a {
		return 0
	}
	r := int64(1)
	for i := int64(1); i <= b; i++ {
		r = r * (a - b + i) / i
	}
	return r
}

func newEndgameDB(n, k int, sym bool) *endgameDB {
	db := &endgameDB{k: k, n: n, sym: sym}
	db.tab = make([][]int64, n+1)
	for p := range db.tab {
		db.tab[p] = make([]int64, k+2)
		for r := range db.tab[p] {
			db.tab[p][r] = binomial(int64(r+p), int64(p))
		}
	}
	last := n - 1
	db.sfx = make([]int64, max(last, 1)*(k+1))
	for i := 1; i <= last; i++ {
		for s := 0; s <= k; s++ {
			db.sfx[(i-1)*(k+1)+s] = binomial(int64(s+last-i), int64(last-i+1))
		}
	}
	db.offset = make([]int64, k+2)
	for j := 0; j <= k; j++ {
		db.offset[j+1] = db.offset[j] + db.layerLen(j)
	}
	return db
}

// layerSize is the number of ways to put j counters on n sites.
func (db *endgameDB) layerSize(j int) int64 { return db.tab[db.n-1][j] }

// layerLen is the number of positions of layer j.
func (db *endgameDB) layerLen(j int) int64 {
	if db.sym {
		return db.layerSize(j)
	}
	return 2 * db.layerSize(j)
}

// positions is the number of positions of the database.
func (db *endgameDB) positions() int64 { return db.offset[db.k+1] }

// bytes is the memory of the database's values.
func (db *endgameDB) bytes() int64 { return (db.positions() + 1) / 2 }

// rank is the index of counts (summing to j) within layer j, in the
// lexicographic order of the counts: for each site i, the ways to fill the
// sites after it when it holds fewer, C(s_i+p, p) - C(s_{i+1}+p, p) by the
// hockey-stick identity, where s_i is the sum of the counts from site i on
// and p the sites after i. Summed over the sites by Pascal's rule, that is
// the layer's size less one less C(s_i+last-i, last-i+1) for each site
// after the first: one table read a site, from the last site back, with
// no branch.
func (db *endgameDB) rank(counts []int, j int) int64 {
	last := db.n - 1
	stride := db.k + 1
	sfx := db.sfx // held here, out of the loop
	r := db.tab[last][j] - 1
	s := 0
	for i, base := last, (last-1)*stride; i > 0; i, base = i-1, base-stride {
		s += counts[i]
		r -= sfx[base+s]
	}
	return r
}

// readRank reads the counts of sites from the view of a position's
// values into counts, and returns their sum j and their rank in layer j;
// ok is false, and the rest undefined, when a count is negative or the
// counts sum to more than most. (The counts are read first, then ranked:
// one loop doing both keeps more values than the processor has registers.)
func (db *endgameDB) readRank(v host.PositionView, sites, counts []int, most int) (j int, r int64, ok bool) {
	counts = counts[:len(sites)]
	sign := 0 // the counts' bits ORed: negative when one is
	for i, site := range sites {
		c := v.Value(site)
		counts[i] = c
		j += c
		sign |= c
	}
	if sign < 0 || j > min(most, db.k) {
		return 0, 0, false
	}
	return j, db.rank(counts, j), true
}

// locate sets counts to those of position i and returns its layer and
// the player to move in it.
func (db *endgameDB) locate(i int64, counts []int) (j, mover int) {
	for db.offset[j+1] <= i {
		j++
	}
	r, mover := i-db.offset[j], 1
	if !db.sym {
		r, mover = r/2, int(r%2)+1
	}
	db.unrank(counts, r, j)
	return j, mover
}

// unrank sets counts to the r-th way of putting j counters on the sites.
func (db *endgameDB) unrank(counts []int, r int64, j int) {
	rem := j
	last := db.n - 1
	for i := 0; i < last; i++ {
		t := db.tab[last-i-1]
		v := 0
		for {
			c := t[rem-v] // ways with exactly v here: C(rem-v + p-1, p-1)
			if r < c {
				break
			}
			r -= c
			v++
		}
		counts[i] = v
		rem -= v
	}
	counts[last] = rem
}

// index returns the index of the position with counts (j counters) and
// mover to move, and whether it is stored as its mirror image (its value
// for the mover is then the stored one; the counts are mirrored into
// scratch).
func (db *endgameDB) index(counts []int, j, mover int, scratch []int) (int64, []int) {
	if !db.sym {
		return db.offset[j] + 2*db.rank(counts, j) + int64(mover-1), counts
	}
	if mover == 2 {
		for i, m := range db.mirror {
			scratch[i] = counts[m]
		}
		counts = scratch
	}
	return db.offset[j] + db.rank(counts, j), counts
}

// moverShare is the counters on the mover's sites of a stored position
// (Player 1's in a database of one side to move).
func (db *endgameDB) moverShare(counts []int, mover int) int {
	o := 0
	for i, c := range counts {
		if db.own[i] == (mover == 1) {
			o += c
		}
	}
	return o
}

// share is moverShare when the window of layer j depends on it (more than
// 15 values), else 0, which gives the same window.
func (db *endgameDB) share(counts []int, j, mover int) int {
	R := j
	if !db.half {
		R = 2 * j
	}
	if R <= 15 {
		return 0
	}
	return db.moverShare(counts, mover)
}

// window returns the range of the stored quantity x in layer j (0 to R)
// and the first value of the 4-bit window for a position whose mover has
// o counters on their sites.
func (db *endgameDB) window(j, o int) (R, w0 int) {
	R = j
	if !db.half {
		R, o = 2*j, 2*o
	}
	if R <= 15 {
		return R, 0
	}
	return R, min(max(o-7, 0), R-15)
}

// encodeValue is the 4-bit code of a margin v for the mover.
func (db *endgameDB) encodeValue(v, j, o int) byte {
	x := v + j
	if db.half {
		x /= 2
	}
	_, w0 := db.window(j, o)
	return byte(min(max(x-w0, 0), 15))
}

// decodeValue returns the bounds on the mover's margin that code says.
func (db *endgameDB) decodeValue(code byte, j, o int) (lo, hi int) {
	R, w0 := db.window(j, o)
	xlo, xhi := w0+int(code), w0+int(code)
	if code == 0 {
		xlo = 0
	}
	if code == 15 {
		xhi = R
	}
	if db.half {
		return 2*xlo - j, 2*xhi - j
	}
	return xlo - j, xhi - j
}

func (db *endgameDB) code(i int64) byte { return db.nib[i>>1] >> (4 * (i & 1)) & 15 }

// probe returns bounds on what the counters in play will bring Player 1
// in the position with counts on the sites in play (j of them) and mover
// to move.
func (db *endgameDB) probe(counts []int, j, mover int, scratch []int) (lo, hi int) {
	i, stored := db.index(counts, j, mover, scratch)
	storedMover := mover
	if db.sym {
		storedMover = 1 // a mirror image has Player 1 to move
	}
	lo, hi = db.decodeValue(db.code(i), j, db.share(stored, j, storedMover))
	if mover == 2 {
		lo, hi = -hi, -lo
	}
	return lo, hi
}

// errNoDB is wrapped by the errors that say why a game gets no database.
var errNoDB = errors.New("no endgame database")

// errMirror says that the rules do not respect the board's mirror.
var errMirror = errors.New("the rules do not treat the players alike by the board's mirror")

// unknownValue marks a value not computed yet while a database is built.
const unknownValue = -128

// byteArray is an array of int8 shared by goroutines, read and written
// atomically a byte at a time. A byte holds its value with the sign bit
// flipped, so that unknownValue is 0 and a value is written with one
// atomic OR, the same value by two goroutines alike.
type byteArray []atomic.Uint32

// newByteArray returns an array of n values, each unknownValue.
func newByteArray(n int64) byteArray {
	a := make(byteArray, (n+3)/4)
	adviseHugeSlice(a)
	return a
}

func (a byteArray) get(i int64) int8 { return int8(uint8(a[i>>2].Load()>>(8*(i&3))) ^ 0x80) }

// set sets value i, which must be unknownValue before (or v already).
func (a byteArray) set(i int64, v int8) {
	a[i>>2].Or(uint32(uint8(v)^0x80) << (8 * (i & 3)))
}

// dbBuild is the shared state of a database being built.
type dbBuild struct {
	ctx    context.Context
	g      *host.Game
	bk     *banks
	db     *endgameDB
	exact  byteArray   // the mover's margin to come, exactly
	noHalf atomic.Bool // a value breaks the parity
	// finals holds the caches of final margins (dbWorker.finals) the
	// workers of the last layer left, for those of the next.
	finals   []*finalCache
	finalsMu sync.Mutex
	done     atomic.Int64
	bare     atomic.Int64 // positions valued bare (see expandBare), with the checks
	// sites[p-1][i] is the site of the position's cells whose count is
	// the stored position's i-th: the sites in play, in the mirror's order
	// for Player 2 to move in a database of one side to move.
	sites [2][]int
}

// buildEndgame computes the database of g with at most k counters in
// play, on threads goroutines, reporting progress. It stores one side to
// move when the board has a mirror the rules respect, both otherwise.
func buildEndgame(ctx context.Context, g *host.Game, bk *banks, k, threads int, progress func(Progress)) (*endgameDB, error) {
	if k > MaxEndgame {
		return nil, fmt.Errorf("%w: at most %d counters in play", errNoDB, MaxEndgame)
	}
	sym := bk.mirror != nil
	for {
		db, err := buildEndgameWith(ctx, g, bk, k, threads, progress, sym, false)
		if errors.Is(err, errMirror) && sym {
			sym = false // built again, both sides to move
			continue
		}
		return db, err
	}
}

// buildEndgameWith is buildEndgame storing one side to move or both (sym),
// coding whole margins even where halves would do when whole is set (for
// tests: no shipped game breaks the parity).
func buildEndgameWith(ctx context.Context, g *host.Game, bk *banks, k, threads int, progress func(Progress), sym, whole bool) (*endgameDB, error) {
	b := newDBBuild(ctx, g, bk, k, sym)
	db := b.db
	start := time.Now()
	var mu sync.Mutex // serializes progress
	report := func() {
		if progress == nil || !mu.TryLock() {
			return
		}
		defer mu.Unlock()
		n := b.done.Load()
		progress(Progress{Phase: "endgame database", Positions: int(n), Done: float64(n) / float64(db.positions()), Bytes: b.bytes(), Elapsed: time.Since(start)})
	}
	for j := 0; j <= k; j++ {
		if err := b.layer(j, threads, report); err != nil {
			return nil, err
		}
	}
	// The values are coded once every value is known, and with it the
	// parity: in halves when every margin has the parity of its counters.
	db.half = !b.noHalf.Load() && !whole
	if err := b.encode(threads); err != nil {
		return nil, err
	}
	return db, nil
}

// newDBBuild starts the build of g's database of k counters, one side to
// move when sym is set.
func newDBBuild(ctx context.Context, g *host.Game, bk *banks, k int, sym bool) *dbBuild {
	db := newEndgameDB(len(bk.play), k, sym)
	db.own = bk.own[0]
	if sym {
		db.mirror = bk.mirror
	}
	b := &dbBuild{ctx: ctx, g: g, bk: bk, db: db, exact: newByteArray(db.positions())}
	b.sites[0] = bk.play
	b.sites[1] = bk.play
	if sym {
		b.sites[1] = make([]int, len(bk.play))
		for i, m := range db.mirror {
			b.sites[1][i] = bk.play[m]
		}
	}
	return b
}

// encode writes the 4-bit code of every position's exact value into the
// database, on threads goroutines each taking the next chunk of positions:
// one pass in the order of the index, each byte written by one goroutine,
// once the parity is known (rather than a locked OR a position while its
// layer is valued, into a second array, coded again when the parity
// breaks).
func (b *dbBuild) encode(threads int) error {
	db := b.db
	db.nib = make([]byte, db.bytes())
	adviseHugeSlice(db.nib)
	// About 64 chunks a goroutine, of an even number of positions so that
	// no two goroutines write the same byte.
	chunk := max(64, db.positions()/int64(64*threads)) &^ 1
	var next atomic.Int64
	err := onGoroutines(threads, func() error {
		counts := make([]int, db.n)
		for {
			c := next.Add(chunk) - chunk
			if c >= db.positions() || b.ctx.Err() != nil {
				return nil
			}
			b.encodeRange(counts, c, min(c+chunk, db.positions()))
		}
	})
	if err != nil {
		return err
	}
	return b.ctx.Err()
}

// encodeRange codes positions [from, to), from even.
func (b *dbBuild) encodeRange(counts []int, from, to int64) {
	db := b.db
	j, mover := db.locate(from, counts)
	for i := from; i < to; i++ {
		if i == db.offset[j+1] { // the next layer's first position
			j++
			db.unrank(counts, 0, j)
			mover = 1
		}
		db.nib[i>>1] |= db.encodeValue(int(b.exact.get(i)), j, db.share(counts, j, mover)) << (4 * (i & 1))
		if !db.sym && mover == 1 {
			mover = 2
			continue
		}
		mover = 1
		nextCounts(counts)
	}
}

// bytes is the memory a build holds.
func (b *dbBuild) bytes() int64 { return int64(len(b.exact)) * 4 }

// nextCounts makes counts (summing to j) the next way of putting them on
// the sites in the order of rank: the last site before the last one
// holding counters takes one more, and the rest of those go to the last
// site.
func nextCounts(counts []int) {
	t := len(counts) - 1
	for t > 0 && counts[t] == 0 {
		t--
	}
	if t == 0 {
		return // the last way: every counter on the first site
	}
	v := counts[t]
	counts[t] = 0
	counts[t-1]++
	counts[len(counts)-1] = v - 1
}

// dbChunk is the number of positions a goroutine takes at once.
const dbChunk = 1024

// layer values layer j on threads goroutines, each taking the next
// chunk of positions in the order of their index.
func (b *dbBuild) layer(j, threads int, report func()) error {
	db := b.db
	from, to := db.offset[j], db.offset[j+1]
	var next atomic.Int64
	next.Store(from)
	err := onGoroutines(threads, func() error {
		w := newDBWorker(b, j)
		defer w.close()
		err := w.run(&next, from, to, report)
		if err != nil {
			next.Store(to) // the others stop at their next chunk
		}
		return err
	})
	if err != nil {
		return err
	}
	return b.ctx.Err()
}

// onGoroutines runs work on n goroutines and returns the first error one
// of them returned, once all are done.
func onGoroutines(n int, work func() error) error {
	var firstErr error
	var errOnce sync.Once
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := work(); err != nil {
				errOnce.Do(func() { firstErr = err })
			}
		}()
	}
	wg.Wait()
	return firstErr
}

// run values the positions of the chunks it takes from next until the
// layer [from, to) is done. The counts of a chunk's first position are
// unranked, the others follow in order.
func (w *dbWorker) run(next *atomic.Int64, from, to int64, report func()) error {
	b, db := w.b, w.b.db
	counts := make([]int, db.n)
	for {
		c := next.Add(dbChunk) - dbChunk
		if c >= to {
			return nil
		}
		if err := b.ctx.Err(); err != nil {
			return err
		}
		end := min(c+dbChunk, to)
		r, mover := c-from, 1
		if !db.sym {
			r, mover = r/2, int(r%2)+1
		}
		db.unrank(counts, r, w.j)
		n := 0 // positions in the batch, the first n of w.batchFrames
		for i := c; i < end; i++ {
			if b.exact.get(i) == unknownValue {
				f := w.batchFrame(n)
				f.index, f.mover = i, mover
				copy(f.counts, counts)
				if n++; n == dbBatch {
					if err := w.valueBatch(w.batchFrames[:n]); err != nil {
						return err
					}
					n = 0
				}
			}
			if !db.sym && mover == 1 {
				mover = 2
				continue
			}
			mover = 1
			nextCounts(counts)
		}
		if err := w.valueBatch(w.batchFrames[:n]); err != nil {
			return err
		}
		b.done.Add(w.valued)
		b.bare.Add(w.bare)
		w.valued, w.bare = 0, 0
		report()
	}
}

// dbWorker values positions for one goroutine.
type dbWorker struct {
	b           *dbBuild
	j           int
	r           *host.Runner
	sc          *scorer
	frames      []*dbFrame // by depth of the recursion into the layer
	batchFrames []*dbFrame // the positions of a batch (valueBatch)
	stack       []int64    // the positions being valued, from the batch's down
	vals        []int
	checks      int
	valued      int64 // positions valued since the last report
	finals      *finalCache
	noBare      bool  // the game's positions cannot be set up bare (see expandBare)
	bare        int64 // positions valued bare since the last report
}

// finalCache remembers the final margins of finished games a move made,
// by the values of their positions: entry i (of a power of 2, chosen by
// a hash of the values) holds the hash, the width values of its position
// from vals[i*width] on, and Player 1's margin.
type finalCache struct {
	width  int
	keys   []uint64
	full   []bool
	margin []int32
	vals   []int32
}

// finalCacheSize is the most finished games a worker remembers, a power
// of 2 (4.8 MB for a game of 33 values a position).
const finalCacheSize = 1 << 15

// newFinalCache returns a cache of size entries (a power of 2) of
// positions of width values.
func newFinalCache(width, size int) *finalCache {
	return &finalCache{width: width, keys: make([]uint64, size), full: make([]bool, size),
		margin: make([]int32, size), vals: make([]int32, size*width)}
}

// hashValues is a hash of the values of a position, for the cache.
func hashValues(v host.PositionView) uint64 {
	h := uint64(14695981039346656037)
	for i := range v.Len() {
		h = (h ^ uint64(uint32(v.Value(i)))) * 1099511628211
	}
	return h ^ h>>29
}

// get returns the margin remembered for the position of v, whose hash is h.
func (c *finalCache) get(v host.PositionView, h uint64) (int, bool) {
	i := int(h & uint64(len(c.keys)-1))
	if !c.full[i] || c.keys[i] != h {
		return 0, false
	}
	vals := c.vals[i*c.width : (i+1)*c.width]
	if v.Len() != len(vals) {
		return 0, false
	}
	for k, x := range vals {
		if v.Value(k) != int(x) {
			return 0, false
		}
	}
	return int(c.margin[i]), true
}

// put remembers margin m for the position of v, whose hash is h.
func (c *finalCache) put(v host.PositionView, h uint64, m int) {
	if v.Len() != c.width {
		return
	}
	i := int(h & uint64(len(c.keys)-1))
	vals := c.vals[i*c.width : (i+1)*c.width]
	for k := range vals {
		vals[k] = int32(v.Value(k))
	}
	c.keys[i], c.full[i], c.margin[i] = h, true, int32(m)
}

// dbFrame is what valuing one position holds while its moves are valued.
type dbFrame struct {
	cur, kid   *host.State
	bcur, bkid *host.Bare // the same, bare (see expandBare)
	counts     []int
	alt        []int
	kids       []dbKid
	moves      int   // the moves of the position expand set up
	sign       int   // 1 when Player 1 moves in it, -1 otherwise
	index      int64 // a batch's position (valueBatch): its index and mover
	mover      int
	direct     int  // its value when done
	done       bool // expand valued it without its moves
}

func newDBWorker(b *dbBuild, j int) *dbWorker {
	w := &dbWorker{b: b, j: j, r: b.g.NewRunner(), sc: newScorer(b.g), finals: b.takeFinals()}
	w.r.SetContext(b.ctx)
	w.noBare = !w.r.PlaysBare()
	return w
}

func (w *dbWorker) close() {
	w.r.Close()
	w.b.keepFinals(w.finals)
}

// takeFinals returns a cache of final margins for a worker: one a worker
// of an earlier layer kept, or a new one. The games a layer's moves end
// are often those of the layers before it (the same banks and counts,
// reached with one counter more in play and one less banked).
func (b *dbBuild) takeFinals() *finalCache {
	b.finalsMu.Lock()
	defer b.finalsMu.Unlock()
	if n := len(b.finals); n > 0 {
		f := b.finals[n-1]
		b.finals = b.finals[:n-1]
		return f
	}
	// No more entries than the database has positions, at least 64.
	size := 64
	for size < finalCacheSize && int64(size) < b.db.positions() {
		size *= 2
	}
	return newFinalCache(b.bk.open.Len(), size)
}

// keepFinals keeps a worker's cache of final margins for a worker of the
// next layer.
func (b *dbBuild) keepFinals(f *finalCache) {
	b.finalsMu.Lock()
	defer b.finalsMu.Unlock()
	b.finals = append(b.finals, f)
}

// dbBatch is the number of positions of a chunk a worker plays the moves
// of before it reads their values: the reads of a batch wait for memory
// together.
const dbBatch = 16

// batchFrame returns the k-th frame of the worker's batch.
func (w *dbWorker) batchFrame(k int) *dbFrame {
	for len(w.batchFrames) <= k {
		w.batchFrames = append(w.batchFrames, w.newFrame())
	}
	return w.batchFrames[k]
}

// newFrame returns a frame for valuing one position.
func (w *dbWorker) newFrame() *dbFrame {
	n := w.b.db.n
	return &dbFrame{cur: w.b.g.Start(), kid: w.b.g.Start(), bcur: w.b.g.NewBare(), bkid: w.b.g.NewBare(),
		counts: make([]int, n), alt: make([]int, n)}
}

// valueBatch values the positions of frames (of the layer, in the order
// of their index, each frame's index, mover and counts set): it plays the
// moves of all, reads the values their moves reach, then values each
// (a position valued meanwhile, as one of an earlier one's moves, is
// skipped).
func (w *dbWorker) valueBatch(frames []*dbFrame) error {
	for _, f := range frames {
		v, done, err := w.expand(f, f.counts, 1, f.mover)
		if err != nil {
			return err
		}
		f.direct, f.done = v, done
	}
	for _, f := range frames {
		if !f.done {
			w.prefetch(f.kids[:f.moves])
		}
	}
	for _, f := range frames {
		if err := w.finishValue(f); err != nil {
			return err
		}
	}
	return nil
}

func (w *dbWorker) frame(depth int) *dbFrame {
	for len(w.frames) <= depth {
		w.frames = append(w.frames, w.newFrame())
	}
	return w.frames[depth]
}

// value returns the mover's margin to come of position i of the layer,
// whose counts and mover are given (the stored position's: Player 1 to
// move in a database of one side to move), computing it (and the values
// of the positions of the layer its moves reach) when it is not known
// yet.
func (w *dbWorker) value(i int64, counts []int, mover, depth int) (int, error) {
	b := w.b
	if v := b.exact.get(i); v != unknownValue {
		return int(v), nil
	}
	for _, s := range w.stack {
		if s == i {
			return 0, fmt.Errorf("%w: positions with %s in play can repeat", errNoDB, counters(w.j))
		}
	}
	if depth > 0 && depth%64 == 0 {
		if err := b.ctx.Err(); err != nil {
			return 0, err
		}
	}
	w.stack = append(w.stack, i)
	f := w.frame(depth)
	copy(f.counts, counts)
	v, err := w.evaluate(f, f.counts, 1, mover, depth)
	w.stack = w.stack[:len(w.stack)-1]
	if err != nil {
		return 0, err
	}
	return w.keep(f, i, v, mover, depth)
}

// finishValue values the batch's position of f, its moves played and
// their values read, unless it was valued meanwhile.
func (w *dbWorker) finishValue(f *dbFrame) error {
	if w.b.exact.get(f.index) != unknownValue {
		return nil
	}
	v := f.direct
	if !f.done {
		w.stack = append(w.stack, f.index)
		var err error
		v, err = w.best(f.kids[:f.moves], f.sign, 0, false)
		w.stack = w.stack[:len(w.stack)-1]
		if err != nil {
			return err
		}
	}
	_, err := w.keep(f, f.index, v, f.mover, 0)
	return err
}

// keep stores v, the value of position i (the counts of f, mover to
// move), and values some positions again as checks.
func (w *dbWorker) keep(f *dbFrame, i int64, v, mover, depth int) (int, error) {
	b, db := w.b, w.b.db
	if (v+w.j)%2 != 0 {
		b.noHalf.Store(true)
	}
	b.exact.set(i, int8(v))
	// Some positions are valued again with the banks on the other side
	// and split between the players (all but one with Player 1), so that
	// their sizes and parities differ (the value must not depend on
	// them), and, with a mirror, as their mirror image with Player 2 to
	// move (the value must be the same).
	if w.checks++; checkDue(w.checks) {
		for _, banker := range [...]int{2, bankSplit} {
			v2, err := w.evaluate(f, f.counts, banker, mover, depth)
			if err != nil {
				return 0, err
			}
			if v2 != v {
				return 0, fmt.Errorf("%w: the value of a position depends on what the banks hold", errNoDB)
			}
		}
		if db.sym {
			for k, m := range db.mirror {
				f.alt[k] = f.counts[m]
			}
			v3, err := w.evaluate(f, f.alt, 1, 2, depth)
			if err != nil {
				return 0, err
			}
			if v3 != v {
				return 0, errMirror
			}
		}
	}
	w.valued++
	return v, nil
}

// checkDue reports whether the c-th position a worker values in a layer
// (from 1) is valued again as a check: each of the first 64, every 61st
// of the first 256*61, every 1021st after. Each worker checks every
// layer: a small one position by position (a small game's layers are
// small, and one check in 61 would never come), a larger one densely,
// and a large one (millions of positions) thousands of times, where one
// check in 61 cost 3% of the build.
func checkDue(c int) bool {
	if c <= 64 {
		return true
	}
	if c <= 256*61 {
		return c%61 == 0
	}
	return c%1021 == 0
}

// evaluate sets up the position with counts on the sites in play, the
// other counters banked by banker and mover to move, and returns the
// mover's margin to come, from its moves' values (expand, then best).
func (w *dbWorker) evaluate(f *dbFrame, counts []int, banker, mover, depth int) (int, error) {
	v, done, err := w.expand(f, counts, banker, mover)
	if err != nil || done {
		return v, err
	}
	return w.best(f.kids[:f.moves], f.sign, depth, true)
}

// expand sets up the position of evaluate and plays its moves into
// f.kids (f.moves of them, f.sign the mover's sign); done says that its
// value v needs no move's value.
func (w *dbWorker) expand(f *dbFrame, counts []int, banker, mover int) (v int, done bool, err error) {
	bk, db := w.b.bk, w.b.db
	if w.vals == nil {
		w.vals = bk.values(nil, counts, banker, mover)
	} else {
		bk.setValues(w.vals, counts, banker, mover)
	}
	if !w.noBare {
		v, done, err := w.expandBare(f, mover)
		if !errors.Is(err, host.ErrScriptNeeded) {
			if err == nil {
				w.bare++
			}
			return v, done, err
		}
		// This position or one of its moves needs the script: it is
		// valued again on the full path.
	}
	if err := w.r.SetPositionValues(f.cur, w.vals); err != nil {
		return 0, true, w.setUpFailed(err)
	}
	bank, sign, err := opened(f.cur.PositionView(), f.cur.ToMove(), mover, bk)
	if err != nil {
		return 0, true, err
	}
	if f.cur.Over() {
		m, err := w.finalMargin(f.cur)
		return sign * (m - bank), true, err
	}
	// The moves are played here and their positions' indexes computed;
	// the values they reach are read after (prefetch), one after the
	// other, so that their memory is fetched at once.
	moves := len(f.cur.Moves())
	if moves == 0 {
		return 0, true, fmt.Errorf("%w: a position that is not over has no move", errNoDB)
	}
	kids := f.kidsOf(moves, db.n)
	for n := range moves {
		// The kid's own moves are not listed: a position of a smaller
		// layer is only read, one of this layer is set up again.
		if err := w.r.ApplyToUnlisted(f.kid, f.cur, n); err != nil {
			return 0, true, err
		}
		kid := &kids[n]
		if f.kid.Over() {
			fm, err := w.kidFinalMargin(f.kid)
			if err != nil {
				return 0, true, err
			}
			kid.index, kid.v = -1, fm-bank
			continue
		}
		if err := w.place(kid, f.kid.PositionView(), f.kid.ToMove(), bank); err != nil {
			return 0, true, err
		}
	}
	f.moves, f.sign = moves, sign
	return 0, false, nil
}

// place fills in kid from the view of the position a move made (not the
// game's end), whose player to move is mover, bank being the banks'
// difference before the move: its change of the banks, and where the
// stored position of its counts (in the mirror's order when it is stored
// as its mirror image) lies in the database.
func (w *dbWorker) place(kid *dbKid, pv host.PositionView, mover, bank int) error {
	b, bk, db := w.b, w.b.bk, w.b.db
	if !bk.fixedIn(pv) {
		return fmt.Errorf("%w: a move changes owners, hands or variables", errNoDB)
	}
	kid.mover = mover
	kid.v = bk.bankDiff(pv) - bank
	j, r, ok := db.readRank(pv, b.sites[mover-1], kid.counts, w.j)
	switch {
	case !ok:
		return fmt.Errorf("%w: a move brings counters back into play, or leaves a negative count", errNoDB)
	case j == w.j && kid.v != 0:
		return fmt.Errorf("%w: a move changes the banks without changing the counters in play", errNoDB)
	}
	kid.same = j == w.j
	if db.sym {
		kid.index = db.offset[j] + r
	} else {
		kid.index = db.offset[j] + 2*r + int64(mover-1)
	}
	return nil
}

// best is the mover's best margin to come over the moves' positions kids
// (sign 1 when Player 1 moves, -1 otherwise): a move's banked counters
// and the value of its position, read from a smaller layer or valued now
// in this one.
func (w *dbWorker) best(kids []dbKid, sign, depth int, read bool) (int, error) {
	db := w.b.db
	if read {
		w.prefetch(kids)
	}
	best := 0
	for n := range kids {
		kid := &kids[n]
		v := kid.v // for Player 1
		if kid.index >= 0 {
			var kv int
			if !kid.same {
				if kid.kv == unknownValue {
					return 0, fmt.Errorf("%w: a smaller layer is not complete", errNoDB)
				}
				kv = int(kid.kv)
			} else if kid.kv != unknownValue {
				kv = int(kid.kv)
			} else {
				storedMover := kid.mover
				if db.sym {
					storedMover = 1
				}
				var err error
				if kv, err = w.value(kid.index, kid.counts, storedMover, depth+1); err != nil {
					return 0, err
				}
			}
			if kid.mover != 1 {
				kv = -kv
			}
			v += kv
		}
		v *= sign // for the mover
		if n == 0 || v > best {
			best = v
		}
	}
	return best, nil
}

// prefetch reads the values known of the positions of kids (of the game
// not over), one after the other, so that they wait for memory together.
func (w *dbWorker) prefetch(kids []dbKid) {
	exact := w.b.exact
	for n := range kids {
		if kid := &kids[n]; kid.index >= 0 {
			kid.kv = exact.get(kid.index)
		}
	}
}

// expandBare is expand on bare positions (host.Bare), w.vals set up: the
// position and each move cost about what the game's rule parts cost. It
// returns host.ErrScriptNeeded when the position or a move needs a
// script function.
func (w *dbWorker) expandBare(f *dbFrame, mover int) (int, bool, error) {
	bk, db := w.b.bk, w.b.db
	if err := w.r.SetBare(f.bcur, w.vals); err != nil {
		if errors.Is(err, host.ErrScriptNeeded) {
			return 0, true, err
		}
		return 0, true, w.setUpFailed(err)
	}
	bank, sign, err := opened(f.bcur.PositionView(), f.bcur.ToMove(), mover, bk)
	if err != nil {
		return 0, true, err
	}
	moves := f.bcur.Moves()
	kids := f.kidsOf(moves, db.n)
	fullSet := false // f.cur set up on the full path, for the games the moves end
	for n := range moves {
		if err := w.r.PlayBare(f.bkid, f.bcur, n); err != nil {
			return 0, true, err
		}
		kid := &kids[n]
		pv := f.bkid.PositionView()
		if f.bkid.Over() {
			fm, ok := w.finals.get(pv, hashValues(pv))
			if !ok {
				// The final margin is the script's score and result:
				// the move is played again on the full path, which
				// must end in the same position.
				if !fullSet {
					if err := w.r.SetPositionValues(f.cur, w.vals); err != nil {
						return 0, true, w.setUpFailed(err)
					}
					fullSet = true
				}
				if err := w.r.ApplyToUnlisted(f.kid, f.cur, n); err != nil {
					return 0, true, err
				}
				if !f.kid.Over() || !f.kid.PositionView().Same(pv, 0, pv.Len()) {
					return 0, true, fmt.Errorf("%w: a move played bare ends in another position than on the full path", errNoDB)
				}
				if fm, err = w.kidFinalMargin(f.kid); err != nil {
					return 0, true, err
				}
			}
			kid.index, kid.v = -1, fm-bank
			continue
		}
		if err := w.place(kid, pv, f.bkid.ToMove(), bank); err != nil {
			return 0, true, err
		}
	}
	f.moves, f.sign = moves, sign
	return 0, false, nil
}

// setUpFailed is the error of a position the builder set up and the host
// refused: the build's context's when it stopped it, else no database.
func (w *dbWorker) setUpFailed(err error) error {
	if ctxErr := w.b.ctx.Err(); ctxErr != nil {
		return ctxErr
	}
	return fmt.Errorf("%w: %v", errNoDB, err)
}

// opened checks that a position set up with mover to move, whose values
// v shows, has mover to move (toMove), and returns the banks' difference
// and the sign of the mover's margins (1 for Player 1, -1 otherwise).
func opened(v host.PositionView, toMove, mover int, bk *banks) (bank, sign int, err error) {
	if toMove != mover {
		return 0, 0, fmt.Errorf("%w: a position set up with player %d to move has player %d to move", errNoDB, mover, toMove)
	}
	sign = 1
	if toMove != 1 {
		sign = -1
	}
	return bk.bankDiff(v), sign, nil
}

// kidsOf returns the frame's room for the positions of moves moves, each
// with counts for n sites.
func (f *dbFrame) kidsOf(moves, n int) []dbKid {
	for len(f.kids) < moves {
		f.kids = append(f.kids, dbKid{counts: make([]int, n)})
	}
	return f.kids[:moves]
}

// dbKid is what valuing a position keeps of the position after one of its
// moves.
type dbKid struct {
	index  int64 // its index in the database, -1 when the game is over
	same   bool  // in the layer being valued
	mover  int   // the player to move
	v      int   // the banks' change for Player 1, or the game's end's margin to come
	counts []int // the counts of its stored position
	kv     int8  // its value read (prefetch), unknownValue when not known
}

// kidFinalMargin is finalMargin of a finished game a move made from a
// position set up from its values, remembered by the values of its
// position: every such game has the same ply and no history but its
// parent's, so its score depends on its values only.
func (w *dbWorker) kidFinalMargin(s *host.State) (int, error) {
	v := s.PositionView()
	h := hashValues(v)
	if m, ok := w.finals.get(v, h); ok {
		return m, nil
	}
	m, err := w.finalMargin(s)
	if err != nil {
		return 0, err
	}
	w.finals.put(v, h, m)
	return m, nil
}

// finalMargin is Player 1's margin at the end of a finished game, checked
// to agree with its result.
func (w *dbWorker) finalMargin(s *host.State) (int, error) {
	v, err := w.sc.final(w.r, s)
	if err != nil {
		return 0, err
	}
	m := v.margin()
	if sign(m) != v.outcome() {
		return 0, fmt.Errorf("%w: a game ends with a margin of %d and a result that does not follow from it", errNoDB, m)
	}
	if abs(m) > w.b.bk.total {
		return 0, fmt.Errorf("%w: a margin of %d exceeds the counters of the game", errNoDB, m)
	}
	return m, nil
}

// counters is n counters, in words.
func counters(n int) string {
	if n == 1 {
		return "1 counter"
	}
	return fmt.Sprintf("%d counters", n)
}

func sign(n int) int {
	switch {
	case n > 0:
		return 1
	case n < 0:
		return -1
	}
	return 0
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// endgameDigest identifies how g's moves act on the positions of a
// database: it plays every move of positions drawn at random with up to
// min(k, 12) counters in play, either player to move, and hashes what each
// does (the token, the counters it leaves on each site in play, the player
// to move next, the change of the banks, the margin to come when it ends
// the game), with the sites in play and the mirror. Games whose digests
// agree share their databases (a database read from a file is checked
// against the rules besides).
func endgameDigest(g *host.Game, bk *banks, k int) (string, error) {
	h := sha256.New()
	var b []byte
	b = append(b, "matombo endgame digest 1\n"...)
	b = binary.AppendUvarint(b, uint64(len(bk.play)))
	b = binary.AppendUvarint(b, uint64(len(bk.mirror)))
	for _, m := range bk.mirror {
		b = binary.AppendUvarint(b, uint64(m))
	}
	for _, o := range bk.own[0] {
		b = appendBool(b, o)
	}
	b = append(b, bk.layout.fixedMid...)
	b = append(b, bk.layout.fixedEnd...)
	r := g.NewRunner()
	defer r.Close()
	sc := newScorer(g)
	rng := rand.New(rand.NewPCG(uint64(len(bk.play)), 1))
	cur, kid := g.Start(), g.Start()
	counts := make([]int, len(bk.play))
	var enc []byte
	for j := 1; j <= min(k, 12, bk.total); j++ {
		for sample := range 16 {
			clear(counts)
			for range j {
				counts[rng.IntN(len(counts))]++
			}
			mover := sample%2 + 1
			enc = bk.encode(enc[:0], counts, 1, mover)
			if err := r.SetPosition(cur, enc); err != nil {
				return "", fmt.Errorf("%w: %v", errNoDB, err)
			}
			bank := bk.bankDiff(cur.PositionView())
			b = binary.AppendUvarint(b, uint64(cur.ToMove()))
			b = appendBool(b, cur.Over())
			for _, m := range cur.Moves() {
				if err := r.ApplyTo(kid, cur, m); err != nil {
					return "", err
				}
				b = appendString(b, g.Token(m))
				b = binary.AppendUvarint(b, uint64(kid.ToMove()))
				b = binary.AppendVarint(b, int64(bk.bankDiff(kid.PositionView())-bank))
				if kid.Over() {
					v, err := sc.final(r, kid)
					if err != nil {
						return "", err
					}
					b = binary.AppendVarint(b, int64(v.outcome()))
					b = binary.AppendVarint(b, int64(v.margin()-bank))
				}
				for _, site := range bk.play {
					b = binary.AppendUvarint(b, uint64(kid.Count(site)))
				}
			}
			h.Write(b)
			b = b[:0]
		}
	}
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil)[:8]), nil
}

// buildThreads is the number of goroutines that build a database: the
// solve's, at most the machine's.
func buildThreads(n int) int { return max(1, min(n, runtime.NumCPU())) }
