-- Attack: t[67108863] = 1, just below gopher-lua's own MaxArrayIndex
-- (67108864): gopher-lua would grow the array part to 67 million slots (1 GiB)
-- in one instruction.
-- Must: no error and no big allocation: the host lowers lua.MaxArrayIndex to
-- 65536, so the key goes to the hash part.
-- Expect: ok heap=64MiB
local m = matombo
m.declare { name = "sparse_key_array" }
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
  local t = {}
  t[67108863] = 1 -- ATTACK
  m.take(s)
  m.finish(0, "done")
end

return { setup = setup, legal = legal, play = play }
