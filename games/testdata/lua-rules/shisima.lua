-- Shisima: the rules script of Matombo's game `shisima`.
--
-- It plays the points S1-S7 of its rules page, docs/rules/shisima.md:
--   S1 the octagon and its centre (data)                -> s1_s7_board, variants.yaml
--   S2 three pieces each, set on three corners in a row -> s2_setup
--   S3 moves: a step along a line to the empty point    -> s3_steps
--   S4 three on a line through the centre win           -> s4_three_through_the_centre
--   S5 the third repetition of a position is a draw     -> s5_repetition
--   S6 a player who cannot move loses                   -> s6_blocked
--   S7 the square board (data)                          -> s1_s7_board, variants.yaml
local m = matombo

local BOARDS = m.data.boards
if type(BOARDS) ~= "table" then
  error("variants.yaml has no data.boards: Shisima needs at least one board there", 0)
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
  name = "shisima",
  title = "Shisima",
  description = "Shisima, the three-in-a-row game of the Tiriki of Kenya: each player's three pieces " ..
    "(imbalavali, water bugs) start on three corners of an octagon and step along its sides and " ..
    "diameters; three in a row through the centre (the shisima, the water) win. A third repetition " ..
    "is a draw.",
  players = 2,
  params = {
    { name = "board", default = "octagon", values = board_names(),
      doc = "the board: a name under data.boards in variants.yaml (octagon S1, square S7)" },
  },
  conserve = true,
  repetition = 3, -- S5
}

-- S1 "An octagon with its four diameters: its eight corners and the centre
-- where the diameters cross, nine points. A piece steps along a side of
-- the octagon or a diameter." S7: the square of Tapatan. Both are data;
-- the board's own fields go to matombo.board (so that a mistake in them is
-- reported at its line of variants.yaml), centre and start stay here.
local s1_s7_board = m.rule("s1_s7_board", function(name)
  local b = BOARDS[name]
  if type(b) ~= "table" then
    error(string.format("board %s: want a mapping with points, lines, centre, start and a picture", name), 0)
  end
  m.board { points = b.points, lines = b.lines, picture = b.picture, style = "pieces" }
  if type(b.start) ~= "table" or type(b.start[1]) ~= "table" or type(b.start[2]) ~= "table" then
    m.data_error(b, "start must give the points of Player 1 (1: [...]) and of Player 2 (2: [...])")
  end
  return m.site(b.centre), b.start
end)

local CENTRE, START = s1_s7_board(P.board)
local PIECES = 3
for p = 1, 2 do
  if #START[p] ~= PIECES then
    m.data_error(START, string.format("start: Player %d needs %d points, got %d", p, PIECES, #START[p]))
  end
end
-- Every position (three points of nine for each player, who moves) occurs
-- at most twice before its third occurrence ends the game (S5).
m.max_plies(2 * 2 * 84 * 20)

local MOVE = m.move("move", "{from}-{to}")
local MINE = m.filter { owner = "mover", min = 1 }
local move_piece, owner, in_a_row, finish, emit_steps = m.move_piece, m.owner, m.in_a_row, m.finish, m.emit_steps

-- S2 "Each player's three pieces start on three neighbouring corners,
-- facing the opponent's: the corner between the two groups on either side
-- and the centre are empty. Player 1 moves first."
local s2_setup = m.rule("s2_setup", function()
  for p = 1, 2 do
    for _, s in ipairs(START[p]) do
      m.set_count(s, 1)
      m.set_owner(s, p)
    end
  end
end)

-- S3 "A turn moves one of the player's pieces one step along a line, to
-- the next point, which must be empty: round the octagon, or along a
-- diameter into or out of the centre. No jumps."
local s3_steps = m.rule("s3_steps", function(p)
  emit_steps(MOVE, MINE)
end)

-- S4 "Three pieces of a player in a row through the centre win at once."
-- A row of three through the centre holds the centre, so the mover wins
-- when they hold the centre and a line of three through it.
local s4_three_through_the_centre = m.rule("s4_three_through_the_centre", function(p)
  return owner(CENTRE) == p and in_a_row(p, CENTRE, PIECES)
end)

-- S5 "The third occurrence of a position (the pieces and the player to
-- move) is a draw."
local s5_repetition = m.rule("s5_repetition", function()
  finish(0, "third repetition")
end)

-- S6 "A player who must move and cannot loses" (the project's choice: the
-- sources are silent).
local s6_blocked = m.rule("s6_blocked", function(p)
  finish(3 - p, "no legal move")
end)

local function play(p, kind, a, b)
  move_piece(a, b)
  if s4_three_through_the_centre(p) then
    return finish(p, "three through the centre")
  end
end

local function result(p)
  for i = 1, 2 do -- the last mover first, with no table built
    local q = i == 1 and 3 - p or p
    if s4_three_through_the_centre(q) then
      return finish(q, "three through the centre")
    end
  end
end

-- evaluate: advice for computer players, not a rule: the centre is on
-- every winning line; a player holding it with another piece on a line
-- through it, the third point empty, threatens to win.
local CENTRE_LINES = {}
for _, line in ipairs(m.lines(CENTRE)) do
  if #line == 3 then CENTRE_LINES[#CENTRE_LINES + 1] = line end
end
local function evaluate(p)
  local c = owner(CENTRE)
  if c == 0 then
    return m.to_move() == p and 0.1 or -0.1
  end
  local threats = 0
  for _, line in ipairs(CENTRE_LINES) do
    local mine, empty = 0, 0
    for _, s in ipairs(line) do
      local o = owner(s)
      if o == c then mine = mine + 1 elseif o == 0 then empty = empty + 1 end
    end
    if mine == 2 and empty == 1 then threats = threats + 1 end
  end
  local v = 0.3 + 0.2 * threats
  return math.min(0.9, c == p and v or -v)
end

return {
  setup = s2_setup, legal = s3_steps, play = play, blocked = s6_blocked,
  repeated = s5_repetition, result = result, evaluate = evaluate,
}
