package host

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hopGame is a small game of men and kings on the diagonals of a 6x6
// board, written for the tests of steps_rule, jumps_rule, promote_rule and
// hop_play: twelve men each on the two rows nearest them, men step and jump forward
// (Player 1 towards row d), kings both ways, a capture is compulsory and
// goes on with the same piece (its site in the variable jumper), a man on
// the far row is crowned from the hand, which ends its move; a player who
// cannot move loses. Its legal and play are LEGAL and PLAY.
const hopGame = `local m = matombo
m.declare { name = "hops", players = 2, repetition = 3, max_plies = 1000 }
local ROWS, N = { "a", "b", "c", "d", "e", "f" }, 6
local function name(r, c)
  if r < 1 or r > N or c < 1 or c > N then return nil end
  return ROWS[r] .. c
end
local LINES = {} -- the diagonals, each from row a upwards
for _, dc in ipairs { 1, -1 } do
  for r = 1, N do
    for c = 1, N do
      if not name(r - 1, c - dc) then
        local line, rr, cc = {}, r, c
        while name(rr, cc) do line[#line + 1] = name(rr, cc); rr, cc = rr + 1, cc + dc end
        if #line >= 2 then LINES[#LINES + 1] = line end
      end
    end
  end
end
m.board { rows = ROWS, columns = N, style = "pieces", lines = LINES }
local STEP = m.move("step", "{from}-{to}")
local JUMP = m.move("jump", "{from}x{to}")
local JUMP_ON = m.move("jump_on", "x{1}")
local JUMPER = m.var("jumper")
local MINE = m.filter { owner = "mover", min = 1 }
local THEIRS = m.filter { owner = "opponent", min = 1 }
local KINGS = m.filter { owner = "mover", min = 2 }
local MEN = m.filter { owner = "mover", min = 1, max = 1 }
local FORWARD = { "ahead", "back" }
local steps = m.rule("steps", m.steps_rule { kind = STEP, from = MINE, toward = FORWARD, both = KINGS })
local jumps = m.rule("jumps", m.jumps_rule { kind = JUMP, from = MINE, over = THEIRS, toward = FORWARD, both = KINGS })
local again = m.rule("again", m.jumps_rule { kind = JUMP, again = JUMP_ON, from = MINE, over = THEIRS, toward = FORWARD, both = KINGS })
local crown = m.rule("crown", m.promote_rule { row = { N, 1 }, piece = MEN, from_hand = true })
local hop = m.rule("hop", m.hop_play { pending = JUMPER, again = again, arrival = { crown }, arrival_ends = true, progress = MEN })

-- The same rules in Lua: each site's neighbours and jumps ahead (in the
-- lines' order) and back, by site.
local AHEAD, BACK, JAHEAD, JBACK = {}, {}, {}, {}
for s = 1, m.size() do AHEAD[s], BACK[s], JAHEAD[s], JBACK[s] = {}, {}, {}, {} end
for _, line in ipairs(LINES) do
  for k = 1, #line do
    local s = m.site(line[k])
    if line[k + 1] then table.insert(AHEAD[s], m.site(line[k + 1])) end
    if line[k - 1] then table.insert(BACK[s], m.site(line[k - 1])) end
    if line[k + 2] then table.insert(JAHEAD[s], { m.site(line[k + 1]), m.site(line[k + 2]) }) end
    if line[k - 2] then table.insert(JBACK[s], { m.site(line[k - 1]), m.site(line[k - 2]) }) end
  end
end
local function ways(p, s, list_ahead, list_back)
  local out = {}
  if m.count(s) == 2 or p == 1 then for _, x in ipairs(list_ahead[s]) do out[#out + 1] = x end end
  if m.count(s) == 2 or p == 2 then for _, x in ipairs(list_back[s]) do out[#out + 1] = x end end
  table.sort(out, function(a, b)
    if type(a) == "table" then return a[2] < b[2] end
    return a < b
  end)
  return out
end
local function lua_jumps(p, s, kind)
  local n = 0
  for _, j in ipairs(ways(p, s, JAHEAD, JBACK)) do
    if m.count(j[2]) == 0 and m.owner(j[1]) == 3 - p then
      if kind == JUMP_ON then m.emit(JUMP_ON, j[2]) else m.emit(JUMP, s, j[2]) end
      n = n + 1
    end
  end
  return n
end
local function lua_legal(p, jumper)
  if jumper > 0 then return lua_jumps(p, jumper, JUMP_ON) end
  local n = 0
  for s = 1, m.size() do
    if m.owner(s) == p then n = n + lua_jumps(p, s, JUMP) end
  end
  if n > 0 then return n end
  for s = 1, m.size() do
    if m.owner(s) == p then
      for _, to in ipairs(ways(p, s, AHEAD, BACK)) do
        if m.count(to) == 0 then m.emit(STEP, s, to); n = n + 1 end
      end
    end
  end
  return n
end
local function lua_play(p, kind, a, b)
  local from, to = a, b
  if kind == JUMP_ON then from, to = m.get(JUMPER), a end
  local man = m.count(from) == 1
  local over
  for _, j in ipairs(JAHEAD[from]) do if j[2] == to then over = j[1] end end
  for _, j in ipairs(JBACK[from]) do if j[2] == to then over = j[1] end end
  m.move_piece(from, to)
  if over then m.capture(over, p) end
  if over or man then m.irreversible() end
  local crowned = false
  if man and m.row(to) == (p == 1 and N or 1) then
    m.set_hand(p, m.hand(p) - 1)
    m.add(to, 1)
    crowned = true
  end
  m.set(JUMPER, 0)
  if over and not crowned then
    local q = 3 - p
    for _, j in ipairs(ways(p, to, JAHEAD, JBACK)) do
      if m.count(j[2]) == 0 and m.owner(j[1]) == q then
        m.set(JUMPER, to)
        m.set_to_move(p)
        break
      end
    end
  end
end
return {
  setup = function()
    m.set_hand(1, 12) m.set_hand(2, 12)
    for c = 1, N do
      for _, r in ipairs { 1, 2 } do m.set_count(name(r, c), 1) m.set_owner(name(r, c), 1) end
      for _, r in ipairs { N - 1, N } do m.set_count(name(r, c), 1) m.set_owner(name(r, c), 2) end
    end
  end,
  legal = LEGAL,
  play = PLAY,
  blocked = function(p) m.finish(3 - p, "no legal move") end,
  repeated = function() m.finish(0, "third repetition") end,
}
`

const (
	hopNativeLegal = `m.pending_legal { pending = JUMPER, none = { m.first_of_rule { jumps, steps } }, site = again }`
	hopNativePlay  = `m.play_by_kind { [STEP] = hop, [JUMP] = hop, [JUMP_ON] = hop }`
	// Lua that calls the native rules.
	hopMixedLegal = `function(p, jumper)
  if jumper > 0 then return lua_jumps(p, jumper, JUMP_ON) end
  local n = jumps(p)
  if n == 0 then n = steps(p) end
  return n
end`
	hopMixedPlay = `function(p, kind, ...) hop(p, ...) end`
)

func hopSource(legal, play string) string {
	return strings.NewReplacer("LEGAL", legal, "PLAY", play).Replace(hopGame)
}

// TestHopRules plays random games of the hop game with its rules written
// three ways (primitives in Lua, native parts, Lua calling the native
// parts): legal lists, positions, effects and results agree.
func TestHopRules(t *testing.T) {
	lua, err := loadSource(t, "hops", hopSource("lua_legal", "lua_play"))
	require.NoError(t, err)
	for _, c := range []struct{ name, legal, play string }{
		{"native", hopNativeLegal, hopNativePlay},
		{"mixed", hopMixedLegal, hopMixedPlay},
	} {
		t.Run(c.name, func(t *testing.T) {
			g, err := loadSource(t, "hops", hopSource(c.legal, c.play))
			require.NoError(t, err)
			playAlike(t, lua, g, 60)
		})
	}
	// The random games go through chains of jumps: decisions that list
	// only the next jumps of the piece that waits (x and a site).
	g, err := loadSource(t, "hops", hopSource(hopNativeLegal, hopNativePlay))
	require.NoError(t, err)
	chains := 0
	for i := range 60 {
		rng := rand.New(rand.NewPCG(uint64(i), 5))
		s := g.Start()
		for !s.Over() {
			legal := s.Legal()
			if strings.HasPrefix(legal[0], "x") {
				chains++
			}
			require.NoError(t, s.Play(legal[rng.IntN(len(legal))]))
		}
	}
	assert.Positive(t, chains, "decisions in the middle of a capture")

}

// TestHopRuleErrors: malformed specs name the constructor and the field.
func TestHopRuleErrors(t *testing.T) {
	for _, c := range []struct{ legal, play, want string }{
		{`m.steps_rule { kind = STEP, from = MINE, toward = "sideways" }`, hopNativePlay, `steps_rule: toward must be "ahead", "back", "both", "ahead_across", "back_across" or "none", got`},
		{`m.jumps_rule { kind = JUMP, from = MINE, over = THEIRS, toward = { "both", "never" } }`, hopNativePlay,
			`jumps_rule: toward must be "ahead", "back", "both", "ahead_across", "back_across" or "none", got string "never"`},
		{`m.jumps_rule { kind = JUMP, from = MINE, over = THEIRS, toward = { "none", "none" } }`, hopNativePlay,
			`jumps_rule: toward is "none" for every player, so no piece can jump: give another way for at least one player`},
		{`m.steps_rule { kind = STEP, from = MINE, toward = { "ahead" } }`, hopNativePlay, "steps_rule: toward lists 1 values; give one, or one per player (2)"},
		{`m.steps_rule { kind = JUMP_ON, from = MINE }`, hopNativePlay, "steps_rule: kind jump_on must take 2 sites"},
		{`m.steps_rule { kind = STEP }`, hopNativePlay, "steps_rule: from is required"},
		{`m.jumps_rule { kind = JUMP, from = MINE }`, hopNativePlay, "jumps_rule: over is required"},
		{`m.jumps_rule { kind = JUMP, from = MINE, over = THEIRS, again = STEP }`, hopNativePlay, "jumps_rule: again's kind step must take 1 site"},
		{`m.jumps_rule { kind = JUMP, from = MINE, over = THEIRS, most = true, stop = m.move("stop", "stop") }`, hopNativePlay,
			"jumps_rule: stop lets a capture end before the most pieces are taken, which most forbids: give one of them"},
		{hopNativeLegal, `m.hop_play { again = again }`, "hop_play: pending is required"},
		{hopNativeLegal, `m.hop_play { pending = JUMPER, arrival = { steps } }`, "arrival[1] must fit the arrive slot"},
		{hopNativeLegal, `(function() m.promote_rule { piece = MEN } end)()`, "promote_rule: row is required"},
		{hopNativeLegal, `m.hop_play { pending = JUMPER, arrival = { m.promote_rule { piece = MEN } } }`, "promote_rule: row is required"}, // a broken part in the arrive slot
		{hopNativeLegal, `(function() m.promote_rule { row = 9 } end)()`, "promote_rule: row must be a row (1..6) or one per player, got number 9"},
	} {
		_, err := loadSource(t, "hops", hopSource(c.legal, c.play))
		require.Error(t, err, c.want)
		assert.Contains(t, err.Error(), c.want)
		// At the line of the broken part: LEGAL's, or PLAY's.
		at := "LEGAL"
		if c.legal == hopNativeLegal {
			at = "PLAY"
		}
		line := strings.Count(hopGame[:strings.Index(hopGame, at)], "\n") + 1
		assert.Contains(t, err.Error(), fmt.Sprintf("hops.lua:%d: ", line), c.want)
	}
}

// acrossGame is a 3x3 board whose lines run from row a to row c on the
// columns and diagonals and from column 1 to 3 on the rows, with men
// that step and jump forward or sideways, never back: Player 1's towards
// row c, Player 2's towards row a.
const acrossGame = `local m = matombo
m.declare { name = "across", players = 2, max_plies = 100 }
m.board { rows = { "a", "b", "c" }, columns = 3, style = "pieces", lines = {
  { "a1", "a2", "a3" }, { "b1", "b2", "b3" }, { "c1", "c2", "c3" },
  { "a1", "b1", "c1" }, { "a2", "b2", "c2" }, { "a3", "b3", "c3" },
  { "a1", "b2", "c3" }, { "a3", "b2", "c1" },
} }
local MOVE = m.move("move", "{from}-{to}")
local MINE = m.filter { owner = "mover", min = 1 }
local THEIRS = m.filter { owner = "opponent", min = 1 }
local FORWARD_OR_ACROSS = { "ahead_across", "back_across" }
local steps = m.steps_rule { kind = MOVE, from = MINE, toward = FORWARD_OR_ACROSS }
local jumps = m.jumps_rule { kind = MOVE, from = MINE, over = THEIRS, toward = FORWARD_OR_ACROSS }
return {
  setup = function()
    for site, owner in pairs { a1 = 1, b2 = 1, b1 = 2, c3 = 2 } do
      m.set_count(site, 1)
      m.set_owner(site, owner)
    end
  end,
  legal = function(p) return steps(p) + jumps(p) end,
  play = function(p, kind, from, to)
    m.move_piece(from, to)
  end,
  blocked = function(p) m.finish(3 - p, "no move") end,
}
`

// TestStepsAcrossFromLua: a script's men move forward or sideways with
// toward = {"ahead_across", "back_across"}, each player's own way.
func TestStepsAcrossFromLua(t *testing.T) {
	g, err := loadSource(t, "across", acrossGame)
	require.NoError(t, err)
	s := g.Start()
	assert.Equal(t, []string{"a1-a2", "b2-b3", "b2-c1", "b2-c2", "a1-c1"}, s.Legal(),
		"Player 1's steps towards row c or along a row, then the jump over b1")
	require.NoError(t, s.Play("a1-a2"))
	assert.Equal(t, []string{"b1-a1", "c3-b3", "c3-c2", "b1-b3", "c3-a1"}, s.Legal(),
		"Player 2's towards row a or along a row: b1 jumps b2 sideways against the row's order")
}

// forkGame is a board of points where two lines leave a3 through one
// neighbour, b3, and part there (a3-b3-c2-d1, a3-b3-c4-d5). Player 1's
// piece on a3 flies; Player 2, the goose on c4, has no moves (toward
// "none"). A capture is one jump.
const forkGame = `local m = matombo
m.declare { name = "fork", players = 2, max_plies = 100 }
m.board { points = { a3 = 3, b3 = 3, c2 = 2, c4 = 4, d1 = 1, d5 = 5 }, style = "pieces",
  lines = { { "a3", "b3", "c2", "d1" }, { "a3", "b3", "c4", "d5" } } }
local STEP = m.move("step", "{from}-{to}")
local JUMP = m.move("jump", "{from}x{to}")
local JUMPER = m.var("jumper")
local MINE = m.filter { owner = "mover", min = 1 }
local THEIRS = m.filter { owner = "opponent", min = 1 }
local ONE_ONLY = { "both", "none" }
local steps = m.steps_rule { kind = STEP, from = MINE, fly = MINE, toward = ONE_ONLY }
local jumps = m.jumps_rule { kind = JUMP, from = MINE, over = THEIRS, fly = MINE, toward = ONE_ONLY }
local hop = m.hop_play { pending = JUMPER }
return {
  setup = function()
    for site, owner in pairs { a3 = 1, c4 = 2 } do
      m.set_count(site, 1)
      m.set_owner(site, owner)
    end
  end,
  legal = m.pending_legal { pending = JUMPER, none = { jumps, steps }, site = jumps },
  play = m.play_by_kind { [STEP] = hop, [JUMP] = hop },
  blocked = function(p) m.finish(3 - p, "no move") end,
}
`

// TestFlyingForkFromLua: a flying piece follows both lines that leave
// its site through one neighbour: it flies past b3 along a3-b3-c2-d1 and
// jumps the goose on c4 along a3-b3-c4-d5, taking it; the goose, whose
// toward is "none", then cannot move.
func TestFlyingForkFromLua(t *testing.T) {
	g, err := loadSource(t, "fork", forkGame)
	require.NoError(t, err)
	s := g.Start()
	assert.Equal(t, []string{"a3xd5", "a3-b3", "a3-c2", "a3-d1"}, s.Legal())
	require.NoError(t, s.Play("a3xd5"))
	assert.Equal(t, 1, s.Captured(1), "the goose on c4 taken")
	assert.True(t, s.Over(), "Player 2 has no moves")
	assert.Equal(t, 1, s.Outcome().Winner)
}

// diamondGame is a board of points where two lines join a3 and c3, one
// through b2, one through b4. Player 1's piece on a3 jumps; Player 2's
// goose stands on the site the test names and has no moves.
const diamondGame = `local m = matombo
local P = m.declare { name = "diamond", players = 2, max_plies = 100,
  params = { { name = "goose", default = "b4", values = { "b2", "b4" }, doc = "the goose's site" } } }
m.board { points = { a3 = 3, b2 = 2, b4 = 4, c3 = 3 }, style = "pieces",
  lines = { { "a3", "b2", "c3" }, { "a3", "b4", "c3" } } }
local JUMP = m.move("jump", "{from}x{to}")
local JUMPER = m.var("jumper")
local MINE = m.filter { owner = "mover", min = 1 }
local THEIRS = m.filter { owner = "opponent", min = 1 }
local jumps = m.jumps_rule { kind = JUMP, from = MINE, over = THEIRS, toward = { "both", "none" } }
local hop = m.hop_play { pending = JUMPER }
return {
  setup = function()
    m.set_count("a3", 1)
    m.set_owner("a3", 1)
    m.set_count(P.goose, 1)
    m.set_owner(P.goose, 2)
  end,
  legal = m.pending_legal { pending = JUMPER, none = { jumps }, site = jumps },
  play = m.play_by_kind { [JUMP] = hop },
  blocked = function(p) m.finish(3 - p, "no move") end,
}
`

// TestJumpTakesTheWayItJumped: where two lines join the same two sites,
// the jump listed by its ends takes the piece it passed over, on either
// line (the first line's site, empty, was taken for both before).
func TestJumpTakesTheWayItJumped(t *testing.T) {
	for _, goose := range []string{"b2", "b4"} {
		t.Run(goose, func(t *testing.T) {
			g, err := loadSource(t, "diamond", diamondGame, WithParam("goose", goose))
			require.NoError(t, err)
			s := g.Start()
			require.Equal(t, []string{"a3xc3"}, s.Legal())
			require.NoError(t, s.Play("a3xc3"))
			assert.Equal(t, 1, s.Captured(1), "the goose on %s taken", goose)
			assert.True(t, s.Over(), "Player 2 has no piece left to move")
		})
	}
}
