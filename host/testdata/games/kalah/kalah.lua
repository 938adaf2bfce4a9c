-- Kalah as OpenSpiel's "mancala" plays it: a test game for the host, checked
-- against OpenSpiel's playthroughs (shared/external/open_spiel).
--
-- Board: row a is Player 1's pits a1..a6 and store a7; row b is Player 2's
-- pits b1..b6 (b1 faces a1) and store b7. OpenSpiel's pit k (1-6) is ak,
-- pit 14-k (8-13) is bk, store 7 is a7 and store 0 is b7.
local m = matombo

local P = m.declare {
  name = "kalah",
  title = "Kalah (OpenSpiel rules)",
  players = 2,
  params = {
    { name = "seeds", default = 4, values = { 3, 4, 5, 6 }, doc = "seeds per pit at the start" },
  },
  max_plies = 1000,
}

m.board { rows = { "a", "b" }, columns = 7 }

local STORE = { m.site "a7", m.site "b7" }
local SOW = m.move("sow", "{1}")

-- Each player sows counterclockwise through their own store, skipping the
-- opponent's.
local function circuit(p)
  if p == 1 then
    return { "a1", "a2", "a3", "a4", "a5", "a6", "a7", "b6", "b5", "b4", "b3", "b2", "b1" }
  end
  return { "b6", "b5", "b4", "b3", "b2", "b1", "b7", "a1", "a2", "a3", "a4", "a5", "a6" }
end
local TRACK = { m.track("south", circuit(1), true), m.track("north", circuit(2), true) }

local STORE_TAG = m.tag("store", { "a7", "b7" })
local MOVABLE = { m.filter { row = 1, not_tag = STORE_TAG, min = 1 }, m.filter { row = 2, not_tag = STORE_TAG, min = 1 } }
local PITS_OF = { m.filter { row = 1, not_tag = STORE_TAG }, m.filter { row = 2, not_tag = STORE_TAG } }

local function setup()
  for _, row in ipairs { "a", "b" } do
    for c = 1, 6 do
      m.set_count(row .. c, P.seeds)
      m.set_owner(row .. c, row == "a" and 1 or 2)
    end
  end
  m.set_owner("a7", 1)
  m.set_owner("b7", 2)
end

local function legal(p)
  m.emit_each(SOW, MOVABLE[p])
end

local function side_empty(p)
  return m.sum(PITS_OF[p]) == 0
end

local function finish_if_over()
  if side_empty(1) or side_empty(2) then
    local t1 = m.sum(PITS_OF[1]) + m.count(STORE[1])
    local t2 = m.sum(PITS_OF[2]) + m.count(STORE[2])
    if t1 > t2 then
      m.finish(1, "more seeds")
    elseif t2 > t1 then
      m.finish(2, "more seeds")
    else
      m.finish(0, "equal seeds")
    end
  end
end

local function play(p, kind, from)
  local last, was_empty = m.sow(TRACK[p], from, m.take(from))
  if last == STORE[p] then
    m.set_to_move(p)
  elseif was_empty and m.owner(last) == p then
    local opp = m.opposite(last, p == 1 and 2 or 1)
    if m.count(opp) > 0 then
      m.add(STORE[p], m.take(opp) + m.take(last))
    end
  end
  finish_if_over()
end

return { setup = setup, legal = legal, play = play }
