-- Attack: a replacement of 500000 "%0" references over a 64 KiB subject
-- (each match expanded 500000 times: gigabytes of result).
-- Must: a BudgetError naming this line (pattern: the expansion work is
-- bounded too), before the result passes the limit.
-- Expect: play budget-pattern msg="string.gsub would expand"
local m = matombo
m.declare { name = "gsub_capture_bomb" }
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
  local r = string.gsub(string.rep("a", 65536), "a", string.rep("%0", 500000)) -- ATTACK
end

return { setup = setup, legal = legal, play = play }
