-- English draughts (checkers): the rules script of Matombo's game `draughts`.
--
-- It plays the points E1-E13 of its rules page, docs/rules/draughts.md:
--   E1  the board: 32 dark squares numbered 1-32              -> e1_board
--   E2  twelve men each; Player 1 (Black) on 1-12 moves first -> e2_setup
--   E3  a man steps diagonally forward                        -> e3_steps
--   E4  a king steps diagonally forward or back               -> e3_steps
--   E5  a capture jumps an adjacent opponent                  -> e5_jumps, e5_capture
--   E6  a capture is compulsory, any capture may be chosen    -> e6_capture_first
--   E7  a capture goes on with the same piece while it can    -> e7_jumps_again,
--                                                                e7_next_jumps
--   E8  a man on the far row is crowned, ending the move      -> e8_crown
--   E9  a player who cannot move loses                        -> e9_blocked
--   E10 the third repetition of a position is a draw          -> e10_repetition
--   E11 forty moves each without a capture or a man's move    -> e11_quiet
--       draw
--   E12 OpenSpiel's rules (variant openspiel)                 -> variants.yaml
--   E13 a position set up in PDN's FEN (fen)                  -> e13_fen
--
-- The board and the opening are Lua, run once; every rule of a decision
-- is a native part of the host (docs/lua-api.md, "Native rules"), so no
-- ply enters the Lua VM: the steps and jumps along the diagonals in the
-- way each piece moves, forced capture (first_of_rule), the jump chain (a
-- decision per jump, the jumping piece's site in the variable `jumper`),
-- crowning, and the draw counters. Only the end of a game (E9, E10) and
-- the prompts and evaluation call Lua.
local m = matombo

local P = m.declare {
  name = "draughts",
  title = "English draughts",
  description = "English draughts (checkers), as the World Checkers/Draughts Federation plays it: " ..
    "twelve men each on the dark squares of an 8x8 board, moving diagonally forward; captures " ..
    "are compulsory and go on jump after jump; a man reaching the far row is crowned a king, " ..
    "which moves both ways. A player who cannot move loses. Variant openspiel: OpenSpiel's " ..
    "checkers, move for move.",
  players = 2,
  params = {
    { name = "quiet_moves", default = 40, values = { 0, 20, 25, 40, 50 },
      doc = "a draw when each player has made this many moves in a row without a capture (and, when a man's move counts as progress, without moving a man); 0 for no such rule (E11)" },
    { name = "men_reset", default = true,
      doc = "a man's move counts as progress towards the draw by moves without a capture, as a capture does (E11; OpenSpiel: false)" },
    { name = "threefold", default = true, doc = "the third repetition of a position is a draw (E10; OpenSpiel: false)" },
    { name = "fen", default = "",
      doc = "a position to start from, in PDN's FEN: the player to move (B or W), then each side's squares, K before a king, e.g. B:BK1,K2:W32 (E13); empty for the opening" },
  },
  conserve = true, -- men and kings on the board, crowns in hand, pieces captured
  hand_label = false, -- the crowns in hand are the rules' supply, not a player's to use
}

local QUIET_LIMIT = 2 * P.quiet_moves -- decisions of both players together
local MEN_RESET, THREEFOLD = P.men_reset, P.threefold

-- The cap on a game's decisions. With E11 it is a bound the rules prove:
-- a decision that makes progress (a capture, at most 24 of them, or with
-- men_reset a man's step, at most 7 for each of 24 men) comes at least
-- every 2 x quiet_moves decisions, so a game has at most R + (R + 1) x 2 x
-- quiet_moves decisions for R such decisions: 15,632 (R = 192, forty
-- moves), 1,024 for OpenSpiel's rule (R = 24, twenty moves each). Without
-- E11 nothing short of repetition ends a game of kings: 20,000 is a cap,
-- not a bound.
local function ply_cap()
  if QUIET_LIMIT == 0 then return 20000 end
  local progress = MEN_RESET and 24 + 24 * 7 or 24
  return progress + (progress + 1) * QUIET_LIMIT
end
m.max_plies(ply_cap())
if THREEFOLD then m.repetition(3) end -- E10

local count, owner, capture, set_to_move = m.count, m.owner, m.capture, m.set_to_move

-- ---- E1: the board ----

-- E1 "The 32 dark squares of an 8x8 board, numbered 1 to 32 from Player
-- 1's side (Black's, as draughts numbers them), four to a row." A square
-- is a point named by its row, a (Player 1's back row) to h, and its
-- number: a1 a2 a3 a4, b5 ... h32. Diagrams draw each square at its file
-- (1-8) and show the numbers beside the board.
local FILE, RANK, SQUARE = {}, {}, {} -- by square number: file 0-7, rank 0-7; "c11"
local e1_board = m.rule("e1_board", function()
  local points, at = {}, {}
  for n = 1, 32 do
    local k, j = math.floor((n - 1) / 4), (n - 1) % 4
    local file = (k % 2 == 0) and (6 - 2 * j) or (7 - 2 * j)
    FILE[n], RANK[n] = file, k
    SQUARE[n] = string.char(97 + k) .. n
    points[SQUARE[n]] = file + 1
    at[k * 8 + file] = SQUARE[n]
  end
  -- The diagonals, as lines: each run of squares going up and right, and
  -- going up and left.
  local lines = {}
  for _, df in ipairs { 1, -1 } do
    for n = 1, 32 do
      local f, r = FILE[n], RANK[n]
      if not at[(r - 1) * 8 + (f - df)] or r == 0 or f - df < 0 or f - df > 7 then
        local line = {}
        while r <= 7 and f >= 0 and f <= 7 and at[r * 8 + f] do
          line[#line + 1] = at[r * 8 + f]
          r, f = r + 1, f + df
        end
        if #line >= 2 then lines[#lines + 1] = line end
      end
    end
  end
  m.board { points = points, lines = lines, style = "checkered" }
end)
e1_board()

-- Squares by number, and numbers by site.
local SITE, NUMBER = {}, {}
for n = 1, 32 do
  SITE[n] = m.site(SQUARE[n])
  NUMBER[SITE[n]] = n
end
-- The far row, where p's men are crowned (E8): h for Player 1, a for 2.
local CROWN_ROW = { 8, 1 }

-- Why a step or a jump is refused, in the rules' words (not a rule: the
-- host asks it for a refused token); defined with the moves below.
local move_why
local STEP = m.move("move", "{#from}-{#to}", { why = function(...) return move_why(...) end,
  doc = "Move {#from} to {#to}", prompt = "Move a man one square diagonally forward, or a king forward or back (11-15)" })
local JUMP = m.move("jump", "{#from}x{#to}", { why = function(...) return move_why(...) end, doc = "Capture from {#from} to {#to}", prompt = "Capture: jump over an opponent's piece next to yours to the empty square beyond (22x15); a capture is compulsory" })
local JUMP_ON = m.move("jump_on", "x{#1}", { doc = "Jump on to {#1}", prompt = "The capturing piece jumps again: x and the square it lands on (x8)" })

-- jumper: the site (from 1) of the piece in the middle of a capture,
-- which must jump again (E7); 0 between turns. quiet: decisions in a row without a
-- capture (or a man's move, with men_reset) for E11; a counter, not part
-- of the position.
local JUMPER = m.var("jumper")
local QUIET = m.var("quiet", { position = false })

-- ---- E13: a position set up in FEN ----

-- E13 "With fen, the game starts from the position it gives, in the
-- notation of PDN (Portable Draughts Notation): the player to move, B or
-- W, then for each colour its squares, K before a king: B:W18,24,K27:B12,16.
-- B is Black, Player 1; W is White, Player 2." Returns the player to move
-- and the pieces as {square = {player, count}}, or nil when fen is empty.
-- split returns the pieces of text between the separator sep (a plain
-- character), empty pieces left out.
local function split(text, sep)
  local out, at = {}, 1
  while at <= #text + 1 do
    local stop = string.find(text, sep, at, true) or #text + 1
    if stop > at then out[#out + 1] = string.sub(text, at, stop - 1) end
    at = stop + 1
  end
  return out
end

local e13_fen = m.rule("e13_fen", function(fen)
  if fen == "" then return nil end
  local text = string.gsub(string.gsub(fen, "%s", ""), "%.$", "")
  local function bad(why)
    error(string.format("fen %q: %s (write it as PDN does: B:W21,22,K23:B1,2,K3)", fen, why), 0)
  end
  local parts = split(text, ":")
  local turn = parts[1]
  if turn ~= "B" and turn ~= "W" then bad("it starts with the player to move, B or W, and a colon") end
  local pieces, seen = {}, {}
  for i = 2, #parts do
    local colour, list = string.sub(parts[i], 1, 1), string.sub(parts[i], 2)
    if colour ~= "B" and colour ~= "W" then bad("each side starts with its colour, B or W") end
    if seen[colour] then bad("colour " .. colour .. " is given twice") end
    seen[colour] = true
    local p = colour == "B" and 1 or 2
    for _, item in ipairs(split(list, ",")) do
      local king, a, b = string.match(item, "^(K?)(%d+)%-?(%d*)$")
      a, b = tonumber(a), tonumber(b ~= "" and b or a)
      if not a or a < 1 or b > 32 or b < a then
        bad("square " .. item .. " is not a square 1-32, K and a square, or a range such as 1-12")
      end
      for n = a, b do
        if pieces[n] then bad("square " .. n .. " holds two pieces") end
        pieces[n] = { p, king == "K" and 2 or 1 }
      end
    end
  end
  local on = { 0, 0 }
  for n = 1, 32 do
    local piece = pieces[n]
    if piece then
      on[piece[1]] = on[piece[1]] + 1
      if piece[2] == 1 and RANK[n] + 1 == CROWN_ROW[piece[1]] then
        bad("a man of " .. (piece[1] == 1 and "Black" or "White") .. " stands on " .. n ..
          ", its crowning row: write it as a king, K" .. n)
      end
    end
  end
  for p = 1, 2 do
    if on[p] > 12 then
      bad((p == 1 and "Black" or "White") .. " has " .. on[p] .. " pieces; each player has at most twelve")
    end
  end
  return turn == "B" and 1 or 2, pieces
end)
local FEN_TURN, FEN_PIECES = e13_fen(P.fen)

-- ---- E2: the pieces ----

-- E2 "Each player has twelve men, on the dark squares of the three rows
-- nearest them: Player 1 (Black) on 1-12, Player 2 (White) on 21-32.
-- Player 1 moves first." Each player also keeps twelve crowns in hand, one
-- for each man: a crowned man is two pieces, one on the other (E8), and
-- a captured king counts two.
local function place(n, p, pieces)
  m.set_count(SITE[n], pieces)
  m.set_owner(SITE[n], p)
end

-- A set-up position (E13): each player's crowns are those their kings
-- have not used, and the pieces missing from the board count as captured
-- by the other player.
local function setup_fen()
  for p = 1, 2 do
    local men, kings = 0, 0
    for n = 1, 32 do
      local piece = FEN_PIECES[n]
      if piece and piece[1] == p then
        if piece[2] == 2 then kings = kings + 1 else men = men + 1 end
      end
    end
    m.set_hand(p, 12 - kings)
    if men + kings < 12 then
      m.set_count(SITE[1], 12 - men - kings)
      capture(SITE[1], 3 - p)
    end
  end
  for n = 1, 32 do
    local piece = FEN_PIECES[n]
    if piece then place(n, piece[1], piece[2]) end
  end
  set_to_move(FEN_TURN)
end

local e2_setup = m.rule("e2_setup", function()
  if FEN_PIECES then return setup_fen() end
  m.set_hand(1, 12)
  m.set_hand(2, 12)
  for n = 1, 12 do
    place(n, 1, 1)
    place(33 - n, 2, 1)
  end
end)

-- ---- E3-E5, E7: the moves of a piece ----

-- The pieces, from the mover's side: a man is one piece, a king two (E8).
local MINE = m.filter { owner = "mover", min = 1 }
local THEIRS = m.filter { owner = "opponent", min = 1 }
local KINGS = m.filter { owner = "mover", min = 2 }
local MEN = m.filter { owner = "mover", min = 1, max = 1 }
-- The diagonals run from row a to row h: a man of Player 1 moves ahead
-- along them, one of Player 2 back; a king both ways.
local FORWARD = { "ahead", "back" }

-- E3 "A man moves one square diagonally forward, to an empty square." E4
-- "A king moves one square diagonally, forward or back."
local e3_steps = m.rule("e3_steps", m.steps_rule { kind = STEP, from = MINE, toward = FORWARD, both = KINGS })

-- E5 "A piece captures by jumping over an opponent's piece on a square
-- next to it, diagonally, to the empty square beyond, in the directions
-- it moves: a man forward only, a king both ways. The piece jumped over
-- is removed." The jumps of every piece (the removal is the play's).
local e5_jumps = m.rule("e5_jumps", m.jumps_rule {
  kind = JUMP, from = MINE, over = THEIRS, toward = FORWARD, both = KINGS,
})

-- E7 "After a capture, if the same piece can capture again from the
-- square it landed on, it must: the move goes on, jump after jump, until
-- it can capture no more." Whether the piece on a square goes on; and,
-- while it waits, its next jumps, written x and the square landed on.
local e7_jumps_again = m.rule("e7_jumps_again", m.jumps_rule {
  kind = JUMP, from = MINE, over = THEIRS, toward = FORWARD, both = KINGS,
})
local e7_next_jumps = m.rule("e7_next_jumps", m.jumps_rule {
  kind = JUMP, again = JUMP_ON, from = MINE, over = THEIRS, toward = FORWARD, both = KINGS,
})

-- The reason a step or a jump from square sites[1] is not possible: the
-- capture goes on with the same piece (E7), or the square holds no piece
-- of the player's; nil to leave the explanation to the host (a step
-- while a capture is possible: the host names the captures, and their
-- prompt says a capture is compulsory, E6).
move_why = function(p, sites, jumper)
  local s = sites[1]
  if jumper > 0 then
    return "the capture goes on: the piece on " .. NUMBER[jumper] .. " jumps again (E7)"
  elseif owner(s) ~= p then
    return NUMBER[s] .. " holds no piece of yours"
  end
  return nil
end

-- ---- E8: crowning ----

-- E8 "A man that reaches the far row (Player 1's row h, squares 29-32;
-- Player 2's row a, 1-4) is crowned: it becomes a king, a second piece
-- put on it. Crowning ends the move, even after a capture from which the
-- new king could capture again." The crown comes from the player's hand.
local e8_crown = m.rule("e8_crown", m.promote_rule { row = CROWN_ROW, piece = MEN, add = 1, from_hand = true })

-- ---- E6: forced capture; the legal moves ----

-- E6 "A player who can capture must capture, with any piece that can; of
-- several captures the player chooses any, not necessarily the one that
-- takes the most." The captures when there are any, otherwise the steps.
local e6_capture_first = m.rule("e6_capture_first", m.first_of_rule { e5_jumps, e3_steps })

-- The moves of p: in the middle of a capture (jumper set), the jumper's
-- next jumps (E7); otherwise E6's.
local legal = m.pending_legal { pending = JUMPER, none = { e6_capture_first }, site = e7_next_jumps }

-- ---- E9-E11: the end ----

-- E9 "A player who cannot move, having no piece left or every piece
-- blocked, loses."
local OWN = { m.filter { owner = 1, min = 1 }, m.filter { owner = 2, min = 1 } }
local e9_blocked = m.rule("e9_blocked", function(p)
  if m.first(OWN[p]) == nil then
    return m.finish(3 - p, "no pieces left")
  end
  m.finish(3 - p, "no legal move")
end)

-- E10 "When the same position (the pieces and the player to move) occurs
-- for the third time, the game is a draw." With threefold only: the host
-- counts the positions (declared above) and asks this at the third.
local e10_repetition = m.rule("e10_repetition", function()
  m.finish(0, "third repetition")
end)

-- E11 "When both players have made forty moves each in a row without a
-- capture and without moving a man, the game is a draw." quiet_moves sets
-- the forty (0: no such rule), and with men_reset false only captures
-- count (OpenSpiel's rule, E12): the decisions of both players are
-- counted in the variable quiet, and a capture (or with men_reset a man's
-- move) sets it back to 0.
local e11_quiet = m.rule("e11_quiet", m.quiet_rule {
  result = m.winner_rule { winner = "draw" },
  count = QUIET, limit = math.max(QUIET_LIMIT, 1),
  reason = string.format("%d moves each without progress", P.quiet_moves),
})

-- ---- a decision ----

-- A step (E3, E4) or a jump (E5, E7): the piece jumped over is captured,
-- a man on the far row crowned (E8), and while the capturing piece can
-- jump again it waits, its square in jumper (E7); then the draw counter
-- (E11). A capture, and a man's move, can never be undone, so no earlier
-- position can come back (a man's move counts as progress with men_reset).
local e5_capture = m.rule("e5_capture", m.hop_play {
  pending = JUMPER, again = e7_jumps_again, arrival = { e8_crown }, arrival_ends = true,
  progress = MEN_RESET and MEN or nil,
  after = QUIET_LIMIT > 0 and { e11_quiet } or nil,
})
local play = m.play_by_kind { [STEP] = e5_capture, [JUMP] = e5_capture, [JUMP_ON] = e5_capture }

-- What the decision asks, in the middle of a capture.
local function prompt(p, jumper)
  if jumper > 0 then
    return string.format("Your piece on %d must capture again: x and the square it lands on (or type the whole capture as one, such as 22x15x8)", NUMBER[jumper])
  end
  return nil
end

-- ---- evaluate: advice for computer players, not a rule ----

-- Material first (a king worth about one and a half men), then the men's
-- advance towards the crowning row and the back row kept (its men stop
-- the opponent's crowning), from p's side; squashed into -1..1.
local ADVANCE = { {}, {} } -- by site: rows a man of p has advanced
for n = 1, 32 do
  ADVANCE[1][SITE[n]] = RANK[n]
  ADVANCE[2][SITE[n]] = 7 - RANK[n]
end
local function evaluate(p)
  local score = 0
  for n = 1, 32 do
    local s = SITE[n]
    local o = owner(s)
    if o ~= 0 then
      local v
      if count(s) == 2 then
        v = 150
      else
        local adv = ADVANCE[o][s]
        v = 100 + 3 * adv + (adv == 0 and 6 or 0)
      end
      if o == p then score = score + v else score = score - v end
    end
  end
  local x = score / 300
  local e = math.exp(2 * x)
  return 0.95 * (e - 1) / (e + 1)
end

return {
  setup = e2_setup, legal = legal, play = play, blocked = e9_blocked,
  repeated = THREEFOLD and e10_repetition or nil, prompt = prompt, evaluate = evaluate,
}
