-- Attack: string.gmatch over a megabyte.
-- Must: a string-size BudgetError naming this file and line.
-- Expect: play budget-string-size msg="string.gmatch"
local m = matombo
m.declare { name = "gmatch_mega" }
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
  local s = string.rep("a", 1000000)
  for w in s:gmatch("a") do end -- ATTACK
end

return { setup = setup, legal = legal, play = play }
