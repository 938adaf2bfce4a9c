-- Attack: a backtracking pattern on a subject within the size limit
-- (64 KiB): s:find(".-b") on 20000 bytes without a "b" needs about n^2/2
-- = 2e8 steps of gopher-lua's pattern matcher, which runs in Go, so the time
-- budget (seen only between VM instructions) cannot stop it: it takes
-- seconds (about 16 s measured), and ".-.-.-b" on 60000 bytes (n^3) would
-- take hours.
-- Must: an error within the time budget (a BudgetError, or the pattern
-- refused); the process survives.
-- Expect: play budget-pattern
local m = matombo
m.declare { name = "pattern_backtrack" }
m.board { rows = { "a", "b" }, columns = 3 }
local K = m.move("k", "{1}")

return {
  setup = function()
    m.set_count("a1", 1)
    m.set_count("a2", 1)
  end,
  legal = function(p)
    m.emit(K, "a1")
    m.emit(K, "a2")
  end,
  play = function(p, kind, s)
    local subject = string.rep("a", 20000)
    local i = subject:find(".-b") -- ATTACK
  end, -- ATTACK (a budget that trips during a long library call is seen at the next instruction)
}
