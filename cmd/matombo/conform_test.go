package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var conformDir = filepath.Join("testdata", "conform")

func TestConform(t *testing.T) {
	good := filepath.Join(conformDir, "kalah.yaml")
	r := matombo(t, "", "conform", "--games", kalahGames, good)
	require.Equal(t, exitOK, r.code, r.stdout+r.stderr)
	assert.Equal(t, "2 passed, 0 failed, 0 errored\n", r.stdout)

	r = matombo(t, "", "conform", good, "-v", "--games", kalahGames)
	require.Equal(t, exitOK, r.code)
	assert.Contains(t, r.stdout, "PASS  "+good+":4: a sowing that ends in the store gives another turn [K1]\n")

	r = matombo(t, "", "conform", "--games", kalahGames, conformDir)
	assert.Equal(t, exitFail, r.code)
	assert.Contains(t, r.stdout, "FAIL  "+filepath.Join(conformDir, "kalah-wrong.yaml")+":7: a wrong expectation [K1]\n")
	assert.Contains(t, r.stdout, "    step 1: to_move differs\n      want: 2\n      got:  1\n")
	assert.Contains(t, r.stdout, "2 passed, 1 failed, 0 errored\n")

	r = matombo(t, "", "conform", "--json", "--games", kalahGames, conformDir)
	assert.Equal(t, exitFail, r.code)
	var rep struct {
		Passed, Failed, Errored int
		Results                 []map[string]any
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &rep))
	assert.Equal(t, 2, rep.Passed)
	assert.Equal(t, 1, rep.Failed)
	assert.Len(t, rep.Results, 3)
}

// Without --games the scenarios' game is unknown: an errored scenario.
func TestConformWithoutTheGame(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(conformDir, "kalah.yaml"))
	require.NoError(t, err)
	dir := writeFiles(t, map[string]string{"mancala.yaml": strings.Replace(string(b), "game: kalah", "game: mancala", 1)})
	r := matombo(t, "", "conform", filepath.Join(dir, "mancala.yaml"))
	assert.Equal(t, exitFail, r.code)
	assert.Contains(t, r.stdout, `unknown game "mancala"`)
	assert.Contains(t, r.stdout, "0 passed, 0 failed, 2 errored\n")
}

func TestConformMissingFiles(t *testing.T) {
	r := matombo(t, "", "conform", filepath.Join(conformDir, "nope.yaml"))
	assert.Equal(t, exitFail, r.code)
	assert.Contains(t, r.stdout, "nope.yaml")
	empty := t.TempDir()
	r = matombo(t, "", "conform", empty)
	assert.Equal(t, exitFail, r.code)
	assert.Equal(t, "matombo conform: no scenarios found in "+empty+"\n", r.stderr)
}

// The shipped scenarios are found from anywhere in the repository, and
// their absence is said clearly.
func TestFindShippedScenarios(t *testing.T) {
	wd, err := os.Getwd()
	require.NoError(t, err)
	root, err := findModuleRoot(wd)
	require.NoError(t, err)
	assert.Equal(t, filepath.Dir(filepath.Dir(wd)), root)

	outside := t.TempDir()
	_, err = findModuleRoot(outside)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "cannot find the shipped scenarios: no go.mod of module github.com/matombo/matombo in "+outside+" or above")

	other := writeFiles(t, map[string]string{"go.mod": "module example.com/other\n", "conformance/x/a.yaml": ""})
	_, err = findModuleRoot(filepath.Join(other, "conformance"))
	assert.Error(t, err)

	mine := writeFiles(t, map[string]string{"go.mod": "module github.com/matombo/matombo\n\ngo 1.26\n", "conformance/tsoro/a.yaml": "", "conformance/testdata/b.yaml": "", "sub/x": ""})
	dirs, err := shippedScenarios(filepath.Join(mine, "sub"))
	require.NoError(t, err)
	assert.Equal(t, []string{filepath.Join(mine, "conformance", "tsoro")}, dirs)
	dirs, err = shippedScenarios(mine)
	require.NoError(t, err)
	assert.Equal(t, []string{filepath.Join("conformance", "tsoro")}, dirs)

	bare := writeFiles(t, map[string]string{"go.mod": "module github.com/matombo/matombo\n", "conformance/doc.go": ""})
	_, err = shippedScenarios(bare)
	assert.ErrorContains(t, err, "no scenario folders in conformance yet")
}

// A script that does not load is reported once, not once per scenario.
func TestConformLoadErrorOnce(t *testing.T) {
	dir := writeFiles(t, map[string]string{"tsoro/tsoro.lua": "local x = = 1\n"})
	r := matombo(t, "", "conform", "--games", dir, filepath.Join("..", "..", "conformance", "tsoro"))
	assert.Equal(t, exitFail, r.code)
	assert.Equal(t, 1, strings.Count(r.stdout, "syntax error"), r.stdout)
	assert.Equal(t, 1, strings.Count(r.stdout, "ERROR"), r.stdout)
	assert.Regexp(t, `\(the same error in \d+ more scenarios\)\n0 passed, 0 failed, \d+ errored\n$`, r.stdout)
}
