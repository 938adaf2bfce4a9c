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
local DIAGONALS = { { "a1", "b2", "c3" }, { "a3", "b2", "c1" } }
local MOVE = m.move("move", "{from}-{to}")
local MINE = m.filter { owner = "mover", min = 1 }

local owner = m.owner

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

-- The rules of a turn are native rules (docs/lua-api.md, "Native rules"):
-- declared as data, run by the host, each a rule point like any function.

-- F3 "A turn moves one of the player's pieces one step along a line to
-- the next point, which must be empty. No jumps, no captures."
local f3_steps = m.rule("f3_steps", m.emit_rule { kind = MOVE, steps = MINE })

-- F4 "Three pieces of a player on one line win at once, except on the
-- player's own home row (wins = not_home_rows: on neither home row;
-- wins = diagonals: only on a diagonal)." Only the mover's piece moved, so
-- a winning line passes through the point it moved to.
local WINNING = {
  not_own_home = { except = { { HOME[1] }, { HOME[2] } } }, -- each player's own row
  not_home_rows = { except = HOME },                        -- both rows, for both players
  diagonals = { only = DIAGONALS },
}
local f4_winning_line = m.rule("f4_winning_line", m.line_rule {
  length = 3, except = WINNING[P.wins].except, only = WINNING[P.wins].only,
})

-- F5 "A player who must move and cannot loses (blocked = draw: the game
-- is drawn)."
local f5_blocked = m.rule("f5_blocked", function(p)
  if P.blocked == "draw" then
    return m.finish(0, "stalemate")
  end
  m.finish(3 - p, "no legal move")
end)

-- F6 "The third occurrence of a position (the pieces and the player to
-- move) is a draw."
local f6_repetition = m.rule("f6_repetition", function()
  m.finish(0, "third repetition")
end)

-- play: F3 a step, then F4 on the point the piece went to.
local play = m.placement_play { move = MOVE, win = f4_winning_line, reason = "three on a line" }

-- A position set up rather than played: a winning line decides it, the
-- last mover's first.
local result = m.end_rule {
  { when = f4_winning_line, player = "next", reason = "three on a line", result = m.winner_rule { winner = "next" } },
  { when = f4_winning_line, reason = "three on a line", result = m.winner_rule { winner = "mover" } },
}

-- evaluate: advice for computer players, not a rule: lines that would win
-- for a player (F4, read from WINNING) where they have two pieces and the
-- third point is empty, the mover's counting double.
local function line_key(line) -- a line's points as text, in either order
  local names = {}
  for i, s in ipairs(line) do names[i] = type(s) == "string" and s or m.name(s) end
  table.sort(names)
  return table.concat(names, " ")
end
local LINES = m.lines()
local WINS = { {}, {} } -- WINS[p][i]: line i of the board wins for p
for p = 1, 2 do
  local listed, rule = {}, WINNING[P.wins]
  local lines = rule.only or rule.except
  if type(lines[1][1]) == "table" then lines = lines[p] end -- one list per player
  for _, line in ipairs(lines) do listed[line_key(line)] = true end
  for i, line in ipairs(LINES) do
    WINS[p][i] = (rule.only ~= nil) == (listed[line_key(line)] == true)
  end
end
local function threats(p)
  local n = 0
  for i, line in ipairs(LINES) do
    if WINS[p][i] then
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
