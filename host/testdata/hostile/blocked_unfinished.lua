-- Attack: legal lists nothing and blocked does not end the game.
-- Must: Load fails with a ScriptError (in blocked) naming the line of
-- blocked, the function that returned without ending the game.
-- Expect: load script-error msg="without ending the game"
local m = matombo
m.declare { name = "blocked_unfinished" }
m.board { rows = { "a", "b" }, columns = 3 }
local K = m.move("k", "{1}")

local function setup()
  m.set_count("a1", 1)
  m.set_count("a2", 1)
end

local function legal(p)
  local nothing = true
end

local function play(p, kind, s)
  m.take(s)
  m.finish(0, "done")
end

return { setup = setup, legal = legal, play = play,
  blocked = function(p) return nil end } -- ATTACK
