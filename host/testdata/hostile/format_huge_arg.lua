-- Attack: string.format("%s%s", s, s) with s of 1 MiB (a 2 MiB result).
-- Must: a string-size BudgetError naming this file and line.
-- Expect: play budget-string-size
local m = matombo
m.declare { name = "format_huge_arg" }
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
  local s = string.rep("x", 1048576)
  local r = string.format("%s%s", s, s) -- ATTACK
end

return { setup = setup, legal = legal, play = play }
