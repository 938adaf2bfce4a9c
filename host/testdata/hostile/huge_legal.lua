-- Attack: a huge number of legal tokens (100001 emits in legal).
-- Must: Load fails with a ScriptError (more than 100000 legal moves) naming
-- this file and line.
-- Expect: load script-error msg="more than 100000 legal moves" limits=default
local m = matombo
m.declare { name = "huge_legal" }
m.board { rows = { "a", "b" }, columns = 3 }
local K = m.move("k", "{1}")

local function setup()
  m.set_count("a1", 1)
  m.set_count("a2", 1)
end

local function legal(p)
  for i = 1, 100001 do
    m.emit(K, "a1") -- ATTACK
  end
end

local function play(p, kind, s)
  m.take(s)
  m.finish(0, "done")
end

return { setup = setup, legal = legal, play = play }
