-- Attack: a move kind name with a control character.
-- Must: a ScriptError at load naming this line.
-- Expect: load script-error msg="the move kind name contains the control character U+0008"
local m = matombo
m.declare { name = "kind_name_escape" }
m.board { rows = { "a", "b" }, columns = 3 }
local K = m.move("k\8\8", "{1}") -- ATTACK

return {
  setup = function() m.set_count("a1", 1) m.set_count("a2", 1) end,
  legal = function(p) m.emit(K, "a1") m.emit(K, "a2") end,
  play = function(p, kind, s)
    m.finish(0, "done")
  end,
}
