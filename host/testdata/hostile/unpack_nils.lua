-- Attack: unpack(t) in a loop over a table with one value and a million
-- nils after it: unpack without an end index takes #t, which walks the
-- nils, a million slots in one call charged one step: this loop ran into
-- the 30 s time guard.
-- Must: a step BudgetError naming the loop, within the budget's time.
-- Expect: play budget-steps
local m = matombo
m.declare { name = "unpack_nils" }
m.board { rows = { "a" }, columns = 2 }
local K = m.move("k", "{1}")
local t = { true }
t[1000000] = true
t[1000000] = nil

return {
  setup = function() m.set_count("a1", 1) end,
  legal = function(p) m.emit(K, "a1") end,
  play = function()
    while unpack(t) do end -- ATTACK
  end,
}
