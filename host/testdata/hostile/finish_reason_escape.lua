-- Attack: a finish reason with an escape sequence, printed when the game
-- ends.
-- Must: a ScriptError in play naming this line.
-- Expect: play script-error msg="finish: the reason contains the control character U+001B"
local m = matombo
m.declare { name = "finish_reason_escape" }
m.board { rows = { "a", "b" }, columns = 3 }
local K = m.move("k", "{1}")

return {
  setup = function() m.set_count("a1", 1) m.set_count("a2", 1) end,
  legal = function(p) m.emit(K, "a1") m.emit(K, "a2") end,
  play = function(p, kind, s)
    m.finish(1, "won\27[2J") -- ATTACK
  end,
}
