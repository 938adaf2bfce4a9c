package host

import (
	"math/rand/v2"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// placeGame is a small game of dropping and moving pieces on the 3x3
// square with its diagonals: three pieces each, dropped, then stepped or
// jumped; three on a line win; a player who cannot move passes. Its
// legal and play are given by LEGAL and PLAY.
const placeGame = `local m = matombo
m.declare { name = "place", players = 2, repetition = 3, max_plies = 200 }
m.board {
  rows = { "a", "b", "c" }, columns = 3, style = "pieces",
  lines = {
    { "a1", "a2", "a3" }, { "b1", "b2", "b3" }, { "c1", "c2", "c3" },
    { "a1", "b1", "c1" }, { "a2", "b2", "c2" }, { "a3", "b3", "c3" },
    { "a1", "b2", "c3" }, { "a3", "b2", "c1" },
  },
}
local DROP = m.move("drop", "{1}")
local MOVE = m.move("move", "{from}-{to}")
local PASS = m.move("pass", "pass")
local EMPTY = m.filter { owner = "nobody", max = 0 }
local MINE = m.filter { owner = "mover", min = 1 }
local drops = m.rule("drops", m.emit_rule { kind = DROP, each = EMPTY })
local moves = m.rule("moves", m.emit_rule { kind = MOVE, steps = MINE, jumps = MINE })
local stuck = m.rule("stuck", m.emit_rule { moves = { PASS } })
local three = m.rule("three", m.line_rule { length = 3 })
return {
  setup = function() m.set_hand(1, 3); m.set_hand(2, 3) end,
  legal = LEGAL,
  play = PLAY,
  repeated = function() m.finish(0, "third repetition") end,
}
`

// The same rules written with primitives in Lua, and the native turns.
const (
	placeLuaLegal = `function(p)
  if m.hand(p) > 0 then return m.emit_each(DROP, EMPTY) end
  if m.hand(3 - p) == 0 then
    if m.emit_steps(MOVE, MINE) + m.emit_jumps(MOVE, MINE) == 0 then m.emit(PASS) end
  end
end`
	placeLuaPlay = `function(p, kind, a, b)
  if kind == PASS then return end
  if kind == DROP then m.place(p, a) else m.move_piece(a, b); a = b end
  if m.in_a_row(p, a, 3) then m.finish { winner = p, reason = "three in a row", sites = m.row_sites(p, a, 3) } end
end`
	placeNativeLegal = `m.placement_legal { drops = drops, moves = moves, stuck = stuck }`
	placeNativePlay  = `m.placement_play { drop = DROP, move = MOVE, win = three, reason = "three in a row", other = function() end }`
	// Lua functions that call the native rules.
	placeMixedLegal = `function(p)
  if m.hand(p) > 0 then return drops(p) end
  if m.hand(3 - p) == 0 and moves(p) == 0 then stuck(p) end
end`
	placeMixedPlay = `function(p, kind, a, b)
  if kind == PASS then return end
  if kind == DROP then m.place(p, a) else m.move_piece(a, b); a = b end
  if three(p, a) then m.finish { winner = p, reason = "three in a row", sites = m.row_sites(p, a, 3) } end
end`
)

func placeSource(legal, play string) string {
	return strings.NewReplacer("LEGAL", legal, "PLAY", play).Replace(placeGame)
}

// TestPlacementRules plays random games of the placement game with its
// rules written three ways (primitives in Lua, native turns, Lua calling
// the native rules): legal lists, positions, effects and results agree.
func TestPlacementRules(t *testing.T) {
	lua, err := loadSource(t, "place", placeSource(placeLuaLegal, placeLuaPlay))
	require.NoError(t, err)
	for _, c := range []struct{ name, legal, play string }{
		{"native", placeNativeLegal, placeNativePlay},
		{"mixed", placeMixedLegal, placeMixedPlay},
	} {
		t.Run(c.name, func(t *testing.T) {
			g, err := loadSource(t, "place", placeSource(c.legal, c.play))
			require.NoError(t, err)
			playAlike(t, lua, g, 40)
		})
	}
}

// playAlike plays random games of a and b with the same choices and
// compares every legal list, position, the effects of every move and the
// results.
func playAlike(t *testing.T, a, b *Game, games int) {
	t.Helper()
	ra, rb := a.NewRunner(), b.NewRunner()
	defer ra.Close()
	defer rb.Close()
	ra.Record(true)
	rb.Record(true)
	for i := range games {
		rng := rand.New(rand.NewPCG(uint64(i), 5))
		sa, sb := a.Start(), b.Start()
		for ply := 0; !sa.Over(); ply++ {
			require.Equal(t, sa.Legal(), sb.Legal(), "game %d, ply %d:\n%s", i, ply, sa.Diagram())
			k := rng.IntN(len(sa.Moves()))
			require.NoError(t, ra.Apply(sa, sa.Moves()[k]))
			require.NoError(t, rb.Apply(sb, sb.Moves()[k]))
			require.Equal(t, sa.Key(), sb.Key(), "game %d, ply %d:\n%s\n%s", i, ply, sa.Diagram(), sb.Diagram())
			ea, _ := sa.Effects()
			eb, _ := sb.Effects()
			require.Equal(t, ea, eb, "game %d, ply %d: effects", i, ply)
		}
		require.True(t, sb.Over())
		require.Equal(t, sa.Outcome(), sb.Outcome(), "game %d", i)
	}
}

// TestPlacementRulesReplaced: a rule point of a native turn replaced by an
// extending script runs at its place, and the rest stays native.
func TestPlacementRulesReplaced(t *testing.T) {
	base := placeSource(placeNativeLegal, placeNativePlay)
	for _, c := range []struct {
		name, replace string
		check         func(t *testing.T, s *State)
	}{
		{"three", `three = function(three, p, s) return false end`, func(t *testing.T, s *State) {
			// Nobody wins by a line: the drops fill the board with no end.
			for _, tok := range []string{"a1", "b1", "a2", "b2", "a3"} {
				require.NoError(t, s.Play(tok))
			}
			assert.False(t, s.Over())
		}},
		{"moves", `moves = function(moves, p) return 0 end`, func(t *testing.T, s *State) {
			for _, tok := range []string{"a1", "b1", "c2", "a3", "c1", "c3"} {
				require.NoError(t, s.Play(tok))
			}
			assert.Equal(t, []string{"pass"}, s.Legal()) // stuck runs
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := `return matombo.extends("place", { replace = { ` + c.replace + ` } })`
			lib := extLibrary(t, fstest.MapFS{"place/place.lua": {Data: []byte(base)}, "ext/ext.lua": {Data: []byte(src)}})
			g, err := lib.Load("ext")
			require.NoError(t, err)
			c.check(t, g.Start())
		})
	}
}

// TestPlacementRuleErrors: malformed specs name the constructor and the
// field; a native turn that meets a move it cannot play fails it.
func TestPlacementRuleErrors(t *testing.T) {
	for _, c := range []struct{ legal, play, want string }{
		{`m.placement_legal { }`, placeNativePlay, "placement_legal: give drops or moves"},
		{placeNativeLegal, `m.placement_play { win = three }`, "placement_play: give drop or move"},
		{placeNativeLegal, `m.placement_play { drop = MOVE }`, "drop's kind move must take 1 site"},
		{placeNativeLegal, `m.placement_play { drop = DROP, win = three }`, "placement_play: reason must be the reason"},
		{`m.emit_rule { kind = DROP }`, placeNativePlay, "emit_rule: give kind with each"},
		{`m.emit_rule { kind = MOVE, each = EMPTY }`, placeNativePlay, "emit_rule: kind move takes 2 sites, but these moves name 1"},
		{`m.emit_rule { kind = DROP, each = EMPTY, steps = MINE }`, placeNativePlay, "give them in rules of their own"},
		{`m.emit_rule { moves = { DROP } }`, placeNativePlay, "moves lists kinds of moves without sites; drop takes 1 site"},
		{`m.emit_rule { kind = MOVE, pairs = { from = MINE } }`, placeNativePlay, "pairs: to is required"},
		{`m.emit_rule { kind = MOVE, steps = 3 }`, placeNativePlay, "emit_rule: steps must be a filter"},
		{placeNativeLegal, `(function() m.line_rule { } end)()`, "line_rule: length is required"},
		{placeNativeLegal, `(function() m.line_rule { length = 3, through = "z9" } end)()`, "line_rule: through must be a site"},
		{placeNativeLegal, `(function() m.line_rule { length = 3, except = { { "a1", "b2" } } } end)()`, "line_rule: except: line 1 (a1 b2) is not a line of the board"},
		{placeNativeLegal, `(function() m.line_rule { length = 3, except = { { { "a1", "a2", "a3" } } } } end)()`, "line_rule: except lists 1 lists of lines; give one, or one per player (2)"},
		{placeNativeLegal, `(function() m.line_rule { length = 3, only = { { "a1", "z9" } } } end)()`, "line_rule: only"},
		{placeNativeLegal, `(function() m.line_rule { length = 3, anywhere = true, exactly = true } end)()`, "line_rule: give anywhere or exactly"},
		{placeNativeLegal, `(function() m.line_rule { length = 3, exactly = "yes" } end)()`, "line_rule: exactly must be true or false, got string"},
		{placeNativeLegal, `(function() m.line_rule { length = 3, only = 7 } end)()`, "line_rule: only must be a list of lists of sites, or one such list per player, got"},
		{placeNativeLegal, `m.placement_play { drop = DROP, arrival = { 3 } }`, "placement_play: arrival[1] must be a function"},
		{placeNativeLegal, `m.placement_play { drop = DROP, arrival = { three } }`, "arrival[1] must fit the arrive slot (p, s) → whether it acted; line_rule does not"},
		{`m.if_rule { emit = drops }`, placeNativePlay, "if_rule: when is required"},
		{`m.first_of_rule { }`, placeNativePlay, "first_of_rule: give at least one item"},
		{placeNativeLegal, `m.remove_play { clear = { 99 } }`, "remove_play: clear must be a variable"},
	} {
		_, err := loadSource(t, "place", placeSource(c.legal, c.play))
		require.Error(t, err, c.want)
		assert.Contains(t, err.Error(), c.want)
	}
	// A pass with no other function to play it fails the move and leaves
	// the state as it was.
	g, err := loadSource(t, "place", placeSource(`function(p) m.emit(PASS) end`, `m.placement_play { drop = DROP, move = MOVE }`))
	require.NoError(t, err)
	s := g.Start()
	pos := s.Position()
	err = s.Play("pass")
	var se *ScriptError
	require.ErrorAs(t, err, &se)
	assert.Contains(t, se.Msg, "a move of kind pass, but no other function to play it")
	assert.Equal(t, pos, s.Position())
}

// TestPlacementRuleEmitsOnlyInLegal: an emitting rule called outside
// legal is an error, as the emitters are.
func TestPlacementRuleEmitsOnlyInLegal(t *testing.T) {
	g, err := loadSource(t, "place", placeSource(placeNativeLegal, `function(p, kind, a) drops(p) end`))
	require.NoError(t, err)
	err = g.Start().Play("a1")
	var se *ScriptError
	require.ErrorAs(t, err, &se)
	assert.Contains(t, se.Msg, "moves can only be emitted inside legal")
}

func intsOf(line []int32) []int {
	out := make([]int, len(line))
	for k, x := range line {
		out[k] = int(x)
	}
	return out
}
