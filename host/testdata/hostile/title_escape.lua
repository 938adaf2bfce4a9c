-- Attack: an escape sequence in the title clears the screen of whoever
-- lists the games.
-- Must: a ScriptError at load naming this line (a control character).
-- Expect: load script-error msg="the title contains the control character U+001B"
local m = matombo
m.declare { name = "title_escape", title = "Nice\27[2J\27]0;pwned\7" } -- ATTACK
m.board { rows = { "a", "b" }, columns = 3 }
local K = m.move("k", "{1}")

return {
  setup = function() m.set_count("a1", 1) m.set_count("a2", 1) end,
  legal = function(p) m.emit(K, "a1") m.emit(K, "a2") end,
  play = function(p, kind, s)
    m.finish(0, "done")
  end,
}
