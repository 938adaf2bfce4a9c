-- Tapatan: the rules script of Matombo's game `tapatan`.
--
-- It plays the points P1-P7 of its rules page, docs/rules/tapatan.md:
--   P1 the board: 3x3 points, rows, columns, diagonals -> the board below
--   P2 three pieces each, in hand; Player 1 first       -> p2_setup
--   P3 drops, and where the first may go (first_drop)   -> p3_drops
--   P4 moves: a step along a line (moves = anywhere)    -> p4_moves
--   P5 three on a line win at once                      -> p5_three_on_a_line
--   P6 a player who cannot move: stalemate, a draw      -> p6_blocked
--   P7 the third repetition of a position is a draw     -> p7_repetition
local m = matombo

local P = m.declare {
  name = "tapatan",
  title = "Tapatan",
  description = "Tapatan, the three-in-a-row game of the Philippines (Culin 1900). Each player drops " ..
    "three pieces on the nine points of a square with its diagonals and midlines, then moves them one " ..
    "step along a line; three on a line win. Stalemate and a third repetition are draws.",
  players = 2,
  params = {
    { name = "first_drop", default = "anywhere", values = { "anywhere", "not_centre", "centre" },
      doc = "where Player 1's first piece may go (P3)" },
    { name = "moves", default = "steps", values = { "steps", "anywhere" },
      doc = "a move is a step along a line, or to any empty point (P4)" },
  },
  conserve = true,
  repetition = 3, -- P7
  -- Drops never repeat (hands shrink), so at most 6 drops, then each of the
  -- 2 * C(9,3) * C(6,3) = 3360 move-phase positions at most twice before
  -- its third occurrence ends the game (P7).
  max_plies = 6 + 2 * 3360,
}

-- P1 "Nine points a1..c3: three rows (a at the bottom), three columns and
-- the two diagonals are the lines; a piece steps from a point to the next
-- point on a line."
m.board {
  points = { a1 = 0, a2 = 1, a3 = 2, b1 = 0, b2 = 1, b3 = 2, c1 = 0, c2 = 1, c3 = 2 },
  lines = {
    { "a1", "a2", "a3" }, { "b1", "b2", "b3" }, { "c1", "c2", "c3" },
    { "a1", "b1", "c1" }, { "a2", "b2", "c2" }, { "a3", "b3", "c3" },
    { "a1", "b2", "c3" }, { "a3", "b2", "c1" },
  },
  style = "pieces",
  picture = [[
c  @-----@-----@
   | \   |   / |
   |   \ | /   |
b  @-----@-----@
   |   / | \   |
   | /   |   \ |
a  @-----@-----@]],
}

local PIECES = 3
local CENTRE = m.site("b2")
local DROP = m.move("drop", "{1}")
local MOVE = m.move("move", "{from}-{to}")
local EMPTY = m.filter { owner = "nobody", max = 0 }
local MINE = m.filter { owner = "mover", min = 1 }

local hand, place, move_piece, in_a_row, finish = m.hand, m.place, m.move_piece, m.in_a_row, m.finish
local emit, emit_each, emit_steps, emit_pairs = m.emit, m.emit_each, m.emit_steps, m.emit_pairs

-- P2 "Each player has three pieces, in hand at the start; Player 1 moves
-- first."
local p2_setup = m.rule("p2_setup", function()
  m.set_hand(1, PIECES)
  m.set_hand(2, PIECES)
end)

-- P3 "While a player has a piece in hand, a turn drops one on an empty
-- point. first_drop: anywhere (default); not_centre: Player 1's first
-- piece may not go on the centre b2; centre: it must."
local p3_drops = m.rule("p3_drops", function(p)
  if p == 1 and hand(1) == PIECES and P.first_drop ~= "anywhere" then
    if P.first_drop == "centre" then
      return emit(DROP, CENTRE)
    end
    for s = 1, m.size() do
      if s ~= CENTRE then
        emit(DROP, s)
      end
    end
    return
  end
  emit_each(DROP, EMPTY)
end)

-- P4 "When both hands are empty, a turn moves one of the player's pieces
-- one step along a line to the next point, which must be empty; there are
-- no jumps. moves = anywhere: to any empty point."
local p4_moves = m.rule("p4_moves", function(p)
  if P.moves == "anywhere" then
    return emit_pairs(MOVE, MINE, EMPTY)
  end
  emit_steps(MOVE, MINE)
end)

-- P5 "Three pieces of a player on one line win at once, in either phase."
-- Only the mover's piece moved, so a winning line passes through it.
local p5_three_on_a_line = m.rule("p5_three_on_a_line", function(p, s)
  return in_a_row(p, s, 3)
end)

-- P6 "A player who must move and cannot (every piece hemmed in) is
-- stalemated: the game is a draw."
local p6_blocked = m.rule("p6_blocked", function(p)
  finish(0, "stalemate")
end)

-- P7 "The third occurrence of a position (pieces, hands, player to move)
-- is a draw." The host counts positions (repetition = 3 above).
local p7_repetition = m.rule("p7_repetition", function()
  finish(0, "third repetition")
end)

local function legal(p)
  if hand(p) > 0 then
    return p3_drops(p)
  end
  if hand(3 - p) == 0 then
    return p4_moves(p)
  end
end

local function play(p, kind, a, b)
  if kind == DROP then
    place(p, a)
  else
    move_piece(a, b)
    a = b
  end
  if p5_three_on_a_line(p, a) then
    return finish(p, "three on a line")
  end
end

-- A position set up rather than played: three on a line decide it, the
-- last mover's first.
local function result(p)
  for i = 1, 2 do -- the last mover first, with no table built
    local q = i == 1 and 3 - p or p
    if in_a_row(q, nil, 3) then
      return finish(q, "three on a line")
    end
  end
end

-- evaluate: advice for computer players, not a rule. Lines where a player
-- has two pieces and the third point is empty, the mover's counting
-- double; the centre, on four lines, is worth a little.
-- (m.open_lines counts them: on this board every line has three points.)
local owner, threats = m.owner, m.open_lines

local function evaluate(p)
  local mine, theirs = threats(p), threats(3 - p)
  if m.to_move() == p then mine = mine * 2 else theirs = theirs * 2 end
  local c = owner(CENTRE)
  local v = 0.2 * (mine - theirs) + (c == p and 0.1 or c ~= 0 and -0.1 or 0)
  return math.max(-0.9, math.min(0.9, v))
end

return {
  setup = p2_setup, legal = legal, play = play, blocked = p6_blocked,
  repeated = p7_repetition, result = result, evaluate = evaluate,
}
