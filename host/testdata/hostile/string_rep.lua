-- Attack: ("x"):rep(2^31), a 2 GiB string in one library call.
-- Must: a string-size BudgetError naming this file and line before anything is
-- allocated; the state is unchanged.
-- Expect: play budget-string-size msg="string.rep"
local m = matombo
m.declare { name = "string_rep" }
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
  local s = ("x"):rep(2^31) -- ATTACK
end

return { setup = setup, legal = legal, play = play }
