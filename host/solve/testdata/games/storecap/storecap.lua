-- storecap: a test game for package solve whose moves depend on what the
-- stores hold, so that it gets no endgame database. Each player has a pit
-- and a store; the mover banks one counter of their pit and, when their
-- store then holds an odd number, takes the other's pit into it too. The
-- game ends when the player to move has an empty pit (the counters left
-- are the other's). Each store opens with a counter: a database valued
-- with every banked counter in one store would say the first player
-- takes the second's pit at once, which the odd store forbids.
local m = matombo

m.declare {
  name = "storecap",
  title = "Store capture",
  description = "Bank a counter; an odd store takes the other pit.",
  players = 2,
  conserve = true,
}

m.board { rows = { "a", "b" }, columns = 2 }
m.tag("store", { "a2", "b2" }, { doc = "a store: the counters banked" })

local BANK = m.move("bank", "bank")
local PIT = { m.site("a1"), m.site("b1") }
local STORE = { m.site("a2"), m.site("b2") }

local function setup()
  for p = 1, 2 do
    m.set_owner(PIT[p], p)
    m.set_owner(STORE[p], p)
    m.set_count(PIT[p], 3)
    m.set_count(STORE[p], 1)
  end
end

local function legal(p)
  if m.count(PIT[p]) > 0 then
    m.emit(BANK)
  end
end

local function totals()
  return m.count(STORE[1]) + m.count(PIT[1]), m.count(STORE[2]) + m.count(PIT[2])
end

local function blocked()
  local a, b = totals()
  local w = 0
  if a > b then w = 1 elseif b > a then w = 2 end
  m.finish(w, "empty pit")
end

-- odd_store_takes: a store that holds an odd number after a move takes
-- the other player's pit.
local function odd_store_takes(p)
  local q = m.next_player(p)
  if m.count(STORE[p]) % 2 == 1 and m.count(PIT[q]) > 0 then
    m.add(STORE[p], m.count(PIT[q]))
    m.add(PIT[q], -m.count(PIT[q]))
  end
end

local function play(p)
  m.add(PIT[p], -1)
  m.add(STORE[p], 1)
  odd_store_takes(p)
end

local function score()
  return totals()
end

return { setup = setup, legal = legal, play = play, blocked = blocked, score = score }
