package conformance

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCompatScenarios: scenario files written against earlier releases
// (testdata/compat, see its README) keep passing, whatever the messages
// say now.
func TestCompatScenarios(t *testing.T) {
	files, errs := LoadFiles(filepath.Join("testdata", "compat"))
	require.Empty(t, errs)
	require.Len(t, files, 3)
	rep := NewSuite(games.Library()).Run(files, errs)
	var out bytes.Buffer
	rep.WriteText(&out, false)
	assert.True(t, rep.OK(), out.String())
	assert.GreaterOrEqual(t, rep.Passed, 12, out.String())
}

const codesOK = `game: kalah
scenarios:
  - name: the opponent's pit
    rule: K2
    reject: b1
    error_code: CODE
`

// error_code checks the rejection's stable code: a wrong code fails the
// step naming both codes; a budget or script error is a rejection when the
// step names its code (and an error otherwise); an unknown code is an
// error of the file, listing the codes.
func TestErrorCodeStep(t *testing.T) {
	lib := kalahLibrary(t)
	rep, out := runText(t, lib, strings.Replace(codesOK, "CODE", "illegal-token", 1))
	assert.True(t, rep.OK(), out)

	rep, out = runText(t, lib, strings.Replace(codesOK, "CODE", "game-over", 1))
	require.Equal(t, 1, rep.Failed, out)
	assert.Contains(t, out, "error_code")
	assert.Contains(t, out, "a rejection with the code game-over")
	assert.Contains(t, out, "illegal-token: illegal token \"b1\"")

	rep, out = runText(t, lib, strings.Replace(codesOK, "CODE", "no-such-code", 1))
	require.Equal(t, 1, rep.Errored, out)
	assert.Contains(t, out, `error_code: unknown code "no-such-code"`)
	assert.Contains(t, out, "illegal-token, game-over")

	// A script that runs out of steps on one token.
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "loops"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "loops", "loops.lua"), []byte(`local m = matombo
m.declare { name = "loops" }
m.board { rows = { "a" }, columns = 2 }
local K = m.move("k", "{1}")
return {
  setup = function() m.set_count("a1", 1) m.set_count("a2", 1) end,
  legal = function(p) m.emit(K, "a1") m.emit(K, "a2") end,
  play = function(p, kind, s) if s == 2 then while true do end end m.finish(0) end,
}
`), 0o644))
	loops := host.NewLibrary()
	require.NoError(t, loops.AddDir(dir))
	scen := `game: loops
scenarios:
  - name: a2 runs out of steps and changes nothing
    rule: X1
    reject: a2
    error_code: budget-steps
    expect: {legal: [a1, a2]}
`
	rep, out = runText(t, loops, scen)
	assert.True(t, rep.OK(), out)
	rep, out = runText(t, loops, strings.Replace(scen, "    error_code: budget-steps\n", "", 1))
	require.Equal(t, 1, rep.Errored, out)
	assert.Contains(t, out, "step budget exceeded")
}

// The schema for editors offers exactly the host's error codes.
func TestSchemaErrorCodes(t *testing.T) {
	b, err := os.ReadFile("scenario.schema.json")
	require.NoError(t, err)
	var schema struct {
		Definitions struct {
			ErrorCode struct {
				Enum []string `json:"enum"`
			} `json:"error_code"`
		} `json:"definitions"`
	}
	require.NoError(t, json.Unmarshal(b, &schema))
	assert.Equal(t, host.ErrorCodes(), schema.Definitions.ErrorCode.Enum)
}

// docs/scenarios.md lists every code of the host, and only those.
func TestDocumentedErrorCodes(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "docs", "scenarios.md"))
	require.NoError(t, err)
	_, section, ok := strings.Cut(string(b), "\n## Error codes\n")
	require.True(t, ok, "docs/scenarios.md has a section Error codes")
	section, _, _ = strings.Cut(section, "\n## ")
	var listed []string
	for _, line := range strings.Split(section, "\n") {
		if code, ok := strings.CutPrefix(line, "| `"); ok {
			code, _, _ = strings.Cut(code, "`")
			listed = append(listed, code)
		}
	}
	assert.ElementsMatch(t, host.ErrorCodes(), listed)
}
