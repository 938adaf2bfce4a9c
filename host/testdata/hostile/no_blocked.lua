-- Attack: legal lists nothing and the script has no blocked function.
-- Must: Load fails with a ScriptError (in legal) naming the line of legal,
-- the function that returned without listing a token.
-- Expect: load script-error msg="player 1 has no legal token"
local m = matombo
m.declare { name = "no_blocked" }
m.board { rows = { "a", "b" }, columns = 3 }
local K = m.move("k", "{1}")

local function setup()
  m.set_count("a1", 1)
  m.set_count("a2", 1)
end

local function legal(p) -- ATTACK
  local nothing = true
end

local function play(p, kind, s)
  m.take(s)
  m.finish(0, "done")
end

return { setup = setup, legal = legal, play = play }
