-- Bao la Kiswahili, the masters' Bao of Zanzibar and the Swahili coast as
-- de Voogt recorded it: the rules script of Matombo's game `baokiswahili`.
--
-- It plays the points Z1-Z18 of its rules page, docs/rules/baokiswahili.md:
--   Z1  the board: 4 rows of 8, front and back rows, kichwa,  -> the board below
--       kimbi and the house (nyumba)
--   Z2  the opening: 6 + 2 + 2 seeds on the board, 22 in hand -> z2_setup
--   Z3  sowing round the player's own two rows, either way;   -> z3_sow_on
--       a lap ending in an occupied hole relays
--   Z4  the two stages: namua while seeds are in hand, then   -> (hand(p) > 0)
--       mtaji
--   Z5  a capture, and captures are compulsory                -> z5_captures
--   Z6  which kichwa the captured seeds go in from            -> z6_capture
--   Z7  namua: a capture by putting a seed in                 -> z7_namua_captures, z7_namua_capture
--   Z8  namua: takasa, a move that cannot capture             -> z8_namua_takasa, z8_namua_takasa_move
--   Z9  the house: functional, lost, its namua role           -> z9_functional, z9_house_lost, z9_house_plays
--   Z10 safari: stop in the house or sow it on                -> z10_safari
--   Z11 mtaji: captures from the first lap, the 16-seed rule  -> z11_first_lap, z11_mtaji_captures
--   Z12 mtaji: takasa from the front row if possible          -> z12_mtaji_takasa
--   Z13 a lone kichwa sows towards the centre                 -> z13_direction_allowed
--   Z14 takasia: a hole the opponent may not sow              -> z14_takasia
--   Z15 the end: an empty front row, or no move               -> z15_front_row_empty, z6_capture, z15_blocked
--   Z16 a move that would never end is not legal              -> z16_ends
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
-- Z9's functional count and Z13's lone kichwa, rule points asked while
-- loading, which Bawo replaces (docs/rules/bawo.md W3, W4).
local HOUSE_MIN = m.rule("z9_house_min", function() return P.house_min end)()
local LONE_KICHWA_OUT = m.rule("z13_lone_kichwa", function() return "inward" end)() == "either" and not KICHWA_INWARD
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
m.mark(m.tag("house", HOUSE, { doc = "a house (nyumba): while it holds enough seeds, a lap ending there stops or goes on safari (Z9)" }), "#")

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
for p = 1, 2 do -- Z13: the direction from each kichwa towards the centre
  for d = 1, 2 do
    local k = KICHWA[p][d]
    INWARD[k] = FRONT[m.next(TRACK[p][CW], k)] == p and CW or ACW
  end
end

-- Each player's holes in board order, and their front and back rows.
local HOLES, FRONT_HOLES, BACK_HOLES = { {}, {} }, { {}, {} }, { {}, {} }
for s = 1, 4 * N do
  local p = s <= B0 + N and 1 or 2
  HOLES[p][#HOLES[p] + 1] = s
  if FRONT[s] then
    FRONT_HOLES[p][#FRONT_HOLES[p] + 1] = s
  else
    BACK_HOLES[p][#BACK_HOLES[p] + 1] = s
  end
end
local FRONT_ROW = { m.filter { row = 2, min = 1 }, m.filter { row = 3, min = 1 } }
local FRONT_BIG = { m.filter { row = 2, min = 2 }, m.filter { row = 3, min = 2 } }
local SIDE = { m.filter { track = TRACK[1][CW] }, m.filter { track = TRACK[2][CW] } }
-- Z11: the holes a capture move may start from, 2 to 15 seeds.
local CAPTURING = { m.filter { track = TRACK[1][CW], min = 2, max = 15 }, m.filter { track = TRACK[2][CW], min = 2, max = 15 } }
-- The relay hooks hear only the laps that end in a front row, where
-- captures, the house, takasia and an emptied front row happen.
local FRONT_SITES = {}
for s, _ in pairs(FRONT) do FRONT_SITES[#FRONT_SITES + 1] = s end
table.sort(FRONT_SITES)
local FRONT_TAG = m.tag("front", FRONT_SITES, { doc = "a front row: captures are made from it, and a player whose front row is empty loses" })

-- Z3, Z7, Z10: the moves. A sowing is the hole and the first hole sown
-- (b3-b4 clockwise, b3-b2 anticlockwise); a namua capture is the hole the
-- seed goes into and the kichwa the captured seeds go in from (b4xb1).
local SOW = m.move("sow", "{1}-{2}", { doc = "Sow from {1} towards {2}" })
local CAPTURE = m.move("capture", "{1}x{2}",
  { prompt = "Put a seed from your hand into a hole facing your opponent's seeds, capture them and sow them in from a kichwa",
    doc = "Put a seed in {1}, capture and sow in from {2}" })
local SAFARI = m.move("safari", "safari", { prompt = "Empty your house and sow its seeds on (safari): the house is lost", doc = "Go on safari" })
local STOP = m.move("stop", "stop", { prompt = "Stop the move in your house and keep it", doc = "Stop in your house" })

local OWNS = { m.var("house1"), m.var("house2") }
local PENDING = m.var("pending")
local TAKASIA = m.var("takasia")

local count, take, sow, relay, nxt, sum, finish = m.count, m.take, m.sow, m.relay, m.next, m.sum, m.finish
local emit, try, get, set, hand, set_hand, add = m.emit, m.try, m.get, m.set, m.hand, m.set_hand, m.add
local relay_ends, first = m.relay_ends, m.first

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
-- six seeds" (house_min, Z18).
local z9_functional = m.rule("z9_functional", function(p)
  return get(OWNS[p]) == 1 and count(HOUSE[p]) >= HOUSE_MIN
end)

-- Z9 "A player owns their house until it is emptied: its seeds captured,
-- or taken up to sow (as the start of a move, a relay or a safari)."
-- Called with every hole a capture or a sowing empties.
local z9_house_lost = m.rule("z9_house_lost", function(p, s)
  if s == HOUSE[p] then set(OWNS[p], 0) end
end)

-- Z9 "The house's special moves belong to the namua stage: the tax and
-- the stop of a takasa (Z8), the stop or safari of a capture move (Z10).
-- In the mtaji stage it is an ordinary hole" (house_in_mtaji, Z18: in
-- both). Whether a lap ending in `last` ends in p's house playing its
-- part.
local z9_house_plays = m.rule("z9_house_plays", function(p, last, namua)
  return last == HOUSE[p] and (namua or HOUSE_IN_MTAJI) and z9_functional(p)
end)

-- Z5 "A lap that ends in an occupied hole of the mover's front row, while
-- the facing hole of the opponent's front row holds seeds, captures" (in a
-- capture move).
local z5_captures = m.rule("z5_captures", function(p, last)
  return FRONT[last] == p and count(last) > 1 and count(FACING[last]) > 0
end)

-- Z6 "The captured seeds go in from a kichwa, towards the centre: from the
-- left kichwa they are sown clockwise, from the right one anticlockwise.
-- After a capture from a kichwa or kimbi: the nearest kichwa. Otherwise
-- the kichwa the move's direction comes from" (d; in a namua move's first
-- capture, the player's choice). Z15 "a capture that takes the last seeds
-- of the opponent's front row ends the game once the captured seeds are
-- sown in." Returns what a relay hook returns: sow on along the track,
-- after the hole before the kichwa, the seeds of the facing hole; or
-- false when the game is over.
local z6_capture = m.rule("z6_capture", function(p, at, d)
  d = NEAREST[at] or d
  local track, facing, q = TRACK[p][d], FACING[at], 3 - p
  z9_house_lost(q, facing)
  local before = m.prev(track, KICHWA[p][d])
  if sum(FRONT_ROW[q]) == count(facing) then
    sow(track, before, take(facing))
    finish(p, "front row empty")
    return false
  end
  return track, before, facing
end)

-- The end of a lap of a capture move (Z3, Z5, Z9, Z10), as a relay hook
-- answers: nil to end in an empty hole or relay on, false to stop (the
-- pause of Z10, or the end of the game), or a capture's next lap.
local function capture_lap_end(p, last, d, namua)
  if count(last) == 1 then return nil end
  if z5_captures(p, last) then return z6_capture(p, last, d) end
  if z9_house_plays(p, last, namua) then -- Z10: safari or stop is next
    set(PENDING, d)
    return false
  end
  z9_house_lost(p, last)
end

-- The end of a lap of a takasa (Z3, Z8, Z9, Z14): nothing is captured; a
-- lap ending in the house stops (Z8), and one ending in the hole takasia
-- blocks, unless it is the first lap of a sowing from the functional
-- house (`from_house`).
local function takasa_lap_end(p, last, namua, from_house)
  if count(last) == 1 then return nil end
  if z9_house_plays(p, last, namua) then return false end
  if last == get(TAKASIA) and not from_house then return false end
  z9_house_lost(p, last)
end

-- The relay hooks, one per kind of move and stage: matombo.relay calls
-- them at the end of the laps that end in a front row.
local HOOK = {
  capture = {
    [true] = function(last, track) return capture_lap_end(PLAYER_OF[track], last, DIR_OF[track], true) end,
    [false] = function(last, track) return capture_lap_end(PLAYER_OF[track], last, DIR_OF[track], false) end,
  },
  takasa = {
    [true] = function(last, track) return takasa_lap_end(PLAYER_OF[track], last, true, false) end,
    [false] = function(last, track) return takasa_lap_end(PLAYER_OF[track], last, false, false) end,
  },
}

-- Z3 "To sow is to drop seeds one by one into the next holes, starting
-- with the hole after the one they came from ... When the last seed of a
-- lap falls into an empty hole, the move ends; into an occupied hole, the
-- player takes all its seeds and sows on from it in the same direction (a
-- relay), unless the lap captures (Z5), stops in the house (Z8, Z10) or in
-- a hole takasia blocks (Z14)." Sows the n seeds already taken along
-- track after `after`, decides the end of the lap by the rules of `kind`
-- ("capture" or "takasa") and of the stage, and lets matombo.relay play
-- the laps that follow, in Go. Returns how the move ended: "empty",
-- "hook" (a stop, a pause or the end of the game) or "laps" (Z16).
local z3_sow_on = m.rule("z3_sow_on", function(kind, namua, track, after, n, from_house)
  local laps = 0
  while true do
    laps = laps + 1
    local last = sow(track, after, n)
    local t, a, f
    if kind == "capture" then
      t, a, f = capture_lap_end(PLAYER_OF[track], last, DIR_OF[track], namua)
    else
      t, a, f = takasa_lap_end(PLAYER_OF[track], last, namua, from_house and laps == 1)
    end
    if t == false then return "hook" end
    if t == nil then
      if count(last) == 1 then return "empty" end
      local _, how = relay(track, last, nil, MAX_LAPS - laps, HOOK[kind][namua], FRONT_TAG)
      return how
    end
    if laps >= MAX_LAPS then return "laps" end
    track, after, n = t, a, take(f)
  end
end)

-- A move's first lap from `from`, in direction d: all its seeds (a house
-- sown so is lost, Z9), or just `n` (the house's two, Z8).
local function sow_from(kind, namua, p, from, d, n)
  local from_house = from == HOUSE[p] and z9_functional(p)
  if n then
    add(from, -n)
  else
    z9_house_lost(p, from)
    n = take(from)
  end
  return z3_sow_on(kind, namua, TRACK[p][d], from, n, from_house)
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
local z11_mtaji_captures = m.rule("z11_mtaji_captures", m.sowings_rule {
  kind = SOW, from = CAPTURING, tracks = TRACK,
  ends = m.first_lap_rule {
    tracks = TRACK, lap_tag = FRONT_TAG,
    lap = m.capture_sow_rule { tracks = TRACK, opposite = { 3, 2 }, start = KICHWA, toward = TOWARD },
  },
})

-- Whether p has a mtaji capture move.
local function can_capture(p)
  for _, s in ipairs(HOLES[p]) do
    local n = count(s)
    if n >= 2 and n < 16 and (z11_first_lap(p, s, CW, n) or z11_first_lap(p, s, ACW, n)) then return true end
  end
  return false
end

-- Z13 "When the only occupied hole of the mover's front row is a kichwa, a
-- takasa from it sows towards the centre of the front row, never into the
-- back row" (with kichwa_inward, Z18, every takasa from a kichwa does).
-- Whether a takasa from s may go in direction d.
local z13_direction_allowed = m.rule("z13_direction_allowed", function(p, s, d)
  local inward = INWARD[s]
  if not inward or inward == d then return true end
  return not KICHWA_INWARD and (LONE_KICHWA_OUT or count(s) ~= sum(FRONT_ROW[p]))
end)

-- A whole takasa move of p from `from` in direction d, in the namua stage
-- a seed put in first; the house in namua sows only two seeds (Z8).
local function takasa_move(p, from, d, namua, tax)
  if namua then
    set_hand(p, hand(p) - 1)
    add(from, 1)
  end
  return sow_from("takasa", namua, p, from, d, tax and 2 or nil)
end

-- The plain relay of a namua takasa's seeds, the seed put in first: for
-- z16_ends, on a scratch copy.
local function seeded_relay_ends(p, from, d)
  add(from, 1)
  return relay_ends(TRACK[p][d], from, nil, MAX_LAPS)
end

-- Z16 "A move that would go on for more than 1,000 laps never ends, and is
-- not legal ... Capture moves always end." A takasa is a relay without
-- captures, which may stop early (in the house, in a hole takasia blocks):
-- lap for lap it follows the plain relay of its seeds, which the host
-- tries in Go (matombo.relay_ends). When that ends, the move does; when it
-- does not and nothing can stop it (the mtaji stage, no takasia), the move
-- does not either; otherwise, and for the house's two seeds (Z8), the move
-- is played out on a scratch copy of the state (matombo.try).
local z16_ends = m.rule("z16_ends", function(p, from, d, namua, tax)
  if not tax then
    local plain
    if namua then
      plain = try(seeded_relay_ends, p, from, d)
    else
      plain = relay_ends(TRACK[p][d], from, nil, MAX_LAPS)
    end
    if plain then return true end
    if not namua and not HOUSE_IN_MTAJI and get(TAKASIA) == 0 then return false end
  end
  return try(takasa_move, p, from, d, namua, tax) ~= "laps"
end)

-- Emits the takasa sowings of p from the holes of `holes` that `ok`
-- allows (Z12, Z8), both ways, as Z13 and Z16 allow; returns how many.
local function emit_takasa(p, holes, ok, namua, blocked)
  local k = 0
  for _, s in ipairs(holes) do
    if s ~= blocked and ok(p, s) then
      local tax = namua and s == HOUSE[p] and z9_functional(p)
      for d = CW, ACW do
        if z13_direction_allowed(p, s, d) and z16_ends(p, s, d, namua, tax) then
          emit(SOW, s, nxt(TRACK[p][d], s))
          k = k + 1
        end
      end
    end
  end
  return k
end

-- Z12 "In the mtaji stage, when no capture move is possible, the mover
-- sows a hole of their front row holding two seeds or more (the house
-- too), either way; only when the front row has no such hole, a hole of
-- the back row holding two or more." Not the hole takasia blocks (Z14).
local function two_or_more(_, s) return count(s) >= 2 end
local z12_mtaji_takasa = m.rule("z12_mtaji_takasa", function(p)
  local holes = first(FRONT_BIG[p]) and FRONT_HOLES[p] or BACK_HOLES[p]
  return emit_takasa(p, holes, two_or_more, false, get(TAKASIA))
end)

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
-- holds one." Whether p may start a namua takasa from s.
local z8_namua_takasa = m.rule("z8_namua_takasa", function(p, s)
  local n = count(s)
  if n == 0 then return false end
  if z9_functional(p) then
    return s ~= HOUSE[p] or n == sum(FRONT_ROW[p])
  end
  return n >= 2 or first(FRONT_BIG[p]) == nil
end)

-- Z8: emits p's namua takasa moves, from the front holes z8_namua_takasa
-- allows, both ways, as Z13 and Z16 allow.
local function namua_takasas(p)
  return emit_takasa(p, FRONT_HOLES[p], z8_namua_takasa, true, 0)
end

-- Z7: a namua capture at `at`, the captured seeds sown in from `kichwa`.
local z7_namua_capture = m.rule("z7_namua_capture", function(p, at, kichwa)
  set_hand(p, hand(p) - 1)
  add(at, 1)
  local track, before, facing = z6_capture(p, at, KICHWA[p][CW] == kichwa and CW or ACW)
  if not track then return "hook" end
  return z3_sow_on("capture", true, track, before, take(facing), false)
end)

-- Z8: a namua takasa from s in direction d.
local z8_namua_takasa_move = m.rule("z8_namua_takasa_move", function(p, s, d)
  return takasa_move(p, s, d, true, s == HOUSE[p] and z9_functional(p))
end)

-- Z10 "safari, the mover takes the house's seeds and sows on in the same
-- direction, the move going on as the capture move it is; the house is
-- lost."
local z10_safari = m.rule("z10_safari", function(p, d)
  local h = HOUSE[p]
  set(OWNS[p], 0)
  local _, how = relay(TRACK[p][d], h, nil, MAX_LAPS, HOOK.capture[true], FRONT_TAG)
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
  if not TAKASIA_ON or hand(q) > 0 or can_capture(q) then return 0 end
  local threatened = nil
  for _, s in ipairs(HOLES[p]) do
    local n = count(s)
    if n >= 2 and n < 16 then
      for d = CW, ACW do
        if z11_first_lap(p, s, d, n) then
          local f = FACING[AHEAD[p][d][s][n]]
          if threatened and threatened ~= f then return 0 end
          threatened = f
        end
      end
    end
  end
  if not threatened or z9_functional(q) and threatened == HOUSE[q] then return 0 end
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
    emit = m.first_of_rule { z7_namua_captures, namua_takasas },
    otherwise = m.first_of_rule { z11_mtaji_captures, z12_mtaji_takasa },
  },
}

-- One decision of p. The move's stage is the stage it starts in (a move
-- that puts the last seed of the hand in is a namua move).
local function play(p, kind, s1, s2)
  if kind == STOP then
    set(PENDING, 0)
    return
  end
  local how
  local namua = hand(p) > 0
  local takasa = false
  if kind == SAFARI then
    local d = get(PENDING)
    set(PENDING, 0)
    how = z10_safari(p, d)
  elseif kind == CAPTURE then
    how = z7_namua_capture(p, s1, s2)
  else
    local d = nxt(TRACK[p][CW], s1) == s2 and CW or ACW
    if LONE_KICHWA_OUT and INWARD[s1] and d ~= INWARD[s1] and count(s1) == sum(FRONT_ROW[p]) then
      -- Bawo W4: a lone kichwa sown into the back row empties the front
      -- row; its lap is sown and the mover has lost (Z15).
      if namua then
        set_hand(p, hand(p) - 1)
        add(s1, 1)
      end
      set(TAKASIA, 0)
      sow(TRACK[p][d], s1, take(s1))
      finish(3 - p, "front row empty")
      return
    end
    if namua then
      takasa = true
      how = z8_namua_takasa_move(p, s1, d)
    elseif z11_first_lap(p, s1, d) then
      how = sow_from("capture", false, p, s1, d)
    else
      takasa = true
      how = sow_from("takasa", false, p, s1, d)
    end
  end
  set(TAKASIA, 0)
  if namua and kind ~= SAFARI then
    -- a namua move puts a seed from the hand in: hands only shrink, so no
    -- earlier position can come back (Z17 counts from here)
    m.irreversible()
  end
  if how == "laps" then
    error("Z16: the move went over " .. MAX_LAPS .. " laps; legal must not offer it")
  end
  if m.over() then return end
  if how == "hook" and get(PENDING) > 0 then
    m.set_to_move(p) -- Z10: the mover chooses safari or stop
    return
  end
  -- Z15: the opponent's front row is emptied only by a capture, which
  -- ends the game at once (z6_capture); the mover's own never is (Z13).
  if takasa and not namua then set(TAKASIA, z14_takasia(p)) end
end

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

return {
  setup = z2_setup, legal = legal, play = play, blocked = z15_blocked,
  repeated = z17_repetition, result = result, prompt = prompt, evaluate = evaluate,
}
