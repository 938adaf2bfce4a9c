-- Nine Holes: the rules script of Matombo's game `nineholes`.
--
-- It plays the points N1-N7 of its rules page, docs/rules/nineholes.md:
--   N1 the board: 3x3 holes, rows and columns, no diagonals -> the board below
--   N2 three pieces each, in hand; Player 1 first           -> n2_setup
--   N3 drops on any empty hole                              -> n3_drops
--   N4 moves: a step along a row or column (moves = anywhere) -> n4_moves
--   N5 three in a row or column win at once                 -> n5_three_in_a_row
--   N6 a player who cannot move loses                       -> n6_blocked
--   N7 the third repetition of a position is a draw         -> n7_repetition
local m = matombo

local P = m.declare {
  name = "nineholes",
  title = "Nine Holes",
  description = "Nine Holes, the English three-in-a-row game of the smaller merels. Each player drops " ..
    "three pieces in a square of nine holes, then moves them one step along a row or column; three in " ..
    "a row or column, never diagonally, win. Murray's nine holes lets a piece move to any empty hole.",
  players = 2,
  params = {
    { name = "moves", default = "steps", values = { "steps", "anywhere" },
      doc = "a move is a step to the next hole of a row or column, or to any empty hole (N4)" },
  },
  conserve = true,
  repetition = 3, -- N7
  max_plies = 6 + 2 * 3360, -- as Tapatan: 2 * C(9,3) * C(6,3) move-phase positions, each at most twice
}

-- N1 "Nine holes a1..c3 in three rows (a at the bottom) and three
-- columns; the lines are the rows and the columns, not the diagonals."
m.board {
  points = { a1 = 0, a2 = 1, a3 = 2, b1 = 0, b2 = 1, b3 = 2, c1 = 0, c2 = 1, c3 = 2 },
  lines = {
    { "a1", "a2", "a3" }, { "b1", "b2", "b3" }, { "c1", "c2", "c3" },
    { "a1", "b1", "c1" }, { "a2", "b2", "c2" }, { "a3", "b3", "c3" },
  },
  style = "pieces",
  picture = [[
c  @-----@-----@
   |     |     |
   |     |     |
b  @-----@-----@
   |     |     |
   |     |     |
a  @-----@-----@]],
}

local PIECES = 3
local DROP = m.move("drop", "{1}")
local MOVE = m.move("move", "{from}-{to}")
local EMPTY = m.filter { owner = "nobody", max = 0 }
local MINE = m.filter { owner = "mover", min = 1 }

local hand, place, move_piece, in_a_row, finish = m.hand, m.place, m.move_piece, m.in_a_row, m.finish
local emit_each, emit_steps, emit_pairs = m.emit_each, m.emit_steps, m.emit_pairs

-- N2 "Each player has three pieces, in hand at the start; Player 1 moves
-- first."
local n2_setup = m.rule("n2_setup", function()
  m.set_hand(1, PIECES)
  m.set_hand(2, PIECES)
end)

-- N3 "While a player has a piece in hand, a turn drops one in any empty
-- hole."
local n3_drops = m.rule("n3_drops", function(p)
  emit_each(DROP, EMPTY)
end)

-- N4 "When both hands are empty, a turn moves one of the player's pieces
-- to the next hole of its row or column, which must be empty (moves =
-- anywhere: to any empty hole)."
local n4_moves = m.rule("n4_moves", function(p)
  if P.moves == "anywhere" then
    return emit_pairs(MOVE, MINE, EMPTY)
  end
  emit_steps(MOVE, MINE)
end)

-- N5 "Three pieces of a player in one row or column win at once, in
-- either phase; a diagonal does not count."
local n5_three_in_a_row = m.rule("n5_three_in_a_row", function(p, s)
  return in_a_row(p, s, 3)
end)

-- N6 "A player who must move and cannot loses" (the project's choice: the
-- sources are silent).
local n6_blocked = m.rule("n6_blocked", function(p)
  finish(3 - p, "no legal move")
end)

-- N7 "The third occurrence of a position (pieces, hands, player to move)
-- is a draw."
local n7_repetition = m.rule("n7_repetition", function()
  finish(0, "third repetition")
end)

local function legal(p)
  if hand(p) > 0 then
    return n3_drops(p)
  end
  if hand(3 - p) == 0 then
    return n4_moves(p)
  end
end

local function play(p, kind, a, b)
  if kind == DROP then
    place(p, a)
  else
    move_piece(a, b)
    a = b
  end
  if n5_three_in_a_row(p, a) then
    return finish(p, "three in a row")
  end
end

local function result(p)
  for i = 1, 2 do -- the last mover first, with no table built
    local q = i == 1 and 3 - p or p
    if in_a_row(q, nil, 3) then
      return finish(q, "three in a row")
    end
  end
end

-- evaluate: advice for computer players, not a rule: open twos, the
-- mover's counting double.
-- (m.open_lines counts them: on this board every line has three points.)
local threats = m.open_lines

local function evaluate(p)
  local mine, theirs = threats(p), threats(3 - p)
  if m.to_move() == p then mine = mine * 2 else theirs = theirs * 2 end
  return math.max(-0.9, math.min(0.9, 0.2 * (mine - theirs)))
end

return {
  setup = n2_setup, legal = legal, play = play, blocked = n6_blocked,
  repeated = n7_repetition, result = result, evaluate = evaluate,
}
