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
    { name = "holes", default = 21, values = { 6, 8, 12, 15, 18, 21 }, doc = "holes per row, N (T1, T12)" },
    { name = "bonus", default = 2, values = { 1, 2, 3 }, doc = "bonus captures after a capture, B (T9, T12)" },
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

-- The primitives used while playing, in locals: a field of matombo costs a
-- table lookup through its read-only proxy on every use.
local capture, relay, relay_ends = m.capture, m.relay, m.relay_ends
local get, set, set_to_move = m.get, m.set, m.set_to_move
local emit, emit_each, emit_sowings, first = m.emit, m.emit_each, m.emit_sowings, m.first
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
local HEAD = m.tag("head", t3_heads())
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

-- T8: for a hole of an inner row, the opponent's inner and outer holes of
-- its column. A move ends on the mover's own side, so a move that ends in
-- a site listed in ACROSS ended in the mover's inner row.
local ACROSS, BEHIND = {}, {}
for k = 1, N do
  ACROSS[B0 + k], BEHIND[B0 + k] = C0 + k, D0 + k
  ACROSS[C0 + k], BEHIND[C0 + k] = B0 + k, A0 + k
end

local SOW = m.move("sow", "{1}")
local CONTINUE = m.move("continue", "continue")
local STOP = m.move("stop", "stop")
local TAKE = m.move("take", "x{1}")

local PENDING = m.var("pending") -- see the top of the file

-- Each player's holes (a player sows and owns exactly the holes of their circuit).
local FULL = { m.filter { track = TRACK[1], min = 1 }, m.filter { track = TRACK[2], min = 1 } }
local BIG = { m.filter { track = TRACK[1], min = 2 }, m.filter { track = TRACK[2], min = 2 } }
local SINGLE = {
  m.filter { track = TRACK[1], min = 1, max = 1, next_empty = TRACK[1] },
  m.filter { track = TRACK[2], min = 1, max = 1, next_empty = TRACK[2] },
}


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
-- laps without a decision] is not a legal token". The host's relay
-- primitives check it in Go: a sowing between two decisions makes fewer
-- than 1 + (C/H + 1) * N laps, C being the counters on the mover's side
-- (docs/rules/tsoro.md, "Why every sowing ends"), so only positions where
-- that bound exceeds 1000 (never from the opening) are tried lap by lap.
local t10_ends = m.rule("t10_ends", function(p, from)
  return relay_ends(TRACK[p], from, HEAD, MAX_LAPS)
end)

-- T5 Starting a move: "the player takes all counters from one of their
-- holes holding at least 2 and sows them". Emits the starts T10 allows and
-- returns whether the player has a hole holding 2 or more.
local t5_starts = m.rule("t5_starts", function(p)
  local _, holes = emit_sowings(SOW, BIG[p], TRACK[p], HEAD, MAX_LAPS)
  return holes > 0
end)

-- T6 Singletons: "only when none of the player's holes holds 2 or more,
-- the player may move the single counter of a hole whose next hole on the
-- circuit is empty".
-- (Such a move is one lap into an empty hole, so T10 never applies.)
local t6_singletons = m.rule("t6_singletons", function(p)
  emit_each(SOW, SINGLE[p])
end)

-- T7c: at an occupied head "the mover chooses continue (relay as in b) or
-- stop"; T10 may forbid continue.
local t7c_choices = m.rule("t7c_choices", function(p, head)
  if t10_ends(p, head) then
    emit(CONTINUE)
  end
  emit(STOP)
end)

-- T9: "Only non-empty holes may be chosen", "anywhere on the opponent's two rows".
local t9_choices = m.rule("t9_choices", function(p)
  emit_each(TAKE, FULL[3 - p])
end)

-- The legal tokens of player p's decision, by the pending decision.
local function legal(p, pending)
  if pending == 0 then
    if not t5_starts(p) then
      t6_singletons(p)
    end
  elseif pending > 0 then
    t7c_choices(p, pending)
  else
    t9_choices(p)
  end
end

-- T9 Bonus captures: "after a capture under T8 the mover takes, one
-- decision at a time, the whole contents of B further opponent holes";
-- "when the opponent has no non-empty hole left the bonus ends early (if
-- the capture itself emptied the opponent's side, there is no bonus)".
local t9_bonus = m.rule("t9_bonus", function(p, left)
  if left > 0 and first(FULL[3 - p]) then
    set(PENDING, 0 - left)
    set_to_move(p)
  else
    set(PENDING, 0)
  end
end)

-- T8 Capture: "when the move ends in a hole of the mover's inner row that
-- was empty, and the opponent's inner-row hole in the same column holds
-- counters, those counters are captured together with all counters in the
-- opponent's outer-row hole of that column. If the opposite inner hole is
-- empty nothing is captured (even if the outer one is not)."
local t8_capture = m.rule("t8_capture", function(p, last)
  local across = ACROSS[last]
  if across and capture(across, p) > 0 then
    capture(BEHIND[last], p)
    t9_bonus(p, BONUS)
  end
end)

-- T7 End of a lap: "(a) h was empty before it: the move ends (then T8).
-- (b) h was occupied and is not one of the mover's heads: take all counters
-- from h and sow on (relay). (c) h was occupied and is one of the mover's
-- heads: the mover chooses continue (relay as in b) or stop".
-- T5: the sowing starts "with the next hole. The emptied starting hole is
-- not skipped when a sowing laps the circuit." m.relay does all of this.
local t7_sow = m.rule("t7_sow", function(p, from)
  local last, how = relay(TRACK[p], from, HEAD, MAX_LAPS)
  if how == "empty" then
    t8_capture(p, last)
  elseif how == "stop" then
    set(PENDING, last)
    set_to_move(p)
  else
    error("T10: the sowing from " .. m.name(from) .. " went over " .. MAX_LAPS .. " laps; legal must not offer it")
  end
end)

-- One decision of player p. Every decision ends with T13 Repetition:
-- "When the same position occurs for the third time the game ends in a
-- draw". (Inline, not a function of its own: it runs on every ply.) A win
-- (T11) comes first, but needs no check here: a position without a legal
-- token ends the game when it first occurs, so it never occurs again.
local function play(p, kind, s)
  if kind == SOW then
    t7_sow(p, s)
  elseif kind == CONTINUE then
    local head = get(PENDING)
    set(PENDING, 0)
    t7_sow(p, head)
  elseif kind == STOP then
    set(PENDING, 0) -- T7c: "stop (the move ends; no capture)"
  else
    capture(s, p) -- T9: "the whole contents" of the chosen hole
    t9_bonus(p, 0 - get(PENDING) - 1)
  end
end

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
local function score()
  return m.captured(1), m.captured(2)
end

return { setup = t2_setup, legal = legal, play = play, blocked = t11_blocked, repeated = t13_repetition, evaluate = evaluate, score = score }
