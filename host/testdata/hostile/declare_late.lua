-- Attack: a declaration after the script has loaded (a tag in play).
-- Must: a ScriptError naming this file and line; the state is unchanged.
-- Expect: play script-error msg="can only be declared while the script loads"
local m = matombo
m.declare { name = "declare_late" }
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
  m.tag("late", { "a1" }) -- ATTACK
end

return { setup = setup, legal = legal, play = play }
