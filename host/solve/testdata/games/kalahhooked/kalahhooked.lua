-- Kalah with its extra turn (K3) replaced by a Lua function that calls the
-- rule it replaces: the same game, whose every move calls the script, for
-- the endgame builder's full path (TestEndgameBuildPlaysBare).
return matombo.extends("kalah", {
  replace = { k3_extra_turn = function(base, p, last) return base(p, last) end },
})
