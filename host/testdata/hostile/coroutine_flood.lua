-- Attack: a coroutine flood: a million coroutines that never yield back.
-- Must: refused when the game loads (coroutine does not exist in the sandbox):
-- a ScriptError naming this file and the line of the first use.
-- Expect: load script-error msg="undeclared global \"coroutine\""
local m = matombo
m.declare { name = "coroutine_flood" }
m.board { rows = { "a", "b" }, columns = 3 }
local K = m.move("k", "{1}")
local function flood()
  for i = 1, 1000000 do
    local co = coroutine.wrap(function() while true do end end) -- ATTACK
    co()
  end
end

local function setup()
  m.set_count("a1", 1)
  m.set_count("a2", 1)
end

local function legal(p)
  m.emit(K, "a1")
  m.emit(K, "a2")
end

local function play(p, kind, s)
  flood()
end

return { setup = setup, legal = legal, play = play }
