package host

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tradeGame is a small sowing game on one ring of six holes with Goré's
// trades: a capture of 2 or 3, offers of one or two holes at 2 captured
// counters each, answers, and a pass when a player has nothing to sow.
// BODY holds the trade rules, LEGAL and PLAY the turns.
const tradeGame = `local m = matombo
m.declare { name = "trade", players = 2, repetition = 3, max_plies = 600 }
m.board { rows = { "a", "b" }, columns = 3 }
local RING = m.track("ring", { "a1", "a2", "a3", "b3", "b2", "b1" }, true)
local SOW = m.move("sow", "{1}")
local PASS = m.move("pass", "pass")
local OFFER = m.move("offer", "offer:{sites}")
local ACCEPT = m.move("accept", "accept")
local DECLINE = m.move("decline", "decline")
local O1, O2 = m.var("o1"), m.var("o2")
local SLOTS = { O1, O2 }
local DECLINED = { m.var("declined1", { position = false }), m.var("declined2", { position = false }) }
local MINE = m.filter { owner = "mover", min = 1 }
local OWNED = m.filter { owner = "mover" }
local TALL = m.filter { min = 3 }
local sow = m.rule("sow", m.sow_rule { track = RING })
local capture = m.rule("capture", m.capture_rule { owner = "opponent", counts = { 2, 3 } })
local result = m.rule("result", m.result_rule { sweep = true })
local ending = m.rule("ending", m.end_rule { { none = TALL, reason = "nothing tall" }, result = result })
local sowings = m.rule("sowings", m.sowings_rule { kind = SOW, from = MINE, none = PASS })
BODY
return {
  setup = function()
    for s = 1, 6 do m.set_count(s, 3); m.set_owner(s, s <= 3 and 1 or 2) end
  end,
  legal = LEGAL,
  play = PLAY,
  repeated = function() result("third repetition") end,
}
`

const (
	tradeNativeBody = `local offers = m.rule("offers", m.offers_rule { kind = OFFER, from = OWNED, keep = 1, most = 2, price = 2 })
local offer = m.rule("offer", m.offer_rule { holes = SLOTS })
local answers = m.rule("answers", m.emit_rule { moves = { ACCEPT, DECLINE } })
local accept = m.rule("accept", m.accept_rule { holes = SLOTS, price = 2 })
local decline = m.rule("decline", m.decline_rule { holes = SLOTS, declined = DECLINED })
local other = m.play_by_kind { [OFFER] = offer, [ACCEPT] = accept, [DECLINE] = decline, [PASS] = false }`
	tradeNativeLegal = `m.pending_legal { pending = O1, site = answers, none = { sowings, offers } }`
	tradeNativePlay  = `m.sowing_play { kind = SOW, sow = sow, capture = capture, after = ending, other = other }`
	// The same trades written with primitives.
	tradeLuaLegal = `function(p, o1)
  if o1 ~= 0 then m.emit(ACCEPT); m.emit(DECLINE); return end
  sowings(p)
  local k = math.min(m.count_sites(OWNED) - 1, math.floor(m.captured(3 - p) / 2), 2)
  if k >= 1 then m.emit_subsets(OFFER, OWNED, 1, k) end
end`
	tradeLuaPlay = `function(p, kind, a, b)
  if kind == SOW then
    local last, empty = sow(p, a)
    ending(p, capture(p, last, empty))
  elseif kind == OFFER then
    m.set(O1, a); m.set(O2, b or 0)
  elseif kind == ACCEPT then
    for _, v in ipairs(SLOTS) do
      local s = m.get(v)
      if s ~= 0 then m.set_owner(s, p); m.pay(p, s, 2) end
    end
    m.set(O1, 0); m.set(O2, 0); m.set_to_move(p)
  elseif kind == DECLINE then
    m.set(DECLINED[p], 1); m.set(O1, 0); m.set(O2, 0); m.set_to_move(p)
  end
end`
)

func tradeSource(body, legal, play string) string {
	return strings.NewReplacer("BODY", body, "LEGAL", legal, "PLAY", play).Replace(tradeGame)
}

// TestTradeRules plays random games of the trade game with its trades
// written with primitives and as native rules: legal lists, positions,
// effects and results agree.
func TestTradeRules(t *testing.T) {
	lua, err := loadSource(t, "trade", tradeSource("", tradeLuaLegal, tradeLuaPlay))
	require.NoError(t, err)
	native, err := loadSource(t, "trade", tradeSource(tradeNativeBody, tradeNativeLegal, tradeNativePlay))
	require.NoError(t, err)
	playAlike(t, lua, native, 60)
	// An offer and its acceptance, from the first position that has one.
	s := native.Start()
	rng := rand.New(rand.NewPCG(1, 1))
	offer := ""
	for offer == "" && !s.Over() {
		for _, tok := range s.Legal() {
			if strings.HasPrefix(tok, "offer:") && !strings.Contains(tok, ",") {
				offer = tok
			}
		}
		if offer == "" {
			require.NoError(t, s.Play(s.Legal()[rng.IntN(len(s.Legal()))]))
		}
	}
	require.NotEmpty(t, offer, "no game offered a hole")
	q := 3 - s.ToMove()
	hole := native.mustSite(t, strings.TrimPrefix(offer, "offer:"))
	had, count := s.Captured(q), s.Count(hole)
	require.NoError(t, s.Play(offer))
	assert.Equal(t, []string{"accept", "decline"}, s.Legal())
	require.NoError(t, s.Play("accept"))
	assert.Equal(t, q, s.Owner(hole))
	assert.Equal(t, had-2, s.Captured(q))
	assert.Equal(t, count+2, s.Count(hole))
	assert.Equal(t, q, s.ToMove(), "the answerer takes their turn")
}

// TestTradeRuleErrors: malformed specs name the constructor and the
// field; play_by_kind fails a kind it has no function for.
func TestTradeRuleErrors(t *testing.T) {
	native := func(old, new string) string { return strings.Replace(tradeNativeBody, old, new, 1) }
	for _, c := range []struct{ body, want string }{
		{native("kind = OFFER, from", "kind = SOW, from"), "offers_rule: kind sow names fixed sites"},
		{native("from = OWNED, keep", "keep"), "offers_rule: from is required"},
		{native("most = 2", "most = 9"), "offers_rule: most must be a whole number from 1 to"},
		{native("m.offer_rule { holes = SLOTS }", "m.offer_rule { holes = 3 }"), "offer_rule: holes must be a list of 1 to"},
		{native("holes = SLOTS, price = 2 }", "holes = { O1, \"o9\" } }"), "accept_rule: holes must be a variable"},
		{native("declined = DECLINED", "declined = { DECLINED[1] }"), "decline_rule: declined must list one variable per player (2)"},
		{native("[PASS] = false", "[PASS] = true"), "play_by_kind: kind pass: give a function, or false"},
		{native("[PASS] = false", "[9] = false"), "play_by_kind: a key must be a move kind"},
	} {
		_, err := loadSource(t, "trade", tradeSource(c.body, tradeNativeLegal, tradeNativePlay))
		require.Error(t, err, c.want)
		assert.Contains(t, err.Error(), c.want)
	}
	g, err := loadSource(t, "trade", tradeSource(native(", [PASS] = false", ""), `function(p) m.emit(PASS) end`, tradeNativePlay))
	require.NoError(t, err)
	s := g.Start()
	pos := s.Position()
	var se *ScriptError
	require.ErrorAs(t, s.Play("pass"), &se)
	assert.Contains(t, se.Msg, "a move of kind pass, but play_by_kind has no function for it")
	assert.Equal(t, pos, s.Position())
}
