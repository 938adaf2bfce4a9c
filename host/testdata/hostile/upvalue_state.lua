-- Attack: a script keeping state in an upvalue across calls: legal lists
-- a different token each time it is called on a machine, so the same
-- tokens from the same opening do not give the same states.
-- Must: the host cannot see this within one call; the test shows what it
-- does detect (nothing at load, since the declarations are the same) and
-- that replaying a game on a fresh game reveals it (different legal lists).
local m = matombo
m.declare { name = "upvalue_state" }
m.board { rows = { "a" }, columns = 3 }
local K = m.move("k", "{1}")
local calls = 0

return {
  setup = function()
    m.set_count("a1", 1)
    m.set_count("a2", 1)
    m.set_count("a3", 1)
  end,
  legal = function(p)
    calls = calls + 1 -- ATTACK
    m.emit(K, (calls % 3) + 1)
  end,
  play = function(p, kind, s)
    m.take(s)
    if m.ply() >= 6 then
      m.finish(0, "done")
    end
  end,
}
