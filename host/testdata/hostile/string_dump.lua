-- Attack: string.dump, to get bytecode of a function.
-- Must: string.dump does not exist: a ScriptError naming this file and line
-- when the game loads (chunk).
-- Expect: load script-error
local m = matombo
m.declare { name = "string_dump" }
m.board { rows = { "a", "b" }, columns = 3 }
local K = m.move("k", "{1}")
local code = string.dump(function() end) -- ATTACK

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
