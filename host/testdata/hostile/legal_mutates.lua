-- Attack: legal changing the state (so that listing tokens plays them).
-- Must: Load fails with a ScriptError (legal must not change the state)
-- naming this file and line.
-- Expect: load script-error msg="legal must not change the state"
local m = matombo
m.declare { name = "legal_mutates" }
m.board { rows = { "a", "b" }, columns = 3 }
local K = m.move("k", "{1}")

local function setup()
  m.set_count("a1", 1)
  m.set_count("a2", 1)
end

local function legal(p)
  m.set_count("a1", 5) -- ATTACK
  m.emit(K, "a1")
end

local function play(p, kind, s)
  m.take(s)
  m.finish(0, "done")
end

return { setup = setup, legal = legal, play = play }
