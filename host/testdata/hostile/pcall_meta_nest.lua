-- Attack: an error raised under 150 nested metamethod calls, caught in a
-- loop: gopher-lua runs each metamethod in a Go call of its own, so the
-- panic unwinds 150 nests of Go frames.
-- Must: a step BudgetError naming the metamethod or the loop.
-- Expect: play budget-steps
local m = matombo
m.declare { name = "pcall_meta_nest" }
m.board { rows = { "a" }, columns = 2 }
local K = m.move("k", "{1}")

local t = setmetatable({}, { __index = function(t, d) -- ATTACK
  if d > 1 then return t[d - 1] end -- ATTACK
  error("x") -- ATTACK
end }) -- ATTACK

local function get() return t[150] end -- ATTACK

return {
  setup = function() m.set_count("a1", 1) end,
  legal = function(p) m.emit(K, "a1") end,
  play = function()
    for i = 1, 1e9 do pcall(get) end -- ATTACK
  end,
}
