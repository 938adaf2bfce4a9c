-- Attack: error(string.rep("E", 1e6)): a megabyte of error message, which
-- would be printed in full.
-- Must: a ScriptError naming this line whose message keeps a few
-- kilobytes and says how much was cut.
-- Expect: play script-error msg="more bytes cut"
local m = matombo
m.declare { name = "error_huge_message" }
m.board { rows = { "a" }, columns = 2 }
local K = m.move("k", "{1}")

return {
  setup = function() m.set_count("a1", 1) end,
  legal = function(p) m.emit(K, "a1") end,
  play = function()
    error(string.rep("E", 1e6)) -- ATTACK
  end,
}
