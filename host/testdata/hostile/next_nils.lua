-- Attack: next(t) and the start of a pairs loop, in a loop, over a table
-- whose one value follows a million nils in its array part: gopher-lua's
-- next walks every nil before it, a million slots in one call charged one
-- step; both loops ran into the 30 s time guard.
-- Must: a step BudgetError naming the loop, within the budget's time (the
-- slots walked are charged, luavm/tablewalk.go).
-- Expect: play budget-steps
local m = matombo
m.declare { name = "next_nils" }
m.board { rows = { "a" }, columns = 2 }
local K = m.move("k", "{1}")
local t = {}
t[1000000] = true

local function first(t) -- ATTACK
  for k in pairs(t) do return k end -- ATTACK
end

return {
  setup = function() m.set_count("a1", 1) end,
  legal = function(p) m.emit(K, "a1") end,
  play = function()
    while next(t) and first(t) do end -- ATTACK
  end,
}
