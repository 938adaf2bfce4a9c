-- Attack: matombo.try of a function that raises, caught by pcall, in a
-- loop: each turn copies the state, raises, restores it and raises again.
-- Must: a step BudgetError naming the loop.
-- Expect: play budget-steps
local m = matombo
m.declare { name = "try_error_loop" }
m.board { rows = { "a" }, columns = 2 }
local K = m.move("k", "{1}")

return {
  setup = function() m.set_count("a1", 1) end,
  legal = function(p) m.emit(K, "a1") end,
  play = function()
    for i = 1, 1e9 do pcall(m.try, error, "x") end -- ATTACK
  end,
}
