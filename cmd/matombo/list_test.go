package main

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestListGolden(t *testing.T) {
	r := matombo(t, "", "list")
	require.Equal(t, exitOK, r.code, r.stderr)
	golden(t, "list", r.stdout)

	r = matombo(t, "", "list", "--games", kalahGames)
	require.Equal(t, exitOK, r.code, r.stderr)
	golden(t, "list-kalah", r.stdout)
}

func TestListJSON(t *testing.T) {
	r := matombo(t, "", "list", "--json", "--games", kalahGames)
	require.Equal(t, exitOK, r.code, r.stderr)
	var out struct {
		Games []gameInfo `json:"games"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &out))
	byName := map[string]gameInfo{}
	for _, g := range out.Games {
		byName[g.Name] = g
	}
	require.Contains(t, byName, "kalah")
	require.Contains(t, byName, "tsoro")
	k := byName["kalah"]
	assert.Equal(t, kalahGames, k.Source)
	assert.Equal(t, filepath.Join(kalahGames, "kalah.lua"), k.File)
	require.Len(t, k.Params, 1)
	assert.Equal(t, paramInfo{Name: "seeds", Type: "integer", Default: float64(4), Allowed: []string{"3", "4", "5", "6"}, Doc: "seeds per pit at the start"}, k.Params[0])
	ts := byName["tsoro"]
	assert.Equal(t, "shipped", ts.Source)
	var found bool
	for _, v := range ts.Variants {
		if v.Name == "4x8" {
			found = true
			assert.Equal(t, map[string]any{"holes": float64(8)}, v.Sets)
			assert.Equal(t, "4 by 8", v.Title)
		}
	}
	assert.True(t, found, "tsoro has the variant 4x8")
	for _, v := range k.Variants {
		assert.NotEmpty(t, v.Title, "kalah %s: a title made from the name, where the file gives none", v.Name)
		if v.Name == "empty-capture" {
			assert.Equal(t, "Empty capture", v.Title)
		}
	}
}

// A folder game that overrides a shipped one is listed from the folder; a
// broken one is listed with its error and the exit status is 1.
func TestListFolderGames(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"yematatu/yematatu.lua": "-- not yet written\nlocal x = \n",
	})
	r := matombo(t, "", "list", "--games", dir)
	assert.Equal(t, exitFail, r.code)
	assert.Contains(t, r.stdout, "yematatu: does not load: "+filepath.Join(dir, "yematatu", "yematatu.lua")+":")
	assert.Contains(t, r.stdout, "tsoro: Tsoro\n  from: shipped with matombo")
}
