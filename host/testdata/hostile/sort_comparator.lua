-- Attack: table.sort with a comparator that loops for ever, so the time is
-- spent inside a Go library function calling back into Lua.
-- Must: a time BudgetError naming this file and the comparator's line; the
-- state is unchanged.
-- Expect: play budget-steps
local m = matombo
m.declare { name = "sort_comparator" }
m.board { rows = { "a" }, columns = 2 }
local K = m.move("k", "{1}")

return {
  setup = function() m.set_count("a1", 1) end,
  legal = function(p) m.emit(K, "a1") end,
  play = function()
    local t = { 3, 1, 2 }
    table.sort(t, function(a, b)
      while true do end -- ATTACK
    end)
  end,
}
