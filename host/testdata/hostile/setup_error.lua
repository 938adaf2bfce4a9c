-- Attack: a script that errors in setup.
-- Must: Load fails with a ScriptError (in setup) naming this file and line.
-- Expect: load script-error msg="setup fails on purpose (in setup)"
local m = matombo
m.declare { name = "setup_error" }
m.board { rows = { "a", "b" }, columns = 3 }
local K = m.move("k", "{1}")

local function setup()
  m.set_count("a1", 1)
  m.set_count("a2", 1)
  error("setup fails on purpose") -- ATTACK
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
