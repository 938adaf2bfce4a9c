-- Attack: a loop reading a field matombo lacks under pcall, with a key of
-- a megabyte: each read raises an error naming the field and the name it
-- likely meant, a search whose work grows with the key's length times
-- the names of matombo.
-- Must: a step BudgetError naming the loop, in about the time of a loop
-- of plain errors (the key is clipped before the search, whose work is
-- charged).
-- Expect: play budget-steps
local m = matombo
m.declare { name = "missing_field_loop" }
m.board { rows = { "a" }, columns = 2 }
local K = m.move("k", "{1}")
local KEY = string.rep("x", 1000000)

return {
  setup = function() m.set_count("a1", 1) end,
  legal = function(p) m.emit(K, "a1") end,
  play = function()
    for i = 1, 1e9 do pcall(function() return m[KEY] end) end -- ATTACK
  end,
}
