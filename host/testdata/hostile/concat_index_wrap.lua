-- Attack: table.concat from -2^62 to 1: the element count overflows an
-- int and a Go loop would run for ages.
-- Must: a Lua error naming this line.
-- Expect: play script-error msg="out of range"
local m = matombo
m.declare { name = "concat_index_wrap" }
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
  local r = table.concat({}, "", -2^62, 1) -- ATTACK
end

return { setup = setup, legal = legal, play = play }
