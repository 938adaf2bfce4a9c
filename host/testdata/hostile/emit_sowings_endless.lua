-- Attack: emit_sowings over every site with a lap limit of 2^31, each
-- site trying its sowing to the limit in Go.
-- Must: a sowing BudgetError naming this line: the work bound is shared by
-- all the sites of the call.
-- Expect: load budget-steps
local m = matombo
m.declare { name = "emit_sowings_endless", players = 2, conserve = false }
m.board { rows = { "a" }, columns = 8 }
local RING = m.track("ring", { "a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8" }, true)
local K = m.move("k", "{1}")
local ANY = m.filter {}

local function setup()
  -- From a1 this relay sowing never ends: every lap ends on an occupied site.
  for i, c in ipairs { 2, 2, 3, 2, 1, 3, 2, 3 } do m.set_count(i, c) end

end

local function legal(p)
  m.emit_sowings(K, ANY, RING, nil, 2147483648) -- ATTACK
  m.emit(K, "a1")
end

local function play(p, kind, s)
  m.finish(0, "done")
end

return { setup = setup, legal = legal, play = play }
