-- Attack: a declaration that depends on a memory address (tostring of a
-- fresh table, e.g. "table: 0xc000123450"), the one source of
-- nondeterminism left in the sandbox: each machine of the game declares a
-- board of a different size.
-- Must: the host detects it when a second machine of the game runs the
-- chunk (a ScriptError: the script declared a different board when loaded a
-- second time); it cannot detect it on the first machine alone.
local m = matombo
local addr = tonumber(string.match(tostring({}), "0x(%x+)"), 16) or 0
m.declare { name = "address_nondeterminism" }
m.board { rows = { "a" }, columns = math.floor(addr / 16) % 1000 + 1 } -- ATTACK
local K = m.move("k", "{1}")

return {
  setup = function() m.set_count("a1", 1) end,
  legal = function(p) m.emit(K, "a1") end,
  play = function() m.finish(0, "done") end,
}
