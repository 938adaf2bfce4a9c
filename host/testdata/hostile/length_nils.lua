-- Attack: "#t" in a loop over a table with one value and a million nils
-- after it (t[1000000] = 1 grows the array part to a million slots in one
-- instruction; clearing it leaves them). gopher-lua's "#" searches the
-- array part from its end, a million slots in one instruction charged one
-- step: this loop ran into the 30 s time guard.
-- Must: a step BudgetError naming the loop, within the budget's time (the
-- walk is charged, luavm/tablewalk.go).
-- Expect: play budget-steps
local m = matombo
m.declare { name = "length_nils" }
m.board { rows = { "a" }, columns = 2 }
local K = m.move("k", "{1}")
local t = { true }
t[1000000] = true
t[1000000] = nil

return {
  setup = function() m.set_count("a1", 1) end,
  legal = function(p) m.emit(K, "a1") end,
  play = function()
    while #t > 0 do end -- ATTACK
  end,
}
