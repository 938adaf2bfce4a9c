package host

import (
	"errors"
	"io/fs"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/parse"
	"gopkg.in/yaml.v3"
)

// Every error keeps its cause: callers match with errors.Is and errors.As
// through the host's typed errors, never by message text.
func TestErrorsKeepTheirCause(t *testing.T) {
	t.Run("missing games folder", func(t *testing.T) {
		err := NewLibrary().AddDir(filepath.Join(t.TempDir(), "nope"))
		require.ErrorIs(t, err, fs.ErrNotExist)
		assert.Contains(t, err.Error(), "nope: no such folder")
	})
	t.Run("YAML syntax", func(t *testing.T) {
		_, _, err := loadFolder(t, "ys", map[string]string{"ys.lua": miniSource("ys", ""), "variants.yaml": "variants:\n\tbig: {}\n"})
		var ce *ConfigError
		require.ErrorAs(t, err, &ce)
		var ye *yaml.TypeError
		assert.True(t, ce.Err != nil && !errors.As(err, &ye), "the YAML decoder's error is kept: %#v", ce.Err)
	})
	t.Run("Lua syntax", func(t *testing.T) {
		_, err := loadSource(t, "syn", "local x = = 1\n")
		var se *ScriptError
		require.ErrorAs(t, err, &se)
		var pe *parse.Error
		require.ErrorAs(t, err, &pe, "the parser's error is kept")
		assert.Equal(t, 1, se.Pos.Line)
		assert.Equal(t, se.Pos.Line, se.Pos.EndLine, "a syntax error covers its token")
		assert.GreaterOrEqual(t, se.Pos.EndCol, se.Pos.Col)
	})
	t.Run("global function", func(t *testing.T) {
		_, err := loadSource(t, "gf", miniSource("gf", "function helper()\n  return 1\nend"))
		var se *ScriptError
		require.ErrorAs(t, err, &se)
		assert.Equal(t, Pos{File: se.Pos.File, Line: 5, EndLine: 7}, se.Pos, "the definition's lines")
	})
	t.Run("runtime error", func(t *testing.T) {
		src := replaceOnce(miniSource("rt", ""), `play = function(p, kind, s) m.finish(0, "done") end`, `play = function(p, kind, s) error("boom") end`)
		g, err := loadSource(t, "rt", src)
		require.NoError(t, err)
		err = g.Start().Play("a1")
		var se *ScriptError
		require.ErrorAs(t, err, &se)
		var ae *lua.ApiError
		require.ErrorAs(t, err, &ae, "gopher-lua's error is kept")
	})
	t.Run("budget", func(t *testing.T) {
		src := replaceOnce(miniSource("bu", ""), `play = function(p, kind, s) m.finish(0, "done") end`, `play = function(p, kind, s) while true do end end`)
		g, err := loadSource(t, "bu", src, WithLimits(Limits{Steps: 1000}))
		require.NoError(t, err)
		err = g.Start().Play("a1")
		var be *BudgetError
		require.ErrorAs(t, err, &be)
		var ae *lua.ApiError
		require.ErrorAs(t, err, &ae, "gopher-lua's error is kept")
	})
}
