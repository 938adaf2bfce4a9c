-- Attack: 30 frames each keeping 60 locals captured by a closure, then a
-- loop that makes a closure capturing a local: gopher-lua finds each
-- captured variable by walking a list of every open upvalue of the stack
-- (1,800 here), in Go, inside one instruction that is charged one step.
-- With 190 frames (11,400 open upvalues) the loop ran into the 30 s time
-- guard; that many frames now spend the budget before the loop.
-- Must: a step BudgetError naming the loop: a new closure's walks are
-- charged before it is made (luavm/closures.go).
-- Expect: play budget-steps
local m = matombo
m.declare { name = "closure_upvalues" }
m.board { rows = { "a" }, columns = 2 }
local K = m.move("k", "{1}")

local function deep(d)
  local a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19, a20, a21, a22, a23, a24, a25, a26, a27, a28, a29, a30, a31, a32, a33, a34, a35, a36, a37, a38, a39, a40, a41, a42, a43, a44, a45, a46, a47, a48, a49, a50, a51, a52, a53, a54, a55, a56, a57, a58, a59 = 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
  local keep = function() return a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9 + a10 + a11 + a12 + a13 + a14 + a15 + a16 + a17 + a18 + a19 + a20 + a21 + a22 + a23 + a24 + a25 + a26 + a27 + a28 + a29 + a30 + a31 + a32 + a33 + a34 + a35 + a36 + a37 + a38 + a39 + a40 + a41 + a42 + a43 + a44 + a45 + a46 + a47 + a48 + a49 + a50 + a51 + a52 + a53 + a54 + a55 + a56 + a57 + a58 + a59 end
  if d > 0 then return deep(d - 1) + keep() end
  for i = 1, 1e9 do local f = function() return a59 end end -- ATTACK
  return 0
end

return {
  setup = function() m.set_count("a1", 1) end,
  legal = function(p) m.emit(K, "a1") end,
  play = function() deep(30) end,
}
