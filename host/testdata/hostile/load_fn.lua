-- Attack: load(f), to compile code outside the static check, inside play.
-- Must: refused when the game loads, before anything runs: a ScriptError
-- (undeclared global) naming this file and the line.
-- Expect: load script-error msg="undeclared global \"load\""
local m = matombo
m.declare { name = "load_fn" }
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
  local f = load(function() return nil end) -- ATTACK
  m.finish(0, "done")
end

return { setup = setup, legal = legal, play = play }
