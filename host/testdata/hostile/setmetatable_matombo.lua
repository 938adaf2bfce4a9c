-- Attack: setmetatable on matombo, to intercept the primitives.
-- Must: a ScriptError (protected metatable) naming this file and line at load.
-- Expect: load script-error msg="protected metatable"
local m = matombo
m.declare { name = "setmetatable_matombo" }
m.board { rows = { "a", "b" }, columns = 3 }
local K = m.move("k", "{1}")
setmetatable(matombo, {}) -- ATTACK

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
