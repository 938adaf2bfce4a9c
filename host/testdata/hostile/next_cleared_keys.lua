-- Attack: next(t) in a loop over a table whose hash part had 200,000 keys,
-- all cleared but the last: gopher-lua keeps every key a table ever had in
-- its key list, and next walks the cleared ones, 200,000 in one call
-- charged one step.
-- Must: a step BudgetError naming the loop, within the budget's time (the
-- keys walked are charged, luavm/tablewalk.go).
-- Expect: play budget-steps
local m = matombo
m.declare { name = "next_cleared_keys" }
m.board { rows = { "a" }, columns = 2 }
local K = m.move("k", "{1}")
local t = {}
for i = 1, 200000 do t[-i] = true end
for i = 1, 199999 do t[-i] = nil end

return {
  setup = function() m.set_count("a1", 1) end,
  legal = function(p) m.emit(K, "a1") end,
  play = function()
    while next(t) do end -- ATTACK
  end,
}
