-- Attack: doubling a string in a loop (s = s .. s): the concatenation
-- operator is not a library function, so no size check applies; the string
-- would reach hundreds of MiB within a few instructions. The operator
-- charges the bytes it builds (luavm/concat.go): the steps run out at
-- about 128 MiB built.
-- Must: a memory (or time) BudgetError naming this file and the line of the
-- loop; the state is unchanged.
-- Expect: play budget-memory|budget-steps
local m = matombo
m.declare { name = "string_double" }
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
  local s = "x"
  while true do -- ATTACK
    s = s .. s -- ATTACK
  end -- ATTACK
end

return { setup = setup, legal = legal, play = play }
