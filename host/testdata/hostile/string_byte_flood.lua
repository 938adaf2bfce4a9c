-- Attack: string.byte(s, 1, -1) on a 1 MiB string pushes a million values
-- on the Lua stack.
-- Must: a data-stack BudgetError naming this file and line (or a time
-- BudgetError: the stack grows 256 slots at a time, so filling it takes
-- about 0.4 s, longer than the 200 ms the test allows).
-- Expect: play budget-data-stack|budget-steps
local m = matombo
m.declare { name = "string_byte_flood" }
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
  local s = string.rep("x", 1000000)
  local a = string.byte(s, 1, -1) -- ATTACK
end

return { setup = setup, legal = legal, play = play }
