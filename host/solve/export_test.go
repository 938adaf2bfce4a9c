package solve

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/matombo/matombo/host"
)

// SwapWinsAndLosses turns every value of a table solution into the
// opponent's, as a tampered cache file would (for tests).
func SwapWinsAndLosses(sol *Solution) {
	for i := int32(0); int(i) < sol.val.len(); i++ {
		*sol.val.at(i) = -*sol.val.at(i)
	}
}

// ReadEndgame reads an endgame database file of g with the given digest
// and k (for the fuzz test).
func ReadEndgame(data []byte, g *host.Game, digest string, k int) error {
	bk, err := findBanks(g)
	if err != nil {
		return err
	}
	_, err = readEndgameFrom(bytes.NewReader(data), int64(len(data)), bk, digest, k)
	return err
}

// EndgameBytes builds g's database of k counters and returns its file and
// its digest.
func EndgameBytes(g *host.Game, k int) ([]byte, string, error) {
	bk, err := findBanks(g)
	if err != nil {
		return nil, "", err
	}
	db, err := buildEndgame(context.Background(), g, bk, k, 1, nil)
	if err != nil {
		return nil, "", err
	}
	db.digest, err = endgameDigest(g, bk, k)
	if err != nil {
		return nil, "", err
	}
	path := filepath.Join(os.TempDir(), fmt.Sprintf("endgame-%d-%d", os.Getpid(), k))
	defer os.Remove(path)
	if err := writeEndgame(path, db); err != nil {
		return nil, "", err
	}
	b, err := os.ReadFile(path)
	return b, db.digest, err
}

// EndgameBareShare builds g's database of k counters on one goroutine and
// returns the positions it valued bare and all it valued, the checks'
// second valuations included (a database's position may be valued again
// on the full path after a move needed the script).
func EndgameBareShare(g *host.Game, k int) (bare, all int64, err error) {
	bk, err := findBanks(g)
	if err != nil {
		return 0, 0, err
	}
	b := newDBBuild(context.Background(), g, bk, k, bk.mirror != nil)
	for j := 0; j <= k; j++ {
		if err := b.layer(j, 1, func() {}); err != nil {
			return 0, 0, err
		}
	}
	return b.bare.Load(), b.done.Load(), nil
}

// BankSplit is the banker of positions whose banked counters are split
// (all but one with Player 1, one with Player 2), for tests.
const BankSplit = bankSplit

// BankedPosition returns the values and the encoding the banks of g make
// of the position with counts on the sites in play, the rest banked by
// banker, toMove to move (for tests). It checks that setValues makes the
// same values from those of other positions (every counter banked, by
// either player or split, either player to move).
func BankedPosition(g *host.Game, counts []int, banker, toMove int) ([]int, []byte, error) {
	bk, err := findBanks(g)
	if err != nil {
		return nil, nil, err
	}
	vals := bk.values(nil, counts, banker, toMove)
	other := make([]int, len(counts))
	for _, b := range []int{1, 2, bankSplit} {
		for m := 1; m <= 2; m++ {
			re := bk.values(nil, other, b, m)
			bk.setValues(re, counts, banker, toMove)
			if !slices.Equal(re, vals) {
				return nil, nil, fmt.Errorf("setValues from banker %d, %d to move: %v, values: %v", b, m, re, vals)
			}
		}
	}
	return vals, bk.encode(nil, counts, banker, toMove), nil
}

// EndgameMatchesReference builds g's database of k counters with threads
// goroutines (one side to move and the other by the mirror when sym and
// the board has one, else both) and checks every value against a plain
// recursion that sets up each position from its values and plays its
// moves one by one: the same 4-bit codes, the same parity coding (whole
// margins, when whole is set, where halves would do). It returns the
// number of positions compared.
func EndgameMatchesReference(g *host.Game, k, threads int, sym, whole bool) (int64, error) {
	bk, err := findBanks(g)
	if err != nil {
		return 0, err
	}
	sym = sym && bk.mirror != nil
	db, err := buildEndgameWith(context.Background(), g, bk, k, threads, nil, sym, whole)
	if err != nil {
		return 0, err
	}
	ref, err := referenceEndgame(g, bk, k, sym, whole)
	if err != nil {
		return 0, err
	}
	if db.half != ref.half {
		return 0, fmt.Errorf("the database codes halves: %v, the reference: %v", db.half, ref.half)
	}
	for i := int64(0); i < db.positions(); i++ {
		if db.code(i) != ref.code(i) {
			return i, fmt.Errorf("position %d: code %d, the reference's %d", i, db.code(i), ref.code(i))
		}
	}
	return db.positions(), nil
}

// referenceEndgame values the positions of a database by plain recursion
// with a memo, one at a time, each set up from its values.
func referenceEndgame(g *host.Game, bk *banks, k int, sym, whole bool) (*endgameDB, error) {
	db := newEndgameDB(len(bk.play), k, sym)
	db.own = bk.own[0]
	if sym {
		db.mirror = bk.mirror
	}
	r := g.NewRunner()
	defer r.Close()
	sc := newScorer(g)
	exact := make([]int, db.positions())
	for i := range exact {
		exact[i] = unknownValue
	}
	layerOf := func(i int64) int {
		j := 0
		for db.offset[j+1] <= i {
			j++
		}
		return j
	}
	var value func(i int64, depth int) (int, error)
	value = func(i int64, depth int) (int, error) {
		if exact[i] != unknownValue {
			return exact[i], nil
		}
		if depth > 10000 {
			return 0, errors.New("too deep")
		}
		j := layerOf(i)
		rk, mover := i-db.offset[j], 1
		if !sym {
			rk, mover = rk/2, int(rk%2)+1
		}
		counts := make([]int, db.n)
		db.unrank(counts, rk, j)
		cur := g.Start()
		if err := r.SetPositionValues(cur, bk.values(nil, counts, 1, mover)); err != nil {
			return 0, err
		}
		bank := bk.bankDiff(cur.PositionView())
		final := func(s *host.State) (int, error) {
			v, err := sc.final(r, s)
			return v.margin(), err
		}
		var best int
		if cur.Over() {
			m, err := final(cur)
			if err != nil {
				return 0, err
			}
			best = m - bank
			if mover != 1 {
				best = -best
			}
		} else {
			first := true
			for _, m := range cur.AppendMoves(nil) {
				kid := g.Start()
				if err := r.ApplyTo(kid, cur, m); err != nil {
					return 0, err
				}
				var v int
				if kid.Over() {
					fm, err := final(kid)
					if err != nil {
						return 0, err
					}
					v = fm - bank
				} else {
					kc := make([]int, db.n)
					kj := bk.readCounts(kid.PositionView(), kc)
					ki, _ := db.index(kc, kj, kid.ToMove(), make([]int, db.n))
					kv, err := value(ki, depth+1)
					if err != nil {
						return 0, err
					}
					if kid.ToMove() != 1 {
						kv = -kv
					}
					v = bk.bankDiff(kid.PositionView()) - bank + kv
				}
				if mover != 1 {
					v = -v
				}
				if first || v > best {
					best, first = v, false
				}
			}
		}
		exact[i] = best
		return best, nil
	}
	db.half = !whole
	for i := range exact {
		v, err := value(int64(i), 0)
		if err != nil {
			return nil, err
		}
		if (v+layerOf(int64(i)))%2 != 0 {
			db.half = false
		}
	}
	db.nib = make([]byte, db.bytes())
	counts := make([]int, db.n)
	for i := range exact {
		j := layerOf(int64(i))
		rk, mover := int64(i)-db.offset[j], 1
		if !sym {
			rk, mover = rk/2, int(rk%2)+1
		}
		db.unrank(counts, rk, j)
		db.nib[i/2] |= db.encodeValue(exact[i], j, db.moverShare(counts, mover)) << (4 * (i % 2))
	}
	return db, nil
}

// BuildEndgame builds g's database of k counters on threads goroutines
// and returns its positions (for benchmarks).
func BuildEndgame(g *host.Game, k, threads int) (int64, error) {
	bk, err := findBanks(g)
	if err != nil {
		return 0, err
	}
	db, err := buildEndgame(context.Background(), g, bk, k, threads, nil)
	if err != nil {
		return 0, err
	}
	return db.positions(), nil
}
