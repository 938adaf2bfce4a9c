-- Attack: reading an undeclared global (a typo for a local), inside play.
-- Must: refused when the game loads, before anything runs: a ScriptError
-- (undeclared global) naming this file and the line.
-- Expect: load script-error msg="undeclared global \"verbose\""
local m = matombo
m.declare { name = "global_read" }
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
  if verbose then m.set_count(s, 0) end -- ATTACK
  m.finish(0, "done")
end

return { setup = setup, legal = legal, play = play }
