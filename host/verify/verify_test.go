package verify

import (
	"path/filepath"
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
