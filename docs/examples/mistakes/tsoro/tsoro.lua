-- A mistake on purpose, to show what conform reports (docs/cli.md): this
-- Tsoro lets a player who cannot move win, where T11 says they lose.
return matombo.extends("tsoro", {
  replace = {
    t11_blocked = function(t11_blocked, p)
      matombo.finish(p, "no legal move")
    end,
  },
})
