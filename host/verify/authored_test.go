package verify_test

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/matombo/matombo/conformance"
	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/verify"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// authoredDir holds games the project did not ship, written from the
// documentation alone as an outside author would (a Dakon whose relay
// passes through the stores, a four in a row with gravity, custodian
// captures in the manner of Hasami Shogi), with their
// scenarios: the claim that any game composed of the documented rule
// parts runs on the host is tested on them.
var authoredDir = filepath.Join("..", "testdata", "authored")

// authoredGames are the games of authoredDir.
var authoredGames = []string{"dakon", "dropfour", "hasami"}

func authoredLibrary(t *testing.T) *host.Library {
	t.Helper()
	lib := host.NewLibrary()
	require.NoError(t, lib.AddDir(authoredDir))
	return lib
}

// The authored games pass every check of matombo check: they load with
// every variant and parameter value, their openings are sane, and random
// games keep the invariants.
func TestAuthoredGamesCheck(t *testing.T) {
	lib := authoredLibrary(t)
	for _, name := range authoredGames {
		t.Run(name, func(t *testing.T) {
			games := 100
			if testing.Short() {
				games = 10
			}
			r := verify.Check(lib, name, verify.CheckOptions{Games: games})
			for _, st := range r.Steps {
				assert.Empty(t, st.Findings, "%s: %s", name, st.Name)
			}
			assert.True(t, r.OK())
		})
	}
}

// Their documented rules hold: the scenarios of each rules page pass.
func TestAuthoredGamesConform(t *testing.T) {
	files, errs := conformance.LoadFiles(filepath.Join(authoredDir, "scenarios"))
	require.Empty(t, errs)
	rep := conformance.NewSuite(authoredLibrary(t)).Run(files, nil)
	var out bytes.Buffer
	rep.WriteText(&out, false)
	assert.True(t, rep.OK(), out.String())
	assert.Equal(t, 13, rep.Passed, out.String())
}

// Random games play to their end, every one decided by a rule of the
// game, never by the cap.
func TestAuthoredGamesPlayToTheEnd(t *testing.T) {
	lib := authoredLibrary(t)
	for _, name := range authoredGames {
		g, err := lib.Load(name)
		require.NoError(t, err)
		for seed := range uint64(50) {
			rng := rand.New(rand.NewPCG(seed, 7))
			s := g.Start()
			for ply := 0; !s.Over(); ply++ {
				require.Less(t, ply, g.MaxPlies(), "%s, seed %d: no end", name, seed)
				moves := s.Moves()
				require.NotEmpty(t, moves)
				require.NoError(t, s.Apply(moves[rng.IntN(len(moves))]))
			}
			assert.NotEmpty(t, s.Outcome().Reason, "%s, seed %d", name, seed)
		}
	}
}

// A label an authored game's rules page does not have errs, naming the
// page and its points: an author's scenarios are held to their page as the
// shipped ones are to theirs.
func TestAuthoredGamesLabelsAreChecked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dakon.yaml")
	src := "game: dakon\nscenarios:\n  - name: a made-up point\n    rule: D44\n    play: [a3]\n    expect: {to_move: 2}\n"
	require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
	files, errs := conformance.LoadFiles(path)
	require.Empty(t, errs)
	rep := conformance.NewSuite(authoredLibrary(t)).Run(files, nil)
	require.Equal(t, 1, rep.Errored)
	res := rep.Results[0]
	assert.Equal(t, 4, res.Line)
	assert.Equal(t, "rule D44 is no point of "+filepath.Join(authoredDir, "dakon", "rules.md")+"; its points are D1, D2, D3, D4, D5, D6", res.Error)
}
