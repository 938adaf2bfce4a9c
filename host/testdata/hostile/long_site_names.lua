-- Attack: extremely long site names: one row whose label is 100000 letters,
-- over 64 columns, so that every token, diagram and message is huge. With a
-- 1 MiB label and 4096 columns the board alone would take 4 GiB, built in
-- one primitive call that no budget can interrupt.
-- Must: refused at load (row labels are short: a ScriptError or
-- ConfigError naming this file and line).
-- Expect: load any msg="row label"
local m = matombo
m.declare { name = "long_site_names" }
m.board { rows = { string.rep("a", 100000) }, columns = 64 } -- ATTACK
local K = m.move("k", "{1}")

return {
  setup = function() m.set_count(1, 1) end,
  legal = function(p) m.emit(K, 1) end,
  play = function() m.finish(0, "done") end,
}
