-- Attack: table.concat of 1000 strings of 64 KiB each (a 64 MiB result).
-- Must: a string-size BudgetError naming this file and line.
-- Expect: play budget-string-size
local m = matombo
m.declare { name = "table_concat_long" }
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
  local t = {}
  local piece = string.rep("x", 65536)
  for i = 1, 1000 do t[i] = piece end
  local s = table.concat(t) -- ATTACK
end

return { setup = setup, legal = legal, play = play }
