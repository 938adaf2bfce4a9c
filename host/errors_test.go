package host

import (
	"context"
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

// Every error of the host has a stable code (ErrorCode), one per kind,
// from the documented list; each case makes the error for real.
func TestErrorCodes(t *testing.T) {
	play := func(body string, lim Limits) error {
		src := replaceOnce(miniSource("codes", ""), `play = function(p, kind, s) m.finish(0, "done") end`, `play = function(p, kind, s) `+body+` end`)
		g, err := loadSource(t, "codes", src, WithLimits(lim))
		require.NoError(t, err)
		return g.Start().Play("a1")
	}
	finished := func() *State {
		g, err := loadSource(t, "codes", miniSource("codes", ""))
		require.NoError(t, err)
		s := g.Start()
		require.NoError(t, s.Play("a1"))
		return s
	}
	kalah := loadTest(t, "kalah")
	canceledCtx, cancel := context.WithCancel(context.Background())
	cancel()
	cases := []struct {
		want string
		err  func() error
	}{
		{CodeConfig, func() error { _, err := testLibrary(t).Load("no-such-game"); return err }},
		{CodeConfig, func() error { return NewLibrary().AddDir(filepath.Join(t.TempDir(), "nope")) }},
		{CodeScript, func() error { return play(`error("boom")`, Limits{}) }},
		{CodeIllegalToken, func() error { return kalah.Start().Play("z9") }},
		{CodeGameOver, func() error { return finished().Play("a1") }},
		{CodeCanceled, func() error { return kalah.Start().PlayContext(canceledCtx, "a1") }},
		{CodeBadPosition, func() error { _, err := kalah.StateFromJSON([]byte(`{}`)); return err }},
		{CodeBadDiagram, func() error { _, _, err := kalah.ParseDiagram("z 1 2"); return err }},
		{CodeBadEffect, func() error {
			pos := kalah.Start().Position()
			return pos.ApplyEffects([]Effect{{Kind: EffectDrop, Site: 999, Count: 1}})
		}},
		{CodeBudgetSteps, func() error { return play(`while true do end`, Limits{Steps: 1000}) }},
		{CodeBudgetCallStack, func() error { return play(`local function f() return 1 + f() end f()`, Limits{}) }},
		{CodeBudgetStringSize, func() error { return play(`local s = string.rep("x", 1e9)`, Limits{}) }},
		{CodeIllegalToken, func() error { _, err := kalah.Replay([]string{"a1", "z9"}); return err }},
	}
	for _, c := range cases {
		err := c.err()
		require.Error(t, err, c.want)
		assert.Equal(t, c.want, ErrorCode(err), "%T: %v", err, err)
		var coder interface{ Code() string }
		require.ErrorAs(t, err, &coder, "the server finds the code with errors.As")
	}
	assert.Equal(t, "", ErrorCode(errors.New("plain")))

	// The list is the documented one: every code once, every budget's code in it.
	seen := map[string]bool{}
	for _, c := range ErrorCodes() {
		assert.False(t, seen[c], "%s twice", c)
		assert.Regexp(t, `^[a-z]+(-[a-z]+)*$`, c)
		seen[c] = true
	}
	for _, b := range []Budget{BudgetSteps, BudgetTime, BudgetMemory, BudgetCallStack, BudgetDataStack, BudgetStringSize, BudgetTableSize, BudgetPattern, BudgetLoad} {
		assert.True(t, seen[b.Code()], "budget %s has the code %s, which is not listed", b, b.Code())
	}
}
