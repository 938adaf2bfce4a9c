package solve

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"

	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/safefile"
)

// CachePath is the file that caches g's solution: in the cache folder
// (WithCacheDir; by default matombo/solve under the user's cache
// directory, see os.UserCacheDir), named by the game and its fingerprint
// (Game.Fingerprint). Of opts only WithCacheDir matters.
func CachePath(g *host.Game, opts ...Option) (string, error) {
	return NewCache(newConfig(opts).cacheDir).Path(g)
}

// defaultCacheDir is matombo/solve under the user's cache directory.
func defaultCacheDir() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("solution cache: %w", err)
	}
	return filepath.Join(dir, "matombo", "solve"), nil
}

// MaxFileBytes is the largest solution or endgame file read.
const MaxFileBytes = 64 << 30

// CacheError reports a cached file that is not used, and why.
type CacheError struct {
	Path   string
	Reason string
	Err    error
}

func (e *CacheError) Error() string { return fmt.Sprintf("cached solution %s: %s", e.Path, e.Reason) }

func (e *CacheError) Unwrap() error { return e.Err }

// fileReason says why a cache file could not be opened, without its path,
// which the caller's message names already (a *safefile.Error names it
// too: "PATH: PATH: not a regular file" otherwise).
func fileReason(err error) string {
	var se *safefile.Error
	if errors.As(err, &se) {
		return se.Msg
	}
	return err.Error()
}

// LoadCached reads g's cached solution and checks it (see Cache.Load). Of
// opts only WithCacheDir matters.
func LoadCached(g *host.Game, opts ...Option) (*Solution, error) {
	return NewCache(newConfig(opts).cacheDir).Load(context.Background(), g)
}

// CheckAllBelow is the number of positions below which a cached solution
// is checked whole when it is loaded; above, a sample of CheckSample
// positions is.
const CheckAllBelow = 200_000

// CheckSample is the number of positions of a large cached solution
// checked when it is loaded.
const CheckSample = 2000

// SaveCached writes the solution to g's cache file, atomically (a reader
// sees the old file or the whole new one), and returns its path. Of opts
// only WithCacheDir matters.
func SaveCached(sol *Solution, g *host.Game, opts ...Option) (string, error) {
	return NewCache(newConfig(opts).cacheDir).Save(sol, g)
}

// Cache is a folder of cached solutions (endgame databases are kept
// beside them: give Solve WithCacheDir with the same folder). It
// remembers the files it wrote, so that loading one of them again skips
// the check of its values against the rules (its checksum still proves it
// is the file written). It is safe for concurrent use.
type Cache struct {
	dir     string
	mu      sync.Mutex
	written map[string][sha256.Size]byte // path: the checksum of the file written there
}

// NewCache returns the cache of solutions in dir ("": matombo/solve under
// the user's cache directory).
func NewCache(dir string) *Cache { return &Cache{dir: dir, written: map[string][sha256.Size]byte{}} }

// Dir is the cache's folder.
func (c *Cache) Dir() (string, error) {
	if c.dir != "" {
		return c.dir, nil
	}
	return defaultCacheDir()
}

// Path is the file of g's solution in the cache.
func (c *Cache) Path(g *host.Game) (string, error) {
	dir, err := c.Dir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, g.Name()+"-"+g.Fingerprint()+".solution"), nil
}

// Load reads g's cached solution and checks it: its checksum, that it is
// of g (its fingerprint), and, unless this Cache wrote the file, that its
// values agree with one move of lookahead (every position of a solution
// of at most CheckAllBelow positions, else CheckSample drawn at random,
// and the opening's moves). Reading costs about a second a million
// positions, the check as much again for a small solution (a sample of a
// large one costs a fraction of a second); a full Solution.Check of
// 6 million positions takes about 20 seconds. When there is no file the
// error satisfies errors.Is(err, fs.ErrNotExist); stopped by ctx, it
// wraps a *host.CanceledError; a file that fails a check gives a
// *CacheError that says why.
func (c *Cache) Load(ctx context.Context, g *host.Game) (*Solution, error) {
	path, err := c.Path(g)
	if err != nil {
		return nil, err
	}
	f, err := safefile.Open(path, MaxFileBytes)
	if err != nil {
		var se *safefile.Error
		if errors.As(err, &se) && errors.Is(se.Err, os.ErrNotExist) {
			return nil, err
		}
		return nil, &CacheError{Path: path, Reason: fileReason(err), Err: err}
	}
	defer f.Close()
	sol, sum, err := read(f, g, f.Size)
	if err != nil {
		return nil, &CacheError{Path: path, Reason: err.Error(), Err: err}
	}
	c.mu.Lock()
	wrote, ok := c.written[path]
	c.mu.Unlock()
	if ok && wrote == sum {
		return sol, nil
	}
	if err := sol.CheckSample(ctx, g, CheckAllBelow, CheckSample); err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("loading the solution of %s: %w", g.Name(), canceled(ctx))
		}
		return nil, &CacheError{Path: path, Reason: "its values do not agree with the rules (" + oneLine(err.Error()) + ")", Err: err}
	}
	return sol, nil
}

// Save writes the solution to g's file in the cache, atomically (a reader
// sees the old file or the whole new one), and returns its path.
func (c *Cache) Save(sol *Solution, g *host.Game) (string, error) {
	path, err := c.Path(g)
	if err != nil {
		return "", err
	}
	var sum [sha256.Size]byte
	err = writeAtomic(path, func(w io.Writer) (int64, error) {
		n, s, err := sol.writeTo(w)
		sum = s
		return n, err
	})
	if err == nil {
		c.mu.Lock()
		c.written[path] = sum
		c.mu.Unlock()
	}
	return path, err
}

// writeAtomic writes a file through a temporary file in the same folder,
// synced and renamed over path.
func writeAtomic(path string, write func(io.Writer) (int64, error)) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("solution cache: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return fmt.Errorf("solution cache: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := write(tmp); err != nil {
		tmp.Close()
		return fmt.Errorf("solution cache %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("solution cache %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("solution cache %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("solution cache: %w", err)
	}
	return nil
}

// magic starts every solution file; the digit is the format's version.
const magic = "matombo solution 3\n"

// A solution file: magic; a header (game, fingerprint, engine, whether
// the game has a score, the key width, values per encoding, the result
// classes, the number of positions and of terminal ones); the body (a
// table solution: each position's key, value, distance and flags; a search
// solution: the opening's entry, its moves' values and the nodes searched);
// and a SHA-256 checksum of everything before it.

// WriteTo writes the solution in its binary form.
func (sol *Solution) WriteTo(w io.Writer) (int64, error) {
	n, _, err := sol.writeTo(w)
	return n, err
}

// writeTo writes the solution and returns its checksum.
func (sol *Solution) writeTo(w io.Writer) (int64, [sha256.Size]byte, error) {
	cw := &countWriter{w: bufio.NewWriterSize(w, 1<<16), h: sha256.New()}
	var b []byte
	b = append(b, magic...)
	b = appendString(b, sol.game)
	b = appendString(b, sol.fingerprint)
	b = append(b, byte(sol.engine))
	b = appendBool(b, sol.hasScore)
	if sol.search != nil {
		sr := sol.search
		b = appendEntry(b, sr.opening)
		b = binary.AppendUvarint(b, uint64(len(sr.moves)))
		for _, mv := range sr.moves {
			b = appendString(b, mv.Token)
			b = binary.AppendVarint(b, int64(mv.Value))
			b = binary.AppendVarint(b, int64(mv.Margin))
			b = binary.AppendVarint(b, int64(mv.Plies))
		}
		b = binary.AppendUvarint(b, uint64(sr.nodes))
		cw.write(b)
		return cw.finish()
	}
	b = binary.AppendUvarint(b, uint64(sol.tab.width))
	b = binary.AppendUvarint(b, uint64(sol.nvals))
	b = binary.AppendUvarint(b, uint64(len(sol.classes)))
	for _, c := range sol.classes {
		b = binary.AppendVarint(b, int64(c))
	}
	b = binary.AppendUvarint(b, uint64(sol.tab.Len()))
	for id := int32(0); int(id) < sol.tab.Len(); id++ {
		b = append(b, sol.tab.key(id)...)
		b = binary.AppendVarint(b, int64((*sol.val.at(id))))
		b = binary.AppendVarint(b, int64((*sol.plies.at(id))))
		b = append(b, (*sol.flags.at(id))&(flagP2|flagTerminal))
		if len(b) > 1<<15 {
			cw.write(b)
			b = b[:0]
		}
	}
	cw.write(b)
	return cw.finish()
}

// countWriter writes, hashes and counts, keeping the first error.
type countWriter struct {
	w   *bufio.Writer
	h   hash.Hash
	n   int64
	err error
}

func (c *countWriter) write(b []byte) {
	if c.err != nil {
		return
	}
	c.h.Write(b)
	n, err := c.w.Write(b)
	c.n += int64(n)
	c.err = err
}

func (c *countWriter) finish() (int64, [sha256.Size]byte, error) {
	var sum [sha256.Size]byte
	copy(sum[:], c.h.Sum(nil))
	if c.err == nil {
		n, err := c.w.Write(sum[:])
		c.n += int64(n)
		c.err = err
	}
	if c.err == nil {
		c.err = c.w.Flush()
	}
	return c.n, sum, c.err
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

func appendEntry(b []byte, e Entry) []byte {
	b = binary.AppendVarint(b, int64(e.Value))
	b = binary.AppendVarint(b, int64(e.Margin))
	b = binary.AppendVarint(b, int64(e.Plies))
	b = binary.AppendUvarint(b, uint64(e.ToMove))
	return appendBool(b, e.Terminal)
}

// Read reads a solution written by WriteTo and checks that it belongs to g
// and that its checksum is right. It does not check its values against the
// rules: Check does.
func Read(r io.Reader, g *host.Game) (*Solution, error) {
	sol, _, err := read(r, g, -1)
	return sol, err
}

// read reads a solution from r, of size bytes when size >= 0, and returns
// its checksum.
func read(r io.Reader, g *host.Game, size int64) (*Solution, [sha256.Size]byte, error) {
	sol, err := readSolution(r, g, size)
	if err != nil {
		return nil, [sha256.Size]byte{}, err
	}
	return sol, sol.sum, nil
}

func readSolution(r io.Reader, g *host.Game, size int64) (*Solution, error) {
	h := sha256.New()
	sr := &streamReader{r: bufio.NewReaderSize(r, 1<<16), h: h}
	head := sr.bytes(len(magic))
	if sr.err != nil || string(head) != magic {
		return nil, errors.New("not a matombo solution file of this version (it is solved again)")
	}
	sol := &Solution{game: sr.str(), fingerprint: sr.str(), g: g}
	sol.engine = Engine(sr.byte())
	sol.hasScore = sr.byte() == 1
	if sr.err != nil {
		return nil, fmt.Errorf("truncated header: %w", sr.err)
	}
	if fp := g.Fingerprint(); sol.fingerprint != fp || sol.game != g.Name() {
		return nil, fmt.Errorf("the file holds a solution of %s with fingerprint %s, not of this %s (%s)", sol.game, sol.fingerprint, g.Name(), fp)
	}
	if sol.hasScore != g.HasScore() {
		return nil, errors.New("the file's score flag does not match the game")
	}
	switch sol.engine {
	case Search:
		sol.search = &searched{}
		sol.search.opening = sr.entry()
		n := sr.uvarint(4096)
		for i := 0; i < int(n) && sr.err == nil; i++ {
			mv := MoveValue{Token: sr.str(), Value: Value(sr.varint()), Margin: int(sr.varint()), Plies: int(sr.varint())}
			sol.search.moves = append(sol.search.moves, mv)
		}
		sol.search.nodes = int64(sr.uvarint(1 << 62))
	case Retrograde:
		width := int(sr.uvarint(1 << 16))
		sol.nvals = int(sr.uvarint(1 << 16))
		nc := int(sr.uvarint(255))
		sol.classIdx = map[score]byte{}
		for i := 0; i < nc && sr.err == nil; i++ {
			v := score(sr.varint())
			sol.classes = append(sol.classes, v)
			sol.classIdx[v] = byte(i + 1)
		}
		n := int(sr.uvarint(1 << 32))
		if sr.err == nil && (width < 1 || (size >= 0 && int64(n)*int64(width+3) > size)) {
			return nil, fmt.Errorf("damaged solution file: %d positions of %d bytes cannot be in %d bytes", n, width, size)
		}
		sol.tab = newPosTable(width, min(n, 1<<20))
		key := make([]byte, width)
		for id := 0; id < n && sr.err == nil; id++ {
			copy(key, sr.bytes(width))
			v, plies, fl := sr.varint(), sr.varint(), sr.byte()
			if sr.err != nil {
				break
			}
			if _, added := sol.tab.insert(key); !added {
				return nil, errors.New("damaged solution file: a position occurs twice")
			}
			if v != int64(int32(v)) || plies != int64(int32(plies)) || fl&^(flagP2|flagTerminal) != 0 || int(key[0]) > nc {
				return nil, fmt.Errorf("damaged solution file: position %d has a bad value", id)
			}
			sol.val.append(score(v))
			sol.plies.append(int32(plies))
			sol.flags.append(fl | flagDone)
			if fl&flagTerminal != 0 {
				sol.terminals++
			}
		}
		if sr.err == nil && n == 0 {
			return nil, errors.New("damaged solution file: no position")
		}
	default:
		return nil, fmt.Errorf("unknown engine %d", sol.engine)
	}
	if sr.err != nil {
		return nil, fmt.Errorf("truncated or damaged solution file: %w", sr.err)
	}
	sum := h.Sum(nil)
	sr.h = nil
	stored := sr.bytes(sha256.Size)
	if sr.err != nil {
		return nil, fmt.Errorf("truncated solution file: no checksum: %w", sr.err)
	}
	if string(stored) != string(sum) {
		return nil, errors.New("its checksum does not match its contents: the file was damaged or changed")
	}
	copy(sol.sum[:], sum)
	if _, err := sr.r.ReadByte(); err != io.EOF {
		return nil, errors.New("damaged solution file: bytes after the checksum")
	}
	if sol.engine == Retrograde {
		id, err := sol.LookupContext(context.Background(), g.Start())
		if err != nil || !sameEntry(id, sol.entry(0)) {
			return nil, errors.New("damaged solution file: the opening is not its first position")
		}
	}
	return sol, nil
}

func sameEntry(a, b Entry) bool { return a == b }

// streamReader reads the fields of a solution file, hashing what it
// reads, and keeps the first error.
type streamReader struct {
	r   *bufio.Reader
	h   hash.Hash
	err error
	buf []byte
}

func (s *streamReader) ReadByte() (byte, error) {
	b, err := s.r.ReadByte()
	if err == nil && s.h != nil {
		s.h.Write([]byte{b})
	}
	return b, err
}

func (s *streamReader) uvarint(limit uint64) uint64 {
	if s.err != nil {
		return 0
	}
	v, err := binary.ReadUvarint(s)
	if err == nil && v > limit {
		err = fmt.Errorf("a length of %d is too large", v)
	}
	if err != nil {
		s.err = err
		return 0
	}
	return v
}

func (s *streamReader) varint() int64 {
	if s.err != nil {
		return 0
	}
	v, err := binary.ReadVarint(s)
	if err != nil {
		s.err = err
	}
	return v
}

func (s *streamReader) bytes(n int) []byte {
	if s.err != nil {
		return nil
	}
	if cap(s.buf) < n {
		s.buf = make([]byte, n)
	}
	b := s.buf[:n]
	if _, err := io.ReadFull(s.r, b); err != nil {
		s.err = err
		return nil
	}
	if s.h != nil {
		s.h.Write(b)
	}
	return b
}

func (s *streamReader) str() string {
	n := s.uvarint(1 << 12)
	return string(s.bytes(int(n)))
}

func (s *streamReader) byte() byte {
	if s.err != nil {
		return 0
	}
	b, err := s.ReadByte()
	if err != nil {
		s.err = err
	}
	return b
}

func (s *streamReader) entry() Entry {
	e := Entry{Value: Value(s.varint()), Margin: int(s.varint()), Plies: int(s.varint())}
	e.ToMove = int(s.uvarint(2))
	e.Terminal = s.byte() == 1
	return e
}

// sampleIDs returns every id below n when n <= all, else the opening and
// k others drawn at random.
func sampleIDs(n, all, k int) []int32 {
	if n <= all {
		ids := make([]int32, n)
		for i := range ids {
			ids[i] = int32(i)
		}
		return ids
	}
	ids := []int32{0}
	for range k {
		ids = append(ids, int32(rand.IntN(n)))
	}
	return ids
}

// oneLine keeps the first line of a message.
func oneLine(s string) string {
	for i, c := range s {
		if c == '\n' {
			return s[:i] + " ..."
		}
	}
	return s
}
