-- Attack: an endless loop (while true do end) when a token is played.
-- Must: a time BudgetError naming this file and the loop's line, within the
-- time budget; the state is unchanged and the process survives.
-- Expect: play budget-steps
local m = matombo
m.declare { name = "loop_forever" }
m.board { rows = { "a", "b" }, columns = 3 }
local K = m.move("k", "{1}")

local function setup()
  m.set_count("a1", 1)
  m.set_count("a2", 1)
end

local function legal(p)
  m.emit(K, "a1")
  m.emit(K, "a2")
end

local function play(p, kind, s)
  while true do end -- ATTACK
end

return { setup = setup, legal = legal, play = play }
