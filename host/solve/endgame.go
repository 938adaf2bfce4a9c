package solve

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/safefile"
)

// An endgame database holds the value of every position with at most k
// counters in play, for either player to move, whatever the banks hold:
// the margin the counters in play will still bring to Player 1, under
// perfect play (a number from -k to k). It is computed once by
// retrograde analysis, layer by layer (a move never brings counters back
// into play, so a position's moves lead to its own layer or to smaller
// ones), and stored in the cache folder.
type endgameDB struct {
	k      int
	n      int       // sites in play
	offset []int64   // index of the first position of each layer
	binom  [][]int64 // binom[a][b] = C(a, b)
	vals   []int8
}

// endgamePositions is the number of positions of a database: both players
// to move, every way to put at most k counters on n sites.
func endgamePositions(n, k int) int64 { return 2 * binomial(int64(k+n), int64(n)) }

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

func newEndgameDB(n, k int) *endgameDB {
	db := &endgameDB{k: k, n: n}
	db.binom = make([][]int64, k+n+1)
	for a := range db.binom {
		db.binom[a] = make([]int64, n+1)
		for b := 0; b <= n; b++ {
			db.binom[a][b] = binomial(int64(a), int64(b))
		}
	}
	db.offset = make([]int64, k+2)
	for j := 0; j <= k; j++ {
		db.offset[j+1] = db.offset[j] + 2*db.layerSize(j)
	}
	return db
}

// layerSize is the number of ways to put j counters on n sites.
func (db *endgameDB) layerSize(j int) int64 { return db.binom[j+db.n-1][db.n-1] }

// rank is the index of counts (summing to j) within layer j.
func (db *endgameDB) rank(counts []int, j int) int64 {
	r := int64(0)
	rem := j
	for i := 0; i < db.n-1; i++ {
		parts := db.n - 1 - i // sites after i
		for v := 0; v < counts[i]; v++ {
			r += db.binom[rem-v+parts-1][parts-1]
		}
		rem -= counts[i]
	}
	return r
}

// unrank sets counts to the r-th way of putting j counters on the sites.
func (db *endgameDB) unrank(counts []int, r int64, j int) {
	rem := j
	for i := 0; i < db.n-1; i++ {
		parts := db.n - 1 - i
		v := 0
		for {
			c := db.binom[rem-v+parts-1][parts-1]
			if r < c {
				break
			}
			r -= c
			v++
		}
		counts[i] = v
		rem -= v
	}
	counts[db.n-1] = rem
}

// index is the position of counts (j counters) with player p to move.
func (db *endgameDB) index(counts []int, j, p int) int64 {
	return db.offset[j] + 2*db.rank(counts, j) + int64(p-1)
}

// bytes is the memory of the database's values.
func (db *endgameDB) bytes() int64 { return db.offset[db.k+1] }

// errNoDB is wrapped by the errors that say why a game gets no database.
var errNoDB = errors.New("no endgame database")

// buildEndgame computes the database of g with at most k counters in
// play, reporting progress.
func buildEndgame(ctx context.Context, g *host.Game, bk *banks, k, threads int, progress func(Progress)) (*endgameDB, error) {
	db := newEndgameDB(len(bk.play), k)
	if k > 127 {
		return nil, fmt.Errorf("%w: at most 127 counters in play", errNoDB)
	}
	db.vals = make([]int8, db.bytes())
	start := time.Now()
	var mu sync.Mutex // serializes progress
	for j := 0; j <= k; j++ {
		if err := db.buildLayer(ctx, g, bk, j, threads, func(done int64) {
			if progress == nil {
				return
			}
			mu.Lock()
			defer mu.Unlock()
			all := db.bytes()
			progress(Progress{Phase: "endgame database", Positions: int(db.offset[j] + done), Done: float64(db.offset[j]+done) / float64(all), Bytes: db.bytes(), Elapsed: time.Since(start)})
		}); err != nil {
			return nil, err
		}
	}
	return db, nil
}

// layerResult is what expanding one position of a layer found: the best
// margin among the moves that leave the layer (or end the game), and the
// positions of the same layer its moves reach.
type layerNode struct {
	best    int16 // Player 1's margin by the best way out, relative to the banks; noExit if none
	kidFrom int32 // its kids are kids[kidFrom:kidTo]
	kidTo   int32
}

const noExit = int16(-32768)

// buildLayer values layer j: the moves of each position are played (in
// parallel), then the positions are valued in an order where the moves
// within the layer come first.
func (db *endgameDB) buildLayer(ctx context.Context, g *host.Game, bk *banks, j, threads int, report func(int64)) error {
	size := 2 * db.layerSize(j)
	nodes := make([]layerNode, size)
	type chunk struct {
		from, to int64
		kids     []int32
	}
	const chunkSize = 4096
	nChunks := (size + chunkSize - 1) / chunkSize
	chunks := make([]chunk, nChunks)
	var next, done atomic.Int64
	var firstErr error
	var errOnce sync.Once
	var wg sync.WaitGroup
	for w := 0; w < threads; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			x := newLayerWorker(g, bk, db, j)
			defer x.close()
			for {
				c := next.Add(1) - 1
				if c >= nChunks || ctx.Err() != nil {
					return
				}
				ch := &chunks[c]
				ch.from, ch.to = c*chunkSize, min((c+1)*chunkSize, size)
				for i := ch.from; i < ch.to; i++ {
					if err := x.expand(i, &nodes[i], &ch.kids); err != nil {
						errOnce.Do(func() { firstErr = err })
						next.Store(nChunks)
						return
					}
				}
				report(done.Add(ch.to - ch.from))
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	// Flatten the kids: node i's kids are in its chunk, from kidFrom.
	var kids []int32
	for c := range chunks {
		base := int32(len(kids))
		kids = append(kids, chunks[c].kids...)
		for i := chunks[c].from; i < chunks[c].to; i++ {
			nodes[i].kidFrom += base
			nodes[i].kidTo += base
		}
		chunks[c].kids = nil
	}
	// Value in depth-first post-order; a move back onto the walk is a cycle.
	const (
		unseen = iota
		onWalk
		valued
	)
	state := make([]uint8, size)
	base := db.offset[j]
	type fr struct {
		i    int64
		next int32
	}
	var walk []fr
	value := func(i int64) {
		nd := &nodes[i]
		p1 := i%2 == 0
		best := int(nd.best)
		have := nd.best != noExit
		for _, kid := range kids[nd.kidFrom:nd.kidTo] {
			v := int(db.vals[base+int64(kid)])
			if !have || (p1 && v > best) || (!p1 && v < best) {
				best, have = v, true
			}
		}
		db.vals[base+i] = int8(best)
	}
	for r := int64(0); r < size; r++ {
		if state[r] != unseen {
			continue
		}
		walk = append(walk[:0], fr{i: r, next: nodes[r].kidFrom})
		state[r] = onWalk
		for len(walk) > 0 {
			f := &walk[len(walk)-1]
			if f.next < nodes[f.i].kidTo {
				kid := int64(kids[f.next])
				f.next++
				switch state[kid] {
				case onWalk:
					return fmt.Errorf("%w: positions with %d counters in play can repeat", errNoDB, j)
				case unseen:
					state[kid] = onWalk
					walk = append(walk, fr{i: kid, next: nodes[kid].kidFrom})
				}
				continue
			}
			value(f.i)
			state[f.i] = valued
			walk = walk[:len(walk)-1]
		}
	}
	return nil
}

// layerWorker plays the moves of a layer's positions for one goroutine.
type layerWorker struct {
	g         *host.Game
	bk        *banks
	db        *endgameDB
	j         int
	r         *host.Runner
	sc        *scorer
	cur, kid  *host.State
	counts    []int
	kidCounts []int
	enc, buf  []byte
	moves     []host.Move
}

func newLayerWorker(g *host.Game, bk *banks, db *endgameDB, j int) *layerWorker {
	return &layerWorker{g: g, bk: bk, db: db, j: j, r: g.NewRunner(), sc: newScorer(g), cur: g.Start(), kid: g.Start(),
		counts: make([]int, db.n), kidCounts: make([]int, db.n)}
}

func (x *layerWorker) close() { x.r.Close() }

// expand plays the moves of position i of the layer (banks with Player 1)
// and records its way out and its kids in the layer. Every 61st position
// is played again with the banks with Player 2, to check that what the
// counters in play bring does not depend on the banks.
func (x *layerWorker) expand(i int64, nd *layerNode, kids *[]int32) error {
	x.db.unrank(x.counts, i/2, x.j)
	toMove := int(i%2) + 1
	nd.kidFrom = int32(len(*kids))
	best, err := x.exits(x.counts, 1, toMove, kids)
	if err != nil {
		return err
	}
	nd.best = best
	nd.kidTo = int32(len(*kids))
	if i%61 == 0 {
		var other []int32
		b2, err := x.exits(x.counts, 2, toMove, &other)
		if err != nil {
			return err
		}
		if b2 != best || len(other) != int(nd.kidTo-nd.kidFrom) {
			return fmt.Errorf("%w: the value of a position depends on what the banks hold", errNoDB)
		}
	}
	return nil
}

// exits sets up the position and returns Player 1's best margin (relative
// to the banks) among its moves that leave the layer, noExit when there is
// none; the moves within the layer are appended to kids (their rank in
// the layer).
func (x *layerWorker) exits(counts []int, banker, toMove int, kids *[]int32) (int16, error) {
	bk, db := x.bk, x.db
	x.enc = bk.encode(x.enc[:0], counts, banker, toMove)
	if err := x.r.SetPosition(x.cur, x.enc); err != nil {
		return 0, fmt.Errorf("%w: %v", errNoDB, err)
	}
	bank := bk.bankDiff(x.cur)
	if x.cur.Over() {
		m, err := x.finalMargin(x.cur)
		return int16(m - bank), err
	}
	p1 := x.cur.ToMove() == 1
	best, have := 0, false
	x.moves = append(x.moves[:0], x.cur.Moves()...)
	for _, m := range x.moves {
		x.kid.CopyFrom(x.cur)
		if err := x.r.Apply(x.kid, m); err != nil {
			return 0, err
		}
		var v int
		if x.kid.Over() {
			fm, err := x.finalMargin(x.kid)
			if err != nil {
				return 0, err
			}
			v = fm - bank
		} else {
			if !bk.fixedAsOpening(x.kid, x.buf) {
				return 0, fmt.Errorf("%w: a move changes owners, hands or variables", errNoDB)
			}
			j := 0
			for i, site := range bk.play {
				x.kidCounts[i] = x.kid.Count(site)
				j += x.kidCounts[i]
			}
			switch {
			case j > x.j:
				return 0, fmt.Errorf("%w: a move brings counters back into play", errNoDB)
			case j == x.j:
				if bk.bankDiff(x.kid) != bank {
					return 0, fmt.Errorf("%w: a move changes the banks without changing the counters in play", errNoDB)
				}
				r := db.rank(x.kidCounts, j)*2 + int64(x.kid.ToMove()-1)
				*kids = append(*kids, int32(r))
				continue
			default:
				v = bk.bankDiff(x.kid) - bank + int(db.vals[db.index(x.kidCounts, j, x.kid.ToMove())])
			}
		}
		if !have || (p1 && v > best) || (!p1 && v < best) {
			best, have = v, true
		}
	}
	if !have {
		return noExit, nil
	}
	return int16(best), nil
}

// finalMargin is Player 1's margin at the end of a finished game, checked
// to agree with its result.
func (x *layerWorker) finalMargin(s *host.State) (int, error) {
	v, err := x.sc.final(x.r, s)
	if err != nil {
		return 0, err
	}
	m := v.margin()
	if sign(m) != v.outcome() {
		return 0, fmt.Errorf("%w: a game ends with a margin of %d and a result that does not follow from it", errNoDB, m)
	}
	if abs(m) > x.bk.total {
		return 0, fmt.Errorf("%w: a margin of %d exceeds the counters of the game", errNoDB, m)
	}
	return m, nil
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

// lookup returns Player 1's margin to come at s, when s is in the
// database.
func (db *endgameDB) lookup(bk *banks, s *host.State, counts []int, buf []byte) (int, bool) {
	j := 0
	for i, site := range bk.play {
		counts[i] = s.Count(site)
		j += counts[i]
	}
	if j > db.k || !bk.fixedAsOpening(s, buf) {
		return 0, false
	}
	return int(db.vals[db.index(counts, j, s.ToMove())]), true
}

// endgameMagic starts every endgame database file.
const endgameMagic = "matombo endgame 1\n"

// endgamePath is the file of g's database with at most k counters in play.
func endgamePath(g *host.Game, k int) (string, error) {
	dir, err := cacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, fmt.Sprintf("%s-%s.endgame-%d", g.Name(), g.Fingerprint(), k)), nil
}

// writeEndgame writes the database: magic, game, fingerprint, k, sites in
// play, the values, and a SHA-256 checksum of all before it.
func writeEndgame(path string, g *host.Game, db *endgameDB) error {
	return writeAtomic(path, func(w io.Writer) (int64, error) {
		h := sha256.New()
		var b []byte
		b = append(b, endgameMagic...)
		b = appendString(b, g.Name())
		b = appendString(b, g.Fingerprint())
		b = binary.AppendUvarint(b, uint64(db.k))
		b = binary.AppendUvarint(b, uint64(db.n))
		h.Write(b)
		vals := unsafeBytes(db.vals)
		h.Write(vals)
		n1, err := w.Write(b)
		if err != nil {
			return int64(n1), err
		}
		n2, err := w.Write(vals)
		if err != nil {
			return int64(n1 + n2), err
		}
		n3, err := w.Write(h.Sum(nil))
		return int64(n1 + n2 + n3), err
	})
}

// readEndgame reads g's database with at most k counters in play (n
// sites in play) from its file, checking its checksum and that it is g's.
func readEndgame(path string, g *host.Game, n, k int) (*endgameDB, error) {
	f, err := safefile.Open(path, MaxFileBytes)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readEndgameFrom(f, f.Size, g, n, k)
}

// readEndgameFrom reads a database of size bytes from r.
func readEndgameFrom(r io.Reader, size int64, g *host.Game, n, k int) (*endgameDB, error) {
	if n < 1 || k < 0 || k > MaxEndgame {
		return nil, errors.New("no such database")
	}
	db := newEndgameDB(n, k)
	h := sha256.New()
	sr := &streamReader{r: newBufReader(r), h: h}
	if string(sr.bytes(len(endgameMagic))) != endgameMagic {
		return nil, errors.New("not an endgame database of this version")
	}
	if name, fp := sr.str(), sr.str(); name != g.Name() || fp != g.Fingerprint() {
		return nil, fmt.Errorf("the file holds a database of %s (%s), not of this %s", name, fp, g.Name())
	}
	if kk, nn := sr.uvarint(1<<16), sr.uvarint(1<<16); int(kk) != k || int(nn) != n || sr.err != nil {
		return nil, errors.New("the file's database has another size")
	}
	header := int64(len(endgameMagic)) + int64(len(appendString(appendString(nil, g.Name()), g.Fingerprint()))) +
		int64(len(binary.AppendUvarint(binary.AppendUvarint(nil, uint64(k)), uint64(n))))
	if size != header+db.bytes()+sha256.Size {
		return nil, errors.New("the file has the wrong size")
	}
	db.vals = make([]int8, db.bytes())
	vals := unsafeBytes(db.vals)
	if _, err := io.ReadFull(sr.r, vals); err != nil {
		return nil, fmt.Errorf("truncated endgame database: %w", err)
	}
	h.Write(vals)
	sum := h.Sum(nil)
	sr.h = nil
	if string(sr.bytes(sha256.Size)) != string(sum) {
		return nil, errors.New("its checksum does not match its contents: the file was damaged or changed")
	}
	for _, v := range db.vals {
		if int(v) > k || int(v) < -k {
			return nil, errors.New("a value is out of range")
		}
	}
	return db, nil
}

// loadOrBuildEndgame returns g's database with at most k counters in
// play: from its file when it is there and sound, else built and written.
func loadOrBuildEndgame(ctx context.Context, g *host.Game, bk *banks, k, threads int, progress func(Progress), log func(string)) (*endgameDB, error) {
	path, err := endgamePath(g, k)
	if err == nil {
		db, rerr := readEndgame(path, g, len(bk.play), k)
		if rerr == nil {
			return db, nil
		}
		if !errors.Is(rerr, os.ErrNotExist) && log != nil {
			log(fmt.Sprintf("endgame database %s: %v; built again", path, rerr))
		}
	}
	db, err := buildEndgame(ctx, g, bk, k, threads, progress)
	if err != nil {
		return nil, err
	}
	if path != "" {
		if werr := writeEndgame(path, g, db); werr != nil && log != nil {
			log("endgame database not cached: " + werr.Error())
		}
	}
	return db, nil
}
