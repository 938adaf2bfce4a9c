-- Attack: a Go primitive that panics (matombo.boom, added by the test with
-- withTestPrimitive).
-- Must: a ScriptError naming this file and the line of the call; the state is
-- unchanged and the process survives.
-- Expect: play script-error msg="nil map" primitive=boom
local m = matombo
m.declare { name = "go_panic" }
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
  m.boom() -- ATTACK
end

return { setup = setup, legal = legal, play = play }
