-- Attack: a finish note with a right-to-left override, which reorders
-- what a terminal or web page shows.
-- Must: a ScriptError in play naming this line.
-- Expect: play script-error msg="finish: note 1 contains the control character U+202E"
local m = matombo
m.declare { name = "finish_note_bidi" }
m.board { rows = { "a", "b" }, columns = 3 }
local K = m.move("k", "{1}")

return {
  setup = function() m.set_count("a1", 1) m.set_count("a2", 1) end,
  legal = function(p) m.emit(K, "a1") m.emit(K, "a2") end,
  play = function(p, kind, s)
    m.finish(1, "won", "without \226\128\174glory") -- ATTACK
  end,
}
