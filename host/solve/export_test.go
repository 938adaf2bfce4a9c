package solve

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"

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

// BankedPosition returns the values and the encoding the banks of g make
// of the position with counts on the sites in play, the rest banked by
// banker, toMove to move (for tests).
func BankedPosition(g *host.Game, counts []int, banker, toMove int) ([]int, []byte, error) {
	bk, err := findBanks(g)
	if err != nil {
		return nil, nil, err
	}
	return bk.values(nil, counts, banker, toMove), bk.encode(nil, counts, banker, toMove), nil
}
