-- Attack: building a string of a MiB over and over in a loop. Each
-- string.rep is within the string-size budget and the loop takes few
-- instructions, but each turn copies a MiB in Go: uncharged, the loop ran
-- a minute before the time guard stopped it.
-- Must: a step BudgetError naming this file and the line of the loop,
-- within the step budget (the bytes built are charged); the state is
-- unchanged.
-- Expect: play budget-steps
local m = matombo
m.declare { name = "string_rep_loop" }
m.board { rows = { "a", "b" }, columns = 3 }
local K = m.move("k", "{1}")

local function setup()
  m.set_count("a1", 1)
end

local function legal(p)
  m.emit(K, "a1")
end

local function play(p, kind, s)
  for i = 1, 1e7 do -- ATTACK
    print(string.rep("x", 1000000)) -- ATTACK
  end -- ATTACK
end

return { setup = setup, legal = legal, play = play }
