-- Attack: string.gsub with a 1 MiB replacement for each of 4001 matches
-- (4 GiB of result built inside one Go call).
-- Must: a string-size BudgetError naming this line, before the result passes the limit.
-- Expect: play budget-string-size msg="string.gsub would build"
local m = matombo
m.declare { name = "gsub_replacement_bomb" }
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
  local r = string.gsub(string.rep("a", 4000), "", string.rep("b", 1048576)) -- ATTACK
end

return { setup = setup, legal = legal, play = play }
