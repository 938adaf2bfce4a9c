-- Attack: sowing counts past the int32 range (they used to wrap to
-- negative counts silently).
-- Must: a Lua error naming this line: the count would pass the limit.
-- Expect: play script-error msg="would pass 1073741823"
local m = matombo
m.declare { name = "sow_overflow", players = 2, conserve = false }
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
  m.set_count("a2", 1073741823)
  m.sow(RING, 1, 1) -- ATTACK
end

return { setup = setup, legal = legal, play = play }
