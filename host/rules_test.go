package host

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The rule functions beyond setup, legal and play: blocked, repeated (with
// declare's repetition), the variables legal receives, and max_plies.

// shuttle is a game of one piece each on a line of three points: each
// player steps back and forth; the REPEAT marker is replaced by each test.
const shuttle = `local m = matombo
m.declare { name = "shuttle", max_plies = 100 REPEAT }
m.board { points = { a1 = 1, a2 = 2, a3 = 3, b1 = 1, b2 = 2, b3 = 3 }, lines = { { "a1", "a2", "a3" }, { "b1", "b2", "b3" } }, style = "pieces" }
local MOVE = m.move("move", "{from}-{to}")
local STEPS = m.var("steps")
local MINE = m.filter { owner = "mover", min = 1 }
return {
  setup = function()
    m.set_count("a1", 1) m.set_owner("a1", 1)
    m.set_count("b1", 1) m.set_owner("b1", 2)
  end,
  legal = function(p, steps) if steps ~= m.get(STEPS) then error("legal got " .. tostring(steps)) end m.emit_steps(MOVE, MINE) end,
  play = function(p, kind, from, to) m.move_piece(from, to) m.set(STEPS, m.get(STEPS) % 2) end,
  RULES
}
`

func shuttleSource(repeat, rules string) string {
	return strings.NewReplacer("REPEAT", repeat, "RULES", rules).Replace(shuttle)
}

func TestRepeatedRule(t *testing.T) {
	g, err := loadSource(t, "shuttle", shuttleSource(", repetition = 3", `repeated = function(p) m.finish(3 - p, "repeated by " .. p) end,`))
	require.NoError(t, err)
	s := g.Start()
	record := []string{"a1-a2", "b1-b2", "a2-a1", "b2-b1", "a1-a2", "b1-b2", "a2-a1", "b2-b1"}
	for i, tok := range record {
		require.False(t, s.Over(), "ply %d", i)
		require.NoError(t, s.Play(tok), "ply %d", i)
	}
	assert.Equal(t, Outcome{Over: true, Winner: 1, Method: MethodRepetition, Players: 2, Reason: "repeated by 2"}, s.Outcome(), "the third occurrence of the opening calls repeated with the player who made it")
	assert.Empty(t, s.Legal())
	assert.Equal(t, 3, s.Repetitions())

	// repeated must end the game; if it does not, the move fails and the
	// state is unchanged.
	g, err = loadSource(t, "shuttle", shuttleSource(", repetition = 2", `repeated = function(p) end,`))
	require.NoError(t, err)
	s = g.Start()
	for _, tok := range record[:3] {
		require.NoError(t, s.Play(tok))
	}
	before := stateJSONText(t, s)
	err = s.Play(record[3])
	var se *ScriptError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, Call("repeated"), se.Func)
	assert.Contains(t, err.Error(), "repeated returned without ending the game")
	assert.Equal(t, before, stateJSONText(t, s))
	assert.Equal(t, 4, historyLen(s))

	for _, c := range []struct{ repeat, rules, err string }{
		{", repetition = 3", "", "declare repetition = N and return a repeated function together, or neither"},
		{"", `repeated = function() end,`, "declare repetition = N and return a repeated function together, or neither"},
		{", repetition = 0", `repeated = function() end,`, "repetition must be a whole number from 1 to 1073741823"},
		{", repetition = 1.5", `repeated = function() end,`, "repetition must be a whole number from 1 to 1073741823"},
		{", repetition = 3", `repeated = 1,`, `needs a function "repeated", got number`},
	} {
		_, err := loadSource(t, "shuttle", shuttleSource(c.repeat, c.rules))
		assert.ErrorContains(t, err, c.err, "%s %s", c.repeat, c.rules)
	}
}

// legal receives the player and the values of the script's variables.
func TestLegalReceivesVariables(t *testing.T) {
	g, err := loadSource(t, "shuttle", shuttleSource("", ""))
	require.NoError(t, err)
	s := g.Start()
	for i := 0; i < 6; i++ {
		require.NoError(t, s.Play(s.Legal()[0]))
	}
	pos := s.Position()
	pos.Vars["steps"] = 7
	_, err = g.NewState(pos)
	require.NoError(t, err, "legal sees steps = 7 as its second argument")
}

// TestRepetitionDeclaration: m.repetition sets declare's repetition after
// declare, so a parameter can decide whether repetition ends a game.
func TestRepetitionDeclaration(t *testing.T) {
	src := strings.Replace(shuttleSource("", `repeated = function(p) m.finish(0, "repeated") end,`),
		"max_plies = 100  }", "max_plies = 100 }\nm.repetition(2)", 1)
	g, err := loadSource(t, "shuttle", src)
	require.NoError(t, err)
	s := g.Start()
	for _, tok := range []string{"a1-a2", "b1-b2", "a2-a1", "b2-b1"} {
		require.False(t, s.Over())
		require.NoError(t, s.Play(tok))
	}
	assert.Equal(t, "repeated", s.Outcome().Reason, "the second occurrence of the opening ends the game")

	for body, msg := range map[string]string{
		"m.repetition(0)":   "the occurrence must be a whole number from 1 to 1073741823",
		`m.repetition("x")`: "integer expected",
		"m.repetition(3)":   "declare repetition = N and return a repeated function together, or neither",
	} {
		_, err := loadSource(t, "rp", miniSource("rp", body))
		assert.ErrorContains(t, err, msg, body)
	}
	g = loadTest(t, "probe")
	_, err = evalIn(g, g.Start(), asSetup, luaPrefix+`m.repetition(3)`)
	assert.ErrorContains(t, err, "the repetition rule can only be declared while the script loads")
}

func TestMaxPliesDeclaration(t *testing.T) {
	g, err := loadSource(t, "mp", miniSource("mp", `m.max_plies(77)`))
	require.NoError(t, err)
	assert.Equal(t, 77, g.MaxPlies())
	for body, msg := range map[string]string{
		`m.max_plies(0)`:   "bad argument #1 to max_plies (the cap must be at least 1)",
		`m.max_plies("x")`: "integer expected",
	} {
		_, err := loadSource(t, "mp", miniSource("mp", body))
		assert.ErrorContains(t, err, msg)
	}
	g = loadTest(t, "probe")
	_, err = evalIn(g, g.Start(), asSetup, luaPrefix+`m.max_plies(5)`)
	assert.ErrorContains(t, err, "the ply cap can only be declared while the script loads")
}

// data_error names the variants file and line of a data table.
func TestDataError(t *testing.T) {
	script := `local m = matombo
m.declare { name = "de" }
local b = m.data.boards.small
if b.size ~= 3 then m.data_error(b, "board small: size must be 3") end
m.board { rows = { "a" }, columns = b.size }
local K = m.move("k", "{1}")
return { setup = function() m.set_count(1, 1) end, legal = function() m.emit(K, 1) end, play = function() m.finish(0) end }
`
	_, dir, err := loadFolder(t, "de", map[string]string{"de.lua": script, "variants.yaml": "data:\n  boards:\n    small:\n      size: 4\n"})
	var ce *ConfigError
	require.ErrorAs(t, err, &ce, "%T %v", err, err)
	assert.Equal(t, filepath.Join(dir, "de", "variants.yaml"), ce.Pos.File)
	assert.Equal(t, 4, ce.Pos.Line)
	assert.Contains(t, err.Error(), "board small: size must be 3")

	// A board declared from data reports its own errors at the data.
	script2 := strings.Replace(script, `if b.size ~= 3 then m.data_error(b, "board small: size must be 3") end
m.board { rows = { "a" }, columns = b.size }`, `m.board(b)`, 1)
	_, dir, err = loadFolder(t, "de", map[string]string{"de.lua": script2, "variants.yaml": "data:\n  boards:\n    small:\n      rows: [a]\n      columns: 2\n      lines:\n        - [a1, a2]\n        - [a1, a3]\n"})
	require.ErrorAs(t, err, &ce, "%T %v", err, err)
	assert.Equal(t, Pos{File: filepath.Join(dir, "de", "variants.yaml"), Line: 8, Col: 11}, ce.Pos)
	assert.Contains(t, err.Error(), `names "a3", which is not a site of the board`)
	_, _, err = loadFolder(t, "de", map[string]string{"de.lua": script2, "variants.yaml": "data:\n  boards:\n    small:\n      rows: [a]\n      columns: 2\n      colour: red\n"})
	require.ErrorAs(t, err, &ce, "%T %v", err, err)
	assert.Equal(t, 4, ce.Pos.Line)
	assert.Contains(t, err.Error(), "matombo.board: unknown field colour")
}

// The sandbox replaces ipairs and some math functions with versions that
// do not allocate; they behave as the standard ones.
func TestReplacedLibraryFunctions(t *testing.T) {
	g := loadTest(t, "probe")
	runPrimCases(t, g, []primCase{
		{name: "ipairs stops at the first nil", code: `local out = {} for i, v in ipairs({ 10, 20, nil, 40 }) do out[#out + 1] = i * 100 + v end return unpack(out)`, want: []any{110, 220}},
		{name: "ipairs of an empty table", code: `local n = 0 for _ in ipairs({}) do n = n + 1 end return n`, want: []any{0}},
		{name: "ipairs of a long table", code: `local t = {} for i = 1, 5000 do t[i] = -i end local s = 0 for i, v in ipairs(t) do s = s + i + v end return s`, want: []any{0}},
		{name: "ipairs ignores the hash part", code: `local t = { 1, 2, x = 3 } local n = 0 for _ in ipairs(t) do n = n + 1 end return n`, want: []any{2}},
		{name: "ipairs of a non-table", code: `for _ in ipairs(nil) do end`, err: "bad argument #1 to ipairs"},
		{name: "floor", code: `return math.floor(2.5), math.floor(-2.5), math.floor(3), math.floor(-0.5), math.floor(2^40 + 0.5), math.floor("7.9")`, want: []any{2, -3, 3, -1, wholeNumber(1 << 40), 7}},
		{name: "ceil", code: `return math.ceil(2.1), math.ceil(-2.1), math.ceil(5000.5)`, want: []any{3, -2, 5001}},
		{name: "abs", code: `return math.abs(-3), math.abs(3.5), math.abs(-5000)`, want: []any{3, 3.5, 5000}},
		{name: "min and max", code: `return math.min(4, -1, 7), math.max(1, 5, 3), math.max(2.5), math.min(-2000, 5)`, want: []any{-1, 5, 2.5, -2000}},
		{name: "huge values", code: `return math.floor(1/0) == 1/0, math.max(1, 0/0) == 1`, want: []any{true, true}},
		{name: "floor of nothing", code: `return math.floor()`, err: "bad argument #1 to floor"},
		{name: "max of nothing", code: `return math.max()`, err: "bad argument #1 to max"},
		{name: "max of a string", code: `return math.max(1, "x")`, err: "bad argument #2 to max"},
		{name: "the rest of math", code: `return math.sqrt(16), math.fmod(7, 3), math.huge > 0, math.pi > 3, math.random, math.randomseed`, want: []any{4, 1, true, true, nil, nil}},
	})
}

// TestUnlistedEnds: a game that ends when its moves are listed (blocked)
// ends when Runner.List lists them, as ApplyTo ends it; a move that
// reaches a position for the repetition rule's time is listed at once.
func TestUnlistedEnds(t *testing.T) {
	g := loadStuck(t)
	r := g.NewRunner()
	defer r.Close()
	s := g.Start()
	want, dst := &State{}, &State{}
	require.NoError(t, r.ApplyTo(want, s, s.Moves()[0]))
	require.Equal(t, MethodNoMoves, want.Outcome().Method)
	require.NoError(t, r.ApplyToUnlisted(dst, s, 0))
	assert.False(t, dst.Listed())
	assert.False(t, dst.Over(), "the end is not known before the moves are listed")
	assert.Equal(t, 3, dst.Count(3))
	require.NoError(t, r.List(dst))
	assert.True(t, dst.Listed())
	assert.Equal(t, want.Outcome(), dst.Outcome())
	assert.Equal(t, want.Key(), dst.Key(), "the key of the board the end left")
	assert.Equal(t, stateJSONText(t, want), stateJSONText(t, dst))
	require.NoError(t, r.List(dst), "listing a listed state does nothing")
	assert.Equal(t, stateJSONText(t, want), stateJSONText(t, dst))

	g, err := loadSource(t, "shuttle", shuttleSource(", repetition = 2", `repeated = function(p) m.finish(3 - p, "repeated by " .. p) end,`))
	require.NoError(t, err)
	r2 := g.NewRunner()
	defer r2.Close()
	s = g.Start()
	for _, tok := range []string{"a1-a2", "b1-b2", "a2-a1"} {
		require.NoError(t, s.Play(tok))
	}
	m, err := s.ParseMove("b2-b1")
	require.NoError(t, err)
	i := slices.Index(s.Moves(), m)
	want, dst = &State{}, &State{}
	require.NoError(t, r2.ApplyTo(want, s, m))
	require.NoError(t, r2.ApplyToUnlisted(dst, s, i))
	assert.True(t, dst.Listed())
	assert.Equal(t, MethodRepetition, dst.Outcome().Method)
	assert.Equal(t, stateJSONText(t, want), stateJSONText(t, dst))
}

// TestUnlistedListsOnDemand: the methods of a State that can fail list an
// unlisted state's moves first (MarshalJSON, Prompt, ParseMove, Play), so
// they answer as for the state ApplyTo makes; the blocked function's end
// is then known.
func TestUnlistedListsOnDemand(t *testing.T) {
	g := loadStuck(t)
	r := g.NewRunner()
	defer r.Close()
	s := g.Start()
	want := &State{}
	require.NoError(t, r.ApplyTo(want, s, s.Moves()[0]))
	for _, c := range []struct {
		name string
		call func(*State) error
	}{
		{"MarshalJSON", func(u *State) error { _, err := u.MarshalJSON(); return err }},
		{"Prompt", func(u *State) error { _, err := u.Prompt(); return err }},
		{"ParseMove", func(u *State) error { _, err := u.ParseMove("a1"); return err }},
		{"Play", func(u *State) error { return u.Play("a1") }},
	} {
		t.Run(c.name, func(t *testing.T) {
			u := &State{}
			require.NoError(t, r.ApplyToUnlisted(u, s, 0))
			require.False(t, u.Listed())
			var ill *IllegalMoveError
			if err := c.call(u); err != nil {
				require.ErrorAs(t, err, &ill, "only the move is refused: the game is over")
				assert.True(t, ill.GameOver)
			}
			assert.True(t, u.Listed())
			assert.Equal(t, want.Outcome(), u.Outcome())
			assert.Equal(t, stateJSONText(t, want), stateJSONText(t, u))
		})
	}
}

// loadStuck loads a game whose one move empties a1 and fills b2, after
// which the next player has no move and the script's blocked function
// empties b2 and ends the game.
func loadStuck(t *testing.T) *Game {
	t.Helper()
	stuck := strings.NewReplacer(`legal = function(p) m.emit(SOW, "a1") end`, `legal = function(p) if m.count("a1") > 0 then m.emit(SOW, "a1") end end`,
		`play = function(p, kind, s) m.finish(0, "done") end`, `play = function(p, kind, s) m.set_count("a1", 0) m.set_count("b2", 3) end, blocked = function(p) m.set_count("b2", 0) m.finish(3 - p, "stuck") end`)
	g, err := loadSource(t, "stuck", stuck.Replace(miniSource("stuck", "")))
	require.NoError(t, err)
	return g
}
