package solve

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/matombo/matombo/host"
)

// CachePath is the file that caches g's solution: under the user's cache
// directory (see os.UserCacheDir), in matombo/solve, named by the game and
// its fingerprint (Game.Fingerprint).
func CachePath(g *host.Game) (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("solution cache: %w", err)
	}
	return filepath.Join(dir, "matombo", "solve", g.Name()+"-"+g.Fingerprint()+".solution"), nil
}

// LoadCached reads g's cached solution. When there is none the error
// satisfies errors.Is(err, fs.ErrNotExist).
func LoadCached(g *host.Game) (*Solution, error) {
	path, err := CachePath(g)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sol, err := Read(f, g)
	if err != nil {
		return nil, fmt.Errorf("cached solution %s: %w", path, err)
	}
	return sol, nil
}

// SaveCached writes the solution to g's cache file and returns its path.
func SaveCached(sol *Solution, g *host.Game) (string, error) {
	path, err := CachePath(g)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", fmt.Errorf("solution cache: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".solution-*")
	if err != nil {
		return "", fmt.Errorf("solution cache: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := sol.WriteTo(tmp); err != nil {
		tmp.Close()
		return "", fmt.Errorf("solution cache %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return "", fmt.Errorf("solution cache %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return "", fmt.Errorf("solution cache: %w", err)
	}
	return path, nil
}

// magic starts every solution file; the digit is the format's version.
const magic = "matombo solution 2\n"

// WriteTo writes the solution in its binary form: a header naming the game
// and its fingerprint, then each position's encoding, value, distance,
// player to move and terminal flag.
func (sol *Solution) WriteTo(w io.Writer) (int64, error) {
	bw := bufio.NewWriter(w)
	var b []byte
	b = append(b, magic...)
	b = appendString(b, sol.game)
	b = appendString(b, sol.fingerprint)
	b = binary.AppendUvarint(b, uint64(len(sol.value)))
	encs := make([]string, len(sol.value))
	for enc, id := range sol.index {
		encs[id] = enc
	}
	total := int64(0)
	for id, enc := range encs {
		b = appendString(b, enc)
		flags := byte(sol.value[id] + 1)
		if sol.terminal[id] {
			flags |= 4
		}
		b = append(b, flags, sol.toMove[id])
		b = binary.AppendVarint(b, int64(sol.plies[id]))
		if len(b) > 1<<16 {
			n, err := bw.Write(b)
			total += int64(n)
			if err != nil {
				return total, err
			}
			b = b[:0]
		}
	}
	n, err := bw.Write(b)
	total += int64(n)
	if err != nil {
		return total, err
	}
	return total, bw.Flush()
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// Read reads a solution written by WriteTo and checks that it belongs to g.
func Read(r io.Reader, g *host.Game) (*Solution, error) {
	br := bufio.NewReader(r)
	head := make([]byte, len(magic))
	if _, err := io.ReadFull(br, head); err != nil || string(head) != magic {
		return nil, errors.New("not a matombo solution file (or an older format)")
	}
	sr := streamReader{r: br}
	sol := &Solution{game: sr.str(), fingerprint: sr.str(), codec: codec{g: g}}
	if sr.err != nil {
		return nil, sr.err
	}
	if fp := g.Fingerprint(); sol.fingerprint != fp || sol.game != g.Name() {
		return nil, fmt.Errorf("the file holds a solution of %s with fingerprint %s, not of this %s (%s)", sol.game, sol.fingerprint, g.Name(), fp)
	}
	n := int(sr.uvarint(1 << 31))
	sol.index = make(map[string]int32, min(n, 1<<20))
	for id := 0; id < n && sr.err == nil; id++ {
		enc := sr.str()
		flags := sr.byte()
		tm := sr.byte()
		plies, err := binary.ReadVarint(br)
		if err != nil && sr.err == nil {
			sr.err = err
		}
		if sr.err != nil {
			break
		}
		if flags&3 > 2 {
			return nil, fmt.Errorf("position %d: bad value %d", id, flags&3)
		}
		sol.index[enc] = int32(id)
		sol.value = append(sol.value, Value(flags&3)-1)
		sol.terminal = append(sol.terminal, flags&4 != 0)
		if flags&4 != 0 {
			sol.terminals++
		}
		sol.toMove = append(sol.toMove, tm)
		sol.plies = append(sol.plies, int32(plies))
	}
	if sr.err != nil {
		return nil, fmt.Errorf("truncated or damaged solution file: %w", sr.err)
	}
	if len(sol.index) != n {
		return nil, errors.New("damaged solution file: a position occurs twice")
	}
	if id, ok := sol.index[string(sol.key(nil, g.Start()))]; !ok || id != 0 {
		return nil, errors.New("damaged solution file: the opening is not its first position")
	}
	return sol, nil
}

// streamReader reads the fields of a solution file and keeps the first
// error.
type streamReader struct {
	r   *bufio.Reader
	err error
}

func (s *streamReader) uvarint(limit uint64) uint64 {
	if s.err != nil {
		return 0
	}
	v, err := binary.ReadUvarint(s.r)
	if err == nil && v > limit {
		err = fmt.Errorf("a length of %d is too large", v)
	}
	if err != nil {
		s.err = err
		return 0
	}
	return v
}

func (s *streamReader) str() string {
	n := s.uvarint(1 << 20)
	if s.err != nil {
		return ""
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(s.r, b); err != nil {
		s.err = err
		return ""
	}
	return string(b)
}

func (s *streamReader) byte() byte {
	if s.err != nil {
		return 0
	}
	b, err := s.r.ReadByte()
	if err != nil {
		s.err = err
	}
	return b
}
