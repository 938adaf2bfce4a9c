-- Attack: a vararg function called with a table unpacked into tens of
-- thousands of arguments, over and over (select("#", unpack(t))).
-- Must: a data-stack BudgetError (or time) naming this file and line.
-- Expect: play budget-data-stack|budget-steps
local m = matombo
m.declare { name = "data_stack_varargs" }
m.board { rows = { "a" }, columns = 2 }
local K = m.move("k", "{1}")

local function count(...)
  return select("#", ...)
end

return {
  setup = function() m.set_count("a1", 1) end,
  legal = function(p) m.emit(K, "a1") end,
  play = function()
    local t = {}
    for i = 1, 65536 do t[i] = i end
    return count(unpack(t)) -- ATTACK
  end,
}
