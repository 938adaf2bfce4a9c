-- Attack: a function called with 30,000 arguments (unpack of a table of
-- 30,000, charged once) builds "{ ... }" in a loop: gopher-lua copies
-- every vararg within the one instruction that reads "...", charged one
-- step (and the table's constructor copies them again).
-- Must: a step BudgetError naming the loop: "..." where it gives every
-- value is a call of the sandbox's varargs function, which charges a
-- step per 4 values (luavm/varargs.go). Before: the 30 s time guard.
-- Expect: play budget-steps
local m = matombo
m.declare { name = "varargs_copies" }
m.board { rows = { "a" }, columns = 2 }
local K = m.move("k", "{1}")

local function spread(...)
  while true do local t = { ... } end -- ATTACK
end

return {
  setup = function() m.set_count("a1", 1) end,
  legal = function(p) m.emit(K, "a1") end,
  play = function()
    local t = {}
    for i = 1, 30000 do t[i] = i end
    spread(unpack(t))
  end,
}
