-- Goré, the two-row mancala of the Guro (Kweni) of Ivory Coast: the points
-- G1-G10 of its rules page, docs/rules/gore.md, with positions, repetition
-- and results as that page defines them (G8, G9). Each point
-- below is a named function (g1_setup, g3_sow, g4_capture, ...) or, for the
-- board (G2) and the variant (G10), a declaration, under a comment quoting
-- its ruling; legal and play at the end put them together.
--
-- State: every hole's count and owner (owners change with trades, G7), the
-- captured totals, and five script variables:
--   offer1..offer3  the holes of a pending offer (site numbers, 0 = none),
--                   part of the position (G9: "any pending offer");
--   declined1/2     1 once that player has declined an offer (G8's note),
--                   not part of the position (G9: "declines already made are
--                   not part of the position").
local m = matombo

local P = m.declare {
  name = "gore",
  title = "Goré",
  description = "A two-row mancala of the Guro (Kweni) of Ivory Coast: 2x4 holes "
    .. "with 6 counters each, sown in one lap around a single ring. A last "
    .. "counter that makes 2 or 4 in an opponent's hole captures, and the "
    .. "capture chains both ways around the ring. Players may trade holes for "
    .. "captured counters; a win after declining a trade is 'without glory'. "
    .. "The game ends when every hole holds fewer than 3.",
  players = 2,
  params = {
    { name = "trading", default = true, doc = "offers of holes for captured counters (G6, G7); false removes them (G10)" },
  },
  conserve = true, -- 48 counters: board + captured, whatever the trades
  score_label = "captured",
  -- A documented cap, not a rule: no ruling limits the length of a game;
  -- G9 (third repetition) is what ends cycles, and random play ends almost
  -- only that way when trading (offer-decline-offer-decline returns to the
  -- same position). In 200,000 uniformly random games per variant the
  -- longest took 4,382 plies with trading (mean 411; about one game in four
  -- passes 500 plies, and the tail thins three- to fourfold per 500 more)
  -- and 234 without (mean 74). 20,000 leaves a wide margin.
  max_plies = 20000,
  -- G9: the host counts positions after every decision and calls
  -- repeated (below) at a position's third occurrence.
  repetition = 3,
}

-- G10 Variant: "`trading: false` removes offers (G6, G7)."
local TRADING = P.trading

-- G1 Board: "2 rows of 4 holes, `a1..a4` (Player 1's territory at the start)
-- and `b1..b4` (Player 2's). 6 counters per hole, 48 in all. No stores."
m.board { rows = { "a", "b" }, columns = 4 }
local SEEDS = 6

-- G2 Ring: "all eight holes form one counterclockwise ring
-- a1 → a2 → a3 → a4 → b4 → b3 → b2 → b1 → a1, sown whoever owns the hole."
local RING = m.track("ring", { "a1", "a2", "a3", "a4", "b4", "b3", "b2", "b1" }, true)

-- The prompts say what each decision is to the players (the page and the
-- terminal show them beside the choices); see also prompt below.
-- Why an offer is not possible, in the rules' words (not a rule: the host
-- asks it for a refused token; G6): the opponent must hold 6 captured
-- counters for each hole, the holes must be the offerer's, and one must
-- stay. offer1 is set while an offer waits for its answer (G7).
local function g6_why(p, sites, offer1)
  local k = #sites
  local have = m.captured(3 - p)
  if offer1 ~= 0 then
    return nil -- an offer waits for its answer: the prompt says so
  elseif not TRADING then
    return "this variant has no offers (G10)"
  elseif k > 0 and have < SEEDS * k then
    return "an offer of " .. k .. " hole" .. (k > 1 and "s" or "") .. " needs " .. SEEDS * k
      .. " captured counters of your opponent's (" .. SEEDS .. " a hole), who has " .. have .. " (G6)"
  end
  local owned = 0
  for s = 1, 8 do
    if m.owner(s) == p then owned = owned + 1 end
  end
  for _, s in ipairs(sites) do
    if m.owner(s) ~= p then
      return m.name(s) .. " is not yours to offer (G6)"
    end
  end
  if k >= owned then
    return "an offer keeps at least one of your holes (G6)"
  end
  return nil
end

local function sow_why(p, sites)
  local s = sites[1]
  if m.owner(s) ~= p then
    return m.name(s) .. " is not one of your holes (G3)"
  elseif m.count(s) == 0 then
    return m.name(s) .. " is empty (G3)"
  end
  return nil
end

local SOW = m.move("sow", "{1}", { prompt = "Sow the counters of one of your holes", doc = "Sow from {1}", why = sow_why })
local PASS = m.move("pass", "pass", { prompt = "Pass: your holes are empty", doc = "Pass" })
local OFFER = m.move("offer", "offer:{sites}",
  { prompt = "or offer 1 to 3 of your holes to your opponent, who pays 6 captured counters for each",
    doc = "Offer {sites}", why = g6_why })
local ACCEPT = m.move("accept", "accept", { prompt = "Accept the offer", doc = "Accept the offer" })
local DECLINE = m.move("decline", "decline", { prompt = "Decline the offer", doc = "Decline the offer" })

local OFFER1, OFFER2, OFFER3 = m.var("offer1"), m.var("offer2"), m.var("offer3")
local OFFER_SLOTS = { OFFER1, OFFER2, OFFER3 }
local DECLINED = { m.var("declined1", { position = false }), m.var("declined2", { position = false }) }

local get, captured = m.get, m.captured

local SOWABLE = m.filter { owner = "mover", min = 1 } -- holes the mover owns holding counters
local OWNED = m.filter { owner = "mover" }            -- every hole the mover owns
local TALL = m.filter { min = 3 }                     -- any hole holding 3 or more

local g1_setup = m.rule("g1_setup", function()
  for s = 1, 8 do
    m.set_count(s, SEEDS)
    m.set_owner(s, s <= 4 and 1 or 2)
  end
end)

-- G3 Sowing: "take all counters from a non-empty hole you own and sow them
-- one per hole along the ring, starting with the next hole, in a single lap
-- (no relay). The emptied starting hole is not skipped."
-- (Legal sowings are the SOWABLE holes.) g3_sow(p, from) returns the hole
-- the last counter fell into. This rule, G4 and G8 are native rules
-- (docs/lua-api.md, "Native rules"): data the host runs.
local g3_sow = m.rule("g3_sow", m.sow_rule { track = RING })

-- G4 Capture: "if the last counter lands in a hole the opponent owns and
-- that hole now holds exactly 2 or 4, its counters are captured. Then, from
-- the landing hole, the chain runs both ways along the ring, forward (sowing
-- direction) and backward, each way independently: each next hole holding
-- exactly 2 or 4 is captured too, whoever owns it, until a hole that does
-- not; the chain wraps around the ring and never takes a hole twice."
-- The landing hole and the forward chain are emptied before the backward
-- chain runs, so an emptied hole (0) stops a run: nothing is taken twice.
-- g4_capture(p, last) returns the counters captured.
local g4_capture = m.rule("g4_capture", m.capture_rule {
  owner = "opponent", counts = { 2, 4 },          -- exactly 2 or 4 in an opponent's hole
  runs = { { track = RING, step = 1 }, { track = RING, step = -1 } }, -- then both ways, whoever owns
})

-- G5 Pass: "a player whose holes are all empty cannot sow; their legal
-- tokens are `pass` and any offers allowed by G6. [...] `pass` is never
-- legal while the player can sow." Emits the sowings, or pass.
local g5_sow_or_pass = m.rule("g5_sow_or_pass", m.sowings_rule { kind = SOW, from = SOWABLE, none = PASS })

-- G6 Offer: "a player owning at least two holes may offer the opponent 1, 2
-- or 3 of their holes, keeping at least one. An offer of k holes (empty ones
-- too) is legal only if the opponent holds at least 6k captured counters.
-- Token: `offer:` + the holes in board order joined by commas." Available
-- in every ordinary turn, also the one after answering an offer.
-- g6_offers(p) emits them. (G6, G7 and the turns below are native rules
-- too: a ply never enters Lua.)
local g6_offers = m.rule("g6_offers", m.offers_rule { kind = OFFER, from = OWNED, keep = 1, most = 3, price = SEEDS })

-- "The offer ends the offerer's turn": the holes wait for the answer.
-- g6_offer(p, s1, s2, s3) keeps them in offer1..offer3.
local g6_offer = m.rule("g6_offer", m.offer_rule { holes = OFFER_SLOTS })

-- G7 Answer: "the opponent must first answer `accept` or `decline`, then
-- takes their normal turn. On `accept` the offered holes become theirs and
-- they put 6 of their captured counters into each of them, on top of what
-- is there. On `decline` nothing changes on the board, but the decline is
-- recorded." After either answer no trace of the offer stays in the
-- position: "the turn an answerer takes after answering is an ordinary
-- turn" (G9).
local g7_answers = m.rule("g7_answers", m.emit_rule { moves = { ACCEPT, DECLINE } })
local g7_accept = m.rule("g7_accept", m.accept_rule { holes = OFFER_SLOTS, price = SEEDS })
local g7_decline = m.rule("g7_decline", m.decline_rule { holes = OFFER_SLOTS, declined = DECLINED })

-- G8 (the result): "Each hole's counters then go into its owner's captured
-- total, leaving the board empty; the player with more captured counters
-- wins; equal totals are a draw. If the winner declined an offer at any time
-- during the game the result carries the note `without glory` (never on a
-- draw)." G9 ends the game "as under G8", note included.
local g8_result = m.rule("g8_result", function(reason)
  m.sweep()
  local c1, c2 = captured(1), captured(2)
  local w = 0
  if c1 > c2 then
    w = 1
  elseif c2 > c1 then
    w = 2
  end
  if w ~= 0 and get(DECLINED[w]) ~= 0 then
    m.finish(w, reason, "without glory")
  else
    m.finish(w, reason)
  end
end)

-- G8 End: "the game ends as soon as, after a sowing and its captures, every
-- hole holds fewer than 3 counters (this is checked only after sowings)."
-- g8_over(p, captured) ends the game then.
local g8_over = m.rule("g8_over", m.end_rule {
  { none = TALL, reason = "every hole holds fewer than 3" },
  result = g8_result,
})

-- G9 Repetition: "when the same position (counts, owners, captured totals,
-- whose decision is next and any pending offer) occurs for the third time,
-- the game ends as under G8." The host calls this after a decision that
-- makes a position's third occurrence (declared with repetition = 3), unless
-- the decision ended the game by G8 ("a win is checked before repetition").
-- The position is everything but the ply count and the declines (declared
-- with position = false), so a pending offer counts with its holes.
local g9_repetition = m.rule("g9_repetition", function()
  g8_result("third repetition")
end)

-- legal: the answers to a pending offer (G7; offer1 is its first hole),
-- or an ordinary turn: the sowings or pass (G5), then the offers (G6).
local legal = m.pending_legal {
  pending = OFFER1, site = g7_answers,
  none = TRADING and { g5_sow_or_pass, g6_offers } or { g5_sow_or_pass },
}

-- The decisions other than a sowing: an offer (G6), its answers (G7), and
-- PASS (G5): "After `pass` it is the opponent's turn."
local trade_or_pass = m.play_by_kind { [OFFER] = g6_offer, [ACCEPT] = g7_accept, [DECLINE] = g7_decline, [PASS] = false }

-- A sowing: G3, then G4's capture, then G8's end; the other decisions are
-- trade_or_pass's. Without trading (G10) a capture takes counters off the
-- board for good, so no position before it can come back: irreversible
-- tells the host to count G9's repetitions from there (matombo.irreversible)
-- and keep the history short. With trading it cannot: an accepted offer
-- (G7) puts captured counters back on the board and lowers a captured
-- total, so a position from before a capture may occur again, and G9
-- counts it.
local play = m.sowing_play {
  kind = SOW, sow = g3_sow, capture = g4_capture, irreversible = not TRADING, after = g8_over, other = trade_or_pass,
}

-- No blocked function: a player always has a token (an answer, a sowing or
-- G5's pass), so the game never blocks; the host reports it if it ever did.
-- evaluate: advice for computer players, not a rule. At the end (G8)
-- each hole's counters go to its owner, so p's material is p's captured
-- total plus the counters in the holes p owns, out of the 48. But the
-- counters in holes are not safe till then: every sowing (G3) carries
-- some of the sower's counters into holes the opponent owns, and a capture
-- (G4) takes counters from the board. So to the material lead the
-- evaluation adds what the best sowing of each player would gain from
-- here (its captures, less the counters it leaves in holes the sower does
-- not own): all of it for the player to move (TO_MOVE), three quarters
-- for the other (WAITING), whose sowing the player to move may spoil
-- first. The weights were chosen by matches (docs/players.md, "Strength").
local TO_MOVE, WAITING = 1, 0.75
local RING_SITES = { 1, 2, 3, 4, 8, 7, 6, 5 } -- G2's ring a1 a2 a3 a4 b4 b3 b2 b1, by site
local count, owner = m.count, m.owner
local NEXT, PREV = {}, {} -- the ring positions after and before each
for i = 1, 8 do
  NEXT[i], PREV[i] = i % 8 + 1, (i + 6) % 8 + 1
end
-- Scratch of every call, written before it is read: no state is kept.
local counts, owners, after = {}, {}, {} -- by ring position

-- after_chain(x, i, step) takes, in after, the holes from ring position i on
-- (not i) that hold exactly 2 or 4, as G4's chain does, and returns the
-- counters of those x does not own (taking x's own holes gains x nothing).
local function after_chain(x, i, step)
  local gain = 0
  for _ = 1, 7 do
    i = (i - 1 + step) % 8 + 1
    local n = after[i]
    if n ~= 2 and n ~= 4 then
      break -- an emptied hole (0) stops it too: nothing is taken twice
    end
    after[i] = 0
    gain = owners[i] ~= x and gain + n or gain
  end
  return gain
end

-- lap_gain(x, i): what x's material gains by sowing the n >= 8 counters
-- of ring position i, passing holes more than once: G3 and G4 played out
-- in after.
local function lap_gain(x, i)
  local n = counts[i]
  local laps = math.floor(n / 8)
  for k = 1, 8 do
    after[k] = counts[k] + laps
  end
  after[i] = laps -- the emptied start is not skipped
  for k = 1, n - 8 * laps do
    local j = (i - 1 + k) % 8 + 1
    after[j] = after[j] + 1
  end
  local gain = 0
  for k = 1, 8 do
    if owners[k] ~= x then
      gain = gain - (after[k] - counts[k]) -- left in holes x does not own
    end
  end
  local last = (i - 1 + n) % 8 + 1
  local c = after[last]
  if owners[last] ~= x and (c == 2 or c == 4) then
    after[last] = 0
    gain = gain + c + after_chain(x, last, 1) + after_chain(x, last, -1)
  end
  return gain
end

-- sown_away(x, i, n): how many of the n < 8 counters sown from ring
-- position i fall into holes x does not own (G3): lost to x.
local function sown_away(x, i, n)
  local away = 0
  for _ = 1, n do
    i = NEXT[i]
    away = owners[i] ~= x and away + 1 or away
  end
  return away
end

-- chain_gain(x, start, last, c) is what x captures (G4) when a sowing of
-- fewer than 8 counters from ring position start ends in last, a hole x
-- does not own that now holds c, 2 or 4: c, then the runs of holes
-- holding exactly 2 or 4 both ways (taking x's own holes gains x nothing).
-- Each hole is passed once: the holes after last hold what they held,
-- those before it one more, down to the emptied start, which stops both.
local function chain_gain(x, start, last, c)
  local gain = c
  local j = NEXT[last] -- forward, holes not sown
  while j ~= start do
    c = counts[j]
    if c ~= 2 and c ~= 4 then
      break
    end
    gain = owners[j] ~= x and gain + c or gain
    j = NEXT[j]
  end
  j = PREV[last] -- backward, holes sown once
  while j ~= start do
    c = counts[j] + 1
    if c ~= 2 and c ~= 4 then
      break
    end
    gain = owners[j] ~= x and gain + c or gain
    j = PREV[j]
  end
  return gain
end

-- best_sowing(x, can_wait): the most material one of x's sowings gains
-- (its captures less the counters it sows away), or 0 if that is less and
-- x can change nothing instead, by an offer (G6) or a pass (G5). A sowing
-- that captures nothing only loses, so with can_wait only captures count.
local function best_sowing(x, can_wait)
  local best = nil
  for i = 1, 8 do
    local n = counts[i]
    if n > 0 and owners[i] == x then
      local gain
      if n >= 8 then
        gain = lap_gain(x, i)
      else
        local last = i + n > 8 and i + n - 8 or i + n
        local c = counts[last] + 1
        if owners[last] ~= x and (c == 2 or c == 4) then
          gain = chain_gain(x, i, last, c) - sown_away(x, i, n)
        elseif not can_wait then
          gain = -sown_away(x, i, n)
        end
      end
      if gain and (best == nil or gain > best) then
        best = gain
      end
    end
  end
  if best == nil or can_wait and best < 0 then
    return 0
  end
  return best
end

local function evaluate(p)
  local lead, held = captured(p) - captured(3 - p), 0 -- held: holes p owns
  for i = 1, 8 do
    local s = RING_SITES[i]
    local n, o = count(s), owner(s)
    counts[i], owners[i] = n, o
    if o == p then
      lead, held = lead + n, held + 1
    else
      lead = lead - n
    end
  end
  local mover = m.to_move()
  local other = 3 - mover
  local mover_holes = mover == p and held or 8 - held
  -- G6: an offer needs two holes and 6 captured counters of the opponent.
  local now = best_sowing(mover, TRADING and mover_holes >= 2 and captured(other) >= SEEDS)
  local later = best_sowing(other, TRADING and mover_holes <= 6 and captured(mover) >= SEEDS)
  local tempo = TO_MOVE * now - WAITING * later
  lead = mover == p and lead + tempo or lead - tempo
  return math.max(-0.95, math.min(0.95, lead / 48))
end

-- The scores (G8): each player's captured total; at the end it includes
-- the counters of the holes they owned.
local score = m.score_rule { amount = m.captured_rule {} }

-- What a pending offer asks its answerer (G7; not a rule: words for the
-- players). Other decisions use the prompts of their kinds.
local function prompt(p, offer1, offer2, offer3)
  if offer1 == 0 then
    return nil
  end
  local holes = { m.name(offer1) }
  for _, s in ipairs({ offer2, offer3 }) do
    if s ~= 0 then
      holes[#holes + 1] = m.name(s)
    end
  end
  local them = #holes == 1 and "it" or "them"
  return string.format("Player %d offers %s: accept to pay %d of your captured counters and take %s, or decline",
    3 - p, table.concat(holes, ", "), SEEDS * #holes, them)
end

return { setup = g1_setup, legal = legal, play = play, repeated = g9_repetition, evaluate = evaluate, score = score, prompt = prompt }
