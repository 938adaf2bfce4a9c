package verify

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/matombo/matombo/host"
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
