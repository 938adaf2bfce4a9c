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
