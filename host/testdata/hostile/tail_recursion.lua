-- Attack: unbounded tail recursion (return f(n + 1)), which needs no stack,
-- so it is an endless loop.
-- Must: a time BudgetError naming this file and the recursive line.
-- Expect: play budget-steps
local m = matombo
m.declare { name = "tail_recursion" }
m.board { rows = { "a", "b" }, columns = 3 }
local K = m.move("k", "{1}")
local function f(n)
  return f(n + 1) -- ATTACK
end

local function setup()
  m.set_count("a1", 1)
  m.set_count("a2", 1)
end

local function legal(p)
  m.emit(K, "a1")
  m.emit(K, "a2")
end

local function play(p, kind, s)
  return f(1)
end

return { setup = setup, legal = legal, play = play }
