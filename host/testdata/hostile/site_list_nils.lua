-- Attack: a list of sites with one value and a million nils after it,
-- given to a primitive that reads a list of sites (m.finish's sites) in a
-- loop: the host's reader charged the values it read but not the walk of
-- the nils that finding the list's length takes: the loop ran into the
-- time guard.
-- Must: a step BudgetError naming the loop.
-- Expect: play budget-steps
local m = matombo
m.declare { name = "site_list_nils" }
m.board { rows = { "a" }, columns = 2 }
local K = m.move("k", "{1}")
local sites = { "a1" }
sites[1000000] = "a2"
sites[1000000] = nil

return {
  setup = function() m.set_count("a1", 1) end,
  legal = function(p) m.emit(K, "a1") end,
  play = function()
    while true do m.finish { winner = 1, reason = "x", sites = sites } end -- ATTACK
  end,
}
