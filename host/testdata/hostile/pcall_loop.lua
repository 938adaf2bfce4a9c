-- Attack: an endless loop that catches the budget error with pcall and
-- carries on (while true do pcall(function() while true do end end) end).
-- Must: still a time BudgetError: once a call is over its budget every
-- instruction fails, also outside the pcall.
-- Expect: play budget-steps
local m = matombo
m.declare { name = "pcall_loop" }
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
  while true do -- ATTACK
    pcall(function() while true do end end) -- ATTACK
  end -- ATTACK
end

return { setup = setup, legal = legal, play = play }
