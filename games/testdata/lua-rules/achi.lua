-- Achi: the rules script of Matombo's game `achi`.
--
-- It plays the points A1-A7 of its rules page, docs/rules/achi.md:
--   A1 the board: 3x3 points, rows, columns, diagonals -> the board below
--   A2 four pieces each (pieces = 3), in hand            -> a2_setup
--   A3 drops on any empty point                          -> a3_drops
--   A4 moves: a step along a line to the empty point     -> a4_steps
--   A5 three on a line win at once                       -> a5_three_on_a_line
--   A6 a player who cannot move passes (blocked = loses) -> a6_blocked
--   A7 the third repetition of a position is a draw      -> a7_repetition
local m = matombo

local P = m.declare {
  name = "achi",
  title = "Achi",
  description = "Achi, the three-in-a-row game of Ghana (R. C. Bell). Each player drops four pieces on " ..
    "the nine points of a square with its diagonals and midlines, leaving one point empty, then slides " ..
    "them one step along a line into it; three on a line win. A player who cannot move passes.",
  players = 2,
  params = {
    { name = "pieces", default = 4, values = { 3, 4 }, doc = "pieces per player (A2)" },
    { name = "blocked", default = "pass", values = { "pass", "loses" },
      doc = "what a player who cannot move does: pass, or lose (A6)" },
  },
  conserve = true,
  repetition = 3, -- A7
}

local PIECES = P.pieces

-- A1 "Nine points a1..c3 on three rows (a at the bottom) and three
-- columns, joined by the rows, the columns and the two diagonals: eight
-- lines of three."
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

-- Drops never repeat (the hands shrink); every move-phase position (the
-- pieces of both players and who moves) occurs at most twice before its
-- third occurrence ends the game (A7), and a pass makes a position of the
-- other player to move.
local function choose(n, k)
  local r = 1
  for i = 1, k do r = r * (n - k + i) / i end
  return r
end
m.max_plies(2 * PIECES + 2 * 2 * choose(9, PIECES) * choose(9 - PIECES, PIECES))

local DROP = m.move("drop", "{1}")
local MOVE = m.move("move", "{from}-{to}")
local PASS = m.move("pass", "pass")
local EMPTY = m.filter { owner = "nobody", max = 0 }
local MINE = m.filter { owner = "mover", min = 1 }

local hand, place, move_piece, in_a_row, finish = m.hand, m.place, m.move_piece, m.in_a_row, m.finish
local emit, emit_each, emit_steps = m.emit, m.emit_each, m.emit_steps

-- A2 "Each player has four pieces (pieces = 3: three), in hand at the
-- start; Player 1 moves first."
local a2_setup = m.rule("a2_setup", function()
  m.set_hand(1, PIECES)
  m.set_hand(2, PIECES)
end)

-- A3 "While a player has a piece in hand, a turn drops one on any empty
-- point."
local a3_drops = m.rule("a3_drops", function(p)
  emit_each(DROP, EMPTY)
end)

-- A4 "When both hands are empty, a turn slides one of the player's pieces
-- along a line to the next point, which must be empty. No jumps." Returns
-- the moves emitted.
local a4_steps = m.rule("a4_steps", function(p)
  return emit_steps(MOVE, MINE)
end)

-- A5 "Three pieces of a player on one line win at once, in either phase."
local a5_three_on_a_line = m.rule("a5_three_on_a_line", function(p, s)
  return in_a_row(p, s, 3)
end)

-- A6 "A player none of whose pieces can slide passes: the token is pass
-- (blocked = loses: that player loses instead)." Called when p4 emitted
-- nothing.
local a6_blocked = m.rule("a6_blocked", function(p)
  if P.blocked == "pass" then
    emit(PASS)
  end
end)

-- A7 "The third occurrence of a position (pieces, hands, player to move)
-- is a draw."
local a7_repetition = m.rule("a7_repetition", function()
  finish(0, "third repetition")
end)

local function legal(p)
  if hand(p) > 0 then
    return a3_drops(p)
  end
  if hand(3 - p) == 0 and a4_steps(p) == 0 then
    a6_blocked(p)
  end
end

local function play(p, kind, a, b)
  if kind == PASS then
    return
  elseif kind == DROP then
    place(p, a)
  else
    move_piece(a, b)
    a = b
  end
  if a5_three_on_a_line(p, a) then
    return finish(p, "three on a line")
  end
end

-- With blocked = loses (or in a set-up position where nothing can be
-- dropped or moved), a player without a legal token loses.
local function blocked(p)
  finish(3 - p, "no legal move")
end

local function result(p)
  for i = 1, 2 do -- the last mover first, with no table built
    local q = i == 1 and 3 - p or p
    if in_a_row(q, nil, 3) then
      return finish(q, "three on a line")
    end
  end
end

-- evaluate: advice for computer players, not a rule: open twos (two pieces
-- and an empty point on a line), the mover's counting double.
-- (m.open_lines counts them: on this board every line has three points.)
local threats = m.open_lines

local function evaluate(p)
  local mine, theirs = threats(p), threats(3 - p)
  if m.to_move() == p then mine = mine * 2 else theirs = theirs * 2 end
  return math.max(-0.9, math.min(0.9, 0.2 * (mine - theirs)))
end

return {
  setup = a2_setup, legal = legal, play = play, blocked = blocked,
  repeated = a7_repetition, result = result, evaluate = evaluate,
}
