-- A stand-in game for tests of run limits: its play never returns.
local m = matombo
m.declare { name = "runaway" }
m.board { rows = { "a" }, columns = 2 }
local K = m.move("k", "{1}")
return {
  setup = function() m.set_count("a1", 1) end,
  legal = function(p) m.emit(K, "a1") end,
  play = function(p) while true do end end,
}
