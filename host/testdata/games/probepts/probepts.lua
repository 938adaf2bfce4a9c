-- probepts: a small point-board test game for the host's unit tests: a
-- "pieces" board declared as points with drawing positions, lines and a
-- picture (the triangle of Tsoro Yematatu), pieces dropped from hand and
-- then stepped or jumped along the lines, three in a row wins, the third
-- repetition draws, and a blocked player loses.
--
--   sites (index: name): 1 a1 (apex), 2 b1, 3 b2, 4 b3, 5 c1, 6 c2, 7 c3
--   lines: a1-b1-c1, a1-b2-c2, a1-b3-c3, b1-b2-b3, c1-c2-c3
--   kinds: 1 drop "{1}", 2 move "{from}-{to}"
--   filters: F[1] empty points, F[2] the mover's pieces, F[3] the
--            opponent's pieces in no three in a row, F[4] pieces in three in
--            a row
local m = matombo

m.declare { name = "probepts", title = "Probe points", players = 2, max_plies = 600 }

m.board {
  points = { a1 = 3, b1 = 2, b2 = 3, b3 = 4, c1 = 1, c2 = 3, c3 = 5 },
  lines = {
    { "a1", "b1", "c1" }, { "a1", "b2", "c2" }, { "a1", "b3", "c3" },
    { "b1", "b2", "b3" }, { "c1", "c2", "c3" },
  },
  style = "pieces",
  picture = [[
c   @-----@-----@
     \    |    /
b     @---@---@
       \  |  /
a         @]],
}

local DROP = m.move("drop", "{1}")
local MOVE = m.move("move", "{from}-{to}")
local EMPTY = m.filter { owner = "nobody", max = 0 }
local MINE = m.filter { owner = "mover", min = 1 }
m.filter { owner = "opponent", not_in_row = 3 }
m.filter { in_row = 3 }

local function setup()
  m.set_hand(1, 3)
  m.set_hand(2, 3)
end

local function legal(p)
  if m.hand(1) > 0 or m.hand(2) > 0 then
    m.emit_each(DROP, EMPTY)
  else
    m.emit_steps(MOVE, MINE)
    m.emit_jumps(MOVE, MINE)
  end
end

local function play(p, kind, a, b)
  local at = a
  if kind == DROP then
    m.place(p, a)
  else
    m.move_piece(a, b)
    at = b
  end
  if m.in_a_row(p, at, 3) then
    m.finish(p, "three in a row")
  elseif m.repetitions() >= 3 then
    m.finish(0, "third repetition")
  end
end

local function blocked(p)
  m.finish(3 - p, "no legal move")
end

return { setup = setup, legal = legal, play = play, blocked = blocked }
