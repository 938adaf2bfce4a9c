-- Tsoro Yemutwelve (twelve men's morris): the rules script of Matombo's
-- game `yemutwelve`.
--
-- It plays the points M1-M12 of its rules page, docs/rules/yemutwelve.md:
--   M1  the board (data): 24 points, lines, corner diagonals -> m1_board, variants.yaml
--   M2  twelve pieces each, in hand (pieces)                 -> m2_setup
--   M3  placing: a piece on any empty point                  -> m3_places
--   M4  moving: a step along a line to the empty point       -> m4_moves
--   M5  a mill: three of one player filling a line           -> m5_mill
--   M6  a mill removes an opponent's piece not in a mill     -> m6_removals
--   M7  a player left with two pieces loses                  -> m7_two_left
--   M8  a player who cannot move loses; a full board draws   -> m8_blocked
--   M9  the third repetition of a position is a draw         -> m9_repetition
--   M10 flying with three pieces (flying)                    -> m4_moves
--   M11 Nine Men's Morris (board plain, pieces 9)            -> variants.yaml
--   M12 Morabaraba (morabaraba): no mill remade at once by   -> m12_no_return,
--       moving back; ten moves each at three cows draw          m12_three_cows
local m = matombo

local BOARDS = m.data.boards
if type(BOARDS) ~= "table" then
  error("variants.yaml has no data.boards: Tsoro Yemutwelve needs at least one board there", 0)
end
local function board_names()
  local names = {}
  for name in pairs(BOARDS) do
    names[#names + 1] = tostring(name)
  end
  table.sort(names)
  return names
end

local P = m.declare {
  name = "yemutwelve",
  title = "Tsoro Yemutwelve",
  description = "Tsoro Yemutwelve, twelve men's morris as the Shona of Zimbabwe call it: twelve pieces " ..
    "each are placed on a board of three squares with corner diagonals, then moved along its lines; " ..
    "three in a line (a mill) remove an opponent's piece. A player left with two pieces, or unable to " ..
    "move, loses; a board filled by the placing is a draw. Variants: flying, Nine Men's Morris, Morabaraba.",
  players = 2,
  score_label = "removed",
  params = {
    { name = "board", default = "diagonals", values = board_names(),
      doc = "the board: a name under data.boards in variants.yaml (M1, M11)" },
    { name = "pieces", default = 12, values = { 9, 10, 11, 12 }, doc = "pieces per player (M2, M11)" },
    { name = "flying", default = false, doc = "a player with three pieces left may move one to any empty point (M10)" },
    { name = "morabaraba", default = false, doc = "Morabaraba's two rules: no mill remade at once by moving back, and ten moves each at three cows draw (M12)" },
  },
  conserve = true, -- on the board + in hand + removed (the captured totals)
  repetition = 3, -- M9
  -- Not a bound the rules prove (M9, the third repetition, ends every game
  -- but only after very many plies at worst); a cap with a wide margin over
  -- random games (see the rules page, M9).
  max_plies = 5000,
}

local PIECES, FLYING, MORABARABA = P.pieces, P.flying, P.morabaraba

-- M1 "Three squares inside each other, joined at the middles of their
-- sides, and the four diagonals joining their corners: 24 points a1..g7,
-- 20 lines of three. A piece steps to the next point of a line." The board
-- is data; its own fields go to matombo.board.
local m1_board = m.rule("m1_board", function(name)
  local b = BOARDS[name]
  if type(b) ~= "table" then
    error(string.format("board %s: want a mapping with points, lines and a picture", name), 0)
  end
  b.style = "pieces"
  m.board(b)
end)
m1_board(P.board)
if m.size() < 2 * 3 + 1 then
  error(string.format("board %s has %d points; morris needs at least 7", P.board, m.size()), 0)
end

local PLACE = m.move("place", "{1}")         -- M3 token: the point, e.g. d2
local MOVE = m.move("move", "{from}-{to}")   -- M4 token: from-to, e.g. d2-d3
local REMOVE = m.move("remove", "x{1}")      -- M6 token: x and the point, e.g. xe4

-- REMOVING is 1 while the mover, who has just made a mill, is to remove a
-- piece (M6). BACK_FROM[p], BACK_TO[p] (M12): the move that p may not make
-- next, 0 when none. QUIET (M12): decisions since both players came down
-- to three pieces without a removal; not part of the position.
local REMOVING = m.var("removing")
local BACK = { { m.var("back_from_1"), m.var("back_to_1") }, { m.var("back_from_2"), m.var("back_to_2") } }
local QUIET = m.var("quiet", { position = false })

local EMPTY = m.filter { owner = "nobody", max = 0 }
local MINE = m.filter { owner = "mover", min = 1 }
local THEIRS = m.filter { owner = "opponent", min = 1 }
local THEIRS_FREE = m.filter { owner = "opponent", min = 1, not_in_row = 3 }
local OWN = { m.filter { owner = 1, min = 1 }, m.filter { owner = 2, min = 1 } }

local hand, place, move_piece, capture, in_a_row, captured = m.hand, m.place, m.move_piece, m.capture, m.in_a_row, m.captured
local get, set, set_to_move, finish, first, count_sites = m.get, m.set, m.set_to_move, m.finish, m.first, m.count_sites
local emit, emit_each, emit_steps, emit_pairs, try = m.emit, m.emit_each, m.emit_steps, m.emit_pairs, m.try

-- The pieces a player still has, on the board and in hand: those the
-- opponent has not removed (removed pieces are the remover's captured
-- total, M6).
local function pieces_left(p)
  return PIECES - captured(3 - p)
end

-- M2 "Each player has twelve pieces (pieces: 9 to 12), in hand at the
-- start; the board is empty; Player 1 moves first."
local m2_setup = m.rule("m2_setup", function()
  m.set_hand(1, PIECES)
  m.set_hand(2, PIECES)
end)

-- M3 "While a player has pieces in hand, a turn places one on any empty
-- point."
local m3_places = m.rule("m3_places", function(p)
  emit_each(PLACE, EMPTY)
end)

-- M4 "When a player has placed all their pieces, a turn moves one of them
-- one step along a line to the next point, which must be empty." M10 with
-- flying: "a player with exactly three pieces left may move one of them
-- to any empty point."
local ADJ = {}
for s = 1, m.size() do ADJ[s] = m.adjacent(s) end
local m4_moves = m.rule("m4_moves", function(p, back_from, back_to)
  if FLYING and captured(3 - p) == PIECES - 3 then
    return emit_pairs(MOVE, MINE, EMPTY)
  end
  if back_from == 0 then
    return emit_steps(MOVE, MINE)
  end
  -- M12: the step back is barred if it would make a mill again (tried on
  -- a scratch copy); the steps are listed one by one.
  local barred = m.owner(back_from) == p and m.count(back_to) == 0 and try(function()
    move_piece(back_from, back_to)
    return in_a_row(p, back_to, 3)
  end)
  for s = 1, m.size() do
    if m.owner(s) == p then
      for _, t in ipairs(ADJ[s]) do
        if m.count(t) == 0 and not (barred and s == back_from and t == back_to) then
          emit(MOVE, s, t)
        end
      end
    end
  end
end)

-- M5 "A player whose piece, just placed or moved to s, fills a line of
-- three with their own pieces has made a mill (two lines at once count as
-- one mill)."
local m5_mill = m.rule("m5_mill", function(p, s)
  return in_a_row(p, s, 3)
end)

-- M6 "After making a mill the player removes one of the opponent's pieces
-- from the board, a piece that is not in a mill of the opponent's; only
-- when all of them are in mills may one of those be removed. A player
-- whose opponent has no piece on the board removes none. The token is x
-- and the point." Removed pieces count as the remover's captured total.
local m6_removals = m.rule("m6_removals", function(p)
  if emit_each(REMOVE, THEIRS_FREE) == 0 then
    emit_each(REMOVE, THEIRS)
  end
end)

-- M7 "A player left with two pieces (on the board and in hand together)
-- has lost."
local m7_two_left = m.rule("m7_two_left", function(q)
  return pieces_left(q) <= 2
end)

-- M8 "A player who must move and cannot has lost; but when the placing
-- has filled the board (24 pieces, no mill made), nobody can move and the
-- game is a draw."
local m8_blocked = m.rule("m8_blocked", function(p)
  if first(EMPTY) == nil then
    return finish(0, "full board")
  end
  finish(3 - p, "no legal move")
end)

-- M9 "The third occurrence of a position (pieces, hands, the player to
-- move and what they must do) is a draw."
local m9_repetition = m.rule("m9_repetition", function()
  finish(0, "third repetition")
end)

-- M12 Morabaraba (1): "a player who breaks a mill by moving a piece and so
-- makes a new mill may not move that piece straight back on their next
-- move, if that would make a mill again." Records the move back; m4_moves
-- bars it if it would make a mill.
local m12_no_return = m.rule("m12_no_return", function(p, from, to, broke, made)
  if broke and made then
    set(BACK[p][1], to)
    set(BACK[p][2], from)
  end
end)

-- M12 Morabaraba (2): "when both players have three pieces left and ten
-- moves each pass without a removal, the game is a draw." Returns whether
-- it ends the game now.
local m12_three_cows = m.rule("m12_three_cows", function(removed)
  if removed or pieces_left(1) ~= 3 or pieces_left(2) ~= 3 then
    set(QUIET, 0)
    return false
  end
  local q = get(QUIET) + 1
  set(QUIET, q)
  if q >= 20 then
    finish(0, "ten moves each at three pieces")
    return true
  end
  return false
end)

local function legal(p, removing, bf1, bt1, bf2, bt2)
  if removing > 0 then
    return m6_removals(p)
  end
  if hand(p) > 0 then
    return m3_places(p)
  end
  if p == 1 then
    return m4_moves(p, bf1, bt1)
  end
  return m4_moves(p, bf2, bt2)
end

-- After a piece arrives on s: a mill makes the mover remove a piece (the
-- same player decides again), unless the opponent has none on the board.
local function after_arrival(p, s)
  if m5_mill(p, s) and first(THEIRS) then
    set(REMOVING, 1)
    set_to_move(p)
    return true
  end
  return false
end

local function play(p, kind, a, b)
  if kind == REMOVE then
    capture(a, p)
    set(REMOVING, 0)
    if m7_two_left(3 - p) then
      return finish(p, "two pieces left")
    end
    if MORABARABA then
      m12_three_cows(true)
    end
    return
  end
  if kind == PLACE then
    place(p, a)
    after_arrival(p, a)
    return
  end
  local broke = MORABARABA and m5_mill(p, a)
  move_piece(a, b)
  local made = after_arrival(p, b)
  if MORABARABA then
    set(BACK[p][1], 0)
    set(BACK[p][2], 0)
    m12_no_return(p, a, b, broke, made)
    if not made then
      m12_three_cows(false)
    end
  end
end

-- A position set up rather than played: a player already down to two
-- pieces has lost.
local function result(p)
  for i = 1, 2 do -- the player to move first, with no table built
    local q = i == 1 and p or 3 - p
    if m7_two_left(q) then
      return finish(3 - q, "two pieces left")
    end
  end
end

-- The scores: the pieces each player has removed.
local function score()
  return m.captured(1), m.captured(2)
end

-- evaluate: advice for computer players, not a rule. Pieces left weigh
-- most (two left loses), then mobility: the steps each player could make.
local function mobility(p)
  local n = 0
  for s = 1, m.size() do
    if m.owner(s) == p then
      for _, t in ipairs(ADJ[s]) do
        if m.count(t) == 0 then n = n + 1 end
      end
    end
  end
  return n
end

local function evaluate(p)
  local q = 3 - p
  local mine, theirs = pieces_left(p), pieces_left(q)
  local material = (mine - theirs) / (mine + theirs)
  local mm, mt = mobility(p), mobility(q)
  local mob = (mm - mt) / (mm + mt + 1)
  return math.max(-0.95, math.min(0.95, 0.8 * material + 0.15 * mob))
end

return {
  setup = m2_setup, legal = legal, play = play, blocked = m8_blocked, repeated = m9_repetition,
  result = result, score = score, evaluate = evaluate,
}
