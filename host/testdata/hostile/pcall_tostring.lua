-- Attack: error values that are tables with a __tostring that never
-- returns, raised and caught in a loop, then raised out of the call: the
-- host must never call __tostring (in Go, outside any budget).
-- Must: a step BudgetError naming the loop; __tostring is never run.
-- Expect: play budget-steps
local m = matombo
m.declare { name = "pcall_tostring" }
m.board { rows = { "a" }, columns = 2 }
local K = m.move("k", "{1}")

local bad = setmetatable({}, { __tostring = function() while true do end end })

return {
  setup = function() m.set_count("a1", 1) end,
  legal = function(p) m.emit(K, "a1") end,
  play = function()
    for i = 1, 1e9 do pcall(error, bad) end -- ATTACK
  end,
}
