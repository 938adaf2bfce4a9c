-- Attack: string.format("%q") of zero bytes (each becomes four): a result
-- four times the string limit (run with a 4 KiB limit).
-- Must: a string-size BudgetError naming this line, before building it.
-- Expect: play budget-string-size msg="string.format would build" limits=small-strings
local m = matombo
m.declare { name = "format_quote_bomb" }
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
  local s = string.rep("\0", 4096)
  local r = string.format("%q%q", s, s) -- ATTACK
end

return { setup = setup, legal = legal, play = play }
