-- Attack: table.concat over the range 1..1e6 (a million elements).
-- Must: a table-size BudgetError naming this file and line.
-- Expect: play budget-table-size
local m = matombo
m.declare { name = "table_concat" }
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
  local t = { "x" }
  local s = table.concat(t, ",", 1, 1e6) -- ATTACK
end

return { setup = setup, legal = legal, play = play }
