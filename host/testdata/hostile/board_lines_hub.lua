-- Attack: 20000 lines of a board through one site (a1), each with a
-- different pair of other sites: a1 gets 20000 distinct jumps. Searching
-- the jump list for duplicates made this quadratic (minutes for 100000
-- lines, in one Go call the budget cannot stop).
-- Must: the game loads, in milliseconds (near-linear in the lines).
-- Expect: ok limits=default
local m = matombo
m.declare { name = "board_lines_hub" }
local lines = {}
for l = 0, 19999 do
  local x = 2 + l % 4092
  local y = 2 + (math.floor(l / 4092) + x) % 4092
  if y == x then y = 2 + (y - 1) % 4092 end
  lines[#lines + 1] = { "a1", "a" .. x, "a" .. y }
end
m.board { rows = { "a" }, columns = 4093, lines = lines } -- ATTACK
local K = m.move("k", "{1}")

return {
  setup = function() m.set_count("a1", 1) end,
  legal = function(p) m.emit(K, "a1") end,
  play = function() m.finish(0, "done") end,
}
