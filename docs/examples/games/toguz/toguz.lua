-- Toguz Kumalak ("nine stones"), the two-row mancala of the Kazakhs: the
-- rules script of the example game `toguz`. The rules page is rules.md
-- beside it; each of its points is a rule point below.
--
-- Sites: a1..a9 are Player 1's holes, b1..b9 Player 2's, each numbered
-- from its owner's left, so b1 faces a9 and b9 faces a1. The kazans
-- (stores) are the captured totals.
local m = matombo

m.declare {
  name = "toguz",
  title = "Toguz Kumalak",
  description = "Toguz Kumalak, the mancala of the Kazakhs: 2x9 holes of nine stones. "
    .. "A sowing starts in the hole it empties; a last stone that makes an even "
    .. "count in an opponent's hole captures it, one that makes three may turn "
    .. "the hole into the mover's tuzdik, which collects every stone sown into "
    .. "it. More than 81 stones wins.",
  players = 2,
  conserve = true,
  score_label = "in kazan",
  repetition = 3,
}

local HOLES, STONES = 9, 9
local HALF = HOLES * STONES -- 81: more than half of the 162 stones wins

-- Q1 Board: two rows of nine holes, Player 1's row a (a1..a9 from left to
-- right), Player 2's row b (b1..b9 from Player 2's left), nine stones in each.
local A, B = {}, {}
local points = {}
for k = 1, HOLES do
  A[k], B[k] = "a" .. k, "b" .. k
  points[A[k]] = k
  points[B[k]] = HOLES + 1 - k
end
m.board { points = points }

local ring = {}
for k = 1, HOLES do
  ring[k], ring[HOLES + k] = A[k], B[k]
end
local RING = m.track("ring", ring, true)

local SOW = m.move("sow", "{1}", { doc = "Sow from {1}" })
local SOWABLE = m.filter { owner = "mover", min = 1 }
-- Q4: the site (from 1) of each player's tuzdik, 0 while they have none.
local TUZDIK = { m.var("tuzdik1"), m.var("tuzdik2") }

local count, get, set = m.count, m.get, m.set

-- Q1 (the start): nine stones in every hole.
local q1_setup = m.rule("q1_setup", function()
  for k = 1, HOLES do
    m.set_count(A[k], STONES)
    m.set_owner(A[k], 1)
    m.set_count(B[k], STONES)
    m.set_owner(B[k], 2)
  end
end)

-- Q2 Sowing: "take all the stones of one of your holes and sow them one by
-- one counterclockwise, the first into the hole they came from; a single
-- stone goes into the next hole."
local q2_sow = m.rule("q2_sow", m.sow_rule { track = RING, origin_first = true })

-- Q3 Capture: "a last stone that makes an even number in an opponent's hole
-- captures the hole's stones into the mover's kazan."
local q3_capture = m.rule("q3_capture", m.capture_rule { row = { 2, 1 }, parity = "even" })

-- Q4 Tuzdik: "a last stone that makes three in an opponent's hole turns it
-- into the mover's tuzdik, its three stones into the kazan, unless the
-- mover already has a tuzdik, the hole is the opponent's ninth, or the
-- opponent's tuzdik has the same number on the mover's side."
local NUMBER = {} -- a hole's number, 1 to 9, from its owner's left
for k = 1, HOLES do
  NUMBER[m.site(A[k])], NUMBER[m.site(B[k])] = k, k
end
local q4_may_tuzdik = m.rule("q4_may_tuzdik", function(p, last)
  local q = 3 - p
  if m.row(last) ~= q or count(last) ~= 3 or get(TUZDIK[p]) ~= 0 or NUMBER[last] == HOLES then
    return false
  end
  local theirs = get(TUZDIK[q])
  return theirs == 0 or NUMBER[theirs] ~= NUMBER[last]
end)

-- Q3, then Q4 when Q3 took nothing. Returns the stones captured.
local function q3_q4_capture(p, last, was_empty)
  local n = q3_capture(p, last, was_empty)
  if n == 0 and q4_may_tuzdik(p, last) then
    set(TUZDIK[p], last)
    m.set_owner(last, p) -- diagrams show it as 0@1 (a hole of Player 1's)
    n = m.capture(last, p)
  end
  return n
end

-- Q4 (after): "every stone that falls into a tuzdik goes to its owner's
-- kazan."
local q4_collect = m.rule("q4_collect", function(p, n)
  for q = 1, 2 do
    local t = get(TUZDIK[q])
    if t ~= 0 and count(t) > 0 then
      m.capture(t, q)
    end
  end
end)

-- Q6 Result: "each player adds the stones left in their own holes to their
-- kazan; the larger kazan wins, 81 each is a draw."
local q6_result = m.rule("q6_result", m.result_rule { sweep = true })

-- Q5 End: "a player with more than 81 stones in the kazan wins; 81 each is
-- a draw."
local q5_end = m.rule("q5_end", m.end_rule {
  { captured_above = HALF, reason = "more than 81 stones" },
  { captured_each = HALF, reason = "81 stones each" },
  result = q6_result,
})

local function after(p, n)
  q4_collect(p, n)
  q5_end(p, n)
end

-- Q6 Blocked: "a player who cannot move, all their holes empty, ends the
-- game."
local q6_blocked = m.rule("q6_blocked", function()
  q6_result("no stones to sow")
end)

-- Q7 Repetition: "the third repetition of a position is a draw."
local q7_repetition = m.rule("q7_repetition", function()
  m.finish(0, "third repetition")
end)

local q2_sowings = m.rule("q2_sowings", m.sowings_rule { kind = SOW, from = SOWABLE })

local play = m.sowing_play { kind = SOW, sow = q2_sow, capture = q3_q4_capture, irreversible = true, after = after }
local score = m.score_rule { amount = m.captured_rule {} }

return { setup = q1_setup, legal = q2_sowings, play = play, blocked = q6_blocked, repeated = q7_repetition, score = score }
