-- Attack: a parameter whose string default holds an escape sequence.
-- Must: a ScriptError at load naming this line.
-- Expect: load script-error msg="parameter label: default contains the control character U+001B"
local m = matombo
m.declare { name = "param_escape", params = { { name = "label", default = "x\27[2J" } } } -- ATTACK
m.board { rows = { "a", "b" }, columns = 3 }
local K = m.move("k", "{1}")

return {
  setup = function() m.set_count("a1", 1) m.set_count("a2", 1) end,
  legal = function(p) m.emit(K, "a1") m.emit(K, "a2") end,
  play = function(p, kind, s)
    m.finish(0, "done")
  end,
}
