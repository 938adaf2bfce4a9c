-- Attack: t[4001126229] = 1, a sparse integer key that an unguarded
-- gopher-lua could place in a huge array part.
-- Must: no error (the key goes to the hash part: the host lowers
-- lua.MaxArrayIndex) and no big allocation.
-- Expect: ok heap=64MiB
local m = matombo
m.declare { name = "sparse_key" }
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
  t[4001126229] = 1 -- ATTACK
  t[67108863] = 1
  m.take(s)
  m.finish(0, "done")
end

return { setup = setup, legal = legal, play = play }
