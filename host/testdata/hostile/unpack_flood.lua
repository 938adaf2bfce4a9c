-- Attack: unpack({}, 1, 1e8) pushes a hundred million nils on the stack.
-- Must: a data-stack BudgetError naming this file and line (or a time
-- BudgetError: the stack grows 256 slots at a time, so filling it takes
-- about 0.4 s, longer than the 200 ms the test allows).
-- Expect: play budget-data-stack|budget-steps
local m = matombo
m.declare { name = "unpack_flood" }
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
  local a = unpack({}, 1, 1e8) -- ATTACK
end

return { setup = setup, legal = legal, play = play }
