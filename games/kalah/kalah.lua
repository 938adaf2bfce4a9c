-- Kalah as OpenSpiel's `mancala` plays it: the rules script of Matombo's
-- game `kalah`. The rules page is docs/rules/kalah.md; each of its points is
-- a rule point below (k2_sow, k3_extra_turn, ...: a named function declared
-- with matombo.rule, which a game extending kalah may replace, see
-- docs/extending.md) or, for the board and the parameter, a declaration,
-- under a comment quoting the point. The
-- scenarios in conformance/kalah replay OpenSpiel's own games move for move.
--
-- Sites: row a is Player 1's pits a1..aN and store a(N+1), row b is Player
-- 2's pits b1..bN (b1 faces a1) and store b(N+1), N the parameter `pits`
-- (6 by default). With 6 pits, OpenSpiel's board index k (1-6) is ak, index
-- 14-k (8-13) is bk, index 7 is a7 and index 0 is b7.
local m = matombo

local P = m.declare {
  name = "kalah",
  title = "Kalah",
  description = "The Kalah of the 1940s as OpenSpiel's `mancala` plays it: 2x6 pits "
    .. "(1 to 6 a side with `pits`) and a store for each player. Sow counterclockwise into your own store, "
    .. "never the opponent's; ending in your store gives another turn, ending in "
    .. "an empty pit of your own takes the opposite pit. Most seeds in pits and "
    .. "store wins when a side is empty.",
  players = 2,
  params = {
    { name = "pits", default = 6, values = { 1, 2, 3, 4, 5, 6 }, doc = "pits on each side (K8)" },
    { name = "seeds", default = 4, values = { 1, 2, 3, 4, 5, 6 }, doc = "seeds in each pit at the start (K7)" },
    { name = "empty_capture", default = false, doc = "a last seed in an own empty pit always captures, even facing an empty pit (K9)" },
  },
  conserve = true, -- the seeds stay on the board: pits and stores
  score_label = "seeds",
  -- K5: the game ends after the 1001st move at the latest.
  max_plies = 1001,
}

-- K1 Board: "two rows of six pits and a store at the right end of each
-- row: Player 1 owns row a (pits a1 to a6, store a7), Player 2 owns row b
-- (pits b1 to b6, store b7); b1 faces a1. Every pit starts with the same
-- number of seeds (K7), the stores empty." K8: another number of pits
-- N with the parameter `pits`; the stores are then a(N+1) and b(N+1).
-- The stores are drawn at the ends of the board, where the sowing reaches
-- them: a(N+1) at the east end after aN, b(N+1) at the west end after b1.
local PITS = P.pits
local STORE_NAME = { "a" .. (PITS + 1), "b" .. (PITS + 1) }
m.board { rows = { "a", "b" }, columns = PITS + 1, ends = { [STORE_NAME[1]] = "east", [STORE_NAME[2]] = "west" } }
local STORE = { m.site(STORE_NAME[1]), m.site(STORE_NAME[2]) }
local STORE_TAG = m.tag("store", STORE_NAME, { doc = "a store: the seeds a player has banked" })

-- K2's circuits: each player's ring of 2N+1 sites, through their own
-- store, past the opponent's.
local function circuit(own)
  local ring = {}
  local function add_site(name) ring[#ring + 1] = name end
  if own == "a" then
    for c = 1, PITS do add_site("a" .. c) end
    add_site("a" .. (PITS + 1))
    for c = PITS, 1, -1 do add_site("b" .. c) end
  else
    for c = PITS, 1, -1 do add_site("b" .. c) end
    add_site("b" .. (PITS + 1))
    for c = 1, PITS do add_site("a" .. c) end
  end
  return ring
end
local CIRCUIT = {
  m.track("south", circuit("a"), true),
  m.track("north", circuit("b"), true),
}

-- Why a sowing is not possible, in the rules' words (the host asks it for
-- a refused token): a player sows a pit of their own row holding seeds.
local function sow_why(p, sites)
  local s = sites[1]
  if m.row(s) ~= p or m.has_tag(s, STORE_TAG) then
    return m.name(s) .. " is not one of your pits"
  elseif m.count(s) == 0 then
    return m.name(s) .. " is empty"
  end
  return nil
end
local SOW = m.move("sow", "{1}", { doc = "Sow from {1}", why = sow_why })
local SOWABLE = { m.filter { row = 1, not_tag = STORE_TAG, min = 1 }, m.filter { row = 2, not_tag = STORE_TAG, min = 1 } }
local PITS_OF = { m.filter { row = 1, not_tag = STORE_TAG }, m.filter { row = 2, not_tag = STORE_TAG } }

-- K5's limit: OpenSpiel ends a game whose move count exceeds 1000.
local MOVE_LIMIT = 1000

local set_count, set_owner, count, sum = m.set_count, m.set_owner, m.count, m.sum

-- K1 (the start): "every pit starts with 4 seeds (another number with the
-- parameter `seeds`, K7); the stores start empty."
local k1_setup = m.rule("k1_setup", function()
  for s = 1, PITS do
    set_count("a" .. s, P.seeds)
    set_count("b" .. s, P.seeds)
  end
  for c = 1, PITS + 1 do
    set_owner("a" .. c, 1)
    set_owner("b" .. c, 2)
  end
end)

-- The rules of a move are native rules (docs/lua-api.md, "Native rules"):
-- declared as data, run by the host, each a rule point like any function.

-- K2 Sowing: "on your turn take all the seeds of one of your non-empty
-- pits and sow them one by one counterclockwise, starting with the next
-- site: along your pits to your store, then along the opponent's pits, then
-- yours again, never into the opponent's store. A sowing of 13 seeds or
-- more laps the board and drops into the emptied pit too."
-- k2_sow(p, from) returns the last site sown and whether it was empty before.
local k2_sow = m.rule("k2_sow", m.sow_rule { track = CIRCUIT })

-- K3 Extra turn: "when the last seed falls into your own store, you move
-- again." k3_extra_turn(p, last) returns whether it did.
local k3_extra_turn = m.rule("k3_extra_turn", m.extra_turn_rule { sites = STORE })

-- K4 Capture: "when the last seed falls into one of your own pits that was
-- empty, and the opposite pit holds seeds, both the last seed and the
-- opposite pit's seeds go into your store." k4_capture(p, last, was_empty)
-- returns the seeds captured.
--
-- K9 (`empty_capture`): "the last seed and the facing pit's seeds go to
-- your store even when the facing pit is empty."
local k4_capture = m.rule("k4_capture", m.capture_rule {
  owner = "mover", was_empty = true,    -- the last seed in an empty pit of your own
  opposite = { 2, 1 },                  -- the pit facing it, in the opponent's row,
  empty_opposite = P.empty_capture,     -- (K9: even when that pit is empty)
  with_last = true,                     -- and the last seed
  into = STORE,                         -- go into your store
})

-- K6 Result: "each player's total is the seeds in their pits plus their
-- store; the larger total wins, equal totals are a draw." (The pits and the
-- store of a player are the sites they own.) k6_result(reason).
local k6_result = m.rule("k6_result", m.result_rule { sweep = false })

-- K5 End: "the game ends after a move that leaves all the pits of either
-- player empty, or that is the 1001st move of the game (OpenSpiel ends a
-- game whose move count exceeds 1000). Seeds left in pits stay there."
local k5_end = m.rule("k5_end", m.end_rule {
  { empty = PITS_OF, reason = "a side is empty" },
  { ply_above = MOVE_LIMIT, reason = "move limit" },
  result = k6_result,
})

-- K2 (the choice): "take all the seeds of one of your non-empty pits".
-- k2_sowings(p) emits player p's sowings.
local k2_sowings = m.rule("k2_sowings", m.sowings_rule { kind = SOW, from = SOWABLE })

-- K5 also holds for a position set up with a side empty (OpenSpiel's
-- IsTerminal looks at every state): while the opponent's pits are all
-- empty the player lists no move, and blocked ends the game.
local legal = m.sowing_legal { sowings = k2_sowings, starving = PITS_OF }

local function blocked()
  k6_result("a side is empty")
end

-- A move: K2's sowing; then K3's extra turn, or else K4's capture; then K5.
local play = m.sowing_play { kind = SOW, sow = k2_sow, extra_turn = k3_extra_turn, capture = k4_capture, after = k5_end }

-- The scores: the seeds in each player's store while the game goes on, and
-- K6's totals (the seeds of their row, pits and store) once it is over.
local STORE_OF = { m.filter { row = 1, tag = STORE_TAG }, m.filter { row = 2, tag = STORE_TAG } }
local ROW_OF = { m.filter { row = 1 }, m.filter { row = 2 } }
local score = m.score_rule { amount = m.sum_rule { filter = STORE_OF }, over = m.sum_rule { filter = ROW_OF } }

-- evaluate: advice for computer players, not a rule. Seeds in a store
-- stay there, and at the end each player adds the seeds of their own pits
-- (K6), so p's lead is the stores' difference plus a part of the pits'
-- (pits can still be captured or sown away), out of half the seeds.
local HALF = PITS * P.seeds

local function evaluate(p)
  local q = 3 - p
  local stores = count(STORE[p]) - count(STORE[q])
  local pits = sum(PITS_OF[p]) - sum(PITS_OF[q])
  return (stores + 0.25 * pits) / HALF
end

return { setup = k1_setup, legal = legal, play = play, blocked = blocked, score = score, evaluate = evaluate }
