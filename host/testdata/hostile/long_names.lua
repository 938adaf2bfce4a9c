-- Attack: extremely long names for a tag, a track, a move kind and a
-- variable (a megabyte each).
-- Must: refused at load with the line of the first one: declared names
-- have 1 to 64 characters.
-- Expect: load script-error msg="name has 1 to 64 characters"
local m = matombo
local BIG = string.rep("n", 1048576)
m.declare { name = "long_names" }
m.board { rows = { "a" }, columns = 2 }
local T = m.tag(BIG, { "a1" }) -- ATTACK
local R = m.track(BIG, { "a1", "a2" }, true)
local K = m.move(BIG, "{1}")
local V = m.var(BIG)

return {
  setup = function() m.set_count("a1", 1) end,
  legal = function(p) m.emit(K, "a1") end,
  play = function() m.finish(0, "done") end,
}
