-- Attack: an error handler that errors again, recursively (xpcall with a
-- handler that raises), to confuse the host's error reporting.
-- Must: a clear error naming this file and line (gopher-lua drops the
-- handler's error: xpcall returns false, and the script's next error is
-- reported, a ScriptError or a call-stack
-- BudgetError); the state is unchanged.
-- Expect: play script-error
local m = matombo
m.declare { name = "xpcall_handler" }
m.board { rows = { "a" }, columns = 2 }
local K = m.move("k", "{1}")

local function handler(e)
  error({}) -- ATTACK
end

return {
  setup = function() m.set_count("a1", 1) end,
  legal = function(p) m.emit(K, "a1") end,
  play = function()
    local ok, e = xpcall(function() error("first") end, handler)
    error("after xpcall: " .. tostring(ok)) -- ATTACK
  end,
}
