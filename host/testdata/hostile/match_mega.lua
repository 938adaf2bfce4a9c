-- Attack: string.match over a megabyte.
-- Must: a string-size BudgetError naming this file and line.
-- Expect: play budget-string-size msg="string.match"
local m = matombo
m.declare { name = "match_mega" }
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
  local r = string.match(s, "(a+)b") -- ATTACK
end

return { setup = setup, legal = legal, play = play }
