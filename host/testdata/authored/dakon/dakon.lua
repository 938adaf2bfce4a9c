-- Dakon (Java), one round: the rules script of an authored game. The rules
-- page is rules.md; each of its points D1-D6 is a rule point below.
--
-- Sites: row a is Player 1's pits a1..a7 and store a8, row b is Player 2's
-- pits b1..b7 (b1 faces a1) and store b8.
local m = matombo

local P = m.declare {
  name = "dakon",
  title = "Dakon",
  description = "Dakon of Java, one round: 2x7 holes of seven seeds and a store for each player. "
    .. "Sowing passes through your own store and relays from every occupied hole it ends in; "
    .. "ending in your store gives another turn, ending in an empty hole of your own takes the "
    .. "opposite hole. Most seeds wins when the player to move has none.",
  players = 2,
  params = {
    { name = "seeds", default = 7, values = { 3, 4, 5, 6, 7 }, doc = "seeds in each hole at the start (D1)" },
  },
  conserve = true,
  score_label = "seeds",
  max_plies = 2001,
}

-- D1 Board: "two rows of seven holes and a store at the left end of each
-- player's row: Player 1 owns a1..a7 and the store a8, Player 2 owns b1..b7
-- and the store b8."
local HOLES = 7
m.board { rows = { "a", "b" }, columns = HOLES + 1, ends = { a8 = "east", b8 = "west" } }
local STORE = { m.site("a8"), m.site("b8") }
local STORE_TAG = m.tag("store", { "a8", "b8" }, { doc = "a store: the seeds a player has banked" })

-- D2's circuits: each player's ring through their own store, past the
-- opponent's.
local function circuit(own)
  local ring = {}
  local function add(name) ring[#ring + 1] = name end
  if own == "a" then
    for c = 1, HOLES do add("a" .. c) end
    add("a8")
    for c = HOLES, 1, -1 do add("b" .. c) end
  else
    for c = HOLES, 1, -1 do add("b" .. c) end
    add("b8")
    for c = 1, HOLES do add("a" .. c) end
  end
  return ring
end
local CIRCUIT = { m.track("south", circuit("a"), true), m.track("north", circuit("b"), true) }

local SOW = m.move("sow", "{1}", { doc = "Sow from {1}" })
local SOWABLE = { m.filter { row = 1, not_tag = STORE_TAG, min = 1 }, m.filter { row = 2, not_tag = STORE_TAG, min = 1 } }
local HOLES_OF = { m.filter { row = 1, not_tag = STORE_TAG }, m.filter { row = 2, not_tag = STORE_TAG } }

-- D1 (the start): "every hole starts with seven seeds, the stores empty."
local d1_setup = m.rule("d1_setup", function()
  for c = 1, HOLES do
    m.set_count("a" .. c, P.seeds)
    m.set_count("b" .. c, P.seeds)
  end
  for c = 1, HOLES + 1 do
    m.set_owner("a" .. c, 1)
    m.set_owner("b" .. c, 2)
  end
end)

-- D2 + D3 Sowing and relay: "take all the seeds of one of your holes and
-- sow them one by one counterclockwise, into your own store but never the
-- opponent's. While the last seed falls into an occupied hole, take up its
-- seeds and sow on; the sowing ends in an empty hole or in your store."
local d3_relay = m.rule("d3_relay", m.relay_rule { track = CIRCUIT, stop = STORE_TAG })
local d3_ends = m.rule("d3_ends", m.relay_ends_rule { track = CIRCUIT, stop = STORE_TAG })

-- D4 Extra turn: "a sowing that ends in your own store gives another turn."
local d4_extra_turn = m.rule("d4_extra_turn", m.extra_turn_rule { sites = STORE })

-- D5 Capture: "a sowing that ends in an empty hole of your own takes the
-- seeds of the opposite hole, with the last seed, into your store, when
-- the opposite hole holds seeds."
local d5_capture = m.rule("d5_capture", m.capture_rule {
  owner = "mover", was_empty = true, opposite = { 2, 1 }, with_last = true, into = STORE,
})

-- D6 End: "the game ends when a player's holes are all empty; each player
-- then counts the seeds of their store and holes; most seeds wins."
local d6_result = m.rule("d6_result", m.result_rule { sweep = false })
local d6_end = m.rule("d6_end", m.end_rule {
  { empty = HOLES_OF, reason = "a side is empty" },
  result = d6_result,
})

local d2_sowings = m.rule("d2_sowings", m.sowings_rule { kind = SOW, from = SOWABLE, ends = d3_ends })
local legal = m.sowing_legal { sowings = d2_sowings, starving = HOLES_OF }
local play = m.sowing_play { kind = SOW, sow = d3_relay, extra_turn = d4_extra_turn, capture = d5_capture, after = d6_end }

local function blocked()
  d6_result("a side is empty")
end

local STORE_OF = { m.filter { row = 1, tag = STORE_TAG }, m.filter { row = 2, tag = STORE_TAG } }
local ROW_OF = { m.filter { row = 1 }, m.filter { row = 2 } }
local score = m.score_rule { amount = m.sum_rule { filter = STORE_OF }, over = m.sum_rule { filter = ROW_OF } }

return { setup = d1_setup, legal = legal, play = play, blocked = blocked, score = score }
