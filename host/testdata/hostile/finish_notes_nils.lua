-- Attack: m.finish with a list of notes that has one value and a million
-- nils after it, in a loop: the host took the list's length (#notes) in Go
-- twice per note, each a walk of the million nils, charged nothing: the
-- loop ran into the time guard.
-- Must: a step BudgetError naming the loop (the walk is charged as "#"
-- charges it, luavm/tablewalk.go).
-- Expect: play budget-steps
local m = matombo
m.declare { name = "finish_notes_nils" }
m.board { rows = { "a" }, columns = 2 }
local K = m.move("k", "{1}")
local notes = { "a" }
notes[1000000] = "b"
notes[1000000] = nil

return {
  setup = function() m.set_count("a1", 1) end,
  legal = function(p) m.emit(K, "a1") end,
  play = function()
    while true do m.finish { winner = 1, reason = "x", notes = notes } end -- ATTACK
  end,
}
