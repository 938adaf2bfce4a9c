-- Attack: errors raised and caught in a loop 190 frames deep: raising
-- walks every frame of the stack (and gopher-lua's traceback of the
-- catch is quadratic in the depth).
-- Must: a step BudgetError naming the loop.
-- Expect: play budget-steps
local m = matombo
m.declare { name = "pcall_deep_stack" }
m.board { rows = { "a" }, columns = 2 }
local K = m.move("k", "{1}")

local function deep(d)
  if d > 0 then return deep(d - 1) + 0 end
  for i = 1, 1e9 do pcall(error, "x") end -- ATTACK
  return 0
end

return {
  setup = function() m.set_count("a1", 1) end,
  legal = function(p) m.emit(K, "a1") end,
  play = function() deep(190) end,
}
