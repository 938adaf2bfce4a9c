-- Bao la Kujifunza, the learners' Bao of Tanzania and Zanzibar: the rules
-- script of Matombo's game `bao`.
--
-- It plays the points B1-B9 of its rules page, docs/rules/bao.md:
--   B1 the board: 4 rows of 8, a front and a back row each -> the board below
--   B2 two seeds in every hole; Player 1 first             -> b2_setup
--   B3 a move: a hole of 2 or more, sown either way round   -> b3_moves, b3_move
--      the player's own two rows
--   B4 a lap ending in an occupied hole: relay or capture   -> b4_lap_end
--   B5 a capture: the facing front hole, sown in from a     -> b5_capture
--      kichwa
--   B6 must capture (must_capture)                          -> b6_captures_first
--   B7 an empty front row, or no move, loses                -> b7_front_row_empty, b7_blocked
--   B8 a move that never ends is not legal                  -> b8_ends
--   B9 the third repetition of a position is a draw         -> b9_repetition
--
-- Sites: a1..a8 (Player 1's back row) are 1..8, b1..b8 (Player 1's front
-- row) 9..16, c1..c8 (Player 2's front row) 17..24, d1..d8 (Player 2's
-- back row) 25..32. Columns count from Player 1's left.
local m = matombo

local P = m.declare {
  name = "bao",
  title = "Bao la Kujifunza",
  description = "Bao la Kujifunza, the learners' Bao of Tanzania and Zanzibar: a four-row mancala " ..
    "without nyumba, two seeds in every hole. A player sows one of their holes either way round their " ..
    "own two rows and relays; a lap ending in their front row opposite seeds of the opponent captures " ..
    "them and sows them in from an end hole (a kichwa). A player whose front row is empty, or who " ..
    "cannot move, loses.",
  players = 2,
  params = {
    { name = "must_capture", default = false,
      doc = "a player who can start a move whose first lap captures must (B6)" },
  },
  conserve = true, -- captured seeds are sown back in: all 64 stay on the board
  repetition = 3, -- B9
  -- Not a bound the rules prove: a cap with a wide margin over random
  -- games (docs/rules/bao.md, B9).
  max_plies = 5000,
}

local MAX_LAPS = 1000 -- B8: a move of more laps than this counts as endless
local N = 8

-- B1 "Four rows of eight holes. Player 1 owns rows a (back) and b (front),
-- Player 2 rows c (front) and d (back); the front rows face each other,
-- b1 facing c1. No stores, no nyumba."
m.board { rows = { "a", "b", "c", "d" }, columns = N }
local A0, B0, C0, D0 = 0, N, 2 * N, 3 * N

-- B3: each player's two rows, clockwise and anticlockwise as seen from
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

-- B5: the kichwa (end holes of a front row) and kimbi (the holes next to
-- them). LEFT and RIGHT are as the owner sees them: Player 1's left
-- kichwa is b1, Player 2's is c8. KICHWA[p][d] is where a capture sown in
-- direction d starts (clockwise: the left kichwa); NEAREST[d] the kichwa
-- and kimbi whose captures are sown from their nearest kichwa, in
-- direction d.
local KICHWA = {
  { B0 + 1, B0 + N }, -- Player 1: b1 clockwise, b8 anticlockwise
  { C0 + N, C0 + 1 }, -- Player 2: c8 clockwise, c1 anticlockwise
}
local NEAREST = {
  { B0 + 1, B0 + 2, C0 + N - 1, C0 + N },     -- clockwise: b1 b2 (Player 1's left), c7 c8 (Player 2's left)
  { B0 + N - 1, B0 + N, C0 + 1, C0 + 2 },     -- anticlockwise: b7 b8, c1 c2 (the right ones)
}

local FRONT_ROW = { m.filter { row = 2, min = 1 }, m.filter { row = 3, min = 1 } }
-- The front rows as a tag: the relay hook hears only the laps that end
-- in a front row, where a capture can happen (B4); a player sows only
-- their own rows, so one tag serves both.
local FRONT_ROWS = {}
for k = 1, N do
  FRONT_ROWS[#FRONT_ROWS + 1] = B0 + k
  FRONT_ROWS[#FRONT_ROWS + 1] = C0 + k
end
local FRONT_TAG = m.tag("front", FRONT_ROWS)
local BIG = { m.filter { track = TRACK[1][CW], min = 2 }, m.filter { track = TRACK[2][CW], min = 2 } }
local SOWN = { m.filter { track = TRACK[1][CW] }, m.filter { track = TRACK[2][CW] } }

-- B3 token: the hole and the first hole sown, e.g. b3-b4 (clockwise) or
-- b3-b2 (anticlockwise).
local SOW = m.move("sow", "{1}-{2}")

local first, finish = m.first, m.finish

-- B2 "Two seeds in every hole, 64 in all; each player owns their two rows.
-- Player 1 moves first."
local b2_setup = m.rule("b2_setup", function()
  for s = 1, 4 * N do
    m.set_count(s, 2)
    m.set_owner(s, s <= B0 + N and 1 or 2)
  end
end)

-- B7 "A player whose front row is empty has lost, at once, even in the
-- middle of the opponent's move."
local b7_front_row_empty = m.rule("b7_front_row_empty", function(p)
  return first(FRONT_ROW[p]) == nil
end)

-- The rules of a move are native rules (docs/lua-api.md, "Native rules"):
-- declared as data, run by the host, each a rule point like any function.

-- B4 End of a lap: "when the last seed falls into an empty hole the move
-- ends. When it falls into an occupied hole of the player's front row and
-- the opponent's facing hole holds seeds, those are captured (B5).
-- Otherwise the player takes all the seeds of that hole and sows on in the
-- same direction (a relay)."
-- B5 Capture: "the seeds of the opponent's facing front hole are taken and
-- sown on the capturer's side, the first seed into a kichwa: after a
-- capture from a kichwa or kimbi, the nearest kichwa (from the left
-- kichwa clockwise, from the right one anticlockwise); otherwise the
-- kichwa the move's direction starts from (clockwise: the left kichwa)."
-- When the capture empties the opponent's front row (B7) the game ends at
-- once: the captured seeds are sown in and the move stops there.
-- b5_capture(p, last, track, laps) is the rule of a lap's end: the relay
-- of b3_move asks it at the laps that end in a front row.
local b5_capture = m.rule("b5_capture", m.capture_sow_rule {
  tracks = TRACK,
  opposite = { 3, 2 },                 -- the facing front hole: row c faces b, b faces c
  start = KICHWA,     -- each direction's kichwa
  toward = NEAREST,   -- a kichwa or kimbi sows from its nearest kichwa
  ends_when = m.empty_rule { filter = FRONT_ROW, player = "next" },
})

-- B3 A move: "the player takes all the seeds of one of their holes holding
-- at least two and sows them one by one into the next holes of their own
-- two rows, clockwise or anticlockwise as they choose, starting with the
-- next hole; a sowing that goes all the way round sows into the emptied
-- hole too." The laps that follow are B4's (b5_capture at the laps that
-- end in a front row). b3_move(p, from) relays; a move (from, to) sows
-- towards to.
local b3_move = m.rule("b3_move", m.relay_rule {
  tracks = TRACK, max_laps = MAX_LAPS, lap = b5_capture, lap_tag = FRONT_TAG,
})

-- B8 "A move that would go on for more than 1000 laps never ends, and is
-- not legal." Tried on a copy of the state.
local b8_ends = m.rule("b8_ends", m.ends_rule { relay = b3_move })

-- B6 with must_capture: whether the first lap of the move ends in a
-- capture (B4: in an occupied hole of the front row facing seeds), tried
-- on a copy of the counts.
local b6_captures_first = m.rule("b6_captures_first", m.first_lap_rule {
  tracks = TRACK, lap = b5_capture, lap_tag = FRONT_TAG,
})

-- B3, B6, B8: the legal moves of player p, a move for each of p's holes
-- of two or more seeds and each direction, in board order, clockwise
-- first; with must_capture, only the moves whose first lap captures when
-- there are such moves; and only the moves that end.
local b3_moves
if P.must_capture then
  b3_moves = m.rule("b3_moves", m.prefer_rule {
    moves = m.sowings_rule { kind = SOW, from = BIG, tracks = TRACK },
    when = b6_captures_first,
    keep = b8_ends,
  })
else
  b3_moves = m.rule("b3_moves", m.sowings_rule { kind = SOW, from = BIG, tracks = TRACK, ends = b8_ends })
end

-- B7 "A player who cannot move (no hole holds two seeds, or every move
-- would be endless) has lost."
local b7_blocked = m.rule("b7_blocked", function(p)
  finish(3 - p, "no legal move")
end)

-- B9 "The third occurrence of a position (the seeds of every hole and the
-- player to move) is a draw."
local b9_repetition = m.rule("b9_repetition", function()
  finish(0, "third repetition")
end)

-- The end of a move (B7): the opponent's empty front row first, then the
-- mover's own.
local b7_result = m.rule("b7_result", m.end_rule {
  { when = m.empty_rule { filter = FRONT_ROW, player = "next" }, reason = "front row empty", result = m.winner_rule { winner = "mover" } },
  { when = m.empty_rule { filter = FRONT_ROW }, reason = "front row empty", result = m.winner_rule { winner = "next" } },
})

-- A move: B3's relay in the direction the token names, then B7.
local play = m.sowing_play { kind = SOW, sow = b3_move, after = b7_result }

-- A position set up rather than played: an empty front row decides it.
local function result(p)
  return b7_result(3 - p)
end

-- evaluate: advice for computer players, not a rule: the share of the
-- seeds on each side (captures move them), the front row counting double,
-- and holes that can start a move.
local function evaluate(p)
  local q = 3 - p
  local mine, theirs = m.sum(SOWN[p]) + m.sum(FRONT_ROW[p]), m.sum(SOWN[q]) + m.sum(FRONT_ROW[q])
  local mob = m.count_sites(BIG[p]) - m.count_sites(BIG[q])
  return math.max(-0.95, math.min(0.95, 0.85 * (mine - theirs) / (mine + theirs) + 0.01 * mob))
end

return {
  setup = b2_setup, legal = b3_moves, play = play, blocked = b7_blocked,
  repeated = b9_repetition, result = result, evaluate = evaluate,
}
