-- Attack: pcalls nested eight deep, a thousand at each level, the deepest
-- raising error("deep"): 14 s before the step budget stopped it when
-- raising and catching errors cost nothing.
-- Must: a step BudgetError at load naming the function.
-- Expect: load budget-steps
local m = matombo
m.declare { name = "pcall_deep" }
m.board { rows = { "a" }, columns = 2 }
local K = m.move("k", "{1}")

local function f(d) -- ATTACK
  if d >= 8 then error("deep") end -- ATTACK
  for i = 1, 1000 do pcall(f, d + 1) end -- ATTACK
  return d -- ATTACK
end -- ATTACK

return {
  setup = function() m.set_count("a1", 1) end,
  legal = function(p) f(0) m.emit(K, "a1") end,
  play = function() end,
}
