-- Attack: formats Go would print as "%!(NOVERB)" and friends: a lone %.
-- Must: a Lua error naming this line, as Lua 5.1 gives.
-- Expect: play script-error msg="lone %"
local m = matombo
m.declare { name = "format_go_verbs" }
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
  local r = string.format("%", 1) -- ATTACK
end

return { setup = setup, legal = legal, play = play }
