-- Attack: a "*" width, which Go reads from the arguments ("%!(BADWIDTH)").
-- Must: a Lua error naming this line (invalid option).
-- Expect: play script-error msg="invalid option '%*'"
local m = matombo
m.declare { name = "format_star_width" }
m.board { rows = { "a", "b" }, columns = 3 }
local K = m.move("k", "{1}")

local function setup()
  m.set_count("a1", 1)
  m.set_count("a2", 1)
end

local function legal(p)
  m.emit(K, "a1")
  m.emit(K, "a2")
end

local function play(p, kind, s)
  local r = string.format("%*d", 5, 1) -- ATTACK
end

return { setup = setup, legal = legal, play = play }
