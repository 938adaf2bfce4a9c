package solve

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/safefile"
)

// endgameMagic starts every endgame database file; the digit is the
// format's version.
const endgameMagic = "matombo endgame 2\n"

// endgamePath is the file of the database with at most k counters in
// play of the games whose moves have the given digest (see
// endgameDigest), in dir.
func endgamePath(dir string, g *host.Game, digest string, k int) string {
	return filepath.Join(dir, fmt.Sprintf("%s-%s.endgame-%d", g.Name(), digest, k))
}

// endgameHeader is the start of a database file: magic, digest, k, sites
// in play, whether it holds one side to move and stores halves, the
// mirror, Player 1's sites.
func endgameHeader(db *endgameDB) []byte {
	var b []byte
	b = append(b, endgameMagic...)
	b = appendString(b, db.digest)
	b = binary.AppendUvarint(b, uint64(db.k))
	b = binary.AppendUvarint(b, uint64(db.n))
	b = appendBool(b, db.sym)
	b = appendBool(b, db.half)
	for _, m := range db.mirror {
		b = binary.AppendUvarint(b, uint64(m))
	}
	for _, o := range db.own {
		b = appendBool(b, o)
	}
	return b
}

// writeEndgame writes the database: its header, the values (4 bits a
// position), and a SHA-256 checksum of all before it.
func writeEndgame(path string, db *endgameDB) error {
	return writeAtomic(path, func(w io.Writer) (int64, error) {
		h := sha256.New()
		b := endgameHeader(db)
		h.Write(b)
		h.Write(db.nib)
		n1, err := w.Write(b)
		if err != nil {
			return int64(n1), err
		}
		n2, err := w.Write(db.nib)
		if err != nil {
			return int64(n1 + n2), err
		}
		n3, err := w.Write(h.Sum(nil))
		return int64(n1 + n2 + n3), err
	})
}

// readEndgame reads the database of bk's sites with at most k counters in
// play and the given digest from its file, checking its checksum and that
// it is the database asked for.
func readEndgame(path string, bk *banks, digest string, k int) (*endgameDB, error) {
	f, err := safefile.Open(path, MaxFileBytes)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readEndgameFrom(f, f.Size, bk, digest, k)
}

// readEndgameFrom reads a database of size bytes from r.
func readEndgameFrom(r io.Reader, size int64, bk *banks, digest string, k int) (*endgameDB, error) {
	n := len(bk.play)
	if n < 1 || k < 0 || k > MaxEndgame {
		return nil, errors.New("no such database")
	}
	h := sha256.New()
	sr := &streamReader{r: newBufReader(r), h: h}
	if string(sr.bytes(len(endgameMagic))) != endgameMagic {
		return nil, errors.New("not an endgame database of this version")
	}
	d := sr.str()
	kk, nn := sr.uvarint(1<<16), sr.uvarint(1<<16)
	sym, half := sr.byte() == 1, sr.byte() == 1
	if sr.err != nil || d != digest || int(kk) != k || int(nn) != n {
		return nil, errors.New("the file holds another database")
	}
	db := newEndgameDB(n, k, sym)
	db.half, db.digest, db.own = half, digest, bk.own[0]
	if sym {
		if bk.mirror == nil {
			return nil, errors.New("the file's database uses a mirror this game does not have")
		}
		db.mirror = bk.mirror
		for _, m := range bk.mirror {
			if sr.uvarint(1<<16) != uint64(m) {
				return nil, errors.New("the file's database uses another mirror")
			}
		}
	}
	for _, o := range bk.own[0] {
		if (sr.byte() == 1) != o {
			return nil, errors.New("the file's database gives the players other sites")
		}
	}
	if sr.err != nil {
		return nil, fmt.Errorf("truncated endgame database: %w", sr.err)
	}
	header := int64(len(endgameHeader(db)))
	if size != header+db.bytes()+sha256.Size {
		return nil, errors.New("the file has the wrong size")
	}
	db.nib = make([]byte, db.bytes())
	adviseHugeSlice(db.nib)
	if _, err := io.ReadFull(sr.r, db.nib); err != nil {
		return nil, fmt.Errorf("truncated endgame database: %w", err)
	}
	h.Write(db.nib)
	sum := h.Sum(nil)
	sr.h = nil
	if string(sr.bytes(sha256.Size)) != string(sum) {
		return nil, errors.New("its checksum does not match its contents: the file was damaged or changed")
	}
	if db.positions()%2 == 1 && db.nib[len(db.nib)-1]>>4 != 0 {
		return nil, errors.New("a value is out of range")
	}
	return db, nil
}

// endgameCheckSample is the number of positions of a database read from a
// file that are checked against the rules by one move of lookahead.
const endgameCheckSample = 500

// checkEndgame checks positions of db drawn at random (and every position
// of a small one) against g's rules: the bounds a position's moves give,
// one move ahead, must agree with its own.
func checkEndgame(ctx context.Context, g *host.Game, bk *banks, db *endgameDB, samples int) error {
	r := g.NewRunner()
	defer r.Close()
	r.SetContext(ctx)
	sc := newScorer(g)
	cur, kid := g.Start(), g.Start()
	counts, kidCounts, scratch := make([]int, db.n), make([]int, db.n), make([]int, db.n)
	var enc []byte
	rng := rand.New(rand.NewPCG(uint64(db.positions()), 7))
	all := db.positions() <= int64(samples)
	n := int64(samples)
	if all {
		n = db.positions()
	}
	for s := int64(0); s < n; s++ {
		i := s
		if !all {
			i = rng.Int64N(db.positions())
		}
		j, mover := db.locate(i, counts)
		slo, shi := db.probe(counts, j, mover, scratch) // for Player 1
		enc = bk.encode(enc[:0], counts, 1, mover)
		if err := r.SetPosition(cur, enc); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return err
		}
		bank := bk.bankDiff(cur.PositionView())
		var dlo, dhi int
		if cur.Over() {
			v, err := sc.final(r, cur)
			if err != nil {
				return err
			}
			dlo, dhi = v.margin()-bank, v.margin()-bank
		} else {
			first := true
			for _, m := range cur.Moves() {
				if err := r.ApplyTo(kid, cur, m); err != nil {
					return err
				}
				var lo, hi int
				if kid.Over() {
					v, err := sc.final(r, kid)
					if err != nil {
						return err
					}
					lo, hi = v.margin()-bank, v.margin()-bank
				} else {
					kj := bk.readCounts(kid.PositionView(), kidCounts)
					if kj > j || !bk.fixedIn(kid.PositionView()) {
						return fmt.Errorf("a move leaves the database's positions")
					}
					lo, hi = db.probe(kidCounts, kj, kid.ToMove(), scratch)
					d := bk.bankDiff(kid.PositionView()) - bank
					lo, hi = lo+d, hi+d
				}
				switch {
				case first:
					dlo, dhi, first = lo, hi, false
				case mover == 1:
					dlo, dhi = max(dlo, lo), max(dhi, hi)
				default:
					dlo, dhi = min(dlo, lo), min(dhi, hi)
				}
			}
		}
		if dlo > shi || dhi < slo {
			return fmt.Errorf("a position with %d counters in play is worth %d to %d, and %d to %d by one move of lookahead", j, slo, shi, dlo, dhi)
		}
	}
	return nil
}

// loadOrBuildEndgame returns g's database with at most k counters in
// play: from its file when it is there and sound, else built and written.
// log, when not nil, hears why a file was not used or written.
func loadOrBuildEndgame(ctx context.Context, g *host.Game, bk *banks, k int, cfg *config, log func(string)) (*endgameDB, error) {
	digest, err := endgameDigest(g, bk, k)
	if err != nil {
		return nil, err
	}
	dir, derr := cfg.dir()
	path := ""
	if derr == nil {
		path = endgamePath(dir, g, digest, k)
		db, rerr := readEndgame(path, bk, digest, k)
		if rerr == nil {
			rerr = checkEndgame(ctx, g, bk, db, endgameCheckSample)
			if rerr == nil {
				return db, nil
			}
			if ctx.Err() != nil {
				return nil, canceled(ctx)
			}
			rerr = fmt.Errorf("its values do not agree with the rules: %w", rerr)
		}
		if !errors.Is(rerr, os.ErrNotExist) && log != nil {
			log(fmt.Sprintf("endgame database %s: %s; built again", path, fileReason(rerr)))
		}
	}
	db, err := buildEndgame(ctx, g, bk, k, buildThreads(cfg.threads), cfg.progress)
	if err != nil {
		if ctx.Err() != nil {
			return nil, canceled(ctx)
		}
		return nil, err
	}
	db.digest = digest
	if path != "" {
		if werr := writeEndgame(path, db); werr != nil && log != nil {
			log("endgame database not cached: " + werr.Error())
		}
	}
	return db, nil
}
