-- A stand-in game for tests of a script that fails: Player 1's move
-- plays, Player 2's never does (an error in play).
local m = matombo
m.declare { name = "stuck" }
m.board { rows = { "a" }, columns = 2 }
local K = m.move("k", "{1}")
return {
  setup = function() m.set_count("a1", 1) end,
  legal = function(p) m.emit(K, "a1") end,
  play = function(p) if p == 2 then error("player 2 cannot move") end end,
}
