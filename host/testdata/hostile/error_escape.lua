-- Attack: an error message with an escape sequence (error messages quote
-- what scripts pass).
-- Must: a ScriptError naming this line whose message shows the escape as
-- \x1b, not the raw character.
-- Expect: play script-error msg="bad\\x1b[2J move"
local m = matombo
m.declare { name = "error_escape" }
m.board { rows = { "a", "b" }, columns = 3 }
local K = m.move("k", "{1}")

return {
  setup = function() m.set_count("a1", 1) m.set_count("a2", 1) end,
  legal = function(p) m.emit(K, "a1") m.emit(K, "a2") end,
  play = function(p, kind, s)
    error("bad\27[2J move") -- ATTACK
  end,
}
