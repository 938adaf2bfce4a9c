-- Attack: string.upper of a string above the string limit (a copy of it;
-- run with a 4 KiB limit).
-- Must: a string-size BudgetError naming this line.
-- Expect: play budget-string-size msg="string.upper would build" limits=small-strings
local m = matombo
m.declare { name = "upper_big" }
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
  local s = string.rep("a", 4096) .. "b"
  local r = string.upper(s) -- ATTACK
end

return { setup = setup, legal = legal, play = play }
