-- Attack: a board whose lines are one line of all 4,096 sites, given 300
-- times (the same Lua table: building the list costs 300 steps). The host
-- read the 1.2 million names and worked out the board in one Go call
-- no budget can stop, and kept each line once per site on it (for the
-- commonest search): a line of n sites n times, 20 GB here. The load ran
-- for more than ten minutes, or the process was killed for its memory.
-- Must: a ScriptError at load naming the board's line: the lines of a
-- board hold at most 1,048,576 sites in all (and the per-site copies are
-- bounded too, host/kernel/board.go).
-- Expect: load script-error msg="at most 1048576 sites in all"
local m = matombo
m.declare { name = "board_lines_flood" }
local line = {}
for i = 1, 4096 do line[i] = "a" .. i end
local lines = {}
for k = 1, 300 do lines[k] = line end
m.board { rows = { "a" }, columns = 4096, lines = lines } -- ATTACK
local K = m.move("k", "{1}")

return {
  setup = function() m.set_count("a1", 1) end,
  legal = function(p) m.emit(K, "a1") end,
  play = function() end,
}
