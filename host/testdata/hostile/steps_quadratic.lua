-- Attack: a board whose 450 points are all joined pairwise by lines (a
-- complete graph), half of them holding the mover's pieces: emit_steps
-- lists about 50000 steps, and its check against moves already listed
-- (filter.go pushNew) scans the whole list for each one, about 1.3e9
-- comparisons in one primitive call that the time budget cannot interrupt
-- (measured: 3.3 s with a 200 ms budget).
-- Must: an error (or the list) within the time budget; the process
-- survives.
-- Expect: ok limits=default
local m = matombo
m.declare { name = "steps_quadratic" }
local N = 450
local names = {}
for i = 1, N do names[i] = "a" .. i end
local lines = {}
for i = 1, N do
  for j = i + 1, N do
    lines[#lines + 1] = { names[i], names[j] }
  end
end
m.board { rows = { "a" }, columns = N, lines = lines }
local MOVE = m.move("move", "{from}-{to}")
local MINE = m.filter { owner = "mover", min = 1 }

return {
  setup = function()
    for i = 1, N, 2 do
      m.set_count(i, 1)
      m.set_owner(i, 1)
    end
  end,
  legal = function(p)
    m.emit_steps(MOVE, MINE) -- ATTACK
  end, -- ATTACK (a budget that trips during a long library call is seen at the next instruction)
  play = function() m.finish(0, "done") end,
}
