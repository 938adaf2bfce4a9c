-- A mistake on purpose, to show what check reports (docs/cli.md): legal
-- reads a table entry that is missing once a hole holds 5 counters or more.
local m = matombo
m.declare { name = "boom", title = "Boom", max_plies = 200 }
m.board { rows = { "a", "b" }, columns = 3 }
local SOW = m.move("sow", "{1}")
local RING = m.track("ring", { "a1", "a2", "a3", "b3", "b2", "b1" }, true)
local MINE = m.filter { owner = "mover", min = 1 }
local WEIGHT = { 1, 1, 2, 2 } -- by count; the mistake: no entry for 5 or more

local function setup()
  for s = 1, 6 do
    m.set_count(s, 2)
    m.set_owner(s, s <= 3 and 1 or 2)
  end
end

local function legal(p)
  for s = 1, 6 do
    if m.owner(s) == p and m.count(s) > 0 and WEIGHT[m.count(s)] > 0 then
      m.emit(SOW, s)
    end
  end
end

local function play(p, kind, s)
  m.sow(RING, s, m.take(s))
end

local function blocked(p)
  m.finish(3 - p, "no legal move")
end

return { setup = setup, legal = legal, play = play, blocked = blocked }
