-- cycle: a test game for package solve whose positions repeat with the
-- same counters in play, so that it gets no endgame database. Each player
-- has a pit and a store; the mover banks one counter of their pit, or
-- passes all of it to the other player's pit, which can go on for ever.
-- The game ends when a player to move has an empty pit (the counters
-- left are the other's), or at the third repetition (a draw).
local m = matombo

m.declare {
  name = "cycle",
  title = "Cycle",
  description = "Bank a counter or pass your pit; an empty pit ends it.",
  players = 2,
  conserve = true,
  repetition = 3,
}

m.board { rows = { "a", "b" }, columns = 2 }
m.tag("store", { "a2", "b2" }, { doc = "a store: the counters banked" })

local BANK = m.move("bank", "bank")
local PASS = m.move("pass", "pass")
local PIT = { m.site("a1"), m.site("b1") }
local STORE = { m.site("a2"), m.site("b2") }

local function setup()
  for p = 1, 2 do
    m.set_owner(PIT[p], p)
    m.set_owner(STORE[p], p)
    m.set_count(PIT[p], 2)
  end
end

local function legal(p)
  if m.count(PIT[p]) > 0 then
    m.emit(BANK)
    m.emit(PASS)
  end
end

-- totals: each player's store, and the counters left in play to the
-- player whose pit holds them.
local function totals()
  return m.count(STORE[1]) + m.count(PIT[1]), m.count(STORE[2]) + m.count(PIT[2])
end

local function finish_by_totals(reason)
  local a, b = totals()
  local w = 0
  if a > b then w = 1 elseif b > a then w = 2 end
  m.finish(w, reason)
end

local function play(p, kind)
  local q = m.next_player(p)
  if kind == BANK then
    m.add(PIT[p], -1)
    m.add(STORE[p], 1)
  else
    m.add(PIT[q], m.count(PIT[p]))
    m.add(PIT[p], -m.count(PIT[p]))
  end
  if m.count(PIT[q]) == 0 then
    finish_by_totals("empty pit")
  end
end

local function blocked()
  finish_by_totals("empty pit")
end

local function repeated()
  finish_by_totals("third repetition")
end

local function score()
  return totals()
end

return { setup = setup, legal = legal, play = play, blocked = blocked, repeated = repeated, score = score }
