-- Attack: creating a global (counter = 0) to keep state between calls.
-- Must: refused when the game loads: a ScriptError (assignment to global)
-- naming this file and the line.
-- Expect: load script-error msg="assignment to global \"counter\""
local m = matombo
m.declare { name = "global_write" }
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
  counter = 1 -- ATTACK
  m.finish(0, "done")
end

return { setup = setup, legal = legal, play = play }
