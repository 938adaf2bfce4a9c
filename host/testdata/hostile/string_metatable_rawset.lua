-- Attack: rawset on the string metatable, to replace the string methods.
-- Must: a ScriptError naming this file and line at load.
-- Expect: load script-error
local m = matombo
m.declare { name = "string_metatable_rawset" }
m.board { rows = { "a", "b" }, columns = 3 }
local K = m.move("k", "{1}")
rawset(getmetatable(""), "__index", {}) -- ATTACK

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
