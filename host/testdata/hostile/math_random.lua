-- Attack: math.random, a source of nondeterminism.
-- Must: math.random does not exist: a ScriptError (call of a nil field) naming
-- this file and line when the game loads (setup).
-- Expect: load script-error
local m = matombo
m.declare { name = "math_random" }
m.board { rows = { "a", "b" }, columns = 3 }
local K = m.move("k", "{1}")

local function setup()
  m.set_count("a1", 1)
  m.set_count("a2", 1)
  local r = math.random(6) -- ATTACK
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
