-- Attack: a script that lists tokens it then refuses in play.
-- Must: Apply returns a ScriptError (in play) naming this file and line; the
-- state and its legal list are unchanged.
-- Expect: play script-error msg="I refuse a1 (in play)"
local m = matombo
m.declare { name = "refuse_token" }
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
  error("I refuse " .. m.name(s)) -- ATTACK
end

return { setup = setup, legal = legal, play = play }
