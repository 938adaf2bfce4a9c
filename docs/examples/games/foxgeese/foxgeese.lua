-- Fox and Geese, the hunt game on the 33-point cross: the rules script of
-- the example game `foxgeese`. The rules page is rules.md beside it; each
-- of its points is a rule point below.
--
-- Player 1 is the fox, Player 2 the geese. Rows run from a (the fox's
-- side, South) to g (the geese's, North); a point is named by its row and
-- its column, 1 to 7, which is also where it is drawn.
local m = matombo

local P = m.declare {
  name = "foxgeese",
  title = "Fox and Geese",
  description = "Fox and Geese, the hunt game on the 33-point cross: one fox against 13 or 17 "
    .. "geese. The fox steps or jumps along the lines and captures the geese it jumps, jump "
    .. "after jump if it likes; the geese step forward or sideways, never back, and win by "
    .. "penning the fox in. The fox wins when too few geese are left to trap it.",
  players = 2,
  params = {
    { name = "geese", default = 13, values = { 13, 17 }, doc = "the geese at the start (F2)" },
    { name = "first", default = "geese", values = { "geese", "fox" }, doc = "who moves first (F2)" },
    { name = "trap", default = 4, values = { 3, 4, 5, 6, 7, 8, 9 },
      doc = "the fewest geese that can still trap the fox: the fox wins when fewer are left (F7)" },
    { name = "diagonals", default = true, doc = "the board has its diagonal lines (F1)" },
  },
  conserve = true, -- geese on the board and geese captured by the fox
  score_label = "geese taken",
  repetition = 3,
}

local FOX, GEESE = 1, 2

-- F1 Board: the cross of 33 points, three columns wide in the arms, with
-- its rows, its columns and (with diagonals) the diagonals through every
-- other point. Each line runs from West to East or from South to North.
local function cross_points()
  local points = {}
  for r, row in ipairs { "a", "b", "c", "d", "e", "f", "g" } do
    local first, last = 3, 5
    if r >= 3 and r <= 5 then first, last = 1, 7 end
    for c = first, last do
      points[row .. c] = c
    end
  end
  return points
end

local ROWS = {
  { "a3", "a4", "a5" }, { "b3", "b4", "b5" },
  { "c1", "c2", "c3", "c4", "c5", "c6", "c7" },
  { "d1", "d2", "d3", "d4", "d5", "d6", "d7" },
  { "e1", "e2", "e3", "e4", "e5", "e6", "e7" },
  { "f3", "f4", "f5" }, { "g3", "g4", "g5" },
}
local COLUMNS = {
  { "c1", "d1", "e1" }, { "c2", "d2", "e2" },
  { "a3", "b3", "c3", "d3", "e3", "f3", "g3" },
  { "a4", "b4", "c4", "d4", "e4", "f4", "g4" },
  { "a5", "b5", "c5", "d5", "e5", "f5", "g5" },
  { "c6", "d6", "e6" }, { "c7", "d7", "e7" },
}
local DIAGONALS = {
  { "a3", "b4", "c5", "d6", "e7" }, { "a5", "b4", "c3", "d2", "e1" },
  { "c1", "d2", "e3", "f4", "g5" }, { "c7", "d6", "e5", "f4", "g3" },
  { "c3", "d4", "e5" }, { "c5", "d4", "e3" },
}

local PICTURE = [[
g        @---@---@
         | \ | / |
f        @---@---@
         | / | \ |
e  @---@---@---@---@---@---@
   | \ | / | \ | / | \ | / |
d  @---@---@---@---@---@---@
   | / | \ | / | \ | / | \ |
c  @---@---@---@---@---@---@
         | \ | / |
b        @---@---@
         | / | \ |
a        @---@---@
]]

-- The picture without the diagonals.
local function picture()
  if P.diagonals then return PICTURE end
  return (string.gsub(PICTURE, "[/\\]", " "))
end

local f1_board = m.rule("f1_board", function()
  local lines = {}
  for _, set in ipairs { ROWS, COLUMNS, P.diagonals and DIAGONALS or {} } do
    for _, line in ipairs(set) do
      lines[#lines + 1] = line
    end
  end
  m.board { points = cross_points(), lines = lines, style = "pieces", picture = picture() }
end)
f1_board()

local STEP = m.move("step", "{from}-{to}", { doc = "Move {from} to {to}" })
local JUMP = m.move("jump", "{from}x{to}", { doc = "Jump from {from} to {to}" })
local STOP = m.move("stop", "stop", { doc = "End the fox's jumps" })
-- jumper: the site (from 1) of the fox in the middle of its jumps, which
-- may jump again (F5); 0 otherwise.
local JUMPER = m.var("jumper")

local MINE = m.filter { owner = "mover", min = 1 }
local THEIRS = m.filter { owner = "opponent", min = 1 }
local ALL_GEESE = m.filter { owner = GEESE, min = 1 }

-- F2 Pieces: the fox on d4; the geese on rows e, f and g, and with 17
-- also on c1, d1, c7 and d7.
local START_GEESE = { "e1", "e2", "e3", "e4", "e5", "e6", "e7", "f3", "f4", "f5", "g3", "g4", "g5" }
local MORE_GEESE = { "c1", "d1", "c7", "d7" }

local function place(site, p)
  m.set_count(site, 1)
  m.set_owner(site, p)
end

local f2_setup = m.rule("f2_setup", function()
  place("d4", FOX)
  for _, site in ipairs(START_GEESE) do
    place(site, GEESE)
  end
  if P.geese == 17 then
    for _, site in ipairs(MORE_GEESE) do
      place(site, GEESE)
    end
  end
  if P.first == "geese" then
    m.set_to_move(GEESE)
  end
end)

-- Each part below moves the pieces of one side: `toward` is given per
-- player (the fox's first), and "none" gives that player none of its moves.

-- F3 Geese: "a goose moves one point along a line to an empty point,
-- forward (towards row a) or sideways (along its row, either way), never
-- back." The lines run from South to North and from West to East, so
-- forward is against their order: back_across.
local f3_geese = m.rule("f3_geese", m.steps_rule { kind = STEP, from = MINE, toward = { "none", "back_across" } })

-- F4 Fox: "the fox moves one point along a line, any way, to an empty
-- point; or it jumps along a line over a goose next to it to the empty
-- point just beyond, and the goose is captured." Only the fox jumps.
local FOX_ONLY = { "both", "none" }
local f4_fox_steps = m.rule("f4_fox_steps", m.steps_rule { kind = STEP, from = MINE, toward = FOX_ONLY })
local f4_fox_jumps = m.rule("f4_fox_jumps", m.jumps_rule { kind = JUMP, from = MINE, over = THEIRS, toward = FOX_ONLY })

-- F5 Jump after jump: "after a jump the fox may jump again from where it
-- landed, as often as it can; or it stops." While it waits there (the
-- variable jumper), its moves are its jumps and the move stop.
local f5_next_jumps = m.rule("f5_next_jumps", m.jumps_rule { kind = JUMP, from = MINE, over = THEIRS, stop = STOP })

-- F7 The fox wins: "when fewer geese are left than can trap it" (trap),
-- after every move and in a position set up.
local f7_too_few = m.rule("f7_too_few", function()
  if m.count_sites(ALL_GEESE) < P.trap then
    m.finish(FOX, "too few geese to trap the fox")
  end
end)

-- F4, F5: a step or a jump of either side; after a jump the fox waits
-- where it landed while it can jump again, until it stops.
local f4_move = m.rule("f4_move", m.hop_play { pending = JUMPER, again = f4_fox_jumps, after = { f7_too_few } })

-- F6 The geese win: "when the fox cannot move on its turn."
local f6_fox_trapped = m.rule("f6_fox_trapped", function()
  m.finish(GEESE, "the fox is trapped")
end)

-- F7 (the end): "the fox also wins when the geese cannot move on their
-- turn."
local f7_geese_stuck = m.rule("f7_geese_stuck", function()
  m.finish(FOX, "the geese cannot move")
end)

-- F6, F7: the side that cannot move loses, each by its own rule point.
local STUCK = { [FOX] = f6_fox_trapped, [GEESE] = f7_geese_stuck }
local function blocked(p)
  STUCK[p]()
end

-- F8 Long games: "the third repetition of a position is a draw."
local f8_repetition = m.rule("f8_repetition", function()
  m.finish(0, "third repetition")
end)

local legal = m.pending_legal { pending = JUMPER, none = { f4_fox_steps, f4_fox_jumps, f3_geese }, site = f5_next_jumps }
local play = m.play_by_kind { [STEP] = f4_move, [JUMP] = f4_move, [STOP] = f4_move }
local score = m.score_rule { amount = m.captured_rule {} }

return {
  setup = f2_setup, legal = legal, play = play, blocked = blocked,
  repeated = f8_repetition, result = f7_too_few, score = score,
}
