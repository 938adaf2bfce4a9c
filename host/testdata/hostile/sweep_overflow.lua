-- Attack: sweeping four sites of 1073741823 counters into one captured
-- total (4e9: past the int32 range).
-- Must: a Lua error naming this line: the total would pass the limit.
-- Expect: play script-error msg="captured total would become"
local m = matombo
m.declare { name = "sweep_overflow", players = 2, conserve = false }
m.board { rows = { "a" }, columns = 8 }
local RING = m.track("ring", { "a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8" }, true)
local K = m.move("k", "{1}")
local ANY = m.filter {}

local function setup()
  -- From a1 this relay sowing never ends: every lap ends on an occupied site.
  for i, c in ipairs { 2, 2, 3, 2, 1, 3, 2, 3 } do m.set_count(i, c) end
  for i = 1, 4 do m.set_owner(i, 1) end
end

local function legal(p)
  m.emit(K, "a1")
  m.emit(K, "a2")
end

local function play(p, kind, s)
  for i = 1, 4 do m.set_count(i, 1073741823) end
  m.sweep() -- ATTACK
end

return { setup = setup, legal = legal, play = play }
