-- Attack: a primitive called with wrong types (a table for a site).
-- Must: a ScriptError naming this file and line and what was expected; the
-- state is unchanged.
-- Expect: play script-error msg="site expected, got table"
local m = matombo
m.declare { name = "wrong_types" }
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
  m.set_count({}, 1) -- ATTACK
end

return { setup = setup, legal = legal, play = play }
