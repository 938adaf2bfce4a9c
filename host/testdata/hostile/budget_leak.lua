-- Attack: a budget error swallowed with pcall (pcall(string.rep, "x", 2^40)
-- in setup), followed later by an ordinary error in play.
-- Must: the ordinary error is reported as what it is (a ScriptError naming
-- this file and the line of error()), not as the string-size budget error
-- the script caught long before; the state is unchanged.
-- Expect: play script-error msg="an ordinary error"
local m = matombo
m.declare { name = "budget_leak" }
m.board { rows = { "a" }, columns = 2 }
local K = m.move("k", "{1}")

return {
  setup = function()
    m.set_count("a1", 1)
    local ok = pcall(string.rep, "x", 2 ^ 40)
  end,
  legal = function(p) m.emit(K, "a1") end,
  play = function()
    error("an ordinary error") -- ATTACK
  end,
}
