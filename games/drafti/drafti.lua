-- Drafti, draughts with flying kings: the rules script of Matombo's game
-- `drafti`.
--
-- It plays the points D1-D14 of its rules page, docs/rules/drafti.md:
--   D1  the board: 8x8 or 10x10 (size), squares numbered      -> d1_board
--   D2  twelve men each (twenty on 10x10); Player 1 first     -> d2_setup
--   D3  a man steps diagonally forward                        -> d3_steps
--   D4  a king flies along a diagonal                         -> d3_steps
--   D5  men capture forward and back (men_back)               -> d5_jumps
--   D6  a king captures at a distance                         -> d5_jumps
--   D7  captures are compulsory and go on; pieces are taken   -> d7_capture_first,
--       off at the end; a king stops where it can go on           d7_sequences,
--                                                                 d7_next_jumps,
--                                                                 d7_capture
--   D8  the choice of capture: free or the most (capture)     -> d7_sequences,
--                                                                 d7_next_jumps
--   D9  crowning on the far row; during a capture (crowning)  -> d9_crown
--   D10 a player who cannot move loses                        -> d10_blocked
--   D11 repetition, and moves of kings alone, draw            -> d11_kings_alone,
--                                                                 d11_repetition
--   D12 FMJD's counts of moves in a few endings (endgames)    -> d12_endgame
--   D13 the variants                                          -> variants.yaml
--   D14 a position set up in FEN (fen)                        -> d14_fen
--
-- The board and the opening are Lua, run once; every rule of a decision
-- is a native part of the host (docs/lua-api.md, "Native rules"), so no
-- ply enters the Lua VM: the steps and jumps along the diagonals, flying
-- for the kings, forced capture, the search of the capture that takes the
-- most (D8), the jump chain (a decision per jump, the jumping piece's
-- site in the variable `jumper`, the sites of the pieces it has jumped in
-- `taken1`.., on the board until the move ends), crowning, and the count
-- of kings' moves. The end of a game (D10, the third repetition), FMJD's
-- endings (D12, with endgames, once four pieces or fewer are left) and the
-- prompts and evaluation call Lua.
local m = matombo

local P = m.declare {
  name = "drafti",
  title = "Drafti (draughts with flying kings)",
  description = "Draughts as East and Southern Africa play it (drafti in Swahili): twelve men " ..
    "each on an 8x8 board move diagonally forward and capture both ways; kings fly along the " ..
    "diagonals; captures are compulsory, go on jump after jump and are taken off at the end. " ..
    "Variants: Russian draughts, Tanzanian draughts, International draughts on 10x10.",
  players = 2,
  params = {
    { name = "size", default = 8, values = { 8, 10 }, doc = "the board: 8x8 with twelve men each, or 10x10 with twenty (D1, D2)" },
    { name = "men_back", default = true, doc = "men capture backwards as well as forwards (D5; Tanzanian: false)" },
    { name = "capture", default = "free", values = { "free", "most" },
      doc = "of several captures: any (free), or one that takes the most pieces (most, International) (D8)" },
    { name = "crowning", default = "end", values = { "end", "continue", "stop" },
      doc = "a man reaching the far row during a capture: crowned only if the move ends there (end), crowned and capturing on as a king (continue, Russian), or crowned and the move over (stop, Tanzanian) (D9)" },
    { name = "king_moves", default = 25, values = { 0, 15, 20, 25 },
      doc = "a draw when each player has made this many moves in a row with kings alone and no capture; 0 for no such rule (D11)" },
    { name = "endgames", default = false, doc = "FMJD's draws in a few endings: 16 moves each for three pieces with a king against a lone king, 5 for two (D12)" },
    { name = "fen", default = "",
      doc = "a position to start from, in PDN's FEN: the player to move (W or B), then each side's squares, K before a king (D14); empty for the opening" },
  },
  conserve = true, -- men and kings on the board, crowns in hand, pieces captured
  hand_label = false, -- the crowns in hand are the rules' supply, not a player's to use
}

local N = P.size
local HALF = N / 2
local SQUARES = N * HALF
local MEN_EACH = (N / 2 - 1) * HALF -- twelve or twenty men each
local MOST = P.capture == "most"
local KING_LIMIT = 2 * P.king_moves
local MAX_TAKEN = MEN_EACH -- the most pieces one move can take

local count, owner, get = m.count, m.owner, m.get
local capture, set_to_move, finish = m.capture, m.set_to_move, m.finish

-- ---- D1: the board ----

-- D1 "An 8x8 board (size 8), or 10x10 (size 10, International draughts),
-- dark square at each player's near left. The dark squares are numbered
-- as the draughts federations number them, from the far left as Player 1
-- (White) sees the board: 1 to 32 on 8x8, 1 to 50 on 10x10, Player 1's
-- near row being 29-32 (46-50)." A square is the point named by its row,
-- a (Player 1's near row) up, and its number: a29 ... h1.
local FILE, RANK, SQUARE = {}, {}, {} -- by number: file and rank from 0; "a29"
local d1_board = m.rule("d1_board", function()
  local points, at = {}, {}
  for n = 1, SQUARES do
    local t, j = math.floor((n - 1) / HALF), (n - 1) % HALF -- row from the top, place in it
    local rank = N - 1 - t
    local file = (rank % 2 == 0) and 2 * j or 2 * j + 1
    FILE[n], RANK[n] = file, rank
    SQUARE[n] = string.char(97 + rank) .. n
    points[SQUARE[n]] = file + 1
    at[rank * N + file] = SQUARE[n]
  end
  local lines = {}
  for _, df in ipairs { 1, -1 } do
    for n = 1, SQUARES do
      local f, r = FILE[n], RANK[n]
      local pf = f - df
      if r == 0 or pf < 0 or pf >= N then
        local line = {}
        while r < N and f >= 0 and f < N do
          line[#line + 1] = at[r * N + f]
          r, f = r + 1, f + df
        end
        if #line >= 2 then lines[#lines + 1] = line end
      end
    end
  end
  m.board { points = points, lines = lines, style = "checkered" }
end)
d1_board()

-- Squares by number, and numbers by site.
local SITE, NUMBER = {}, {}
for n = 1, SQUARES do
  SITE[n] = m.site(SQUARE[n])
  NUMBER[SITE[n]] = n
end
local function far_row(p, n) -- the row where p's men are crowned
  if p == 1 then return RANK[n] == N - 1 end
  return RANK[n] == 0
end
local CROWN_ROW = { N, 1 }

local STEP = m.move("move", "{#from}-{#to}", { doc = "Move {#from} to {#to}", prompt = "Move a man one square diagonally forward, or a king any distance along a diagonal (32-28)" })
local JUMP = m.move("jump", "{#from}x{#to}", { doc = "Capture from {#from} to {#to}", prompt = "Capture: jump over an opponent's piece to an empty square beyond (19x28); a capture is compulsory" })
local JUMP_ON = m.move("jump_on", "x{#1}", { doc = "Jump on to {#1}", prompt = "The capturing piece jumps again: x and the square it lands on (x10)" })

-- jumper: the site (from 1) of the piece in the middle of a capture,
-- which must jump again (D7); 0 between moves. taken1..: the sites of the
-- pieces it has jumped, still on the board (D7), 0 for none. quiet,
-- ending, signature: the draw counters of D11 and D12, not part of the
-- position.
local JUMPER = m.var("jumper")
local TAKEN = {}
for i = 1, MAX_TAKEN do TAKEN[i] = m.var("taken" .. i) end
local QUIET = m.var("quiet", { position = false })
local ENDING = m.var("ending", { position = false })
local SIGNATURE = m.var("signature", { position = false })

-- ---- D14: a position set up in FEN ----

local function split(text, sep)
  local out, at = {}, 1
  while at <= #text + 1 do
    local stop = string.find(text, sep, at, true) or #text + 1
    if stop > at then out[#out + 1] = string.sub(text, at, stop - 1) end
    at = stop + 1
  end
  return out
end

-- D14 "With fen, the game starts from the position it gives, in PDN's
-- FEN: the player to move, W or B, then for each colour its squares, K
-- before a king, ranges allowed. W is White, Player 1; B is Black, Player
-- 2." Returns the player to move and the pieces by square, or nil.
local d14_fen = m.rule("d14_fen", function(fen)
  if fen == "" then return nil end
  local text = string.gsub(string.gsub(fen, "%s", ""), "%.$", "")
  local function bad(why)
    error(string.format("fen %q: %s (write it as PDN does: W:W31,32,K33:B1,2,K3)", fen, why), 0)
  end
  local parts = split(text, ":")
  local turn = parts[1]
  if turn ~= "W" and turn ~= "B" then bad("it starts with the player to move, W or B, and a colon") end
  local pieces, seen = {}, {}
  for i = 2, #parts do
    local colour, list = string.sub(parts[i], 1, 1), string.sub(parts[i], 2)
    if colour ~= "W" and colour ~= "B" then bad("each side starts with its colour, W or B") end
    if seen[colour] then bad("colour " .. colour .. " is given twice") end
    seen[colour] = true
    local p = colour == "W" and 1 or 2
    for _, item in ipairs(split(list, ",")) do
      local king, a, b = string.match(item, "^(K?)(%d+)%-?(%d*)$")
      a, b = tonumber(a), tonumber(b ~= "" and b or a)
      if not a or a < 1 or b > SQUARES or b < a then
        bad(string.format("square %s is not a square 1-%d, K and a square, or a range such as 1-12", item, SQUARES))
      end
      for n = a, b do
        if pieces[n] then bad("square " .. n .. " holds two pieces") end
        pieces[n] = { p, king == "K" and 2 or 1 }
      end
    end
  end
  local on = { 0, 0 }
  for n = 1, SQUARES do
    local piece = pieces[n]
    if piece then
      on[piece[1]] = on[piece[1]] + 1
      if piece[2] == 1 and far_row(piece[1], n) then
        bad("a man of " .. (piece[1] == 1 and "White" or "Black") .. " stands on " .. n ..
          ", its crowning row: write it as a king, K" .. n)
      end
    end
  end
  for p = 1, 2 do
    if on[p] > MEN_EACH then
      bad(string.format("%s has %d pieces; each player has at most %d", p == 1 and "White" or "Black", on[p], MEN_EACH))
    end
  end
  return turn == "W" and 1 or 2, pieces
end)
local FEN_TURN, FEN_PIECES = d14_fen(P.fen)

-- ---- D2: the pieces ----

-- D2 "Each player has twelve men (twenty on 10x10) on the dark squares of
-- the rows nearest them, three rows (four): Player 1 (White) on 21-32
-- (31-50), Player 2 (Black) on 1-12 (1-20). Player 1 moves first." As in
-- English draughts a king is a man with a crown on it, and each player
-- keeps a crown in hand for each man.
local function place(n, p, pieces)
  m.set_count(SITE[n], pieces)
  m.set_owner(SITE[n], p)
end

local d2_setup = m.rule("d2_setup", function()
  if FEN_PIECES then
    for p = 1, 2 do
      local men, kings = 0, 0
      for n = 1, SQUARES do
        local piece = FEN_PIECES[n]
        if piece and piece[1] == p then
          if piece[2] == 2 then kings = kings + 1 else men = men + 1 end
        end
      end
      m.set_hand(p, MEN_EACH - kings)
      if men + kings < MEN_EACH then
        m.set_count(SITE[1], MEN_EACH - men - kings)
        capture(SITE[1], 3 - p)
      end
    end
    for n = 1, SQUARES do
      local piece = FEN_PIECES[n]
      if piece then place(n, piece[1], piece[2]) end
    end
    set_to_move(FEN_TURN)
    return
  end
  m.set_hand(1, MEN_EACH)
  m.set_hand(2, MEN_EACH)
  for n = 1, MEN_EACH do
    place(n, 2, 1)
    place(SQUARES + 1 - n, 1, 1)
  end
end)

-- ---- D3-D9: the moves ----

-- The pieces, from the mover's side: a man is one piece, a king two (D2).
local MINE = m.filter { owner = "mover", min = 1 }
local THEIRS = m.filter { owner = "opponent", min = 1 }
local KINGS = m.filter { owner = "mover", min = 2 }
local MEN = m.filter { owner = "mover", min = 1, max = 1 }
-- The diagonals run from row a up: a man of Player 1 moves ahead along
-- them, one of Player 2 back; a king both ways.
local FORWARD = { "ahead", "back" }
local MEN_CAPTURE = P.men_back and "both" or FORWARD

-- D3 "A man moves one square diagonally forward to an empty square." D4
-- "A king moves any number of squares along a diagonal, forward or back,
-- over empty squares only."
local d3_steps = m.rule("d3_steps", m.steps_rule { kind = STEP, from = MINE, toward = FORWARD, both = KINGS, fly = KINGS })

-- D5 "A man captures by jumping over an opponent's piece on the square
-- next to it, diagonally, to the empty square beyond: forward and
-- backward (with men_back = false, forward only)." D6 "A king captures at
-- a distance: along a diagonal, over empty squares, it jumps an
-- opponent's piece and lands on any empty square beyond it, before the
-- next piece." D7 "A piece cannot be jumped twice, and one already jumped
-- blocks the way." Whether the piece on a square can jump (again).
local d5_jumps = m.rule("d5_jumps", m.jumps_rule {
  kind = JUMP, from = MINE, over = THEIRS, toward = MEN_CAPTURE, both = KINGS, fly = KINGS, taken = TAKEN,
})

-- D7 "A king that can land on several squares after a jump must land on
-- one from which it can capture again, if there is one." D8 "Of several
-- captures the player chooses any (capture = free). With capture = most
-- the capture must take as many pieces as any capture of the position
-- can; kings and men count alike." The legal first jumps of a capture;
-- and, while the capturing piece waits, its next jumps, written x and the
-- square landed on.
-- D8's search of the capture that takes the most crowns a man where D9
-- does in the middle of a capture (continue: it captures on as a king;
-- stop: its capture ends there).
local CROWN_ON_THE_WAY = MOST and P.crowning ~= "end"
local function sequences(again)
  return m.jumps_rule {
    kind = JUMP, again = again, from = MINE, over = THEIRS, toward = MEN_CAPTURE, both = KINGS, fly = KINGS,
    taken = TAKEN, go_on = not MOST, most = MOST,
    promote_row = CROWN_ON_THE_WAY and CROWN_ROW or nil, promote_ends = CROWN_ON_THE_WAY and P.crowning == "stop",
  }
end
local d7_sequences = m.rule("d7_sequences", sequences(nil))
local d7_next_jumps = m.rule("d7_next_jumps", sequences(JUMP_ON))

-- D7 "A player who can capture must." The captures when there are any,
-- otherwise the steps.
local d7_capture_first = m.rule("d7_capture_first", m.first_of_rule { d7_sequences, d3_steps })

-- The moves of p: in the middle of a capture (jumper set), the jumper's
-- next jumps (D7); otherwise D7's.
local legal = m.pending_legal { pending = JUMPER, none = { d7_capture_first }, site = d7_next_jumps }

-- D9 "A man that ends its move on the far row is crowned king." The crown
-- comes from the player's hand. When, during a capture, is the play's
-- (crowning).
local d9_crown = m.rule("d9_crown", m.promote_rule { row = CROWN_ROW, piece = MEN, add = 1, from_hand = true })

-- ---- D10-D12: the end ----

-- D10 "A player who cannot move, having no piece left or every piece
-- blocked, loses."
local OWN = { m.filter { owner = 1, min = 1 }, m.filter { owner = 2, min = 1 } }
local d10_blocked = m.rule("d10_blocked", function(p)
  if m.first(OWN[p]) == nil then
    return finish(3 - p, "no pieces left")
  end
  finish(3 - p, "no legal move")
end)

-- D11 "The third occurrence of the same position (the pieces and the
-- player to move) is a draw." The host counts the positions and asks this
-- at the third.
m.repetition(3)
local d11_repetition = m.rule("d11_repetition", function()
  finish(0, "third repetition")
end)

-- D11 "So is a game in which both players have moved only kings, without
-- a capture, for king_moves moves each." The moves of both players are
-- counted in the variable quiet; a capture or a man's move sets it back
-- to 0.
local d11_kings_alone = m.rule("d11_kings_alone", m.quiet_rule {
  result = m.winner_rule { winner = "draw" },
  count = QUIET, limit = math.max(KING_LIMIT, 1),
  reason = string.format("%d moves each of kings alone", P.king_moves),
})

-- D12 "With endgames = true (International draughts): three pieces, one
-- of them at least a king, against a lone king draw after 16 moves each;
-- two pieces or one, one a king, against a lone king after 5 moves each.
-- The count starts again when the pieces change." Returns the decisions
-- allowed in the position's ending, 0 when it is none of these.
local d12_limit = m.rule("d12_limit", function(k1, m1, k2, m2)
  local function limit(ka, ma, kb, mb)
    if kb ~= 1 or mb ~= 0 or ka < 1 then return 0 end
    if ka + ma == 3 then return 32 end
    if ka + ma <= 2 then return 10 end
    return 0
  end
  return math.max(limit(k1, m1, k2, m2), limit(k2, m2, k1, m1))
end)
local KINGS_OF = { m.filter { owner = 1, min = 2 }, m.filter { owner = 2, min = 2 } }
local MEN_OF = { m.filter { owner = 1, min = 1, max = 1 }, m.filter { owner = 2, min = 1, max = 1 } }
-- After each whole move: counts the moves of the ending, the signature
-- telling one ending from another, and ends the game at its limit.
local d12_endgame = m.rule("d12_endgame", function()
  local k1, m1 = m.count_sites(KINGS_OF[1]), m.count_sites(MEN_OF[1])
  local k2, m2 = m.count_sites(KINGS_OF[2]), m.count_sites(MEN_OF[2])
  local limit = d12_limit(k1, m1, k2, m2)
  local sig = ((k1 * 32 + m1) * 32 + k2) * 32 + m2
  if limit == 0 or sig ~= get(SIGNATURE) then
    m.set(SIGNATURE, limit == 0 and 0 or sig)
    m.set(ENDING, 0)
  end
  if limit > 0 then
    local e = get(ENDING) + 1
    m.set(ENDING, e)
    if e >= limit then
      finish(0, string.format("%d moves each in this ending", limit / 2))
    end
  end
end)

-- ---- a decision ----

-- A step (D3, D4) or a jump (D5-D7): the piece jumped stays on the board,
-- its site kept in taken1.., and while the capturing piece can jump again
-- it waits, its site in jumper (D7); when the move ends the pieces jumped
-- come off together. A man on the far row is crowned (D9): only where its
-- move ends (crowning = end), at once, capturing on as a king (continue),
-- or at once, the move over (stop). Then, once for the move, the draw
-- counters (D11, D12). A capture, and a man's move, can never be undone.
local after = {}
if KING_LIMIT > 0 then after[#after + 1] = d11_kings_alone end
-- D12's endings have four pieces at most, and pieces never come back: a
-- board of more is no ending and none came before it, so the count is kept
-- only once four or fewer are left.
local FEW_PIECES = m.compare_rule { amount = m.count_rule { filter = m.filter { min = 1 } }, op = "<=", value = 4 }
if P.endgames then after[#after + 1] = m.after_if_rule { when = FEW_PIECES, after = { d12_endgame } } end
local d7_capture = m.rule("d7_capture", m.hop_play {
  pending = JUMPER, taken = TAKEN, again = d5_jumps, arrival = { d9_crown },
  arrival_last = P.crowning == "end", arrival_ends = P.crowning == "stop",
  progress = MEN, after = #after > 0 and after or nil,
})
local play = m.play_by_kind { [STEP] = d7_capture, [JUMP] = d7_capture, [JUMP_ON] = d7_capture }

-- What the decision asks, in the middle of a capture.
local function prompt(p, jumper)
  if jumper > 0 then
    return string.format("Your piece on %d must capture again: x and the square it lands on (or type the whole capture as one word, such as 27x18x9)", NUMBER[jumper])
  end
  return nil
end

-- ---- evaluate: advice for computer players, not a rule ----

-- Material (a flying king is worth about three men), the men's advance
-- towards the crowning row, and the pieces jumped in a capture under way
-- counted as gone; from p's side, squashed into -1..1.
local function evaluate(p)
  local score = 0
  for n = 1, SQUARES do
    local s = SITE[n]
    local o = owner(s)
    if o ~= 0 then
      local v
      if count(s) == 2 then
        v = 300
      else
        local adv = o == 1 and RANK[n] or N - 1 - RANK[n]
        v = 100 + 4 * adv
      end
      if o == p then score = score + v else score = score - v end
    end
  end
  for i = 1, MAX_TAKEN do
    local s = get(TAKEN[i])
    if s == 0 then break end
    local v = count(s) == 2 and 300 or 100
    if owner(s) == p then score = score - v else score = score + v end
  end
  local x = score / 400
  local e = math.exp(2 * x)
  return 0.95 * (e - 1) / (e + 1)
end

-- The cap on a game's decisions: a move that makes progress (a man's step,
-- at most size - 1 for each man; a capture, at most one per piece) comes
-- at least every 2 x king_moves decisions, and a capture of k pieces takes
-- k decisions. Without king_moves, a cap, not a bound.
local function ply_cap()
  if KING_LIMIT == 0 then return 20000 end
  local progress = 2 * MEN_EACH * (N - 1) + 2 * MEN_EACH
  return 2 * MEN_EACH + progress + (progress + 1) * KING_LIMIT
end
m.max_plies(ply_cap())

return {
  setup = d2_setup, legal = legal, play = play, blocked = d10_blocked,
  repeated = d11_repetition, prompt = prompt, evaluate = evaluate,
}
