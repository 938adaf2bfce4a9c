package host

import (
	"bytes"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The Library: layers of game folders, loose scripts, single game folders,
// compiled scripts shared, and the Game's accessors.

func TestLibraryGames(t *testing.T) {
	lib := testLibrary(t)
	assert.Equal(t, []string{"kalah", "probe", "probepts"}, lib.Games())

	hostile := NewLibrary()
	require.NoError(t, hostile.AddDir(hostileDir))
	games := hostile.Games()
	assert.Contains(t, games, "loop_forever", "loose scripts are games")
	assert.Contains(t, games, "string_rep")

	single := NewLibrary()
	require.NoError(t, single.AddDir(filepath.Join("testdata", "games", "probe")))
	assert.Equal(t, []string{"probe"}, single.Games(), "a folder holding NAME.lua named NAME is a single game")
	g, err := single.Load("probe", WithVariant("one"))
	require.NoError(t, err, "its variants.yaml is found")
	assert.Equal(t, 1, paramMap(g)["seeds"])

	_, err = lib.Load("chess")
	var ce *ConfigError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, `unknown game "chess" (allowed: kalah, probe, probepts)`, err.Error())

	assert.ErrorContains(t, NewLibrary().AddDir(filepath.Join("testdata", "nope")), "games folder")
	assert.ErrorContains(t, NewLibrary().AddDir(filepath.Join("testdata", "games", "kalah", "kalah.lua")), "not a folder")
	empty := t.TempDir()
	err = NewLibrary().AddDir(empty)
	assert.ErrorIs(t, err, fs.ErrNotExist, "a folder without games is refused")
	assert.ErrorContains(t, err, "no games in it")
	// A folder whose scripts all have names no game may have says which
	// were not read, and why.
	misnamed := t.TempDir()
	for _, f := range []string{"Kalah.lua", "my game.lua", filepath.Join("Oware", "Oware.lua"), "notes.txt"} {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(misnamed, f)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(misnamed, f), []byte("return {}"), 0o644))
	}
	err = NewLibrary().AddDir(misnamed)
	assert.ErrorIs(t, err, fs.ErrNotExist)
	assert.ErrorContains(t, err, "; not read for their names: Kalah.lua, Oware/Oware.lua, my game.lua (a game's name is 1 to 64 lower-case letters, digits, - and _)")
}

func TestLibraryAddFS(t *testing.T) {
	src := strings.ReplaceAll(miniSource("mini", ""), "\r", "")
	fsys := fstest.MapFS{
		"mini/mini.lua":       {Data: []byte(src)},
		"mini/variants.yaml":  {Data: []byte("variants:\n  plain: {}\n")},
		"mini/rules.md":       {Data: []byte("# Mini\nThe rules.\n")},
		"loose.lua":           {Data: []byte(miniSource("loose", ""))},
		"Bad Name.lua":        {Data: []byte("")},
		"onlyvariants/x.yaml": {Data: []byte("")},
	}
	lib := NewLibrary()
	require.NoError(t, lib.AddFS(fsys, "embedded"))
	assert.Equal(t, []string{"loose", "mini"}, lib.Games())
	g, err := lib.Load("mini", WithVariant("plain"))
	require.NoError(t, err)
	assert.Equal(t, "embedded/mini/mini.lua", g.File())
	assert.Equal(t, "embedded", g.Source())
	assert.Equal(t, "# Mini\nThe rules.\n", g.Rules())
	assert.Equal(t, "mini", g.Name())
	assert.Equal(t, "mini", g.Title(), "the title defaults to the name")
	assert.Equal(t, 2, g.Players())
	assert.True(t, g.Conserves())
	assert.Zero(t, g.MaxPlies())
	g, err = lib.Load("loose")
	require.NoError(t, err)
	assert.Equal(t, "embedded/loose.lua", g.File())

	// A folder added later overrides the script and adds variants.
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "mini", "mini.lua"), strings.Replace(src, `m.declare { name = "mini" }`, `m.declare { name = "mini", title = "Mini 2" }`, 1))
	writeFile(t, filepath.Join(dir, "mini", "variants.yaml"), "variants:\n  mine: {}\n")
	require.NoError(t, lib.AddDir(dir))
	g, err = lib.Load("mini", WithVariant("plain", "mine"))
	require.NoError(t, err)
	assert.Equal(t, "Mini 2", g.Title())
	assert.Equal(t, filepath.Join(dir, "mini", "mini.lua"), g.File())

	assert.Error(t, NewLibrary().AddFS(fstest.MapFS{".": {Data: []byte("x")}}, "x"), "a file system whose root is not a folder")
}

// A script's print goes to WithLog's writer (discarded by default), without
// calling metamethods.
func TestPrintGoesToTheLog(t *testing.T) {
	var log bytes.Buffer
	src := miniSource("talk", `print("hello", 1, true, nil, {}, setmetatable({}, { __tostring = function() error("no") end }))`)
	_, err := loadSource(t, "talk", src, WithLog(&log))
	require.NoError(t, err)
	assert.Equal(t, "talk: hello\t1\ttrue\tnil\ttable\ttable\n", log.String())
	_, err = loadSource(t, "talk", src)
	require.NoError(t, err, "printing without a log is fine")
}

// Data from variants.yaml reaches the script as matombo.data.
func TestVariantsData(t *testing.T) {
	g := loadTest(t, "probe")
	got, err := evalIn(g, g.Start(), asSetup, luaPrefix+`return m.data.note, m.data.list`)
	require.NoError(t, err)
	assert.Equal(t, []any{"free data for the script", []any{1, 2, 3}}, fromLuaAll(got))
}

// A failed call discards its machine; the pool keeps working machines.
func TestMachinePool(t *testing.T) {
	g := loadTest(t, "probe")
	s := g.Start()
	require.NoError(t, s.Play("a1"))
	n := machineCount(g)
	assert.Positive(t, n)
	_, err := evalIn(g, g.Start(), asSetup, luaPrefix+`error("fail")`)
	require.Error(t, err)
	assert.Equal(t, n-1, machineCount(g), "the machine of the failed call is not kept")
	require.NoError(t, s.Play(s.Legal()[0]))
	assert.Equal(t, n, machineCount(g), "a new machine replaces it")
	require.NoError(t, secondMachine(g), "every machine declares the same")
}

func TestPlayoutAndStep(t *testing.T) {
	g := loadTest(t, "kalah")
	s := g.Start()
	n, err := Playout(s, rand.New(rand.NewPCG(1, 1)), 5)
	require.NoError(t, err)
	assert.Equal(t, 5, n)
	assert.Equal(t, 5, s.Ply())
	n, err = Playout(s, rand.New(rand.NewPCG(1, 1)), 0)
	require.NoError(t, err)
	assert.True(t, s.Over())
	assert.Equal(t, 5+n, s.Ply())
	n, err = Playout(s, rand.New(rand.NewPCG(1, 1)), 0)
	require.NoError(t, err)
	assert.Zero(t, n, "a finished game plays no more")
	ok, err := PlayRandom(s, rand.New(rand.NewPCG(1, 1)))
	assert.False(t, ok)
	assert.NoError(t, err)
	s = g.Start()
	ok, err = PlayRandom(s, rand.New(rand.NewPCG(1, 1)))
	assert.True(t, ok)
	assert.NoError(t, err)
	assert.Equal(t, 1, s.Ply())
}

// The probe game plays to its end from every seed (its script uses sow,
// capture and capture_run in play, and blocked), keeping its counters.
func TestProbeGamesEnd(t *testing.T) {
	for _, name := range []string{"probe", "probepts"} {
		g := loadTest(t, name)
		for seed := uint64(0); seed < 30; seed++ {
			s := g.Start()
			total := func(s *State) int {
				n := 0
				for i := 0; i < g.Board().NumSites(); i++ {
					n += s.Count(i)
				}
				for p := 1; p <= g.Players(); p++ {
					n += s.Captured(p) + s.Hand(p)
				}
				return n
			}
			want := total(s)
			for !s.Over() {
				ok, err := PlayRandom(s, rand.New(rand.NewPCG(seed, uint64(s.Ply()))))
				require.NoError(t, err)
				require.True(t, ok)
				require.Equal(t, want, total(s), "%s seed %d ply %d", name, seed, s.Ply())
				require.LessOrEqual(t, s.Ply(), g.MaxPlies())
			}
		}
	}
}

// The board as Go sees it.
func TestBoardAccessors(t *testing.T) {
	b := loadTest(t, "probe").Board()
	assert.Equal(t, 12, b.NumSites())
	assert.Equal(t, Site{Name: "b2", Row: 1, Col: 2}, b.Site(5))
	i, ok := b.Index("c4")
	assert.True(t, ok)
	assert.Equal(t, 11, i)
	_, ok = b.Index("d1")
	assert.False(t, ok)
	assert.Equal(t, []string{"a", "b", "c"}, b.Rows())
	assert.Equal(t, []int{4, 5, 6, 7}, b.RowSites(1))
	assert.Equal(t, []string{"store", "inner"}, b.Tags(4))
	assert.True(t, b.HasTag(3, "head"))
	assert.False(t, b.HasTag(3, "store"))
	assert.False(t, b.HasTag(3, "nope"))
	tracks := b.Tracks()
	require.Len(t, tracks, 2)
	assert.Equal(t, "ring", tracks[0].Name)
	assert.Equal(t, []int{0, 1, 2, 3, 11, 10, 9, 8}, tracks[0].Sites)
	assert.True(t, tracks[0].Loop)
	assert.False(t, tracks[1].Loop)
	tracks[0].Sites[0] = 99
	assert.Equal(t, 0, b.Tracks()[0].Sites[0], "Tracks returns copies")
	assert.Equal(t, [][]int{{0, 4, 8}, {1, 5, 9}, {2, 6, 10}, {3, 7, 11}, {4, 5, 6, 7}, {0, 5, 10}}, b.Lines())
	assert.Equal(t, []int{0, 1, 4, 6, 9, 10}, b.Adjacent(5))
	assert.Equal(t, Counts, b.Style())

	p := loadTest(t, "probepts").Board()
	assert.Equal(t, []string{"a", "b", "c"}, p.Rows())
	var names []string
	for i := 0; i < p.NumSites(); i++ {
		names = append(names, p.Site(i).Name)
	}
	assert.Equal(t, []string{"a1", "b1", "b2", "b3", "c1", "c2", "c3"}, names, "board order: row a first, then by drawing position")
	assert.Equal(t, Site{Name: "c3", Row: 2, Col: 5}, p.Site(6))
}

// A folder whose only game folder cannot be read says so, rather than
// only "no games in it".
func TestLibraryUnreadableGameFolder(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads every folder")
	}
	dir := t.TempDir()
	game := filepath.Join(dir, "mini")
	require.NoError(t, os.Mkdir(game, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(game, "mini.lua"), []byte("return {}"), 0o644))
	require.NoError(t, os.Chmod(game, 0))
	t.Cleanup(func() { os.Chmod(game, 0o755) })
	err := NewLibrary().AddDir(dir)
	assert.ErrorContains(t, err, "no games in it")
	assert.ErrorContains(t, err, "; cannot be read: mini/ (permission denied)")
}

// The library keeps at most maxProtos compiled scripts: a folder of many
// games, listed one after the other, does not keep them all, and a game
// whose script was dropped compiles again.
func TestLibraryCompiledScriptsBounded(t *testing.T) {
	dir := t.TempDir()
	for i := range maxProtos + 20 {
		name := filepath.Join(dir, "g"+strings.Repeat("x", i%3)+string(rune('a'+i/26))+string(rune('a'+i%26))+".lua")
		require.NoError(t, os.WriteFile(name, []byte(`return matombo.extends("kalah", { title = "G", description = "d", replace = {} })`), 0o644))
	}
	lib := NewLibrary()
	require.NoError(t, lib.AddDir(filepath.Join("testdata", "games")))
	require.NoError(t, lib.AddDir(dir))
	for _, name := range lib.Games() {
		g, err := lib.Load(name)
		require.NoError(t, err, name)
		g.Close()
		assert.LessOrEqual(t, len(lib.protos), maxProtos)
		assert.Len(t, lib.order, len(lib.protos))
	}
	g, err := lib.Load(lib.Games()[0])
	require.NoError(t, err, "a dropped script compiles again")
	g.Close()
}
