-- A stand-in game for tests of run limits: its play spends most of its
-- step budget (about 1.2 of the default 2 million steps) and never ends
-- the game, so a check of it, or many scenarios against it, run for hours.
local m = matombo
m.declare { name = "burner" }
m.board { rows = { "a" }, columns = 2 }
local K = m.move("k", "{1}")
return {
  setup = function() m.set_count("a1", 1) end,
  legal = function(p) m.emit(K, "a1") end,
  play = function(p)
    local x = 0
    for i = 1, 600000 do x = x + 1 end
  end,
}
