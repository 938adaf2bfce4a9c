-- Attack: a primitive called with a site outside the board (site 99).
-- Must: a ScriptError naming this file and line and the board's sites; the
-- state is unchanged.
-- Expect: play script-error msg="site expected, got number 99, which is no site (sites are 1..6)"
local m = matombo
m.declare { name = "site_outside" }
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
  m.add(99, 1) -- ATTACK
end

return { setup = setup, legal = legal, play = play }
