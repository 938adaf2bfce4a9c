-- Attack: recursion through __tostring: tostring(self) inside __tostring.
-- Must: a call-stack BudgetError naming this file and the line of the
-- metamethod; the state is unchanged.
-- Expect: play budget-call-stack
local m = matombo
m.declare { name = "meta_tostring" }
m.board { rows = { "a", "b" }, columns = 3 }
local K = m.move("k", "{1}")
local t = setmetatable({}, { __tostring = function(self)
  return tostring(self) -- ATTACK
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
  return tostring(t)
end

return { setup = setup, legal = legal, play = play }
