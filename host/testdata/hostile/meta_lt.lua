-- Attack: recursion through __lt and __le: a < b inside __lt.
-- Must: a call-stack BudgetError naming this file and the line of the
-- metamethod; the state is unchanged.
-- Expect: play budget-call-stack
local m = matombo
m.declare { name = "meta_lt" }
m.board { rows = { "a", "b" }, columns = 3 }
local K = m.move("k", "{1}")
local mt = {}
mt.__lt = function(a, b)
  return a < b -- ATTACK
end
local x, y = setmetatable({}, mt), setmetatable({}, mt)

local function setup()
  m.set_count("a1", 1)
  m.set_count("a2", 1)
end

local function legal(p)
  m.emit(K, "a1")
  m.emit(K, "a2")
end

local function play(p, kind, s)
  return x < y
end

return { setup = setup, legal = legal, play = play }
