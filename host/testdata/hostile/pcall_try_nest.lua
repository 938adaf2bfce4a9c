-- Attack: tries nested in pcalls, a thousand at each level, inside legal:
-- local function f(d) for i = 1, 1000 do pcall(m.try, f, d + 1) end end.
-- Each try copies the state and nests until tries nest too deep (8),
-- whose error every pcall catches: 16 s before the step budget stopped it
-- when raising and catching errors cost nothing.
-- Must: a step BudgetError at load naming the loop, within the budget's
-- time (the raise and catch of each error are charged, lua_pcall.go).
-- Expect: load budget-steps
local m = matombo
m.declare { name = "pcall_try_nest" }
m.board { rows = { "a" }, columns = 2 }
local K = m.move("k", "{1}")

local function f(d) -- ATTACK
  for i = 1, 1000 do pcall(m.try, f, d + 1) end -- ATTACK
  return d -- ATTACK
end -- ATTACK

return {
  setup = function() m.set_count("a1", 1) end,
  legal = function(p) f(0) m.emit(K, "a1") end,
  play = function() end,
}
