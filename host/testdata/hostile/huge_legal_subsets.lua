-- Attack: a huge number of legal tokens from one primitive call:
-- emit_subsets of 4 sites out of 4096 (about 1.2e13 subsets) in legal.
-- Must: Load fails quickly with a ScriptError (more than 100000 legal
-- moves) naming this file and line, without building the subsets.
-- Expect: load script-error msg="more than 100000 legal moves"
local m = matombo
m.declare { name = "huge_legal_subsets" }
m.board { rows = { "a", "b", "c", "d" }, columns = 1024 }
local OFFER = m.move("offer", "offer:{sites}")
local ANY = m.filter {}

return {
  setup = function() end,
  legal = function(p)
    m.emit_subsets(OFFER, ANY, 4, 4) -- ATTACK
  end,
  play = function() m.finish(0, "done") end,
}
