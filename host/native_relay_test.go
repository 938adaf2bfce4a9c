package host

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// relayGame is a small relay game on four rows of three holes (a Tsoro of
// 4x3): each player relays around their two rows, may stop at the head
// (their last outer hole), captures across from an empty inner hole and
// then takes one bonus hole. BODY holds the rule points; LEGAL and PLAY
// the turns.
const relayGame = `local m = matombo
m.declare { name = "relay", players = 2, repetition = 3, max_plies = 400 }
m.board { rows = { "a", "b", "c", "d" }, columns = 3 }
local T1 = m.track("south", { "a1", "a2", "a3", "b3", "b2", "b1" }, true)
local T2 = m.track("north", { "d3", "d2", "d1", "c1", "c2", "c3" }, true)
local TRACK = { T1, T2 }
local HEAD = m.tag("head", { "a3", "d1" })
local SOW = m.move("sow", "{1}")
local CONTINUE = m.move("continue", "continue")
local STOP = m.move("stop", "stop")
local TAKE = m.move("take", "x{1}")
local PENDING = m.var("pending")
local FULL = { m.filter { track = T1, min = 1 }, m.filter { track = T2, min = 1 } }
local BIG = { m.filter { track = T1, min = 2 }, m.filter { track = T2, min = 2 } }
local SINGLE = { m.filter { track = T1, min = 1, max = 1, next_empty = T1 }, m.filter { track = T2, min = 1, max = 1, next_empty = T2 } }
local OPP = { FULL[2], FULL[1] }
BODY
return {
  setup = function()
    for _, s in ipairs({ "a1", "a2", "a3", "d1", "d2", "d3" }) do m.set_count(s, 2) end
    for _, s in ipairs({ "a1", "a2", "a3", "b1", "b2", "b3" }) do m.set_owner(s, 1) end
    for _, s in ipairs({ "c1", "c2", "c3", "d1", "d2", "d3" }) do m.set_owner(s, 2) end
  end,
  legal = LEGAL,
  play = PLAY,
  blocked = function(p) m.finish(3 - p, "no legal move") end,
  repeated = function() m.finish(0, "third repetition") end,
}
`

const relayNativeBody = `local ends = m.rule("ends", m.relay_ends_rule { track = TRACK, stop = HEAD, max_laps = 50 })
local starts = m.rule("starts", m.sowings_rule { kind = SOW, from = BIG, ends = ends })
local singles = m.rule("singles", m.emit_rule { kind = SOW, each = SINGLE, when_none = BIG })
local choices = m.rule("choices", m.relay_choices_rule { continue = CONTINUE, stop = STOP, ends = ends })
local takes = m.rule("takes", m.emit_rule { kind = TAKE, each = OPP })
local bonus = m.rule("bonus", m.bonus_rule { pending = PENDING, from = OPP })
local capture = m.rule("capture", m.capture_rule { row = { 2, 3 }, was_empty = true, opposite = { 3, 2 }, behind = { 4, 1 } })
local relay = m.rule("relay", m.relay_rule { track = TRACK, stop = HEAD, max_laps = 50 })`

// The same rules written with primitives in Lua.
const (
	relayLuaBody = `local ACROSS, BEHIND = { b1 = "c1", b2 = "c2", b3 = "c3", c1 = "b1", c2 = "b2", c3 = "b3" }, { b1 = "d1", b2 = "d2", b3 = "d3", c1 = "a1", c2 = "a2", c3 = "a3" }
local function bonus(p, left)
  if left > 0 and m.first(OPP[p]) then m.set(PENDING, -left); m.set_to_move(p) else m.set(PENDING, 0) end
end
local function sow(p, from)
  local last, how = m.relay(TRACK[p], from, HEAD, 50)
  if how == "empty" then
    local across = ACROSS[m.name(last)]
    if across and m.capture(across, p) > 0 then
      m.capture(BEHIND[m.name(last)], p)
      bonus(p, 1)
    end
  elseif how == "stop" then
    m.set(PENDING, last); m.set_to_move(p)
  else
    error("laps")
  end
end`
	relayLuaLegal = `function(p, pending)
  if pending == 0 then
    local _, holes = m.emit_sowings(SOW, BIG[p], TRACK[p], HEAD, 50)
    if holes == 0 then m.emit_each(SOW, SINGLE[p]) end
  elseif pending > 0 then
    if m.relay_ends(TRACK[p], pending, HEAD, 50) then m.emit(CONTINUE) end
    m.emit(STOP)
  else
    m.emit_each(TAKE, OPP[p])
  end
end`
	relayLuaPlay = `function(p, kind, s)
  if kind == SOW then sow(p, s)
  elseif kind == CONTINUE then local head = m.get(PENDING); m.set(PENDING, 0); sow(p, head)
  elseif kind == STOP then m.set(PENDING, 0)
  else m.capture(s, p); bonus(p, -m.get(PENDING) - 1) end
end`
	relayNativeLegal = `m.pending_legal { pending = PENDING, none = { starts, singles }, site = choices, count = takes }`
	relayNativePlay  = `m.relay_play { pending = PENDING, sow = SOW, continue = CONTINUE, stop = STOP, take = TAKE, relay = relay, capture = capture, bonus = bonus, bonus_count = 1 }`
	// Lua turns calling the native rules.
	relayMixedLegal = `function(p, pending)
  if pending == 0 then starts(p); singles(p)
  elseif pending > 0 then choices(p, pending)
  else takes(p) end
end`
	relayMixedPlay = `function(p, kind, s)
  local function go(from)
    local last, how = relay(p, from)
    if how == "empty" then
      if capture(p, last, true) > 0 then bonus(p, 1) end
    elseif how == "stop" then m.set(PENDING, last); m.set_to_move(p) end
  end
  if kind == SOW then go(s)
  elseif kind == CONTINUE then local head = m.get(PENDING); m.set(PENDING, 0); go(head)
  elseif kind == STOP then m.set(PENDING, 0)
  else m.capture(s, p); bonus(p, -m.get(PENDING) - 1) end
end`
)

func relaySource(body, legal, play string) string {
	return strings.NewReplacer("BODY", body, "LEGAL", legal, "PLAY", play).Replace(relayGame)
}

// TestRelayRules plays random games of the relay game with its rules
// written three ways: legal lists, positions, effects and results agree.
func TestRelayRules(t *testing.T) {
	lua, err := loadSource(t, "relay", relaySource(relayLuaBody, relayLuaLegal, relayLuaPlay))
	require.NoError(t, err)
	for _, c := range []struct{ name, legal, play string }{
		{"native", relayNativeLegal, relayNativePlay},
		{"mixed", relayMixedLegal, relayMixedPlay},
	} {
		t.Run(c.name, func(t *testing.T) {
			g, err := loadSource(t, "relay", relaySource(relayNativeBody, c.legal, c.play))
			require.NoError(t, err)
			playAlike(t, lua, g, 60)
		})
	}
}

// TestRelayRuleErrors: malformed specs name the constructor and the field.
func TestRelayRuleErrors(t *testing.T) {
	native := func(old, new string) string { return strings.Replace(relayNativeBody, old, new, 1) }
	for _, c := range []struct{ body, legal, play, want string }{
		{native("track = TRACK, stop = HEAD, max_laps = 50 })\nlocal starts", "track = m.track(\"line\", { \"a1\", \"a2\" }, false) })\nlocal starts"), relayNativeLegal, relayNativePlay, "relay_ends_rule: track line does not loop"},
		{native("stop = HEAD, max_laps = 50 })\nlocal starts", "stop = \"heads\" })\nlocal starts"), relayNativeLegal, relayNativePlay, "relay_ends_rule: stop must be a tag"},
		{native("max_laps = 50 })\nlocal starts", "max_laps = 0 })\nlocal starts"), relayNativeLegal, relayNativePlay, "relay_ends_rule: max_laps must be a whole number from 1"},
		{native("pending = PENDING, from = OPP", "pending = \"waiting\", from = OPP"), relayNativeLegal, relayNativePlay, "bonus_rule: pending must be a variable"},
		{native("pending = PENDING, from = OPP", "pending = PENDING"), relayNativeLegal, relayNativePlay, "bonus_rule: from is required"},
		{native("opposite = { 3, 2 }, ", ""), relayNativeLegal, relayNativePlay, "capture_rule: behind needs opposite"},
		{native("row = { 2, 3 }", "row = { 2, 9 }"), relayNativeLegal, relayNativePlay, "capture_rule: row must be a row (1..4)"},
		{native("continue = CONTINUE, stop = STOP", "continue = SOW, stop = STOP"), relayNativeLegal, relayNativePlay, "relay_choices_rule: kind sow must take no site"},
		{native("ends = ends })\nlocal singles", "ends = 3 })\nlocal singles"), relayNativeLegal, relayNativePlay, "sowings_rule: ends must be a function"},
		{relayNativeBody, `m.pending_legal { pending = PENDING }`, relayNativePlay, "pending_legal: none must be a list of 1 to 8 functions"},
		{relayNativeBody, `m.pending_legal { pending = PENDING, none = {} }`, relayNativePlay, "pending_legal: none must be a list of 1 to 8 functions (the moves when nothing is pending), got an empty list"},
		{relayNativeBody, relayNativeLegal, `m.relay_play { pending = PENDING, sow = SOW, relay = relay, take = TAKE }`, "relay_play: take needs bonus"},
		{relayNativeBody, relayNativeLegal, `m.relay_play { pending = PENDING, sow = STOP, relay = relay }`, "relay_play: sow's kind stop must take 1 site"},
		{relayNativeBody, relayNativeLegal, `m.relay_play { pending = PENDING, sow = SOW }`, "relay_play: relay is required"},
	} {
		_, err := loadSource(t, "relay", relaySource(c.body, c.legal, c.play))
		require.Error(t, err, c.want)
		assert.Contains(t, err.Error(), c.want)
	}
}

// TestRelayRuleFromLua: relay_rule called from Lua returns what
// matombo.relay returns for the same sowing.
func TestRelayRuleFromLua(t *testing.T) {
	src := relaySource(relayNativeBody+`
local function check(p, kind, s)
  local last, how, laps = relay(p, s)
  m.finish(0, table.concat({ m.name(last), how, laps }, " "))
end`, relayNativeLegal, `check`)
	g, err := loadSource(t, "relay", src)
	require.NoError(t, err)
	s := g.Start()
	require.NoError(t, s.Play("a1")) // a1's 2 into a2 (3) and a3, the head (3): stop there
	assert.Equal(t, "a3 stop 1", s.Outcome().Reason)
	s = g.Start()
	require.NoError(t, s.Play("a2")) // a2's 2 into a3 (3) and b3 (1, empty before)
	assert.Equal(t, "b3 empty 1", s.Outcome().Reason)
}

// TestRelayRuleFailsWhilePlaying: a sowing over the lap limit fails the
// move and leaves the state as it was.
func TestRelayRuleFailsWhilePlaying(t *testing.T) {
	body := strings.Replace(relayNativeBody, `m.relay_rule { track = TRACK, stop = HEAD, max_laps = 50 }`, `m.relay_rule { track = TRACK, max_laps = 1 }`, 1)
	g, err := loadSource(t, "relay", relaySource(body, relayNativeLegal, relayNativePlay))
	require.NoError(t, err)
	s := g.Start()
	pos := s.Position()
	err = s.Play("a1") // a1's 2 end in a3, occupied: a second lap
	var se *ScriptError
	require.ErrorAs(t, err, &se)
	assert.Contains(t, se.Msg, "the sowing from a1 went over the lap limit")
	assert.Equal(t, pos, s.Position())
}

// TestRelayPlayIrreversible: with irreversible, a capture (the relay's, or
// a bonus take) forgets the positions before it, and the games come out
// the same, since a capture takes counters off the board for good.
func TestRelayPlayIrreversible(t *testing.T) {
	plain, err := loadSource(t, "relay", relaySource(relayNativeBody, relayNativeLegal, relayNativePlay))
	require.NoError(t, err)
	irrevPlay := strings.Replace(relayNativePlay, "bonus_count = 1 }", "bonus_count = 1, irreversible = true }", 1)
	require.NotEqual(t, relayNativePlay, irrevPlay)
	irrev, err := loadSource(t, "relay", relaySource(relayNativeBody, relayNativeLegal, irrevPlay))
	require.NoError(t, err)
	onBoard := func(s *State) int {
		n := 0
		for i := range s.g.def.Layout.Sites {
			n += s.Count(i)
		}
		return n
	}
	captures := 0
	for i := range 40 {
		rng := rand.New(rand.NewPCG(uint64(i), 7))
		a, b := plain.Start(), irrev.Start()
		for ply := 0; !a.Over(); ply++ {
			require.Equal(t, a.Legal(), b.Legal(), "game %d, ply %d", i, ply)
			before := onBoard(b)
			k := rng.IntN(len(a.Moves()))
			require.NoError(t, a.Apply(a.Moves()[k]))
			require.NoError(t, b.Apply(b.Moves()[k]))
			require.Equal(t, a.Key(), b.Key(), "game %d, ply %d", i, ply)
			if onBoard(b) < before {
				captures++
				assert.Equal(t, 1, historyLen(b), "game %d, ply %d: a capture forgets the positions before it", i, ply)
			}
			assert.LessOrEqual(t, historyLen(b), historyLen(a))
		}
		require.True(t, b.Over())
		require.Equal(t, a.Outcome(), b.Outcome(), "game %d", i)
	}
	assert.Greater(t, captures, 40, "the games capture")
}
