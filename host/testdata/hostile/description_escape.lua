-- Attack: a carriage return and escape in the description.
-- Must: a ScriptError at load naming this line.
-- Expect: load script-error msg="the description contains the control character U+000D"
local m = matombo
m.declare { name = "description_escape", description = "fine\rOVERWRITTEN\27[1m" } -- ATTACK
m.board { rows = { "a", "b" }, columns = 3 }
local K = m.move("k", "{1}")

return {
  setup = function() m.set_count("a1", 1) m.set_count("a2", 1) end,
  legal = function(p) m.emit(K, "a1") m.emit(K, "a2") end,
  play = function(p, kind, s)
    m.finish(0, "done")
  end,
}
