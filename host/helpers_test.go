package host

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
)

// loadSource writes src as the loose script NAME.lua into a fresh folder
// and loads game NAME from it. The script's path in messages ends with
// NAME.lua.
func loadSource(t testing.TB, name, src string, opts ...Option) (*Game, error) {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, name+".lua"), []byte(src), 0o644))
	lib := NewLibrary()
	require.NoError(t, lib.AddDir(dir))
	return lib.Load(name, opts...)
}

// loadFolder writes files (name -> content) into the game folder NAME of
// a fresh games folder and loads game NAME from it; it returns the games
// folder too, for messages that name files.
func loadFolder(t testing.TB, name string, files map[string]string, opts ...Option) (*Game, string, error) {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, name), 0o755))
	for f, src := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name, f), []byte(src), 0o644))
	}
	lib := NewLibrary()
	require.NoError(t, lib.AddDir(dir))
	g, err := lib.Load(name, opts...)
	return g, dir, err
}

// miniGame is a complete small game script: body goes between the
// declarations and the rules table. NAME is replaced by the game's name.
const miniGame = `local m = matombo
m.declare { name = "NAME" }
m.board { rows = { "a", "b" }, columns = 2 }
local SOW = m.move("sow", "{1}")
BODY
return {
  setup = function() m.set_count("a1", 1) end,
  legal = function(p) m.emit(SOW, "a1") end,
  play = function(p, kind, s) m.finish(0, "done") end,
}
`

func miniSource(name, body string) string {
	return strings.ReplaceAll(strings.ReplaceAll(miniGame, "NAME", name), "BODY", body)
}

// wholeNumber is how fromLua gives a whole number: an int, or a float64
// when it does not fit one (on a 32-bit machine).
func wholeNumber(n int64) any {
	if n == int64(int(n)) {
		return int(n)
	}
	return float64(n)
}

// fromLua converts a Lua value to a plain Go value for comparisons:
// integers to int, other numbers to float64, strings, booleans, nil,
// tables with only an array part to []any and other tables to
// map[string]any.
func fromLua(v lua.LValue) any {
	switch x := v.(type) {
	case lua.LNumber:
		if f := float64(x); f == math.Trunc(f) && math.Abs(f) < 1<<53 {
			return wholeNumber(int64(f))
		}
		return float64(x)
	case lua.LString:
		return string(x)
	case lua.LBool:
		return bool(x)
	case *lua.LNilType:
		return nil
	case *lua.LTable:
		n := x.Len()
		keys := 0
		x.ForEach(func(lua.LValue, lua.LValue) { keys++ })
		if keys == n {
			out := []any{}
			for i := 1; i <= n; i++ {
				out = append(out, fromLua(x.RawGetInt(i)))
			}
			return out
		}
		out := map[string]any{}
		x.ForEach(func(k, v lua.LValue) { out[k.String()] = fromLua(v) })
		return out
	}
	return v.Type().String()
}

func fromLuaAll(vs []lua.LValue) []any {
	out := []any{}
	for _, v := range vs {
		out = append(out, fromLua(v))
	}
	return out
}

// loadTest loads a game of host/testdata/games.
func loadTest(t testing.TB, name string, opts ...Option) *Game {
	t.Helper()
	g, err := testLibrary(t).Load(name, opts...)
	require.NoError(t, err)
	return g
}

// stateJSONText is the state's JSON as a string.
func stateJSONText(t testing.TB, s *State) string {
	t.Helper()
	b, err := s.MarshalJSON()
	require.NoError(t, err)
	return string(b)
}

// writeFile writes a file, making its folder.
func writeFile(t testing.TB, path, content string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
}
