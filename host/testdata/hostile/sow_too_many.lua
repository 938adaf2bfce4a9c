-- Attack: sowing 2^31 counters at once.
-- Must: a Lua error naming this line (cannot sow that many).
-- Expect: play script-error msg="cannot sow 2147483648 counters"
local m = matombo
m.declare { name = "sow_too_many", players = 2, conserve = false }
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
  m.sow(RING, 1, 2147483648) -- ATTACK
end

return { setup = setup, legal = legal, play = play }
