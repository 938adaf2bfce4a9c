-- Attack: an endless loop in the script's chunk, while the game loads.
-- Must: Load fails with a time BudgetError naming this file and the loop's line.
-- Expect: load budget-steps
local m = matombo
m.declare { name = "loop_at_load" }
m.board { rows = { "a", "b" }, columns = 3 }
local K = m.move("k", "{1}")
local x = 0
repeat x = x + 1 until x < 0 -- ATTACK

local function setup()
  m.set_count("a1", 1)
  m.set_count("a2", 1)
end

local function legal(p)
  m.emit(K, "a1")
  m.emit(K, "a2")
end

local function play(p, kind, s)
  m.take(s)
  m.finish(0, "done")
end

return { setup = setup, legal = legal, play = play }
