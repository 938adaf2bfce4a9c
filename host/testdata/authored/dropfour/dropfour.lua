-- Drop Four: four in a row with gravity on a grid of five columns and four
-- rows, an authored game. Its rules page is rules.md (F1-F5).
local m = matombo

local P = m.declare {
  name = "dropfour",
  title = "Drop Four",
  description = "Four in a row with gravity: two players take turns to drop a disc into one of five "
    .. "columns, where it falls to the lowest empty cell; four of one colour in a row, across, "
    .. "up or diagonally, win. A full grid without a row is a draw.",
  players = 2,
  params = {
    { name = "columns", default = 5, values = { 4, 5, 6, 7 }, doc = "columns of the grid (F1)" },
  },
  conserve = true,
}

-- F1 "A grid of four rows (a at the bottom to d at the top) and five
-- columns. Its lines are the rows, the columns and every diagonal of four
-- cells or more."
local COLS, ROWS = P.columns, { "a", "b", "c", "d" }
local function name(r, c) return ROWS[r] .. c end
local function lines()
  local t = {}
  for r = 1, #ROWS do
    local line = {}
    for c = 1, COLS do line[#line + 1] = name(r, c) end
    t[#t + 1] = line
  end
  for c = 1, COLS do
    local line = {}
    for r = 1, #ROWS do line[#line + 1] = name(r, c) end
    t[#t + 1] = line
  end
  for c = 1, COLS - #ROWS + 1 do -- the diagonals of four: up-right and up-left
    local up, down = {}, {}
    for r = 1, #ROWS do
      up[#up + 1] = name(r, c + r - 1)
      down[#down + 1] = name(r, COLS - c - r + 2)
    end
    t[#t + 1], t[#t + 2] = up, down
  end
  return t
end
m.board { rows = ROWS, columns = COLS, style = "pieces", lines = lines() }
m.max_plies(#ROWS * COLS)

local function drop_why(p, sites)
  local s = sites[1]
  if m.owner(s) ~= 0 then return m.name(s) .. " is occupied" end
  return m.name(s) .. " has no disc below it"
end
local DROP = m.move("drop", "{1}", { doc = "Drop into {1}", why = drop_why })
local EMPTY = m.filter { owner = "nobody", max = 0 }

-- F2 "Each player has half the discs: one per cell."
local f2_setup = m.rule("f2_setup", function()
  m.set_hand(1, math.floor(#ROWS * COLS / 2))
  m.set_hand(2, math.floor(#ROWS * COLS / 2))
end)

-- F3 "A turn drops a disc into a column that is not full: it falls to the
-- lowest empty cell." The empty cells a disc comes to rest on: the bottom
-- row's, and those above a disc.
local RESTING = m.filter { owner = "nobody", max = 0, supported = true }
local f3_drops = m.rule("f3_drops", m.emit_rule { kind = DROP, each = RESTING })

-- F4 "Four discs of one player in a row on a line win at once."
local f4_four = m.rule("f4_four", m.line_rule { length = 4 })

-- F5 "A full grid without four in a row is a draw."
local f5_full = m.rule("f5_full", m.none_rule { filter = EMPTY })

local play = m.placement_play {
  drop = DROP, win = f4_four, reason = "four in a row",
  after = m.end_rule { result = m.winner_rule { winner = "draw" }, { when = f5_full, reason = "full grid" } },
}

return { setup = f2_setup, legal = f3_drops, play = play }
