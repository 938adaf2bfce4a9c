-- Attack: an error object that is a table whose __tostring itself errors.
-- Must: the error is still reported (a ScriptError naming this file and line),
-- without calling __tostring; the state is unchanged.
-- Expect: play script-error msg="error object of type table"
local m = matombo
m.declare { name = "error_table" }
m.board { rows = { "a", "b" }, columns = 3 }
local K = m.move("k", "{1}")
local bad = setmetatable({}, { __tostring = function() error("__tostring must not run") end })

local function setup()
  m.set_count("a1", 1)
  m.set_count("a2", 1)
end

local function legal(p)
  m.emit(K, "a1")
  m.emit(K, "a2")
end

local function play(p, kind, s)
  error(bad) -- ATTACK
end

return { setup = setup, legal = legal, play = play }
