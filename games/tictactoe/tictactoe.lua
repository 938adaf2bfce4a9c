-- Tic-tac-toe: the rules script of Matombo's game `tictactoe`.
--
-- It plays the points X1-X5 of its rules page, docs/rules/tictactoe.md:
--   X1 the board: a 3x3 grid, eight lines of three -> the board below
--   X2 pieces: five for Player 1 (X), four for Player 2 (O) -> x2_setup
--   X3 a turn: one mark on an empty cell                 -> x3_marks
--   X4 three of one mark on a line wins at once          -> x4_three_in_a_row
--   X5 a full board without a line is a draw             -> x5_full_board
-- Tic-tac-toe is the reference point of the family of Tsoro Yematatu,
-- Tapatan, Achi, Nine Holes, Shisima and Tant Fant: the same lines, but
-- marks never move.
local m = matombo

m.declare {
  name = "tictactoe",
  title = "Tic-tac-toe",
  description = "Tic-tac-toe (noughts and crosses): two players take turns to put their mark in an empty " ..
    "cell of a 3x3 grid; three of one mark in a row, across, down or diagonally, win. A full grid " ..
    "without a row is a draw.",
  players = 2,
  conserve = true,
  max_plies = 9, -- nine cells, one mark a turn
}

-- X1 "A grid of three rows of three cells: a1 a2 a3 (bottom row) to c1 c2
-- c3 (top row). Its eight lines of three are the three rows, the three
-- columns and the two diagonals."
m.board {
  rows = { "a", "b", "c" },
  columns = 3,
  style = "pieces",
  lines = {
    { "a1", "a2", "a3" }, { "b1", "b2", "b3" }, { "c1", "c2", "c3" },
    { "a1", "b1", "c1" }, { "a2", "b2", "c2" }, { "a3", "b3", "c3" },
    { "a1", "b2", "c3" }, { "a3", "b2", "c1" },
  },
}

local MARK = m.move("mark", "{1}") -- X3 token: the cell, e.g. b2
local EMPTY = m.filter { owner = "nobody", max = 0 }

-- X2 "Player 1 plays X and moves first; Player 2 plays O. Player 1 has
-- five marks, Player 2 four: nine cells."
local x2_setup = m.rule("x2_setup", function()
  m.set_hand(1, 5)
  m.set_hand(2, 4)
end)

-- The rules of a turn are native rules (docs/lua-api.md, "Native rules"):
-- declared as data, run by the host, each a rule point like any function.

-- X3 "A turn puts one of the player's marks in an empty cell."
local x3_marks = m.rule("x3_marks", m.emit_rule { kind = MARK, each = EMPTY })

-- X4 "Three marks of one player on a line win at once." Only the mark just
-- made is new, so a winning line passes through it.
local x4_three_in_a_row = m.rule("x4_three_in_a_row", m.line_rule { length = 3 })

-- X5 "When the grid is full and nobody has three in a row, the game is a
-- draw."
local x5_full_board = m.rule("x5_full_board", m.none_rule { filter = EMPTY })

-- play: X3 a mark from the player's hand in the cell, then X4 on that
-- cell, then (no line made) X5.
local play = m.placement_play {
  drop = MARK, win = x4_three_in_a_row, reason = "three in a row",
  after = m.end_rule { result = m.winner_rule { winner = "draw" }, { when = x5_full_board, reason = "full board" } },
}

-- For a position set up rather than played (a scenario, a solver): a row
-- already on the board decides the game; the mover's opponent made the
-- last mark, so their row is looked at first.
local result = m.end_rule {
  { when = x4_three_in_a_row, player = "next", reason = "three in a row", result = m.winner_rule { winner = "next" } },
  { when = x4_three_in_a_row, reason = "three in a row", result = m.winner_rule { winner = "mover" } },
  { when = x5_full_board, reason = "full board", result = m.winner_rule { winner = "draw" } },
}

-- evaluate: advice for computer players, not a rule. Lines still open to
-- a player (none of the opponent's marks on them), weighted by the marks
-- already on them; the player to move counts a little more.
local LINES = m.lines()
local owner = m.owner
local function evaluate(p)
  local score = 0
  for _, line in ipairs(LINES) do
    local mine, theirs = 0, 0
    for _, s in ipairs(line) do
      local o = owner(s)
      if o == p then
        mine = mine + 1
      elseif o ~= 0 then
        theirs = theirs + 1
      end
    end
    if theirs == 0 then
      score = score + mine * mine
    elseif mine == 0 then
      score = score - theirs * theirs
    end
  end
  if m.to_move() == p then
    score = score + 1
  end
  return math.max(-0.9, math.min(0.9, score / 20))
end

return { setup = x2_setup, legal = x3_marks, play = play, result = result, evaluate = evaluate }
