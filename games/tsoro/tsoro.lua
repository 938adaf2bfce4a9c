-- Tsoro, the four-row mancala of the Shona (also called Fuva or Imbwe):
-- the rule script. It plays the points T1-T13 of docs/rules/tsoro.md (board, setup, heads,
-- circuits, starts, singletons, end of a lap with relay and the head
-- decision, capture, bonus captures, endless sowing, end, variants,
-- repetition). docs/rules/tsoro.md explains the same points in prose.
--
-- Sites: a1..aN (Player 1's outer row) are 1..N, b1..bN N+1..2N, c1..cN
-- 2N+1..3N, d1..dN (Player 2's outer row) 3N+1..4N.
--
-- The state keeps the pending decision in one position variable, pending
-- (the host passes it to legal):
--   0   the player to move starts a move (T5, T6);
--   s   (a site, > 0) the sowing waits on the mover's occupied head s:
--       continue or stop (T7c);
--   -k  the mover still takes k bonus captures (T9).
local m = matombo

local P = m.declare {
  name = "tsoro",
  title = "Tsoro",
  description = "Tsoro (Fuva, Imbwe) is the four-row mancala of the Shona people of "
    .. "Zimbabwe, recorded by J. B. Matthews in 1964. Each player sows relay laps "
    .. "around their own two rows; a move may stop on an occupied head (musoro); a "
    .. "move ending in an empty inner-row hole captures the opposite column and then "
    .. "bonus holes of the mover's choice. A player who cannot move loses; a third "
    .. "repetition is a draw.",
  players = 2,
  params = {
    { name = "holes", default = 21, values = { 6, 8, 12, 15, 18, 21 }, doc = "holes per row (N: T1, T12)" },
    { name = "bonus", default = 2, values = { 1, 2, 3 }, doc = "bonus captures after a capture (B: T9, T12)" },
    { name = "heads", default = 2, values = { 1, 2 }, doc = "heads per player; a single head starts with 3 counters (T3, T12)" },
  },
  conserve = true,
  score_label = "captured",
  repetition = 3, -- T13, see t13_repetition
  -- Not a rule (a third repetition, T13, is the only draw) but an observed
  -- cap with a wide margin: over 184,000 uniformly random games (4,000 of
  -- each of the 36 combinations of holes, bonus and heads, and 20,000 more
  -- each on 4x8 and 4x21) the longest took 613 plies (4x21, one bonus
  -- capture, a single head); 12 were drawn by repetition. Play that avoids
  -- a third repetition on purpose could go on longer.
  max_plies = 100000,
}

local N, BONUS, HEADS = P.holes, P.bonus, P.heads
local MAX_LAPS = 1000 -- T10: "A sowing of more than 1000 laps without a decision counts as endless."

local finish = m.finish

-- T1 Board: "4 rows of N holes; N = 21 standard. Rows a (Player 1 outer),
-- b (Player 1 inner), c (Player 2 inner), d (Player 2 outer). No stores."
m.board { rows = { "a", "b", "c", "d" }, columns = N }
local A0, B0, C0, D0 = 0, N, 2 * N, 3 * N -- hole ak is site A0 + k, bk is B0 + k, ...

-- T3 Heads: "each player's two rightmost outer holes, as that player sees
-- the board: Player 1 a(N-1) and aN; Player 2 d2 and d1." T12: with a
-- single head "only the rightmost outer hole (aN, d1) is a head".
local t3_heads = m.rule("t3_heads", function()
  if HEADS == 1 then
    return { A0 + N, D0 + 1 }
  end
  return { A0 + N - 1, A0 + N, D0 + 2, D0 + 1 }
end)
local HEAD = m.tag("head", t3_heads(), { doc = "a head: a lap that ends on your own occupied head may sow on or stop there" })
m.mark(HEAD, "*")

-- T4 Circuit: "Player 1: a1 -> a2 -> ... -> aN -> bN -> ... -> b1 -> a1.
-- Player 2: dN -> ... -> d1 -> c1 -> ... -> cN -> dN."
local t4_circuit = m.rule("t4_circuit", function(p)
  local t = {}
  for k = 1, N do
    t[k] = p == 1 and A0 + k or D0 + N + 1 - k
  end
  for k = 1, N do
    t[N + k] = p == 1 and B0 + N + 1 - k or C0 + k
  end
  return t
end)
local TRACK = { m.track("south", t4_circuit(1), true), m.track("north", t4_circuit(2), true) }

-- The rows by number, for T8: a (1) and b (2) are Player 1's outer and
-- inner rows, c (3) and d (4) Player 2's inner and outer rows.
local INNER, OPPOSITE_INNER, OPPOSITE_OUTER = { 2, 3 }, { 3, 2 }, { 4, 1 }

-- Each player's holes (a player sows and owns exactly the holes of their circuit).
local FULL = { m.filter { track = TRACK[1], min = 1 }, m.filter { track = TRACK[2], min = 1 } }
local OPPONENTS_FULL = { FULL[2], FULL[1] } -- per player: the opponent's non-empty holes
local BIG = { m.filter { track = TRACK[1], min = 2 }, m.filter { track = TRACK[2], min = 2 } }
local SINGLE = {
  m.filter { track = TRACK[1], min = 1, max = 1, next_empty = TRACK[1] },
  m.filter { track = TRACK[2], min = 1, max = 1, next_empty = TRACK[2] },
}

-- Why a sowing is not possible, in the rules' words (not a rule: the
-- host asks it for a refused token): the hole is not the mover's (T4),
-- empty, a single counter while a hole of two or more exists (T6) or in
-- front of a full hole (T6), or a sowing that would never end (T10). At a
-- pending decision the prompt says what is asked.
local function sow_why(p, sites, pending)
  local s = sites[1]
  if pending ~= 0 then
    return nil
  elseif not m.on_track(TRACK[p], s) then
    return m.name(s) .. " is not one of your holes (T4)"
  elseif m.count(s) == 0 then
    return m.name(s) .. " is empty"
  elseif m.count(s) == 1 and m.count_sites(BIG[p]) > 0 then
    return m.name(s) .. " holds one counter, and a hole of yours with two or more exists (T6)"
  elseif m.count(s) == 1 then
    return "the hole after " .. m.name(s) .. " on your circuit is not empty (T6)"
  end
  return "a sowing from " .. m.name(s) .. " would never end (T10)"
end

-- Why a bonus capture is not possible: only the opponent's holes holding
-- counters may be taken (T9).
local function take_why(p, sites, pending)
  local s = sites[1]
  if pending >= 0 then
    return nil
  elseif m.on_track(TRACK[p], s) then
    return m.name(s) .. " is one of your own holes: take one of your opponent's (T9)"
  elseif m.count(s) == 0 then
    return m.name(s) .. " is empty: only holes holding counters may be taken (T9)"
  end
  return nil
end

-- The prompts say what a decision that is not plain sowing is to the
-- players (the page and the terminal show them beside the choices); see
-- also prompt below. The docs name a move in words (the page's buttons).
local SOW = m.move("sow", "{1}", { doc = "Sow from {1}", why = sow_why })
local CONTINUE = m.move("continue", "continue", { prompt = "Continue sowing from your head", doc = "Continue sowing" })
local STOP = m.move("stop", "stop", { prompt = "Stop the move here", doc = "Stop here" })
local TAKE = m.move("take", "x{1}", { prompt = "Capture one of your opponent's holes of your choice", doc = "Capture {1}", why = take_why })

local PENDING = m.var("pending") -- see the top of the file


-- T2 Setup: "2 counters in every outer-row hole (a*, d*), inner rows empty".
-- T12: with a single head, the head "starts with 3 counters instead of 2".
local t2_setup = m.rule("t2_setup", function()
  for k = 1, N do
    m.set_count(A0 + k, 2)
    m.set_count(D0 + k, 2)
    m.set_owner(A0 + k, 1)
    m.set_owner(B0 + k, 1)
    m.set_owner(C0 + k, 2)
    m.set_owner(D0 + k, 2)
  end
  if HEADS == 1 then
    m.set_count(A0 + N, 3)
    m.set_count(D0 + 1, 3)
  end
end)

-- T10: "a start or a continue that leads to [a sowing of more than 1000
-- laps without a decision] is not a legal token". The host checks it in
-- Go: a sowing between two decisions makes fewer than 1 + (C/H + 1) * N
-- laps, C being the counters on the mover's side (docs/rules/tsoro.md,
-- "Why every sowing ends"), so only positions where that bound exceeds
-- 1000 (never from the opening) are tried lap by lap. t10_ends(p, from)
-- tells whether the sowing from `from` ends.
--
-- This rule and every rule below that plays a move or lists the legal
-- tokens are native rules (docs/lua-api.md, "Native rules"): tables the
-- host runs in Go, so that a ply never enters Lua. Each is still a rule
-- point that an extending script can replace (docs/extending.md).
local t10_ends = m.rule("t10_ends", m.relay_ends_rule { track = TRACK, stop = HEAD, max_laps = MAX_LAPS })

-- T5 Starting a move: "the player takes all counters from one of their
-- holes holding at least 2 and sows them". Emits the starts T10 allows.
local t5_starts = m.rule("t5_starts", m.sowings_rule { kind = SOW, from = BIG, ends = t10_ends })

-- T6 Singletons: "only when none of the player's holes holds 2 or more,
-- the player may move the single counter of a hole whose next hole on the
-- circuit is empty".
-- (Such a move is one lap into an empty hole, so T10 never applies.)
local t6_singletons = m.rule("t6_singletons", m.emit_rule { kind = SOW, each = SINGLE, when_none = BIG })

-- T7c: at an occupied head "the mover chooses continue (relay as in b) or
-- stop"; T10 may forbid continue. t7c_choices(p, head) emits them.
local t7c_choices = m.rule("t7c_choices", m.relay_choices_rule { continue = CONTINUE, stop = STOP, ends = t10_ends })

-- T9: "Only non-empty holes may be chosen", "anywhere on the opponent's two rows".
local t9_choices = m.rule("t9_choices", m.emit_rule { kind = TAKE, each = OPPONENTS_FULL })

-- T9 Bonus captures: "after a capture under T8 the mover takes, one
-- decision at a time, the whole contents of B further opponent holes";
-- "when the opponent has no non-empty hole left the bonus ends early (if
-- the capture itself emptied the opponent's side, there is no bonus)".
-- t9_bonus(p, left) sets up the left captures still to take: the mover
-- decides again, choosing among the opponent's non-empty holes, while
-- pending is -left; with none left the move is over (pending 0).
local t9_bonus = m.rule("t9_bonus", m.bonus_rule { pending = PENDING, from = OPPONENTS_FULL })

-- T8 Capture: "when the move ends in a hole of the mover's inner row that
-- was empty, and the opponent's inner-row hole in the same column holds
-- counters, those counters are captured together with all counters in the
-- opponent's outer-row hole of that column. If the opposite inner hole is
-- empty nothing is captured (even if the outer one is not)."
-- t8_capture(p, last, was_empty) returns the counters captured; after a
-- capture the move goes on with T9's bonus (t9_bonus(p, B), in play).
local t8_capture = m.rule("t8_capture", m.capture_rule {
  row = INNER, was_empty = true, opposite = OPPOSITE_INNER, behind = OPPOSITE_OUTER,
})

-- T7 End of a lap: "(a) h was empty before it: the move ends (then T8).
-- (b) h was occupied and is not one of the mover's heads: take all counters
-- from h and sow on (relay). (c) h was occupied and is one of the mover's
-- heads: the mover chooses continue (relay as in b) or stop".
-- T5: the sowing starts "with the next hole. The emptied starting hole is
-- not skipped when a sowing laps the circuit." t7_sow(p, from) sows and
-- relays from `from` and returns the last hole and how the sowing ended:
-- "empty" (a), "stop" (c: at an occupied head), or "laps" (T10, which
-- legal never offers).
local t7_sow = m.rule("t7_sow", m.relay_rule { track = TRACK, stop = HEAD, max_laps = MAX_LAPS })

-- The legal tokens of player p's decision, by the pending decision: the
-- starts of a move (T5, or T6 when T5 has none), continue or stop at a
-- head (T7c), or the bonus captures (T9).
local legal = m.pending_legal { pending = PENDING, none = { t5_starts, t6_singletons }, site = t7c_choices, count = t9_choices }

-- One decision of player p: a start (T5, T6) sows with t7_sow; at a head
-- (T7c) continue relays on from it and stop ends the move ("stop (the move
-- ends; no capture)"); a sowing that ends in an empty hole captures
-- (t8_capture), and a capture brings B bonus captures (t9_bonus, T9), each
-- a take of "the whole contents" of the chosen hole. Every decision ends
-- with T13 Repetition: "When the same position occurs for the third time
-- the game ends in a draw", which the host checks (see t13_repetition). A
-- win (T11) comes first, but needs no check here: a position without a
-- legal token ends the game when it first occurs, so it never occurs again.
-- A capture (T8) or a bonus capture (T9) takes counters off the board for
-- good, so no position before it can come back: irreversible tells the host
-- to count T13's repetitions from there (matombo.irreversible) and keep the
-- history short.
local play = m.relay_play {
  pending = PENDING, sow = SOW, continue = CONTINUE, stop = STOP, take = TAKE,
  relay = t7_sow, capture = t8_capture, bonus = t9_bonus, bonus_count = BONUS,
  irreversible = true,
}

-- T13 Repetition: "When the same position occurs for the third time the
-- game ends in a draw". The host counts positions after every decision and
-- calls this at the third occurrence (repetition = 3 above), after play
-- and T11 have had their chance to end the game: "a win is checked before
-- repetition" (a position without a legal token ends the game when it
-- first occurs, so it never occurs again).
local t13_repetition = m.rule("t13_repetition", function()
  finish(0, "third repetition")
end)

-- T11 End: "a player who must move and has no legal token has lost; the
-- other player wins."
local t11_blocked = m.rule("t11_blocked", function(p)
  finish(3 - p, "no legal move")
end)

-- evaluate: advice for computer players, not a rule. A player who cannot
-- move loses (T11), and captures take the opponent's counters, so p's
-- share of the counters on the board weighs most; holes of 2 or more (the
-- holes that can start a sowing, T5) count a little for mobility. From -1
-- to 1. (A bonus for the side to move made alpha-beta weaker: 46 of 100
-- games against the generic evaluation with it, 63 without.)
local function evaluate(p)
  local q = 3 - p
  local mine, theirs = m.sum(FULL[p]), m.sum(FULL[q])
  local big_mine, big_theirs = m.count_sites(BIG[p]), m.count_sites(BIG[q])
  local material = (mine - theirs) / math.max(1, mine + theirs)
  local mobility = (big_mine - big_theirs) / (big_mine + big_theirs + 1)
  return 0.85 * material + 0.1 * mobility
end

-- The scores: the counters each player has captured (T8, T9). The game is
-- won by leaving the opponent without a move (T11), not by the score.
local score = m.score_rule { amount = m.captured_rule {} }

-- What the pending decision asks (not a rule: words for the players). A
-- lap ending on an occupied head (T7c) and the bonus captures (T9) say
-- where the move stands; the start of a move needs no words.
local function prompt(p, pending)
  if pending > 0 then
    return "Your lap ended on your head " .. m.name(pending) .. ": continue sowing or stop here"
  elseif pending < 0 then
    local left = 0 - pending
    return "Bonus capture: take one of your opponent's holes (" .. left .. " left)"
  end
  return nil
end

return {
  setup = t2_setup, legal = legal, play = play, blocked = t11_blocked, repeated = t13_repetition,
  evaluate = evaluate, score = score, prompt = prompt,
}
