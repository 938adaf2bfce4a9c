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
--   D7  captures are compulsory and go on; pieces are taken   -> d7_sequences,
--       off at the end; a king stops where it can go on           d7_take_off
--   D8  the choice of capture: free or the most (capture)     -> d7_sequences
--   D9  crowning on the far row; during a capture (crowning)  -> d9_crown
--   D10 a player who cannot move loses                        -> d10_blocked
--   D11 repetition, and moves of kings alone, draw            -> d11_draws
--   D12 FMJD's counts of moves in a few endings (endgames)    -> d12_endgame
--   D13 the variants                                          -> variants.yaml
--   D14 a position set up in FEN (fen)                        -> d14_fen
--
-- A capture is a decision per jump, as in English draughts: the capturing
-- piece's square is the variable `jumper`, the squares of the pieces it
-- has jumped are `taken1`.. (they stay on the board until the move ends,
-- D7). The legal jumps come from a search of the capture sequences on a
-- copy of the board in Lua tables (d7_sequences), the part a native rule
-- would replace.
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
local MEN = (N / 2 - 1) * HALF -- twelve or twenty men each
local MEN_BACK, MOST = P.men_back, P.capture == "most"
local CROWN_END, CROWN_CONTINUE, CROWN_STOP = P.crowning == "end", P.crowning == "continue", P.crowning == "stop"
local KING_LIMIT = 2 * P.king_moves
local MAX_TAKEN = MEN -- the most pieces one move can take

local count, owner, emit, get, set = m.count, m.owner, m.emit, m.get, m.set
local move_piece, capture, set_to_move, finish = m.move_piece, m.capture, m.set_to_move, m.finish

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

-- Squares by number and numbers by site; RAY[d][n], the squares from n
-- outwards in direction d: 1 up-right, 2 up-left (Player 1's forward), 3
-- down-right, 4 down-left (Player 2's forward).
local SITE, NUMBER = {}, {}
for n = 1, SQUARES do
  SITE[n] = m.site(SQUARE[n])
  NUMBER[SITE[n]] = n
end
local RAY = { {}, {}, {}, {} }
do
  local by = {}
  for n = 1, SQUARES do by[RANK[n] * N + FILE[n]] = n end
  local DF, DR = { 1, -1, 1, -1 }, { 1, 1, -1, -1 }
  for n = 1, SQUARES do
    for d = 1, 4 do
      local ray, f, r = {}, FILE[n] + DF[d], RANK[n] + DR[d]
      while f >= 0 and f < N and r >= 0 and r < N do
        ray[#ray + 1] = by[r * N + f]
        f, r = f + DF[d], r + DR[d]
      end
      RAY[d][n] = ray
    end
  end
end
-- Directions in the order moves are listed, so that from a square the
-- smaller numbers come first: up-left before up-right, down-left before
-- down-right. FORWARD[p] for p's men.
local ORDER = { 2, 1, 4, 3 }
local FORWARD = { { 2, 1 }, { 4, 3 } }
local function far_row(p, n) -- the row where p's men are crowned
  if p == 1 then return RANK[n] == N - 1 end
  return RANK[n] == 0
end

local STEP = m.move("move", "{#from}-{#to}", { doc = "Move {#from} to {#to}", prompt = "Move a man one square diagonally forward, or a king any distance along a diagonal (32-28)" })
local JUMP = m.move("jump", "{#from}x{#to}", { doc = "Capture from {#from} to {#to}", prompt = "Capture: jump over an opponent's piece to an empty square beyond (19x28); a capture is compulsory" })
local JUMP_ON = m.move("jump_on", "x{#1}", { doc = "Jump on to {#1}", prompt = "The capturing piece jumps again: x and the square it lands on (x10)" })

-- jumper: the square number of the piece in the middle of a capture (0
-- between moves); taken1..: the squares of the pieces it has jumped, still
-- on the board (D7); crowned: 1 when a man was crowned during this capture
-- (crowning = continue). quiet, ending, signature: the draw counters of
-- D11 and D12, not part of the position.
local JUMPER = m.var("jumper")
local TAKEN = {}
for i = 1, MAX_TAKEN do TAKEN[i] = m.var("taken" .. i) end
local NTAKEN = m.var("ntaken")
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
    if on[p] > MEN then
      bad(string.format("%s has %d pieces; each player has at most %d", p == 1 and "White" or "Black", on[p], MEN))
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
      m.set_hand(p, MEN - kings)
      if men + kings < MEN then
        m.set_count(SITE[1], MEN - men - kings)
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
  m.set_hand(1, MEN)
  m.set_hand(2, MEN)
  for n = 1, MEN do
    place(n, 2, 1)
    place(SQUARES + 1 - n, 1, 1)
  end
end)

-- ---- D3-D9: the moves ----

-- A copy of the board in Lua tables, read once per call: OWNER[n], KING[n]
-- by square number, and TAKEN_AT[n] for the pieces jumped in this move.
local OWNER, KING, TAKEN_AT = {}, {}, {}
local function read_board()
  for n = 1, SQUARES do
    local s = SITE[n]
    local o = owner(s)
    OWNER[n] = o
    KING[n] = o ~= 0 and count(s) == 2
    TAKEN_AT[n] = false
  end
end

-- D3 "A man moves one square diagonally forward to an empty square." D4
-- "A king moves any number of squares along a diagonal, over empty
-- squares only." Emits the steps of p's piece on square n.
local d3_steps = m.rule("d3_steps", function(p, n)
  local k = 0
  if KING[n] then
    for o = 1, 4 do
      local ray = RAY[ORDER[o]][n]
      for i = 1, #ray do
        local t = ray[i]
        if OWNER[t] ~= 0 then break end
        emit(STEP, SITE[n], SITE[t])
        k = k + 1
      end
    end
    return k
  end
  local fwd = FORWARD[p]
  for o = 1, 2 do
    local t = RAY[fwd[o]][n][1]
    if t and OWNER[t] == 0 then
      emit(STEP, SITE[n], SITE[t])
      k = k + 1
    end
  end
  return k
end)

-- D5 "A man captures by jumping over an opponent's piece on the square
-- next to it, diagonally, to the empty square beyond: forward and
-- backward (with men_back false, forward only)." D6 "A king captures at a
-- distance: along a diagonal, over empty squares, it jumps an opponent's
-- piece and lands on any empty square beyond it, before the next piece."
-- A piece already jumped in this move cannot be jumped again and blocks
-- the way (D7). Calls found(over, land) for each jump of p's piece on n,
-- a king if king.
local d5_jumps = m.rule("d5_jumps", function(p, n, king, found)
  local q = 3 - p
  if king then
    for o = 1, 4 do
      local ray = RAY[ORDER[o]][n]
      local i = 1
      while ray[i] and OWNER[ray[i]] == 0 do i = i + 1 end
      local over = ray[i]
      if over and OWNER[over] == q and not TAKEN_AT[over] then
        local j = i + 1
        while ray[j] and OWNER[ray[j]] == 0 do
          found(over, ray[j])
          j = j + 1
        end
      end
    end
    return
  end
  for o = 1, 4 do
    local d = ORDER[o]
    if MEN_BACK or d == FORWARD[p][1] or d == FORWARD[p][2] then
      local ray = RAY[d][n]
      local over, land = ray[1], ray[2]
      if land and OWNER[land] == 0 and OWNER[over] == q and not TAKEN_AT[over] then
        found(over, land)
      end
    end
  end
end)

-- any_jump records whether d5_jumps found a jump, through note_jump: one
-- function made at load, not a closure made at every question.
local any_jump = false
local function note_jump() any_jump = true end

-- Whether p's piece on n (a king or not) has a jump.
local function can_jump(p, n, king)
  any_jump = false
  d5_jumps(p, n, king, note_jump)
  return any_jump
end

-- D9's crowning during a capture: whether a man of p landing on n is a
-- king for the rest of the capture (continue), and whether the capture
-- stops there (stop).
local function crowned_on(p, n, king)
  return king or (CROWN_CONTINUE and far_row(p, n))
end
local function stops_on(p, n, king)
  return not king and CROWN_STOP and far_row(p, n)
end

-- The most pieces p's piece on n (a king if king) can still take, on the
-- board copy, jumps made so far marked in TAKEN_AT (D8's count; the search
-- moves the piece and marks and unmarks the pieces it jumps).
local function most_from(p, n, king)
  if stops_on(p, n, king) then return 0 end
  local best = 0
  d5_jumps(p, n, king, function(over, land)
    OWNER[land], OWNER[n] = p, 0
    TAKEN_AT[over] = true
    local v = 1 + most_from(p, land, crowned_on(p, land, king))
    TAKEN_AT[over] = false
    OWNER[n], OWNER[land] = p, 0
    if v > best then best = v end
  end)
  return best
end

-- Whether p's piece, landing on land after jumping over, can capture
-- again from there.
local function goes_on(p, from, over, land, king)
  if stops_on(p, land, king) then return false end
  OWNER[land], OWNER[from] = p, 0
  TAKEN_AT[over] = true
  local more = can_jump(p, land, crowned_on(p, land, king))
  TAKEN_AT[over] = false
  OWNER[from], OWNER[land] = p, 0
  return more
end

-- D7 "A player who can capture must, and a capture goes on jump after
-- jump while the capturing piece can capture; a king that can land on
-- several squares must land on one from which it can capture again, if
-- there is one." D8 "With capture = most, the capture must take as many
-- pieces as any capture of the position can; kings and men count alike."
-- Emits, with kind (JUMP from the squares, JUMP_ON for the jumper), the
-- legal jumps of p's piece on n; with best > 0 (D8) only those starting a
-- sequence of best pieces. Returns how many.
-- Scratch for d7_sequences' free choice, filled within one call (it does
-- not recurse): the jumps found, by number, and the pieces jumped from
-- which some landing goes on.
local LANDS, OVERS, ON, CAN_GO_ON, nlands = {}, {}, {}, {}, 0
local function collect(over, land)
  nlands = nlands + 1
  LANDS[nlands], OVERS[nlands] = land, over
end

local d7_sequences = m.rule("d7_sequences", function(p, n, king, kind, best)
  local k = 0
  if MOST then
    local function add(land)
      if kind == JUMP_ON then emit(JUMP_ON, SITE[land]) else emit(JUMP, SITE[n], SITE[land]) end
      k = k + 1
    end
    d5_jumps(p, n, king, function(over, land)
      OWNER[land], OWNER[n] = p, 0
      TAKEN_AT[over] = true
      local v = 1 + most_from(p, land, crowned_on(p, land, king))
      TAKEN_AT[over] = false
      OWNER[n], OWNER[land] = p, 0
      if v == best then add(land) end
    end)
    return k
  end
  -- Free choice: every jump, but a king lands where it can go on if it
  -- can from one of the squares beyond the piece it jumps.
  nlands = 0
  d5_jumps(p, n, king, collect)
  for i = 1, nlands do CAN_GO_ON[OVERS[i]] = false end
  for i = 1, nlands do
    ON[i] = goes_on(p, n, OVERS[i], LANDS[i], king)
    if ON[i] then CAN_GO_ON[OVERS[i]] = true end
  end
  for i = 1, nlands do
    local land = LANDS[i]
    if ON[i] or not CAN_GO_ON[OVERS[i]] then
      if kind == JUMP_ON then emit(JUMP_ON, SITE[land]) else emit(JUMP, SITE[n], SITE[land]) end
      k = k + 1
    end
  end
  return k
end)

-- The pieces jumped so far in this move, from the variables, marked on
-- the board copy.
local function mark_taken(ntaken)
  for i = 1, ntaken do TAKEN_AT[get(TAKEN[i])] = true end
end

-- D9 "A man that ends its move on the far row is crowned king. A man that
-- reaches the far row during a capture and can capture on goes on as a
-- man and is crowned only if the move ends there (crowning = end); with
-- crowning = continue it is crowned at once and captures on as a king
-- (Russian draughts); with crowning = stop it is crowned and the move ends
-- (Tanzanian draughts)." Crowns p's man on n; returns whether it did.
local d9_crown = m.rule("d9_crown", function(p, n)
  local s = SITE[n]
  if count(s) ~= 1 or not far_row(p, n) then return false end
  m.set_hand(p, m.hand(p) - 1)
  m.add(s, 1)
  return true
end)

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

-- D12 "With endgames (FMJD's rule of International draughts): three
-- pieces, one of them at least a king, against a lone king draw after 16
-- moves each; two pieces or one, one a king, against a lone king after 5
-- moves each. The count starts again when the pieces change." Returns the
-- decisions allowed in the position's ending, 0 when it is none of these;
-- the signature tells one ending from another.
local function material()
  local k1, m1, k2, m2 = 0, 0, 0, 0
  for n = 1, SQUARES do
    local o = OWNER[n]
    if o == 1 then
      if KING[n] then k1 = k1 + 1 else m1 = m1 + 1 end
    elseif o == 2 then
      if KING[n] then k2 = k2 + 1 else m2 = m2 + 1 end
    end
  end
  return k1, m1, k2, m2
end
local d12_endgame = m.rule("d12_endgame", function(k1, m1, k2, m2)
  local function limit(ka, ma, kb, mb)
    if kb ~= 1 or mb ~= 0 or ka < 1 then return 0 end
    if ka + ma == 3 then return 32 end
    if ka + ma <= 2 then return 10 end
    return 0
  end
  return math.max(limit(k1, m1, k2, m2), limit(k2, m2, k1, m1))
end)

-- D11 "The third occurrence of the same position (the pieces and the
-- player to move) is a draw; so is a game in which both players have
-- moved only kings, without a capture, for king_moves moves each (25,
-- FMJD; 15, Russian draughts)." After a whole move: kings_only tells that
-- the move was a king's and captured nothing. Returns whether the game
-- ended.
local d11_draws = m.rule("d11_draws", function(kings_only)
  if kings_only then
    local q = get(QUIET) + 1
    set(QUIET, q)
    if KING_LIMIT > 0 and q >= KING_LIMIT then
      finish(0, string.format("%d moves each of kings alone", P.king_moves))
      return true
    end
  else
    set(QUIET, 0)
  end
  if P.endgames then
    read_board()
    local k1, m1, k2, m2 = material()
    local limit = d12_endgame(k1, m1, k2, m2)
    local sig = ((k1 * 32 + m1) * 32 + k2) * 32 + m2
    if limit == 0 or sig ~= get(SIGNATURE) then
      set(SIGNATURE, limit == 0 and 0 or sig)
      set(ENDING, 0)
    end
    if limit > 0 then
      local e = get(ENDING) + 1
      set(ENDING, e)
      if e >= limit then
        finish(0, string.format("%d moves each in this ending", limit / 2))
        return true
      end
    end
  end
  if m.repetitions() >= 3 then
    finish(0, "third repetition")
    return true
  end
  return false
end)

-- ---- the legal moves ----

local mine = {} -- scratch: p's squares, within one call
local function legal(p, jumper, ...)
  read_board()
  if jumper > 0 then
    local ntaken = select(MAX_TAKEN + 1, ...)
    mark_taken(ntaken)
    local king = KING[jumper] -- a man crowned during the capture is a king now (continue)
    local best = 0
    if MOST then best = most_from(p, jumper, king) end
    return d7_sequences(p, jumper, king, JUMP_ON, best)
  end
  local k, best, any = 0, 0, false
  for n = 1, SQUARES do
    if OWNER[n] == p then
      k = k + 1
      mine[k] = n
    end
  end
  -- D7: is there a capture? D8: how many pieces does the best take?
  for i = 1, k do
    local n = mine[i]
    if MOST then
      local v = most_from(p, n, KING[n])
      if v > best then best = v end
    else
      any = can_jump(p, n, KING[n])
      if any then break end
    end
  end
  if best > 0 or any then
    local jumps = 0
    for i = 1, k do
      jumps = jumps + d7_sequences(p, mine[i], KING[mine[i]], JUMP, best)
    end
    return jumps
  end
  local steps = 0
  for i = 1, k do steps = steps + d3_steps(p, mine[i]) end
  return steps
end

-- ---- a decision ----

-- The end of a capture (D7): the pieces jumped come off the board, the man
-- that ends on the far row is crowned (D9), and the turn passes.
local d7_take_off = m.rule("d7_take_off", function(p, ntaken)
  for i = 1, ntaken do
    capture(SITE[get(TAKEN[i])], p)
    set(TAKEN[i], 0)
  end
  set(NTAKEN, 0)
  set(JUMPER, 0)
end)

local function play(p, kind, a, b)
  if kind == STEP then
    local from, to = NUMBER[a], NUMBER[b]
    local man = count(a) == 1
    move_piece(a, b)
    if man then
      d9_crown(p, to)
      m.irreversible()
    end
    d11_draws(not man)
    return
  end
  -- A jump: the first of a capture (JUMP, a to b) or the next (JUMP_ON).
  local from, to
  if kind == JUMP then
    from, to = NUMBER[a], NUMBER[b]
  else
    from, to = get(JUMPER), NUMBER[a]
  end
  read_board()
  local ntaken = get(NTAKEN)
  mark_taken(ntaken)
  local king = KING[from]
  -- The piece jumped: the one opponent's piece between from and to.
  local over
  for d = 1, 4 do
    local ray = RAY[d][from]
    for i = 1, #ray do
      if ray[i] == to then
        for j = 1, i - 1 do
          if OWNER[ray[j]] ~= 0 then over = ray[j] end
        end
      end
    end
  end
  move_piece(SITE[from], SITE[to])
  OWNER[to], OWNER[from], KING[to], KING[from] = p, 0, king, false
  ntaken = ntaken + 1
  set(TAKEN[ntaken], over)
  set(NTAKEN, ntaken)
  TAKEN_AT[over] = true
  -- D9 during the capture: crowned at once (continue), or crowned and
  -- the move over (stop).
  if not king and far_row(p, to) and (CROWN_CONTINUE or CROWN_STOP) then
    d9_crown(p, to)
    king = true
    KING[to] = true
    if CROWN_STOP then
      d7_take_off(p, ntaken)
      m.irreversible()
      d11_draws(false)
      return
    end
  end
  if can_jump(p, to, king) then
    set(JUMPER, to)
    set_to_move(p)
    return
  end
  d7_take_off(p, ntaken)
  if not king then d9_crown(p, to) end
  m.irreversible()
  d11_draws(false)
end

-- What the decision asks, in the middle of a capture.
local function prompt(p, jumper)
  if jumper > 0 then
    return string.format("Your piece on %d must capture again: x and the square it lands on (or type the whole capture as one word, such as 27x18x9)", jumper)
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
  local ntaken = get(NTAKEN)
  for i = 1, ntaken do
    local s = SITE[get(TAKEN[i])]
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
  local progress = 2 * MEN * (N - 1) + 2 * MEN
  return 2 * MEN + progress + (progress + 1) * KING_LIMIT
end
m.max_plies(ply_cap())

return {
  setup = d2_setup, legal = legal, play = play, blocked = d10_blocked,
  prompt = prompt, evaluate = evaluate,
}
