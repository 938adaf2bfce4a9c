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
local SOW = m.move("sow", "{1}", { prompt = "Sow the counters of one of your holes" })
local PASS = m.move("pass", "pass", { prompt = "Pass: your holes are empty" })
local OFFER = m.move("offer", "offer:{sites}",
  { prompt = "or offer 1 to 3 of your holes to your opponent, who pays 6 captured counters for each" })
local ACCEPT = m.move("accept", "accept", { prompt = "Accept the offer" })
local DECLINE = m.move("decline", "decline", { prompt = "Decline the offer" })

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
-- each hole's counters go to its owner, so p's lead is captured totals
-- plus the counters in the holes each player owns, out of the 48.
local OWNED_BY = { m.filter { owner = 1 }, m.filter { owner = 2 } }

local function evaluate(p)
  local q = 3 - p
  local mine = captured(p) + m.sum(OWNED_BY[p])
  local theirs = captured(q) + m.sum(OWNED_BY[q])
  return (mine - theirs) / math.max(1, mine + theirs)
end

-- The scores (G8): each player's captured total; at the end it includes
-- the counters of the holes they owned.
local function score()
  return captured(1), captured(2)
end

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
