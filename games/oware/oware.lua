-- Oware abapa as OpenSpiel's `oware` plays it: the rules script of
-- Matombo's game `oware`. The rules page is docs/rules/oware.md; each of its
-- points is a rule point below (o2_sow, o3_capture, ...: a named function
-- declared with matombo.rule, which a game extending oware may replace, see
-- docs/extending.md) or, for the board and the parameters, a declaration,
-- under a comment quoting the point. The scenarios in conformance/oware
-- replay OpenSpiel's own games move for move.
--
-- Sites: a1..a6 are Player 1's houses (OpenSpiel's A..F), b1..b6 Player 2's
-- (OpenSpiel's a..f). The scores are the captured totals.
local m = matombo

local P = m.declare {
  name = "oware",
  title = "Oware",
  description = "Oware abapa, the mancala of the Akan of Ghana, as OpenSpiel's `oware` "
    .. "plays it: 2x6 houses of 4 seeds, sown counterclockwise skipping the "
    .. "emptied house. A last seed that makes 2 or 3 in the opponent's row "
    .. "captures, with the 2s and 3s behind it; taking everything captures "
    .. "nothing, and a player must feed an opponent who has no seeds. More "
    .. "than half the seeds wins.",
  players = 2,
  params = {
    { name = "houses", default = 6, values = { 4, 5, 6 }, doc = "houses in each row (O9)" },
    { name = "seeds", default = 4, values = { 3, 4, 5, 6 }, doc = "seeds in each house at the start (O9)" },
  },
  conserve = true, -- seeds on the board + the two scores
  score_label = "captured",
  -- O6: the host counts positions (seeds, scores, player to move) after
  -- every move and calls repeated (below) when one occurs the second time.
  -- A capture raises a score, so no position before it can come back: the
  -- count runs since the last capture, as OpenSpiel's does, and the script
  -- tells the host so (matombo.irreversible) to keep the history short.
  repetition = 2,
  -- A documented cap, not a rule (OpenSpiel's own limit of 1000 moves is an
  -- assertion, not an end): see docs/rules/oware.md, "How long a game lasts".
  max_plies = 2000,
}

local HOUSES, SEEDS = P.houses, P.seeds
-- O7: "more than half of the seeds"
local HALF = HOUSES * SEEDS

-- O1 Board: "two rows of six houses (O9), four seeds in each, no stores:
-- Player 1 owns row a (a1 to a6, left to right), Player 2 row b (b1 to b6,
-- right to left seen from Player 1), so that b1 faces a6 and b6 faces a1.
-- Captured seeds make each player's score."
local function row_names(row)
  local names = {}
  for k = 1, HOUSES do
    names[k] = row .. k
  end
  return names
end
local A, B = row_names("a"), row_names("b")
local points = {}
for k = 1, HOUSES do
  points[A[k]] = k
  points[B[k]] = HOUSES + 1 - k
end
m.board { points = points }

-- O2's circle: a1..a6, then b1..b6, then a1 again.
local ring = {}
for k = 1, HOUSES do
  ring[k], ring[HOUSES + k] = A[k], B[k]
end
local RING = m.track("ring", ring, true)
-- O3's rows: a capture runs backwards within one row, never past its end.
local ROW = { m.track("row_a", A, false), m.track("row_b", B, false) }

local SOW = m.move("sow", "{1}", { doc = "Sow from {1}" })
local SOWABLE = m.filter { owner = "mover", min = 1 }
local ROW_OF = { m.filter { row = 1 }, m.filter { row = 2 } }

local set_count, set_owner = m.set_count, m.set_owner

-- O1 (the start): "four seeds in each" house (another number with the
-- parameter `seeds`, O9).
local o1_setup = m.rule("o1_setup", function()
  for k = 1, HOUSES do
    set_count(A[k], SEEDS)
    set_owner(A[k], 1)
    set_count(B[k], SEEDS)
    set_owner(B[k], 2)
  end
end)

-- The rules of a move are native rules (docs/lua-api.md, "Native rules"):
-- declared as data, run by the host, each a rule point like any function.

-- O2 Sowing: "take all the seeds of one of your non-empty houses and sow
-- them one by one counterclockwise into the next houses (a1 to a6, then b1
-- to b6, then a1 again). The emptied house is always skipped: a sowing of
-- 12 seeds or more goes round without dropping into it."
-- o2_sow(p, from) returns the house the last seed fell into.
local o2_sow = m.rule("o2_sow", m.sow_rule { track = RING, skip_origin = true })

-- O3's capture, as data: "if the last seed falls into a house of the
-- opponent's row and makes it hold 2 or 3 seeds, you capture them, and then
-- the seeds of the houses before it in that row, going backwards, as long as
-- each holds 2 or 3; the run stops at the first house that does not, or at
-- the end of the row."
local CAPTURE = {
  owner = "opponent", counts = { 2, 3 }, -- the last seed makes 2 or 3 in the opponent's row
  runs = { { track = ROW, step = -1 } }, -- then backwards along that row, 2s and 3s
}

-- O4 Grand slam: "a sowing whose capture would take every seed in the
-- opponent's row captures nothing; the sowing stands."
-- o4_grand_slam(last, opp) returns whether the capture would take them all.
local o4_grand_slam = m.rule("o4_grand_slam", m.takes_all_rule(CAPTURE))

-- O3 Capture (above), unless O4 forbids it. o3_capture(p, last) returns
-- the seeds captured.
local o3_capture = m.rule("o3_capture", m.capture_rule {
  owner = CAPTURE.owner, counts = CAPTURE.counts, runs = CAPTURE.runs, unless = o4_grand_slam,
})

-- O5 Feeding: "when your opponent has no seeds, you must give them some:
-- only the sowings that reach their row are legal (a house whose seeds
-- outnumber the houses after it in your row). If there is none, the game
-- ends (O7)." o5_feeding_moves(p) emits them.
local o5_feeding_moves = m.rule("o5_feeding_moves", m.sowings_rule { kind = SOW, sites = { A, B }, feeding = RING })

-- O8 Result: "the larger score wins; equal scores (24 each) are a draw."
-- O7's collection comes first: "each player adds the seeds left in their own
-- row to their score." o8_result(reason).
local o8_result = m.rule("o8_result", m.result_rule { sweep = true })

-- O7 End (scores): "the game ends as soon as a player has more than half of
-- the seeds (25 of 48), or both have half (24 each)." Only a capture changes
-- a score, so the host runs this after a capture (o7_scores_decide(p, n)).
local o7_scores_decide = m.rule("o7_scores_decide", m.end_rule {
  { captured_above = HALF, reason = "more than half the seeds" },
  { captured_each = HALF, reason = "half the seeds each" },
  result = o8_result,
})

-- O7 End (no move): "the game ends when the player to move has no legal
-- move: no seeds, or none that can feed the opponent (O5)."
local o7_blocked = m.rule("o7_blocked", function()
  o8_result("no legal move")
end)

-- O6 Repetition: "a position (the seeds of every house, the scores and the
-- player to move) that occurs again since the last capture ends the game
-- (O7)." The host calls this at a position's second occurrence.
local o6_repetition = m.rule("o6_repetition", function()
  o8_result("repetition")
end)

-- O2 (the choice): "take all the seeds of one of your non-empty houses".
-- o2_sowings(p) emits player p's sowings.
local o2_sowings = m.rule("o2_sowings", m.sowings_rule { kind = SOW, from = SOWABLE })

-- The choice: O5's feeding when the opponent's row is empty, else O2's.
local legal = m.sowing_legal { sowings = o2_sowings, starving = ROW_OF, feeding = o5_feeding_moves }

-- A move: O2's sowing, then O3's capture. A capture makes every earlier
-- position impossible (O6), and only a capture changes a score (O7).
local play = m.sowing_play {
  kind = SOW, sow = o2_sow, capture = o3_capture, irreversible = true, after_capture = o7_scores_decide,
}

-- The scores (O8): the seeds each player has captured (and, at the end,
-- collected by O7).
local captured, sum = m.captured, m.sum
local score = m.score_rule { amount = m.captured_rule {} }

-- evaluate: advice for computer players, not a rule. The scores decide
-- (O7, O8) and the seeds left in a row go to its owner at the end (O7), so
-- p's lead is the scores' difference plus a part of the rows' (seeds in a
-- row can still be captured or sown away), out of half the seeds.
local function evaluate(p)
  local q = 3 - p
  local scores = captured(p) - captured(q)
  local rows = m.sum(ROW_OF[p]) - m.sum(ROW_OF[q])
  return (scores + 0.25 * rows) / HALF
end

return { setup = o1_setup, legal = legal, play = play, blocked = o7_blocked, repeated = o6_repetition, score = score, evaluate = evaluate }
