-- Bao la Kiswahili, the masters' Bao of Zanzibar and the Swahili coast as
-- de Voogt recorded it: the rules script of Matombo's game `baokiswahili`.
--
-- It plays the points Z1-Z18 of its rules page, docs/rules/baokiswahili.md:
--   Z1  the board: 4 rows of 8, front and back rows, kichwa,  -> the board below
--       kimbi and the house (nyumba)
--   Z2  the opening: 6 + 2 + 2 seeds on the board, 22 in hand -> z2_setup
--   Z3  sowing round the player's own two rows, either way;   -> z3_sow_on, z3_relay
--       a lap ending in an occupied hole relays
--   Z4  the two stages: namua while seeds are in hand, then   -> (hand(p) > 0)
--       mtaji
--   Z5  a capture, and captures are compulsory                -> z6_capture_lap, z11_mtaji_captures
--   Z6  which kichwa the captured seeds go in from            -> z6_capture_lap
--   Z7  namua: a capture by putting a seed in                 -> z7_namua_captures, z7_namua_capture
--   Z8  namua: takasa, a move that cannot capture             -> z8_namua_takasa, z8_namua_takasa_sow,
--                                                                z8_namua_takasa_move
--   Z9  the house: functional, lost, its namua role           -> z9_functional, z9_house_lost, z9_*_lap_*
--   Z10 safari: stop in the house or sow it on                -> z10_safari
--   Z11 mtaji: captures from the first lap, the 16-seed rule  -> z11_first_lap, z11_mtaji_captures, z11_capture_move
--   Z12 mtaji: takasa from the front row if possible          -> z12_mtaji_takasa, z12_takasa_move
--   Z13 a lone kichwa sows towards the centre                 -> z13_inward
--   Z14 takasia: a hole the opponent may not sow              -> z14_takasia
--   Z15 the end: an empty front row, or no move               -> z15_front_row_empty, z15_captured_out, z15_blocked
--   Z16 a move that would never end is not legal              -> z16_ends, z16_namua_ends, z16_mtaji_ends
--   Z17 the third repetition of a position is a draw          -> z17_repetition
--   Z18 the variants (parameters takasia, house_in_mtaji,     -> P.* below
--       kichwa_inward, house_min)
--
-- Sites: a1..a8 (Player 1's back row) are 1..8, b1..b8 (Player 1's front
-- row) 9..16, c1..c8 (Player 2's front row) 17..24, d1..d8 (Player 2's
-- back row) 25..32. Columns count from Player 1's left.
--
-- The state keeps, besides the seeds on the board and in hand, four
-- position variables (the host passes them to legal and prompt in this
-- order):
--   house1, house2  1 while the player owns their house: it has never been
--                   emptied (Z9);
--   pending         0, or the direction (1 clockwise, 2 anticlockwise) of a
--                   namua capture move whose lap ended in the mover's
--                   functional house: safari or stop is next (Z10);
--   takasia         0, or the hole of the player to move that takasia
--                   blocks for this move (Z14).
local m = matombo

local P = m.declare {
  name = "baokiswahili",
  title = "Bao la Kiswahili",
  description = "Bao la Kiswahili, the masters' Bao of Zanzibar and the Swahili coast as A. de Voogt recorded it: " ..
    "a four-row mancala with a square house (nyumba) in each front row and most seeds in hand. In the first stage " ..
    "(namua) every move puts a seed from the hand into the front row; in the second (mtaji) a move sows a hole. " ..
    "Captures take the facing hole of the opponent's front row and sow it back in from an end hole (a kichwa); they " ..
    "are compulsory. A player whose front row is empty, or who cannot move, loses.",
  players = 2,
  params = {
    { name = "takasia", default = true,
      doc = "after a non-capturing move the one hole it threatens may be blocked for the opponent's next move (Z14)" },
    { name = "house_in_mtaji", default = false,
      doc = "the house keeps its namua role in the mtaji stage: a lap ending in it stops or offers safari (Z9, Z18)" },
    { name = "kichwa_inward", default = false,
      doc = "a takasa from a kichwa always sows towards the centre of the front row (Z13, Z18)" },
    { name = "house_min", default = 6, values = { 5, 6 },
      doc = "the seeds a house needs to be functional (Z9, Z18)" },
  },
  conserve = true, -- captured seeds are sown back in: the 64 seeds stay on the board or in hand
  repetition = 3, -- Z17
  -- Not a bound the rules prove: a cap with a wide margin over random
  -- games (docs/rules/baokiswahili.md, Z17).
  max_plies = 5000,
}

local TAKASIA_ON, HOUSE_IN_MTAJI, KICHWA_INWARD = P.takasia, P.house_in_mtaji, P.kichwa_inward
local MAX_LAPS = 1000 -- Z16: a move of more laps than this counts as endless
local N = 8
local HAND = 22

-- Z1 "Four rows of eight holes. Player 1 owns rows a (back) and b (front),
-- Player 2 rows c (front) and d (back); the front rows face each other,
-- b1 facing c1. The house is the fifth hole of the front row from its
-- owner's left: b5 and c4."
m.board { rows = { "a", "b", "c", "d" }, columns = N }
local A0, B0, C0, D0 = 0, N, 2 * N, 3 * N
local HOUSE = { B0 + 5, C0 + 4 }
local HOUSE_TAG = m.tag("house", HOUSE, { doc = "a house (nyumba): while it holds enough seeds, a lap ending there stops or goes on safari (Z9)" })
m.mark(HOUSE_TAG, "#")

-- Z3: each player's two rows, clockwise and anticlockwise as seen from
-- above. Player 1 clockwise: b1 -> b8 -> a8 -> a1 -> b1 (along the front
-- row to Player 1's right); Player 2 clockwise: c8 -> c1 -> d1 -> d8 -> c8
-- (along the front row to Player 2's right).
local function circuit(p, clockwise)
  local t = {}
  for k = 1, N do t[#t + 1] = p == 1 and B0 + k or C0 + N + 1 - k end
  for k = 1, N do t[#t + 1] = p == 1 and A0 + N + 1 - k or D0 + k end
  if not clockwise then
    local r = {}
    for i = #t, 1, -1 do r[#r + 1] = t[i] end
    t = r
  end
  return t
end
local CW, ACW = 1, 2
local TRACK = {
  { m.track("south_cw", circuit(1, true), true), m.track("south_acw", circuit(1, false), true) },
  { m.track("north_cw", circuit(2, true), true), m.track("north_acw", circuit(2, false), true) },
}
local PLAYER_OF, DIR_OF = {}, {} -- track handle -> its player, CW or ACW
for p = 1, 2 do
  for d = 1, 2 do PLAYER_OF[TRACK[p][d]], DIR_OF[TRACK[p][d]] = p, d end
end
-- AHEAD[p][d][s][n]: the hole n steps after s along TRACK[p][d], for the
-- first laps of Z11 (n < 16), looked up instead of asked of the host.
local AHEAD = { {}, {} }
for p = 1, 2 do
  for d = 1, 2 do
    local t = {}
    for _, s in ipairs(circuit(p, true)) do
      local row = {}
      for n = 1, 15 do row[n] = m.next(TRACK[p][d], s, n) end
      t[s] = row
    end
    AHEAD[p][d] = t
  end
end

-- Z1, Z6: the front rows, the facing holes, the kichwa (end holes of a
-- front row) and the kimbi (the holes next to them). KICHWA[p][d] is where
-- a sowing in direction d enters the front row: clockwise at the owner's
-- left kichwa (b1, c8), anticlockwise at the right one (b8, c1). NEAREST
-- gives the direction of the nearest kichwa for a kichwa or kimbi.
local FRONT, FACING, KICHWA, NEAREST, INWARD = {}, {}, { {}, {} }, {}, {}
for k = 1, N do
  FRONT[B0 + k], FRONT[C0 + k] = 1, 2
  FACING[B0 + k], FACING[C0 + k] = C0 + k, B0 + k
end
KICHWA[1][CW], KICHWA[1][ACW] = B0 + 1, B0 + N
KICHWA[2][CW], KICHWA[2][ACW] = C0 + N, C0 + 1
for _, s in ipairs({ B0 + 1, B0 + 2, C0 + N, C0 + N - 1 }) do NEAREST[s] = CW end
for _, s in ipairs({ B0 + N, B0 + N - 1, C0 + 1, C0 + 2 }) do NEAREST[s] = ACW end
local TOWARD = { {}, {} } -- the kichwa and kimbi by the direction NEAREST gives them
for s, d in pairs(NEAREST) do TOWARD[d][#TOWARD[d] + 1] = s end
table.sort(TOWARD[1])
table.sort(TOWARD[2])
local INWARD_BY_DIR = { {}, {} } -- the kichwa by their direction towards the centre
for p = 1, 2 do -- Z13: the direction from each kichwa towards the centre
  for d = 1, 2 do
    local k = KICHWA[p][d]
    INWARD[k] = FRONT[m.next(TRACK[p][CW], k)] == p and CW or ACW
    table.insert(INWARD_BY_DIR[INWARD[k]], k)
  end
end

-- Each player's holes in board order, and their front rows.
local HOLES, FRONT_HOLES = { {}, {} }, { {}, {} }
for s = 1, 4 * N do
  local p = s <= B0 + N and 1 or 2
  HOLES[p][#HOLES[p] + 1] = s
  if FRONT[s] then FRONT_HOLES[p][#FRONT_HOLES[p] + 1] = s end
end
local FRONT_ROW = { m.filter { row = 2, min = 1 }, m.filter { row = 3, min = 1 } }
local FRONT_BIG = { m.filter { row = 2, min = 2 }, m.filter { row = 3, min = 2 } }
local IN_HOUSE = { m.filter { row = 2, tag = HOUSE_TAG }, m.filter { row = 3, tag = HOUSE_TAG } }
local BACK_BIG = { m.filter { row = 1, min = 2 }, m.filter { row = 4, min = 2 } }
local SIDE = { m.filter { track = TRACK[1][CW] }, m.filter { track = TRACK[2][CW] } }
-- Z11: the holes a capture move may start from, 2 to 15 seeds.
local CAPTURING = { m.filter { track = TRACK[1][CW], min = 2, max = 15 }, m.filter { track = TRACK[2][CW], min = 2, max = 15 } }
-- The relay hooks hear only the laps that end in a front row, where
-- captures, the house, takasia and an emptied front row happen.
local FRONT_SITES = {}
for s, _ in pairs(FRONT) do FRONT_SITES[#FRONT_SITES + 1] = s end
table.sort(FRONT_SITES)
local FRONT_TAG = m.tag("front", FRONT_SITES, { doc = "a front row: captures are made from it, and a player whose front row is empty loses" })

local SOW_KIND, CAPTURE_KIND = "sow", "capture" -- the kinds move_why explains
local OWNS = { m.var("house1"), m.var("house2") }
local PENDING = m.var("pending")
local TAKASIA = m.var("takasia")

-- Z3, Z7, Z10: the moves. A sowing is the hole and the first hole sown
-- (b3-b4 clockwise, b3-b2 anticlockwise); a namua capture is the hole the
-- seed goes into and the kichwa the captured seeds go in from (b4xb1).
local move_why -- why a sowing or a namua capture is refused (below, after the rules it reads)
local SOW = m.move("sow", "{1}-{2}", { doc = "Sow from {1} towards {2}",
  why = function(...) return move_why(SOW_KIND, ...) end })
local CAPTURE = m.move("capture", "{1}x{2}",
  { prompt = "Put a seed from your hand into a hole facing your opponent's seeds, capture them and sow them in from a kichwa",
    doc = "Put a seed in {1}, capture and sow in from {2}",
    why = function(...) return move_why(CAPTURE_KIND, ...) end })
local SAFARI = m.move("safari", "safari", { prompt = "Empty your house and sow its seeds on (safari): the house is lost", doc = "Go on safari" })
local STOP = m.move("stop", "stop", { prompt = "Stop the move in your house and keep it", doc = "Stop in your house" })

local count, take, sow, nxt, sum, finish = m.count, m.take, m.sow, m.next, m.sum, m.finish
local emit, try, get, set, hand, set_hand, add = m.emit, m.try, m.get, m.set, m.hand, m.set_hand, m.add
local first = m.first

-- Z2 "Each player has six seeds in their house and two in each of the
-- two holes to its right, ten on the board, and 22 in hand: 64 seeds in
-- all. Player 1 moves first."
local z2_setup = m.rule("z2_setup", function()
  for s = 1, 4 * N do m.set_owner(s, s <= B0 + N and 1 or 2) end
  for p = 1, 2 do
    local h = HOUSE[p]
    m.set_count(h, 6)
    local right = TRACK[p][CW] -- to the owner's right along the front row
    m.set_count(nxt(right, h), 2)
    m.set_count(nxt(right, h, 2), 2)
    set_hand(p, HAND)
    set(OWNS[p], 1)
  end
end)

-- Z15 "A player whose front row is empty has lost, at once, even in the
-- middle of a move."
local z15_front_row_empty = m.rule("z15_front_row_empty", function(p)
  return first(FRONT_ROW[p]) == nil
end)

-- Z9 "A house is functional while its owner owns it and it holds at least
-- six seeds" (house_min, Z18). z9_house_min is that number, asked once
-- while the script loads (a game that extends this one may replace it);
-- HOUSES is the native rule, which the laps below ask themselves
-- (replacing z9_functional changes the Lua rules only).
local z9_house_min = m.rule("z9_house_min", function()
  return P.house_min
end)
local HOUSE_MIN = z9_house_min()
if type(HOUSE_MIN) ~= "number" or HOUSE_MIN ~= math.floor(HOUSE_MIN) or HOUSE_MIN < 1 or HOUSE_MIN > 64 then
  error("z9_house_min must give a whole number of seeds from 1 to 64, got " .. tostring(HOUSE_MIN))
end
local HOUSES = m.house_rule { sites = HOUSE, owns = OWNS, min = HOUSE_MIN }
local z9_functional = m.rule("z9_functional", HOUSES)

-- Z9 "A player owns their house until it is emptied: its seeds captured,
-- or taken up to sow (as the start of a move, a relay or a safari)."
-- Called with the hole a move starts from; the laps (z9_lap) lose the
-- houses their relays take up or their captures take.
local z9_house_lost = m.rule("z9_house_lost", function(p, s)
  if s == HOUSE[p] then set(OWNS[p], 0) end
end)

-- Z5 "A lap that ends in an occupied hole of the mover's front row, while
-- the facing hole of the opponent's front row holds seeds, captures" (in a
-- capture move).
-- Z6 "The captured seeds go in from a kichwa, towards the centre: from the
-- left kichwa they are sown clockwise, from the right one anticlockwise.
-- After a capture from a kichwa or kimbi: the nearest kichwa. Otherwise
-- the kichwa the move's direction comes from" (in a namua move's first
-- capture, the player's choice: the direction of the track it is given).
-- Z15 "a capture that takes the last seeds of the opponent's front row
-- ends the game once the captured seeds are sown in": the lap sows them
-- and ends the move (z15_captured_out ends the game).
local z6_capture_lap = m.rule("z6_capture_lap", m.capture_sow_rule {
  tracks = TRACK, opposite = { 3, 2 }, start = KICHWA, toward = TOWARD,
  ends_when = m.empty_rule { filter = FRONT_ROW, player = "next" },
})

-- Z9 "The house's special moves belong to the namua stage: the tax and
-- the stop of a takasa (Z8), the stop or safari of a capture move (Z10).
-- In the mtaji stage it is an ordinary hole" (house_in_mtaji, Z18: in
-- both).
-- Z3 "When the last seed of a lap falls into an empty hole, the move
-- ends; into an occupied hole, the player takes all its seeds and sows on
-- from it in the same direction (a relay), unless the lap captures (Z5),
-- stops in the house (Z8, Z10) or in a hole takasia blocks (Z14)."
-- z9_lap[kind][namua] is the end of a lap of a capture move (a capture,
-- Z5; or in the functional house, where safari or stop is next, Z10: the
-- variable pending becomes the direction) or of a takasa (nothing is
-- captured; it stops in the functional house, Z8, and in the hole takasia
-- blocks, Z14), in the namua stage or not. A house a relay takes up or a
-- capture takes is lost (Z9). z9_lap.house_takasa is the first lap of a
-- takasa from the functional house, which takasia does not stop.
local z9_lap = { capture = {}, takasa = {}, house_takasa = {} }
local STAGE = { [true] = "namua", [false] = "mtaji" }
for _, namua in ipairs({ true, false }) do
  local plays = namua or HOUSE_IN_MTAJI
  z9_lap.capture[namua] = m.rule("z9_capture_lap_" .. STAGE[namua], m.house_lap_rule {
    house = HOUSES, lap = z6_capture_lap, stops = plays, pending = plays and PENDING or nil, tracks = TRACK,
  })
  z9_lap.takasa[namua] = m.rule("z9_takasa_lap_" .. STAGE[namua], m.house_lap_rule { house = HOUSES, stops = plays, stop_at = TAKASIA })
  z9_lap.house_takasa[namua] = m.rule("z9_house_takasa_lap_" .. STAGE[namua], m.house_lap_rule { house = HOUSES, stops = plays })
end

-- Z3: the relays, native rules. z3_move[kind][namua][d] is a whole move
-- that sows all the seeds of a hole in direction d and relays, each lap
-- ending in a front row heard by z9_lap (Z16: within 1000 laps);
-- z3_relay[kind][namua][d] the laps after a move's first, which z3_sow_on
-- sowed (within 999 more).
local z3_move, z3_relay = { capture = {}, takasa = {} }, { capture = {}, takasa = {} }
for _, kind in ipairs({ "capture", "takasa" }) do
  for _, namua in ipairs({ true, false }) do
    z3_move[kind][namua], z3_relay[kind][namua] = {}, {}
    for d = CW, ACW do
      local function relay(laps)
        return m.relay_rule { track = { TRACK[1][d], TRACK[2][d] }, max_laps = laps, lap = z9_lap[kind][namua], lap_tag = FRONT_TAG }
      end
      z3_move[kind][namua][d], z3_relay[kind][namua][d] = relay(MAX_LAPS), relay(MAX_LAPS - 1)
    end
  end
end

-- Z15 "a capture that takes the last seeds of the opponent's front row
-- ends the game": after a move that ended in a lap's stop.
local z15_captured_out = m.rule("z15_captured_out", function(p)
  if first(FRONT_ROW[3 - p]) == nil then finish(p, "front row empty") end
end)

-- Z3: sows the n seeds already taken from `after` in p's direction d, the
-- first lap of a move (`from_house`: from the functional house), decides
-- the end of each lap by z9_lap and lets z3_relay play the laps that
-- follow. Returns how the move ended: "empty", "hook" (a stop, a pause or
-- the end of the game) or "laps" (Z16).
local z3_sow_on = m.rule("z3_sow_on", function(kind, namua, p, d, after, n, from_house)
  local track = TRACK[p][d]
  local lap = z9_lap[kind][namua]
  if from_house and kind == "takasa" then lap = z9_lap.house_takasa[namua] end
  local laps = 0
  while true do
    laps = laps + 1
    local last = sow(track, after, n)
    local t, a, f = nil, nil, nil
    if FRONT[last] then t, a, f = lap(p, last, track, laps) end
    if t == false then return "hook" end
    if t == nil then
      if count(last) == 1 then return "empty" end
      local _, how = z3_relay[kind][namua][DIR_OF[track]](p, last)
      return how
    end
    if laps >= MAX_LAPS then return "laps" end
    lap = z9_lap[kind][namua]
    track, after, n = t, a, take(f)
  end
end)

-- A move's first lap from `from`, in direction d: all its seeds (a house
-- sown so is lost, Z9), or just `n` (the house's two, Z8).
local function sow_from(kind, namua, p, from, d, n)
  local from_house = from == HOUSE[p] and z9_functional(p)
  if n then
    add(from, -n)
    return z3_sow_on(kind, namua, p, d, from, n, from_house)
  end
  z9_house_lost(p, from)
  if from_house and kind == "takasa" then -- takasia does not stop its first lap
    return z3_sow_on(kind, namua, p, d, from, take(from), true)
  end
  local _, how = z3_move[kind][namua][d](p, from)
  return how
end

-- Z11 "In the mtaji stage a capture move sows a hole of either row
-- holding two seeds or more, either way, so that the first lap ends in an
-- occupied hole of the mover's front row facing seeds ... a first lap of
-- sixteen seeds or more never captures." Whether the sowing of `from` in
-- direction d is a capture move (n: the seeds of `from`, when known).
local z11_first_lap = m.rule("z11_first_lap", function(p, from, d, n)
  n = n or count(from)
  if n < 2 or n >= 16 then return false end
  local e = AHEAD[p][d][from][n]
  return FRONT[e] == p and count(e) > 0 and count(FACING[e]) > 0
end)

-- Z11, Z5 "Captures are compulsory: a player who can make a capture move
-- must." Emits p's mtaji capture moves (holes in board order, clockwise
-- first) and returns how many: the sowings of 2 to 15 seeds (the
-- sixteen-seed rule) whose first lap ends in an occupied front hole facing
-- seeds (Z5), as native rules tried on a copy of the counts.
local Z11_CAPTURES_FIRST = m.first_lap_rule { -- a move test: the first lap of 15 seeds or fewer captures
  tracks = TRACK, lap_tag = FRONT_TAG, max = 15,
  lap = m.capture_sow_rule { tracks = TRACK, opposite = { 3, 2 }, start = KICHWA, toward = TOWARD },
}
local z11_mtaji_captures = m.rule("z11_mtaji_captures", m.sowings_rule {
  kind = SOW, from = CAPTURING, tracks = TRACK, ends = Z11_CAPTURES_FIRST,
})

-- Whether the player after p has a mtaji capture move (Z14), a native
-- rule asking z11_mtaji_captures.
local OPPONENT_CAN_CAPTURE = m.has_moves_rule { moves = z11_mtaji_captures, player = "next" }
-- The hole of the opponent's front row that p's mtaji capture moves would
-- all take (the one facing the end of every first lap), or 0 (Z14), a
-- native rule asking z11_mtaji_captures.
local ONE_TARGET = m.one_target_rule { moves = z11_mtaji_captures, tracks = TRACK, opposite = { 3, 2 } }

-- Z13 "When the only occupied hole of the mover's front row is a kichwa, a
-- takasa from it sows towards the centre of the front row, never into the
-- back row" (with kichwa_inward, Z18, every takasa from a kichwa does).
-- z13_lone_kichwa, asked once while the script loads, says which: "inward"
-- (this game); or "either", a game that extends this one and lets a lone
-- kichwa be sown into the back row too, where it empties the front row and
-- loses at once (Z15, z15_lone_kichwa_out).
local z13_lone_kichwa = m.rule("z13_lone_kichwa", function()
  return "inward"
end)
local LONE_KICHWA = z13_lone_kichwa()
if LONE_KICHWA ~= "inward" and LONE_KICHWA ~= "either" then
  error("z13_lone_kichwa must give \"inward\" or \"either\", got " .. tostring(LONE_KICHWA))
end
local LONE_KICHWA_OUT = LONE_KICHWA == "either" and not KICHWA_INWARD
-- The fields of the takasa listings (sowings_rule) that keep a kichwa to
-- its direction towards the centre while it is the only occupied hole of
-- the front row (always, with kichwa_inward; never, when a lone kichwa may
-- be sown either way).
local z13_inward = { toward = INWARD_BY_DIR, toward_alone = not KICHWA_INWARD and FRONT_ROW or nil }
if LONE_KICHWA_OUT then z13_inward = {} end

-- A whole takasa move of p from `from` in direction d, in the namua stage
-- a seed put in first; the house in namua sows only two seeds (Z8).
local function takasa_move(p, from, d, namua, tax)
  if namua then
    set_hand(p, hand(p) - 1)
    add(from, 1)
  end
  return sow_from("takasa", namua, p, from, d, tax and 2 or nil)
end

-- Z16 "A move that would go on for more than 1,000 laps never ends, and is
-- not legal ... Capture moves always end." A takasa is a relay without
-- captures, which may stop early (in the house, in a hole takasia blocks):
-- lap for lap it follows the plain relay of its seeds, which the listings
-- try in Go first (z16_namua_ends, z16_mtaji_ends: a relay_ends_rule in
-- the move's direction, in the namua stage with the seed from the hand
-- put in). When that ends, the move does; when it does not, the move is
-- played out on a scratch copy of the state (matombo.try): z16_ends, also
-- for the house's two seeds (Z8), whose plain relay says nothing.
local z16_ends = m.rule("z16_ends", function(p, from, d, namua, tax)
  return try(takasa_move, p, from, d, namua, tax) ~= "laps"
end)

-- The direction of the move of p from `from` that sows `first_sown` first.
local function direction(p, from, first_sown)
  return AHEAD[p][CW][from][1] == first_sown and CW or ACW
end

-- Z16 for the listings, move tests (p, kind, from, first hole sown): the
-- plain relay, then the move played out. In the mtaji stage only the
-- house (house_in_mtaji) or takasia can stop a relay early.
local function z16_namua_played(p, _, from, first_sown)
  return z16_ends(p, from, direction(p, from, first_sown), true, false)
end
local function z16_mtaji_played(p, _, from, first_sown)
  if not HOUSE_IN_MTAJI and get(TAKASIA) == 0 then return false end
  return z16_ends(p, from, direction(p, from, first_sown), false, false)
end
local z16_namua_ends = m.rule("z16_namua_ends", m.any_move_rule {
  m.relay_ends_rule { tracks = TRACK, max_laps = MAX_LAPS, drop = 1 }, z16_namua_played,
})
local z16_mtaji_ends = m.rule("z16_mtaji_ends", m.any_move_rule {
  m.relay_ends_rule { tracks = TRACK, max_laps = MAX_LAPS }, z16_mtaji_played,
})

-- A takasa listing (native rules): the sowings of `t` both ways, as Z13
-- and the Z16 test `ends` allow.
local function takasas(t, ends)
  t.kind, t.tracks, t.ends = SOW, TRACK, ends
  t.toward, t.toward_alone = z13_inward.toward, z13_inward.toward_alone
  return m.sowings_rule(t)
end

-- Z12 "In the mtaji stage, when no capture move is possible, the mover
-- sows a hole of their front row holding two seeds or more (the house
-- too), either way; only when the front row has no such hole, a hole of
-- the back row holding two or more." Not the hole takasia blocks (Z14).
local z12_mtaji_takasa = m.rule("z12_mtaji_takasa",
  takasas({ from = FRONT_BIG, else_from = BACK_BIG, skip = TAKASIA }, z16_mtaji_ends))

-- Z7 "In the namua stage, when a hole of the mover's front row holding
-- seeds faces a hole holding seeds, the mover must capture: a seed from
-- the hand goes into such a hole and the facing seeds are captured and
-- sown in ... from a kichwa or kimbi the kichwa is the nearest (b2xb1),
-- from a central hole either (b4xb1 or b4xb8)." Emits them (holes in board
-- order, the clockwise kichwa first) and returns how many: native rules,
-- a move naming its direction by its kichwa.
local z7_namua_captures = m.rule("z7_namua_captures", m.sowings_rule {
  kind = CAPTURE, from = FRONT_ROW, tracks = TRACK, start = KICHWA, toward = TOWARD,
  ends = m.facing_rule { opposite = { 3, 2 } },
})

-- Z8 "In the namua stage, when no capture is possible, the mover puts a
-- seed from the hand into an occupied hole of their front row, takes all
-- of its seeds and sows them either way: not into the functional house,
-- unless it is the only occupied hole of the front row: then the mover
-- takes just two seeds from the house; without a functional house, not
-- into a hole of one seed, unless every occupied hole of the front row
-- holds one." Emits p's namua takasa moves (holes in board order,
-- clockwise first) and returns how many.
local z8_house_alone = m.all_rule {
  HOUSES, m.compare_rule { amount = m.sum_rule { filter = IN_HOUSE }, op = "==", to = m.sum_rule { filter = FRONT_ROW } },
}
local function z8_house_tax(p) -- the house is no kichwa: both ways (Z13)
  local h, k = HOUSE[p], 0
  for d = CW, ACW do
    if z16_ends(p, h, d, true, true) then
      emit(SOW, h, AHEAD[p][d][h][1])
      k = k + 1
    end
  end
  return k
end
local BESIDE_HOUSE = { {}, {} } -- the front holes but the house
for p = 1, 2 do
  for _, s in ipairs(FRONT_HOLES[p]) do
    if s ~= HOUSE[p] then BESIDE_HOUSE[p][#BESIDE_HOUSE[p] + 1] = s end
  end
end
local z8_namua_takasa = m.rule("z8_namua_takasa", m.if_rule {
  when = z8_house_alone, emit = z8_house_tax,
  otherwise = m.if_rule {
    when = HOUSES,
    emit = takasas({ sites = BESIDE_HOUSE }, z16_namua_ends),
    otherwise = takasas({ from = FRONT_BIG, else_from = FRONT_ROW }, z16_namua_ends),
  },
})

-- Z8: a namua takasa from a hole but the functional house (which pays
-- the tax), a native rule: the seed from the hand goes in, the hole is
-- taken up (a house so is lost, Z9) and sown, the laps z9_lap's (a stop
-- in the functional house); hands only shrink (Z17 counts from here).
local z8_namua_takasa_sow = m.rule("z8_namua_takasa_sow", m.drop_relay_play {
  relay = m.relay_rule { tracks = TRACK, max_laps = MAX_LAPS, lap = z9_lap.takasa[true], lap_tag = FRONT_TAG },
  sow_on = true, house = HOUSES, irreversible = true,
})

-- Z11: a mtaji capture move from s, a native rule: the hole taken up (a
-- house so is lost, Z9) and sown, the laps z9_lap's (captures, Z5, Z6; a
-- stop in the house with house_in_mtaji leaves the mover to choose, Z10);
-- no hole stays takasia'd (Z14). Then Z15: the opponent's front row
-- emptied ends the game.
local z11_capture_move = m.rule("z11_capture_move", m.drop_relay_play {
  relay = m.relay_rule { tracks = TRACK, max_laps = MAX_LAPS, lap = z9_lap.capture[false], lap_tag = FRONT_TAG },
  drop = 0, sow_on = true, house = HOUSES, pending = PENDING, clear = { TAKASIA },
  after = { m.end_rule {
    { when = m.empty_rule { filter = FRONT_ROW, player = "next" }, reason = "front row empty", result = m.winner_rule { winner = "mover" } },
  } },
})

-- Z7: a namua capture at `at`, the captured seeds sown in from the
-- kichwa the move names, a native rule: the seed from the hand goes in,
-- the capture is z9_lap's (Z5, Z6; the facing house is lost, Z9), the laps
-- after it z9_lap's too, a stop in the house leaves the mover to choose
-- (Z10); a namua move puts a seed from the hand in, and hands only
-- shrink, so no earlier position can come back (Z17 counts from here).
-- Then Z15: the opponent's front row emptied ends the game.
local z7_namua_capture = m.rule("z7_namua_capture", m.drop_relay_play {
  relay = m.relay_rule { tracks = TRACK, max_laps = MAX_LAPS, lap = z9_lap.capture[true], lap_tag = FRONT_TAG },
  start = KICHWA, pending = PENDING, irreversible = true,
  after = { m.end_rule {
    { when = m.empty_rule { filter = FRONT_ROW, player = "next" }, reason = "front row empty", result = m.winner_rule { winner = "mover" } },
  } },
})

-- Z8: a namua takasa from s in direction d, the house's tax of two seeds
-- when s is the functional house (play asks z8_namua_takasa_sow for the
-- others).
local z8_namua_takasa_move = m.rule("z8_namua_takasa_move", function(p, s, d)
  return takasa_move(p, s, d, true, s == HOUSE[p] and z9_functional(p))
end)

-- Z10 "safari, the mover takes the house's seeds and sows on in the same
-- direction, the move going on as the capture move it is; the house is
-- lost."
local z10_safari = m.rule("z10_safari", function(p, d)
  set(OWNS[p], 0)
  local _, how = z3_relay.capture[true][d](p, HOUSE[p])
  return how
end)

-- Z14 "After a takasa in the mtaji stage (both players' hands empty), when
-- the opponent cannot capture and the mover's capture moves, were it the
-- mover's turn again, would all take one and the same hole of the
-- opponent's front row, that hole is takasia'd for the opponent's next
-- move ... Never takasia'd: the opponent's functional house, their only
-- occupied front hole, their only front hole of two seeds or more."
-- Returns the hole, or 0. (Its effects are in legal, Z12, and in
-- takasa_lap_end.)
local z14_takasia = m.rule("z14_takasia", function(p)
  local q = 3 - p
  if not TAKASIA_ON or hand(q) > 0 or OPPONENT_CAN_CAPTURE(p) then return 0 end
  local threatened = ONE_TARGET(p)
  if threatened == 0 or z9_functional(q) and threatened == HOUSE[q] then return 0 end
  local n = count(threatened)
  if n == sum(FRONT_ROW[q]) or n >= 2 and m.count_sites(FRONT_BIG[q]) == 1 then return 0 end
  return threatened
end)

-- Z15 "A player who cannot move (in the mtaji stage only holes of one seed
-- or none, or every move endless, Z16) has lost."
local z15_blocked = m.rule("z15_blocked", function(p)
  finish(3 - p, "no legal move")
end)

-- Z17 "When the same position (the seeds in every hole and in hand, the
-- houses owned, a pending choice or takasia, and the player to move)
-- occurs for the third time, the game is a draw."
local z17_repetition = m.rule("z17_repetition", function()
  finish(0, "third repetition")
end)

-- Z15 in a set-up position: an empty front row, the opponent's looked at
-- first.
local function z15_result(p)
  if z15_front_row_empty(3 - p) then
    return finish(p, "front row empty")
  end
  if z15_front_row_empty(p) then
    return finish(3 - p, "front row empty")
  end
end

-- The legal moves of player p, native rules: safari or stop while a
-- capture move waits in the house (Z10); in the namua stage the captures
-- (Z7), else the takasa moves (Z8); in the mtaji stage the capture moves
-- (Z11), else the takasa moves (Z12).
local legal = m.if_rule {
  when = m.compare_rule { amount = m.var_rule { var = PENDING }, op = ">", value = 0 },
  emit = m.emit_rule { moves = { SAFARI, STOP } },
  otherwise = m.if_rule {
    when = m.compare_rule { amount = m.hand_rule {}, op = ">", value = 0 },
    emit = m.first_of_rule { z7_namua_captures, z8_namua_takasa },
    otherwise = m.first_of_rule { z11_mtaji_captures, z12_mtaji_takasa },
  },
}

-- The end of a move of p (how it ended: "empty", "hook" or "laps"; in the
-- namua stage or not; a takasa or not).
local function end_of_move(p, how, namua, takasa)
  set(TAKASIA, 0)
  if namua then
    -- a namua move puts a seed from the hand in: hands only shrink, so no
    -- earlier position can come back (Z17 counts from here)
    m.irreversible()
  end
  if how == "laps" then
    error("Z16: the move went over " .. MAX_LAPS .. " laps; legal must not offer it")
  end
  if how == "hook" then -- a stop: the game over (Z15), or a choice (Z10)
    z15_captured_out(p)
    if m.over() then return end
    if get(PENDING) > 0 then
      m.set_to_move(p) -- Z10: the mover chooses safari or stop
      return
    end
  end
  -- Z15: the opponent's front row is emptied only by a capture, which
  -- ends the game at once (z15_captured_out); the mover's own never is (Z13).
  if takasa and not namua then set(TAKASIA, z14_takasia(p)) end
end

-- Z10: stop in the house, the move is over.
local function play_stop()
  set(PENDING, 0)
end

-- Z10: safari, the capture move going on.
local function play_safari(p)
  local d = get(PENDING)
  set(PENDING, 0)
  end_of_move(p, z10_safari(p, d), false, false)
end

-- A sowing of p from s1 towards s2. The move's stage is the stage it
-- starts in (a move that puts the last seed of the hand in is a namua
-- move): a namua takasa from the functional house, the tax (Z8), a mtaji
-- capture move (Z11) or takasa (Z12).
local function play_sow(p, s1, s2)
  local namua = hand(p) > 0
  local d = AHEAD[p][CW][s1][1] == s2 and CW or ACW
  if namua then
    end_of_move(p, z8_namua_takasa_move(p, s1, d), true, true)
  elseif z11_first_lap(p, s1, d) then
    end_of_move(p, sow_from("capture", false, p, s1, d), false, false)
  else
    end_of_move(p, sow_from("takasa", false, p, s1, d), false, true)
  end
end

-- Z12: a mtaji takasa from s, a native rule: the hole taken up (a house
-- so is lost, Z9) and sown, the laps z9_lap's (a stop in the hole takasia
-- blocks, Z14, or in the functional house with house_in_mtaji), then the
-- hole takasia'd for the opponent's next move (z14_takasia). Not for a
-- takasa from the functional house while a hole is takasia'd: takasia
-- does not stop its first lap (play_sow plays it).
local function z14_after_takasa(p)
  set(TAKASIA, z14_takasia(p))
end
local z12_takasa_move = m.rule("z12_takasa_move", m.drop_relay_play {
  relay = m.relay_rule { tracks = TRACK, max_laps = MAX_LAPS, lap = z9_lap.takasa[false], lap_tag = FRONT_TAG },
  drop = 0, sow_on = true, house = HOUSES, clear = { TAKASIA }, after = { z14_after_takasa },
})
local FIRST_LAP_TAKASIA_STOPS = m.all_rule { m.compare_rule { amount = m.var_rule { var = TAKASIA }, op = ">", value = 0 }, HOUSES }

-- One decision of p, by its kind: a sowing in the namua stage but for
-- the house's tax is z8_namua_takasa_sow (Z8), a mtaji capture move
-- z11_capture_move (Z11), a mtaji takasa z12_takasa_move (Z12), the
-- others play_sow.
local NAMUA = m.compare_rule { amount = m.hand_rule {}, op = ">", value = 0 }
local play_sowing = m.if_play {
  when = NAMUA,
  play = m.if_play { when = m.not_rule { cond = z8_house_alone }, play = z8_namua_takasa_sow, otherwise = play_sow },
  otherwise = m.if_play {
    test = Z11_CAPTURES_FIRST, play = z11_capture_move,
    otherwise = m.if_play { when = FIRST_LAP_TAKASIA_STOPS, play = play_sow, otherwise = z12_takasa_move },
  },
}

-- Z13, Z15: where a lone kichwa may be sown into the back row
-- (z13_lone_kichwa "either"), that sowing empties the mover's front row:
-- the mover has lost, at once. As for a capture that empties a front row
-- (Z15), the lap that empties it is sown (in the namua stage, the seed
-- from the hand put in first) and the laps that would follow are not
-- played. Asked only while one hole of the mover's front row holds seeds;
-- any other sowing is play_kept's.
local play_kept = play_sowing
local z15_lone_kichwa_out = m.rule("z15_lone_kichwa_out", function(p, s1, s2)
  if not (FRONT[s1] == p and INWARD[s1] and FRONT[s2] ~= p) then
    return play_kept(p, s1, s2)
  end
  if hand(p) > 0 then
    set_hand(p, hand(p) - 1)
    add(s1, 1)
  end
  set(TAKASIA, 0)
  sow(TRACK[p][direction(p, s1, s2)], s1, take(s1))
  finish(3 - p, "front row empty")
end)
if LONE_KICHWA_OUT then
  local FRONT_ALONE = m.compare_rule { amount = m.count_rule { filter = FRONT_ROW }, op = "==", value = 1 }
  play_sowing = m.if_play { when = FRONT_ALONE, play = z15_lone_kichwa_out, otherwise = play_sowing }
end

local play = m.play_by_kind {
  [STOP] = play_stop, [SAFARI] = play_safari, [CAPTURE] = z7_namua_capture, [SOW] = play_sowing,
}

-- A position set up rather than played: an empty front row decides it.
local function result(p)
  return z15_result(3 - p)
end

-- What the decision asks (not a rule: words for the players): the house
-- (Z10), a hole takasia blocks (Z14), a namua takasa (Z8).
local function prompt(p, _, _, pending, takasia)
  if pending > 0 then
    return "Your sowing ended in your house " .. m.name(HOUSE[p]) .. ": stop here and keep it, or empty it and sow on (safari)"
  end
  if takasia > 0 then
    return "Takasia: " .. m.name(takasia) .. " may not be sown this move, and a lap ending in it stops there"
  end
  if hand(p) > 0 and first(FRONT_ROW[p]) then
    local h = HOUSE[p]
    for _, s in ipairs(FRONT_HOLES[p]) do
      if count(s) > 0 and count(FACING[s]) > 0 then return nil end -- the capture kind's prompt
    end
    if z9_functional(p) and count(h) == sum(FRONT_ROW[p]) then
      return "No capture: put a seed from your hand into your house and sow two of its seeds (" .. hand(p) .. " in hand)"
    end
    return "No capture: put a seed from your hand into a hole of your front row and sow it (" .. hand(p) .. " in hand)"
  end
  return nil
end

-- The most seeds player t, to move, can capture at once: the fullest
-- facing hole of a namua capture (Z7) or of a capture move's first
-- capture (Z11). For evaluate.
local function best_capture(t)
  local best = 0
  if hand(t) > 0 then
    for _, s in ipairs(FRONT_HOLES[t]) do
      if count(s) > 0 then
        local c = count(FACING[s])
        if c > best then best = c end
      end
    end
    return best
  end
  for _, s in ipairs(HOLES[t]) do
    local n = count(s)
    if n >= 2 and n < 16 then
      for d = CW, ACW do
        if z11_first_lap(t, s, d, n) then
          local c = count(FACING[AHEAD[t][d][s][n]])
          if c > best then best = c end
        end
      end
    end
  end
  return best
end

-- evaluate: advice for computer players, not a rule. Captures carry seeds
-- from one side to the other, so p's share of the seeds (on the board and
-- in hand) weighs most, counting the seeds the player to move can capture
-- at once as theirs already (a capture is compulsory, Z5); then the
-- occupied holes of each front row, since an empty front row loses (Z15).
-- Measured against the generic evaluation (docs/players.md): 66% for
-- alpha-beta at depth 3, 55.5% at depth 4, 58% for MCTS at 200
-- iterations; the share of the seeds alone scored 33.5%, and the earlier
-- weighting of the front row's seeds double 41% at depth 4.
local function evaluate(p)
  local q = 3 - p
  local mine, theirs = sum(SIDE[p]) + hand(p), sum(SIDE[q]) + hand(q)
  local t = m.to_move()
  local cap = best_capture(t)
  if t ~= p then cap = -cap end
  local front = m.count_sites(FRONT_ROW[p]) - m.count_sites(FRONT_ROW[q])
  local v = 0.75 * (mine - theirs + cap) / (mine + theirs) + 0.02 * front
  return math.max(-0.95, math.min(0.95, v))
end

-- ---- Why a move is refused (not a rule: words for the players) ----

-- Whether p has a mtaji capture move (Z11).
local MOVER_CAN_CAPTURE = m.has_moves_rule { moves = z11_mtaji_captures }

-- A hole of p's front row holding seeds and facing seeds, or nil (Z7).
local function namua_capture_hole(p)
  for _, s in ipairs(FRONT_HOLES[p]) do
    if count(s) > 0 and count(FACING[s]) > 0 then return s end
  end
end

-- Whether a hole of p's front row holds two seeds or more, the takasia'd
-- hole apart (Z8, Z12).
local function front_big(p, takasia)
  for _, s in ipairs(FRONT_HOLES[p]) do
    if count(s) >= 2 and s ~= takasia then return true end
  end
  return false
end

-- Why p's namua capture (Z7) from s, sown in from kichwa k, is refused.
local function namua_capture_why(p, s, k)
  if not FRONT[s] or count(s) == 0 or count(FACING[s]) == 0 then
    return m.name(s) .. " does not capture: a namua capture puts the seed into a hole of your front row that holds seeds and faces seeds (Z7)"
  end
  if k ~= KICHWA[p][CW] and k ~= KICHWA[p][ACW] then
    return "captured seeds are sown in from a kichwa, " .. m.name(KICHWA[p][CW]) .. " or " .. m.name(KICHWA[p][ACW]) .. " (Z6)"
  end
  if NEAREST[s] and k ~= KICHWA[p][NEAREST[s]] then
    return "a capture from a kichwa or kimbi is sown in from the nearest kichwa, " .. m.name(KICHWA[p][NEAREST[s]]) .. " (Z6)"
  end
end

-- Why p's namua takasa from s is refused (Z8), when no capture is.
local function namua_takasa_why(p, s)
  if count(s) == 0 then
    return m.name(s) .. " is empty: the seed from your hand goes into a hole of your front row that holds seeds (Z8)"
  end
  local functional = z9_functional(p)
  if s == HOUSE[p] and functional and count(s) < sum(FRONT_ROW[p]) then
    return "your house " .. m.name(s) .. " is functional: the seed goes into it only when it is the only occupied hole of your front row (Z8)"
  end
  if count(s) == 1 and not functional and front_big(p, 0) then
    return m.name(s) .. " holds one seed: without a functional house, the seed goes into a hole of two seeds or more while there is one (Z8)"
  end
end

-- Why p's mtaji sowing from s is refused (Z11, Z12, Z14).
local function mtaji_why(p, s, takasia)
  if s == takasia then
    return m.name(s) .. " is takasia'd: it may not be sown this move (Z14)"
  end
  if count(s) < 2 then
    return (count(s) == 0 and m.name(s) .. " is empty" or m.name(s) .. " holds one seed") .. ": a move sows a hole of two seeds or more (Z12)"
  end
  if MOVER_CAN_CAPTURE(p) then
    return "a capture move is possible, and a takasa is played only when none is (Z11, Z12)"
  end
  if not FRONT[s] and front_big(p, takasia) then
    return "a takasa sows a hole of your front row while one holds two seeds or more (Z12)"
  end
end

-- Why the token of kind `kind` naming sites is refused, in the rules'
-- words; nil leaves the reason to the host, which lists what is possible.
-- Its checks only read the position; each names the point it follows.
move_why = function(kind, p, sites, _, _, pending, takasia)
  local s, t = sites[1], sites[2]
  if pending > 0 then
    return "your move waits in your house " .. m.name(HOUSE[p]) .. ": stop there or go on safari (Z10)"
  end
  if (s <= B0 + N and 1 or 2) ~= p then
    return m.name(s) .. " is not one of your holes (Z1)"
  end
  local namua = hand(p) > 0
  if kind == CAPTURE_KIND then
    if not namua then
      return "your hand is empty: a capture with a seed from the hand belongs to the namua stage; sow a hole instead (Z4, Z11)"
    end
    return namua_capture_why(p, s, t)
  end
  if t ~= nxt(TRACK[p][CW], s) and t ~= nxt(TRACK[p][ACW], s) then
    return m.name(t) .. " is not next to " .. m.name(s) .. " on your rows: a sowing names its hole and the first hole it sows (Z3)"
  end
  if not namua then return mtaji_why(p, s, takasia) end
  if not FRONT[s] then
    return "while you have seeds in hand, every move puts one into a hole of your front row (Z4)"
  end
  local c = namua_capture_hole(p)
  if c then
    return "a capture is possible (" .. m.name(c) .. " faces seeds), and capturing comes first: write it as the hole and the kichwa, such as " ..
      m.name(c) .. "x" .. m.name(KICHWA[p][NEAREST[c] or CW]) .. " (Z7)"
  end
  return namua_takasa_why(p, s)
end

return {
  setup = z2_setup, legal = legal, play = play, blocked = z15_blocked,
  repeated = z17_repetition, result = result, prompt = prompt, evaluate = evaluate,
}
