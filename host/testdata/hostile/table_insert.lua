-- Attack: table.insert(t, 1e7, true): inserting far beyond the end of an
-- empty table, which an unguarded gopher-lua turns into a 10-million-slot array.
-- Must: a ScriptError (position out of bounds) naming this file and line.
-- Expect: play script-error msg="out of bounds"
local m = matombo
m.declare { name = "table_insert" }
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
  table.insert(t, 1e7, true) -- ATTACK
end

return { setup = setup, legal = legal, play = play }
