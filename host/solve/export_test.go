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

// ReadEndgame reads an endgame database of g (for the fuzz test).
func ReadEndgame(data []byte, g *host.Game, n, k int) error {
	_, err := readEndgameFrom(bytes.NewReader(data), int64(len(data)), g, n, k)
	return err
}

// EndgameBytes builds g's database of k counters and returns its file.
func EndgameBytes(g *host.Game, k int) ([]byte, int, error) {
	bk, err := findBanks(g)
	if err != nil {
		return nil, 0, err
	}
	db, err := buildEndgame(context.Background(), g, bk, k, 1, nil)
	if err != nil {
		return nil, 0, err
	}
	path := filepath.Join(os.TempDir(), fmt.Sprintf("endgame-%d-%d", os.Getpid(), k))
	defer os.Remove(path)
	if err := writeEndgame(path, g, db); err != nil {
		return nil, 0, err
	}
	b, err := os.ReadFile(path)
	return b, len(bk.play), err
}
