-- Attack: string.format with a huge width (%999999999d).
-- Must: a ScriptError naming this file and line, without building the string.
-- Expect: play script-error msg="width or precision"
local m = matombo
m.declare { name = "format_width" }
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
  local s = string.format("%999999999d", 1) -- ATTACK
end

return { setup = setup, legal = legal, play = play }
