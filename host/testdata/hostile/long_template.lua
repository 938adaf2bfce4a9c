-- Attack: an extremely long token template (over 64 characters).
-- Must: refused at load: a ScriptError naming this file and line.
-- Expect: load script-error msg="at most 64 characters"
local m = matombo
m.declare { name = "long_template" }
m.board { rows = { "a", "b" }, columns = 3 }
local K = m.move("k", "{1}")
local LONG = m.move("long", string.rep("x", 100) .. "{1}") -- ATTACK

local function setup()
  m.set_count("a1", 1)
  m.set_count("a2", 1)
end

local function legal(p)
  m.emit(K, "a1")
  m.emit(K, "a2")
end

local function play(p, kind, s)
  m.take(s)
  m.finish(0, "done")
end

return { setup = setup, legal = legal, play = play }
