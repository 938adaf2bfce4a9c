-- Attack: a replacement function returning 64 KiB for each of 65536
-- matches (4 GiB of result, built piece by piece).
-- Must: a string-size BudgetError (or time, as the function runs in Lua)
-- naming this line once the result would
-- pass the limit.
-- Expect: play budget-string-size
local m = matombo
m.declare { name = "gsub_function_bomb" }
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
  local big = string.rep("x", 65536)
  local r = string.gsub(string.rep("a", 65536), "a", function() return big end) -- ATTACK
end

return { setup = setup, legal = legal, play = play }
