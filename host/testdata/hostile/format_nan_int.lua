-- Attack: %d of NaN (Go prints -9223372036854775808).
-- Must: a Lua error naming this line (no integer representation).
-- Expect: play script-error msg="no integer representation"
local m = matombo
m.declare { name = "format_nan_int" }
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
  local r = string.format("%d", 0/0) -- ATTACK
end

return { setup = setup, legal = legal, play = play }
