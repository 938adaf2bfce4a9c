-- Attack: for i = 1, 1e9 do pcall(error, "x") end: three instructions a
-- turn, but a raise, a Go panic and a catch (and, in gopher-lua, a
-- traceback of the whole stack): 30 times an empty loop's time.
-- Must: a step BudgetError naming the loop, in about the time of an empty
-- loop's budget.
-- Expect: play budget-steps
local m = matombo
m.declare { name = "pcall_error_loop" }
m.board { rows = { "a" }, columns = 2 }
local K = m.move("k", "{1}")

return {
  setup = function() m.set_count("a1", 1) end,
  legal = function(p) m.emit(K, "a1") end,
  play = function()
    for i = 1, 1e9 do pcall(error, "x") end -- ATTACK
  end,
}
