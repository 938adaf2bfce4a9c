-- Attack: endless table growth: a loop adding ever more tables to a table.
-- Must: a memory or time BudgetError naming this file and a line of the loop;
-- the state is unchanged.
-- Expect: play budget-memory|budget-steps
local m = matombo
m.declare { name = "table_growth" }
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
  local t, i = {}, 0
  while true do -- ATTACK
    i = i + 1 -- ATTACK
    t[i] = { i, i, i, i } -- ATTACK
  end -- ATTACK
end

return { setup = setup, legal = legal, play = play }
