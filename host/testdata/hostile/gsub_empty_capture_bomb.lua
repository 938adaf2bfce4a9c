-- Attack: 500000 "%0" references to an empty match at each of 65537
-- places: nothing is built, but 3e10 template steps would run in Go.
-- Must: a pattern BudgetError naming this line, before the loop runs.
-- Expect: play budget-pattern msg="string.gsub would expand"
local m = matombo
m.declare { name = "gsub_empty_capture_bomb" }
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
  local r = string.gsub(string.rep("a", 65536), "", string.rep("%0", 500000)) -- ATTACK
end

return { setup = setup, legal = legal, play = play }
