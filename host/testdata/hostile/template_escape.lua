-- Attack: a move template with an escape sequence: every token printed
-- would carry it.
-- Must: a ScriptError at load naming this line.
-- Expect: load script-error msg="the token template contains the control character U+001B"
local m = matombo
m.declare { name = "template_escape" }
m.board { rows = { "a", "b" }, columns = 3 }
local K = m.move("k", "\27[31m{1}") -- ATTACK

return {
  setup = function() m.set_count("a1", 1) m.set_count("a2", 1) end,
  legal = function(p) m.emit(K, "a1") m.emit(K, "a2") end,
  play = function(p, kind, s)
    m.finish(0, "done")
  end,
}
