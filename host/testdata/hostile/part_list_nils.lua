-- Attack: native rule parts declared in a loop while loading, each given a
-- list (emit_rule's moves) with 60 values and a million nils after them:
-- the host read the list with its length (#t, a walk of the nils) taken
-- again for each value, uncharged: a declaration cost 60 million slots of
-- Go for a few steps, and the load ran into the time guard.
-- Must: a step BudgetError at load naming the loop (the walk is charged
-- once per list, as "#" charges it).
-- Expect: load budget-steps
local m = matombo
m.declare { name = "part_list_nils" }
m.board { rows = { "a" }, columns = 2 }
local K = m.move("k", "{1}")
local P = m.move("pass", "pass")
local kinds = {}
for i = 1, 60 do kinds[i] = P end
kinds[1000000] = P
kinds[1000000] = nil
for i = 1, 1000000 do m.emit_rule { moves = kinds } end -- ATTACK

return {
  setup = function() m.set_count("a1", 1) end,
  legal = function(p) m.emit(K, "a1") end,
  play = function() end,
}
