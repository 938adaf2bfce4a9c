-- Attack: a global function (function helper() end).
-- Must: refused when the game loads: a ScriptError naming this file and line.
-- Expect: load script-error msg="function helper is global"
local m = matombo
m.declare { name = "global_function" }
m.board { rows = { "a", "b" }, columns = 3 }
local K = m.move("k", "{1}")
function helper() -- ATTACK
  return 1
end

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
