-- Attack: string.gsub over a megabyte (the pattern matcher runs in Go and
-- cannot be interrupted by the time budget).
-- Must: a string-size BudgetError naming this file and line before the matcher
-- runs.
-- Expect: play budget-string-size msg="string.gsub"
local m = matombo
m.declare { name = "gsub_mega" }
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
  local r = string.gsub(s, "a", "b") -- ATTACK
end

return { setup = setup, legal = legal, play = play }
