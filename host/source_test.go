package host

import (
	"bytes"
	"errors"
	"io/fs"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// AddSource loads a game from memory: its variants count, errors name its
// files, it overrides and extends games of earlier layers, and bad input
// is refused at once.
func TestAddSource(t *testing.T) {
	lib := testLibrary(t)
	src := miniSource("upload", "")
	require.NoError(t, lib.AddSource("upload", src, "variants:\n  two:\n    description: a variant\n"))
	assert.Contains(t, lib.Games(), "upload")
	g, err := lib.Load("upload", WithVariant("two"))
	require.NoError(t, err)
	assert.Equal(t, "upload/upload.lua", g.File())
	require.NoError(t, g.Start().Play("a1"))

	// Errors name the file and line.
	require.NoError(t, lib.AddSource("broken", "local m = matombo\nlocal x = = 1\n", ""))
	_, err = lib.Load("broken")
	var se *ScriptError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, Pos{File: "broken/broken.lua", Line: 2, Col: 11, EndLine: 2, EndCol: 11}, se.Pos)
	require.NoError(t, lib.AddSource("badvariants", miniSource("badvariants", ""), "variants: [1, 2\n"))
	_, err = lib.Load("badvariants")
	var ce *ConfigError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, "badvariants/variants.yaml", ce.Pos.File)

	// A later layer overrides a game; an uploaded script extends a shipped one.
	require.NoError(t, lib.AddSource("kalah", `return matombo.extends("kalah", { title = "Uploaded Kalah" })`, ""))
	g, err = lib.Load("kalah")
	require.NoError(t, err)
	assert.Equal(t, "Uploaded Kalah", g.Title())

	for _, c := range []struct{ name, script, want string }{
		{"Bad Name", src, "must be 1 to 64 lower-case letters"},
		{"", src, "must be 1 to 64"},
		{"empty", "", "the script is empty"},
		{"huge", strings.Repeat("-", maxScriptBytes+1), "more than the limit of 1048576"},
	} {
		err := NewLibrary().AddSource(c.name, c.script, "")
		require.ErrorAs(t, err, &ce, c.name)
		assert.Contains(t, err.Error(), c.want)
		assert.Equal(t, CodeConfig, ErrorCode(err))
	}
}

// AddFS finds the games at the root of the file system, or in the folder
// root names when the root has none (as //go:embed games makes), and
// refuses a file system with no games in either.
func TestAddFSRoot(t *testing.T) {
	game := []byte(miniSource("mini", ""))
	lib := NewLibrary()
	require.NoError(t, lib.AddFS(fstest.MapFS{"assets/games/mini/mini.lua": {Data: game}}, "assets/games"))
	g, err := lib.Load("mini")
	require.NoError(t, err)
	assert.Equal(t, "assets/games/mini/mini.lua", g.File(), "paths are those of the file system")

	for _, c := range []struct {
		fsys fstest.MapFS
		root string
	}{
		{fstest.MapFS{"games/mini/mini.lua": {Data: game}}, "gmaes"},
		{fstest.MapFS{"README.md": {Data: []byte("no games here")}}, "games"},
		{fstest.MapFS{"games/notes/notes.txt": {Data: []byte("x")}}, "games"},
		{fstest.MapFS{"games/mini/mini.lua": {Data: game}}, "../games"},
	} {
		err := NewLibrary().AddFS(c.fsys, c.root)
		require.Error(t, err, c.root)
		assert.Contains(t, err.Error(), "no games found")
		assert.True(t, errors.Is(err, fs.ErrNotExist))
	}
}

// Close releases a game's machines and watchdog goroutine at once; a
// server that loads many uploaded scripts does not keep a goroutine per
// game for a second after each. Calls after Close fail with ErrClosed;
// what needs no script still works.
func TestGameClose(t *testing.T) {
	lib := NewLibrary()
	require.NoError(t, lib.AddSource("upload", miniSource("upload", ""), ""))
	const n = 40
	// The watchdogs of the tests before this one end a second after their
	// games' last calls: wait for them, so that the count below is this
	// test's (one lingering through the loop made it miss by one).
	for deadline := time.Now().Add(10 * time.Second); watchdogGoroutines() > 0 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	before, watchedBefore := runtime.NumGoroutine(), watchdogGoroutines()
	loaded := make([]*Game, n)
	for i := range loaded {
		// A script that fails to load leaves no goroutine behind either.
		_, err := lib.Load("upload", WithParam("unused", i))
		require.Error(t, err)
		g, err := lib.Load("upload")
		require.NoError(t, err)
		s := g.Start()
		require.NoError(t, s.Play("a1"))
		loaded[i] = g
	}
	during := runtime.NumGoroutine()
	assert.GreaterOrEqual(t, watchdogGoroutines(), watchedBefore+n/2, "each game's watchdog runs for a while after its calls")
	assert.LessOrEqual(t, during, before+n+2, "no goroutine of a game that failed to load")
	start := time.Now()
	for _, g := range loaded {
		g.Close()
		g.Close() // twice is fine
	}
	took := time.Since(start)
	// A goroutine that has done its work may still be returning: wait for
	// it, far less than the second an idle watchdog waits before it ends.
	after := runtime.NumGoroutine()
	for deadline := time.Now().Add(100 * time.Millisecond); after > before && time.Now().Before(deadline); after = runtime.NumGoroutine() {
		time.Sleep(time.Millisecond)
	}
	t.Logf("goroutines: %d before, %d with %d games loaded, %d after closing them (%v)", before, during, n, after, took)
	if !assert.LessOrEqual(t, after, before, "Close ends the watchdog goroutines at once") {
		buf := make([]byte, 1<<16)
		t.Logf("%s", buf[:runtime.Stack(buf, true)])
	}
	for _, g := range loaded {
		assert.Zero(t, g.prog.Idle(), "no idle machine is kept")
	}

	g := loaded[0]
	s := g.Start()
	assert.Equal(t, []string{"a1"}, s.Legal(), "a state still reads")
	err := s.Play("a1")
	require.ErrorIs(t, err, ErrClosed)
	assert.Equal(t, CodeGameClosed, ErrorCode(err))
	assert.Equal(t, 0, s.Ply(), "the state is unchanged")
	r := g.NewRunner()
	assert.ErrorIs(t, r.Play(s, "a1"), ErrClosed)
	r.Close()
}

// watchdogGoroutines counts the goroutines running a game's watchdog.
func watchdogGoroutines() int {
	buf := make([]byte, 1<<16)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return bytes.Count(buf[:n], []byte("watchdog.(*Watchdog).loop("))
		}
		buf = make([]byte, 2*len(buf))
	}
}

// A runner that holds a machine when its game is closed fails its next
// call with ErrClosed, and its machine is closed when the runner is.
func TestGameCloseWithRunner(t *testing.T) {
	g := loadTest(t, "kalah")
	r := g.NewRunner()
	s := g.Start()
	require.NoError(t, r.Play(s, "a1"))
	g.Close()
	assert.ErrorIs(t, r.Play(s, "b1"), ErrClosed)
	r.Close()
	assert.Zero(t, g.prog.Idle())
}

// Close while other goroutines play: their calls finish or fail with
// ErrClosed, the race detector sees nothing, and the goroutine ends.
func TestGameCloseConcurrent(t *testing.T) {
	g := loadTest(t, "kalah")
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; ; i++ {
				s := g.Start()
				if _, err := Playout(s, rand.New(rand.NewPCG(uint64(w), uint64(i))), 0); err != nil {
					errs <- err
					return
				}
			}
		}(w)
	}
	time.Sleep(20 * time.Millisecond)
	g.Close()
	wg.Wait()
	close(errs)
	for err := range errs {
		assert.ErrorIs(t, err, ErrClosed)
	}
	assert.Zero(t, g.prog.Idle())
}
