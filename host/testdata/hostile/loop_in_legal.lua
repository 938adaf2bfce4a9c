-- Attack: an endless loop in legal, so loading the game (which lists the
-- opening's legal tokens) never returns.
-- Must: Load fails with a time BudgetError naming this file and the loop's line.
-- Expect: load budget-steps
local m = matombo
m.declare { name = "loop_in_legal" }
m.board { rows = { "a", "b" }, columns = 3 }
local K = m.move("k", "{1}")

local function setup()
  m.set_count("a1", 1)
  m.set_count("a2", 1)
end

local function legal(p)
  local n = 0
  while n >= 0 do n = n + 1 end -- ATTACK
end

local function play(p, kind, s)
  m.take(s)
  m.finish(0, "done")
end

return { setup = setup, legal = legal, play = play }
