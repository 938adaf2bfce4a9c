-- Hasami: custodian captures on a 5x5 grid, an authored game in the manner
-- of Hasami Shogi. Its rules page is rules.md (H1-H5).
local m = matombo

local P = m.declare {
  name = "hasami",
  title = "Hasami",
  description = "Five pieces each on the near row of a 5x5 grid. A piece moves any distance along a row "
    .. "or column over empty cells; an enemy piece caught between the piece that moved and another of "
    .. "the mover's along a row or column is captured. Three captures win.",
  players = 2,
  params = {
    { name = "captures", default = 3, values = { 2, 3, 4 }, doc = "the captures that win (H5)" },
  },
  conserve = true,
  repetition = 3,
  max_plies = 201,
}

-- H1 "A grid of five rows (a to e) and five columns; its lines are the
-- rows and the columns."
local N, ROWS = 5, { "a", "b", "c", "d", "e" }
local function lines()
  local t = {}
  for r = 1, N do
    local row, col = {}, {}
    for c = 1, N do
      row[#row + 1] = ROWS[r] .. c
      col[#col + 1] = ROWS[c] .. r
    end
    t[#t + 1], t[#t + 2] = row, col
  end
  return t
end
m.board { rows = ROWS, columns = N, style = "pieces", lines = lines() }

local MOVE = m.move("move", "{from}-{to}", { doc = "Move {from} to {to}" })
local MINE = m.filter { owner = "mover", min = 1 }
local THEIRS = m.filter { owner = "opponent", min = 1 }

-- H2 "Player 1's pieces start on row a, Player 2's on row e."
local h2_setup = m.rule("h2_setup", function()
  for c = 1, N do
    m.set_count("a" .. c, 1)
    m.set_owner("a" .. c, 1)
    m.set_count("e" .. c, 1)
    m.set_owner("e" .. c, 2)
  end
end)

-- H3 "A piece moves any distance along its row or column over empty
-- cells."
local h3_moves = m.rule("h3_moves", m.steps_rule { kind = MOVE, from = MINE, fly = MINE })

-- H4 "An enemy piece caught between the piece that moved and another of
-- the mover's, along a row or column, is captured."
local h4_capture = m.rule("h4_capture", m.custodian_rule { over = THEIRS, with = MINE })

-- H5 "Three captures win; after 200 moves, or the third time a position
-- occurs, the game is a draw. A player who cannot move loses."
local h5_end = m.rule("h5_end", m.end_rule {
  { when = m.compare_rule { amount = m.captured_rule {}, op = ">=", value = P.captures }, reason = "captures", result = m.winner_rule { winner = "mover" } },
  { ply_above = 200, reason = "move limit" },
  result = m.winner_rule { winner = "draw" },
})

local play = m.placement_play { move = MOVE, arrival = { h4_capture }, after = h5_end }

local function blocked(p) m.finish(m.next_player(p), "no move") end
local function repeated(p) m.finish(0, "third repetition") end

local score = m.score_rule { amount = m.captured_rule {} }

return { setup = h2_setup, legal = h3_moves, play = play, blocked = blocked, repeated = repeated, score = score }
