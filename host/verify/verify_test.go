package verify

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/matombo/matombo/host"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestKalahKeepsInvariants(t *testing.T) {
	lib := host.NewLibrary()
	require.NoError(t, lib.AddDir(filepath.Join("..", "testdata", "games")))
	g, err := lib.Load("kalah")
	require.NoError(t, err)
	st, probs := Run(g, Options{Games: 50, Thorough: true, ThoroughGames: 5, Replay: true,
		Reload: func() (*host.Game, error) { return lib.Load("kalah") }})
	for _, p := range probs {
		t.Error(p)
	}
	require.Equal(t, 50, st.Games)
	require.Zero(t, st.Unfinished)
	t.Logf("%+v", st)
}

// A script that fails is reported once per game and cause, with the token
// and the call, and marked as on the game's path when the seed's own moves
// run into it.
func TestScriptFailureReportedOnce(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "testdata", "games", "kalah", "kalah.lua"))
	require.NoError(t, err)
	tests := []struct {
		name, find, insert string
		call               host.Call
		thorough           bool
	}{
		{"legal, thorough", "local function legal(p)\n", "  if m.count(STORE[2]) > 2 then error(\"bang\") end\n", host.CallLegal, true},
		{"legal, cheap", "local function legal(p)\n", "  if m.count(STORE[2]) > 2 then error(\"bang\") end\n", host.CallLegal, false},
		{"play", "local function play(p, kind, from)\n", "  if m.count(STORE[1]) > 3 then error(\"bang\") end\n", host.CallPlay, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			script := strings.Replace(string(src), tt.find, tt.find+tt.insert, 1)
			require.NoError(t, os.WriteFile(filepath.Join(dir, "kalah.lua"), []byte(script), 0o644))
			lib := host.NewLibrary()
			require.NoError(t, lib.AddDir(dir))
			g, err := lib.Load("kalah")
			require.NoError(t, err)
			_, probs := Run(g, Options{Games: 5, Thorough: tt.thorough, MaxProblems: 100})
			require.NotEmpty(t, probs)
			perSeed := map[uint64]int{}
			for _, p := range probs {
				perSeed[p.Seed]++
				require.Equal(t, tt.call, p.Call, p.Msg)
				require.Contains(t, p.Cause, "bang")
				require.NotEmpty(t, p.Token)
				require.Contains(t, p.Msg, fmt.Sprintf("%q", p.Token))
				if !tt.thorough {
					require.True(t, p.OnPath, "without thorough checks only the game's own moves are played")
				}
			}
			for seed, n := range perSeed {
				require.Equal(t, 1, n, "seed %d reports the failure once", seed)
			}
		})
	}
}

func TestCombinations(t *testing.T) {
	combos := Combinations([]string{"a", "b"}, [][]string{{"1", "2"}, {"x", "y", "z"}})
	require.Len(t, combos, 6)
	assert.Equal(t, "a", combos[5][0].Name)
	assert.Equal(t, "2", combos[5][0].Value)
	assert.Equal(t, "z", combos[5][1].Value)
}

// Check runs its five steps on a good game, and reports a broken script
// in the step that found it, skipping the steps after a failed load.
func TestCheck(t *testing.T) {
	lib := host.NewLibrary()
	require.NoError(t, lib.AddDir(filepath.Join("..", "testdata", "games")))
	var seen []string
	r := Check(lib, "kalah", CheckOptions{Games: 3, Seed: 1, OnStep: func(st Step) { seen = append(seen, st.Name) }})
	require.True(t, r.OK(), "%+v", r)
	assert.Equal(t, []string{StepLoads, StepVariants, StepParameters, StepOpenings, StepRandomGames}, seen)

	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "broken.lua"), []byte("local x = = 1\n"), 0o644))
	lib = host.NewLibrary()
	require.NoError(t, lib.AddDir(dir))
	r = Check(lib, "broken", CheckOptions{Games: 1})
	require.False(t, r.OK())
	require.Len(t, r.Steps, 5)
	require.Len(t, r.Steps[0].Findings, 1)
	assert.Contains(t, r.Steps[0].Findings[0].String(), "broken.lua:1:")
	for _, st := range r.Steps[1:] {
		assert.True(t, st.Skipped, st.Name)
	}
}

// OnLoad is given the game of the defaults once, before the first step
// is reported, and not at all when the game does not load.
func TestCheckOnLoad(t *testing.T) {
	lib := host.NewLibrary()
	require.NoError(t, lib.AddDir(filepath.Join("..", "testdata", "games")))
	var loaded []string
	steps := 0
	Check(lib, "kalah", CheckOptions{Games: 1, Seed: 1,
		OnStep: func(Step) { steps++ },
		OnLoad: func(g *host.Game) {
			loaded = append(loaded, fmt.Sprintf("%s %v after %d steps", g.Name(), g.ChosenVariants(), steps))
		}})
	assert.Equal(t, []string{"kalah [] after 0 steps"}, loaded)

	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "broken.lua"), []byte("local x = = 1\n"), 0o644))
	lib = host.NewLibrary()
	require.NoError(t, lib.AddDir(dir))
	Check(lib, "broken", CheckOptions{Games: 1, OnLoad: func(*host.Game) { t.Error("OnLoad called for a game that does not load") }})
}

func TestChecked(t *testing.T) {
	for _, tt := range []struct {
		ply  int
		want bool
	}{
		{0, true}, {1, true}, {255, true}, {256, true}, {257, false}, {511, false},
		{512, true}, {513, false}, {1024, true}, {3000, false}, {65536, true}, {100000, false},
	} {
		assert.Equal(t, tt.want, Checked(tt.ply), "ply %d", tt.ply)
	}
}

// loadSource loads the game name from one script.
func loadSource(t *testing.T, name, src string) (*host.Library, *host.Game) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.MkdirAll(dir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, name+".lua"), []byte(src), 0o644))
	lib := host.NewLibrary()
	require.NoError(t, lib.AddDir(filepath.Dir(dir)))
	g, err := lib.Load(name)
	require.NoError(t, err)
	return lib, g
}

// endless is a game that never ends. With DRIFT its play function moves
// a1's counter to b3 at every 1000th call of the script's machine, which a
// replay on fresh machines reaches at another ply than the first play
// (whose thorough checks play on copies too).
const endless = `local m = matombo
m.declare { name = "endless" }
m.board { rows = { "a", "b" }, columns = 3 }
local K = m.move("k", "{1}")
local calls = 0
return {
  setup = function() m.set_count("a1", 1) m.set_count("a2", 1) end,
  legal = function(p) m.emit(K, "a1") m.emit(K, "a2") end,
  play = function(p, kind, s)
    calls = calls + 1
    if DRIFT and calls % 1000 == 0 then -- a1's counter moves to b3: the counters are kept
      m.set_count("b3", m.count("b3") + m.count("a1"))
      m.set_count("a1", 0)
    end
  end,
}
`

// A game that never ends is checked thoroughly and replayed at the plies
// Checked names, not at every one: its JSON holds its history, so every
// check of every state cost the square of its length (20,000 plies took
// minutes).
func TestEndlessGameCheckedInLinearTime(t *testing.T) {
	lib, g := loadSource(t, "endless", strings.Replace(endless, "DRIFT and ", "false and ", 1))
	st, probs := Run(g, Options{Games: 1, MaxPlies: 20000, Thorough: true, Replay: true,
		Reload: func() (*host.Game, error) { return lib.Load("endless") }})
	require.Len(t, probs, 1, "%v", probs)
	assert.Contains(t, probs[0].Msg, "the game did not end within 20000 plies")
	assert.Equal(t, 1, st.Unfinished)
	assert.Equal(t, 20000, st.Plies)
	assert.Equal(t, 257+6, st.Checked, "plies 0 to 256, then 512, 1024, ... 16384")
}

// The replay still finds a state that differs from the first play's, at
// the first ply it compares after the difference.
func TestReplayFindsLateDifference(t *testing.T) {
	lib, g := loadSource(t, "endless", strings.Replace(endless, "DRIFT and ", "true and ", 1))
	_, probs := Run(g, Options{Games: 1, MaxPlies: 3000, Thorough: true, Replay: true,
		Reload: func() (*host.Game, error) { return lib.Load("endless") }})
	var replay *Problem
	for i := range probs {
		if strings.HasPrefix(probs[i].Msg, "replay:") {
			replay = &probs[i]
		}
	}
	require.NotNil(t, replay, "%v", probs)
	var after int
	_, err := fmt.Sscanf(replay.Msg, "replay: the state after token %d", &after)
	require.NoError(t, err, replay.Msg)
	assert.True(t, Checked(after) || after == 3000, "a difference is found at a compared ply, not %d", after)
}

// Check loads a game once per variant and per allowed value, and each load
// runs the script: however many a script or a variants file declares, the
// loads are bounded, and a product of value counts that overflows an int
// (40 parameters of 4 values) is not taken for a small one.
func TestCheckBoundsItsLoads(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "testdata", "games", "kalah", "kalah.lua"))
	require.NoError(t, err)
	boom, err := os.ReadFile(filepath.Join("..", "..", "docs", "examples", "mistakes", "boom", "boom.lua"))
	require.NoError(t, err)
	var params, wide, variants strings.Builder
	for i := range 40 {
		fmt.Fprintf(&params, "{ name = \"p%d\", default = 1, values = { 1, 2, 3, 4 } },\n", i)
	}
	for i := range 3 {
		fmt.Fprintf(&wide, "{ name = \"w%d\", default = 1, values = (function() local t = {} for v = 1, 200 do t[v] = v end return t end)() },\n", i)
	}
	variants.WriteString("variants:\n")
	for i := range MaxSingleValues + 100 {
		fmt.Fprintf(&variants, "  v%d:\n    description: seeds %d.\n    params: {seeds: %d}\n", i, i%4+3, i%4+3)
	}
	tests := []struct {
		name, step, summary string
		files               map[string]string
	}{
		{"40 parameters of 4 values", StepParameters, "each of the 164 allowed values of seeds, p0, p1, p2, p3, p4, p5, p6 and 33 more loads",
			map[string]string{"big.lua": `return matombo.extends("kalah", { title = "Big", description = "d", params = {` + params.String() + `}, replace = {} })`}},
		{"more values than the bound", StepParameters, fmt.Sprintf("the first %d of the 604 allowed values of seeds, w0, w1, w2 load", MaxSingleValues),
			map[string]string{"big.lua": `return matombo.extends("kalah", { title = "Big", description = "d", params = {` + wide.String() + `}, replace = {} })`}},
		{"no parameters", StepParameters, "none declared",
			map[string]string{"big/big.lua": strings.Replace(string(boom), `name = "boom"`, `name = "big"`, 1)}},
		{"no parameter lists its values", StepParameters, "no parameter lists its allowed values",
			map[string]string{"big/big.lua": strings.Replace(string(boom), `name = "boom"`, `name = "big", params = { { name = "label", default = "x" } }`, 1)}},
		{"more variants than the bound", StepVariants, fmt.Sprintf("%d of the first %d of %d load", MaxSingleValues, MaxSingleValues, MaxSingleValues+100),
			map[string]string{"big/big.lua": strings.Replace(string(src), `name = "kalah"`, `name = "big"`, 1), "big/variants.yaml": variants.String()}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, text := range tt.files {
				require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
				require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
			}
			lib := host.NewLibrary()
			require.NoError(t, lib.AddDir(filepath.Join("..", "testdata", "games")))
			require.NoError(t, lib.AddDir(dir))
			r := Check(lib, "big", CheckOptions{Games: 1, Seed: 1})
			for _, st := range r.Steps {
				if st.Name == tt.step {
					assert.Contains(t, st.Summary, tt.summary)
					assert.Empty(t, st.Findings)
					return
				}
			}
			t.Fatalf("no step %s in %+v", tt.step, r)
		})
	}
}
