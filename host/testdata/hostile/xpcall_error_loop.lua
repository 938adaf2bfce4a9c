-- Attack: xpcall in a loop whose handler raises again, so that every turn
-- raises and catches two errors (gopher-lua builds a traceback of the
-- whole stack for a handler's error).
-- Must: a step BudgetError naming the loop or the handler.
-- Expect: play budget-steps
local m = matombo
m.declare { name = "xpcall_error_loop" }
m.board { rows = { "a" }, columns = 2 }
local K = m.move("k", "{1}")

local function handler(e) error(e, 0) end -- ATTACK

return {
  setup = function() m.set_count("a1", 1) end,
  legal = function(p) m.emit(K, "a1") end,
  play = function()
    for i = 1, 1e9 do xpcall(error, handler) end -- ATTACK
  end,
}
