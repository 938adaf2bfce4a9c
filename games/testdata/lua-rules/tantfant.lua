-- Tant Fant: the rules script of Matombo's game `tantfant`.
--
-- It plays the points F1-F6 of its rules page, docs/rules/tantfant.md:
--   F1 the board: 3x3 points, rows, columns, diagonals  -> the board below
--   F2 three pieces each, set on the home rows           -> f2_setup
--   F3 moves: a step along a line to the empty point     -> f3_steps
--   F4 three on a line win, not on one's own home row    -> f4_winning_line
--      (wins = not_home_rows: on neither home row; diagonals: only diagonals)
--   F5 a player who cannot move loses (blocked = draw)   -> f5_blocked
--   F6 the third repetition of a position is a draw      -> f6_repetition
local m = matombo

local P = m.declare {
  name = "tantfant",
  title = "Tant Fant",
  description = "Tant Fant, the three-in-a-row game of Bengal (J. M. Datta, 1933). Each player's three " ..
    "pieces start on their own side of a square with its diagonals and midlines and move one step along " ..
    "a line; three on a line win, except on the line a player started on.",
  players = 2,
  params = {
    { name = "wins", default = "not_own_home", values = { "not_own_home", "not_home_rows", "diagonals" },
      doc = "which lines of three win: any but the player's own home row, any but both home rows, or only the diagonals (F4)" },
    { name = "blocked", default = "loses", values = { "loses", "draw" },
      doc = "a player who cannot move loses, or the game is drawn (F5)" },
  },
  conserve = true,
  repetition = 3, -- F6
  max_plies = 2 * 3360, -- 2 * C(9,3) * C(6,3) positions, each at most twice (F6)
}

-- F1 "Nine points a1..c3 on three rows and three columns, joined by the
-- rows, the columns and the two diagonals. Player 1's side is row a (at
-- the bottom), Player 2's row c."
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

local HOME = { { "a1", "a2", "a3" }, { "c1", "c2", "c3" } } -- F2: the home rows
local MOVE = m.move("move", "{from}-{to}")
local MINE = m.filter { owner = "mover", min = 1 }

local move_piece, owner, finish, emit_steps = m.move_piece, m.owner, m.finish, m.emit_steps

-- F2 "Each player's three pieces start on their home row: Player 1 on a1
-- a2 a3, Player 2 on c1 c2 c3. Player 1 moves first."
local f2_setup = m.rule("f2_setup", function()
  for p = 1, 2 do
    for _, s in ipairs(HOME[p]) do
      m.set_count(s, 1)
      m.set_owner(s, p)
    end
  end
end)

-- F3 "A turn moves one of the player's pieces one step along a line to
-- the next point, which must be empty. No jumps, no captures."
local f3_steps = m.rule("f3_steps", function(p)
  emit_steps(MOVE, MINE)
end)

-- The lines of three through each point, each with the players for whom
-- it wins (F4), made once.
local HOME_ROW = {}
for p = 1, 2 do
  HOME_ROW[m.site(HOME[p][1])] = p -- a line starting with a home row's first point is that row
end
local function wins_for(line, p)
  local home = #line == 3 and m.row(line[1]) == m.row(line[3]) and HOME_ROW[line[1]]
  if P.wins == "diagonals" then
    return m.row(line[1]) ~= m.row(line[3]) and m.col(line[1]) ~= m.col(line[3])
  elseif P.wins == "not_home_rows" then
    return not home
  end
  return home ~= p
end
local WINNING = { {}, {} } -- WINNING[p][s]: the lines through s that win for p
for s = 1, m.size() do
  for p = 1, 2 do
    WINNING[p][s] = {}
    for _, line in ipairs(m.lines(s)) do
      if wins_for(line, p) then
        table.insert(WINNING[p][s], line)
      end
    end
  end
end

-- F4 "Three pieces of a player on one line win at once, except on the
-- player's own home row (wins = not_home_rows: on neither home row;
-- wins = diagonals: only on a diagonal)." Only the mover's piece moved, so
-- a winning line passes through the point it moved to.
local f4_winning_line = m.rule("f4_winning_line", function(p, s)
  for _, line in ipairs(WINNING[p][s]) do
    if owner(line[1]) == p and owner(line[2]) == p and owner(line[3]) == p then
      return true
    end
  end
  return false
end)

-- F5 "A player who must move and cannot loses (blocked = draw: the game
-- is drawn)."
local f5_blocked = m.rule("f5_blocked", function(p)
  if P.blocked == "draw" then
    return finish(0, "stalemate")
  end
  finish(3 - p, "no legal move")
end)

-- F6 "The third occurrence of a position (the pieces and the player to
-- move) is a draw."
local f6_repetition = m.rule("f6_repetition", function()
  finish(0, "third repetition")
end)

local function play(p, kind, a, b)
  move_piece(a, b)
  if f4_winning_line(p, b) then
    return finish(p, "three on a line")
  end
end

local function result(p)
  for i = 1, 2 do -- the last mover first, with no table built
    local q = i == 1 and 3 - p or p
    for s = 1, m.size() do
      if owner(s) == q and f4_winning_line(q, s) then
        return finish(q, "three on a line")
      end
    end
  end
end

-- evaluate: advice for computer players, not a rule: lines that would win
-- for a player where they have two pieces and the third point is empty,
-- the mover's counting double.
local LINES = m.lines()
local function threats(p)
  local n = 0
  for _, line in ipairs(LINES) do
    if wins_for(line, p) then
      local mine, empty = 0, 0
      for _, s in ipairs(line) do
        local o = owner(s)
        if o == p then mine = mine + 1 elseif o == 0 then empty = empty + 1 end
      end
      if mine == 2 and empty == 1 then n = n + 1 end
    end
  end
  return n
end

local function evaluate(p)
  local mine, theirs = threats(p), threats(3 - p)
  if m.to_move() == p then mine = mine * 2 else theirs = theirs * 2 end
  return math.max(-0.9, math.min(0.9, 0.2 * (mine - theirs)))
end

return {
  setup = f2_setup, legal = f3_steps, play = play, blocked = f5_blocked,
  repeated = f6_repetition, result = result, evaluate = evaluate,
}
