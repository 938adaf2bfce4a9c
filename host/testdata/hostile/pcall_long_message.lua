-- Attack: a 1 MiB message raised and caught in a loop: error(s) copies the
-- message to put its position in front, a megabyte for one instruction.
-- Must: a step BudgetError naming the loop: the bytes of a raised message
-- are charged.
-- Expect: play budget-steps
local m = matombo
m.declare { name = "pcall_long_message" }
m.board { rows = { "a" }, columns = 2 }
local K = m.move("k", "{1}")

return {
  setup = function() m.set_count("a1", 1) end,
  legal = function(p) m.emit(K, "a1") end,
  play = function()
    local s = string.rep("x", 1000000)
    for i = 1, 1e9 do pcall(error, s) end -- ATTACK
  end,
}
