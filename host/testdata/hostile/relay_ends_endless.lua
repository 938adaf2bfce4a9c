-- Attack: relay_ends on a sowing that never ends, lap limit 2^31.
-- Must: a sowing BudgetError naming this line within the work bound.
-- Expect: play budget-steps
local m = matombo
m.declare { name = "relay_ends_endless", players = 2, conserve = false }
m.board { rows = { "a" }, columns = 8 }
local RING = m.track("ring", { "a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8" }, true)
local K = m.move("k", "{1}")
local ANY = m.filter {}

local function setup()
  -- From a1 this relay sowing never ends: every lap ends on an occupied site.
  for i, c in ipairs { 2, 2, 3, 2, 1, 3, 2, 3 } do m.set_count(i, c) end

end

local function legal(p)
  m.emit(K, "a1")
  m.emit(K, "a2")
end

local function play(p, kind, s)
  local ok = m.relay_ends(RING, "a1", nil, 2147483648) -- ATTACK
end

return { setup = setup, legal = legal, play = play }
