-- Attack: recursion through __call: a callable table that calls itself.
-- Must: a call-stack BudgetError naming this file and the line of the
-- metamethod.
-- Expect: play budget-call-stack
local m = matombo
m.declare { name = "meta_call" }
m.board { rows = { "a", "b" }, columns = 3 }
local K = m.move("k", "{1}")
local f
f = setmetatable({}, { __call = function(self)
  return f() + 1 -- ATTACK
end })

local function setup()
  m.set_count("a1", 1)
  m.set_count("a2", 1)
end

local function legal(p)
  m.emit(K, "a1")
  m.emit(K, "a2")
end

local function play(p, kind, s)
  return f()
end

return { setup = setup, legal = legal, play = play }
