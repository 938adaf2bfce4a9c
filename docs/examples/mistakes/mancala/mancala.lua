-- A mistake on purpose, to show what check reports (docs/cli.md): the
-- rule functions are globals, which the sandbox does not allow.
local m = matombo
m.declare { name = "mancala" }
m.board { rows = { "a", "b" }, columns = 6 }

function legal(p)
  m.emit_each(m.move("sow", "{1}"), m.filter { owner = "mover", min = 1 })
end

return { setup = function() end, legal = legal, play = function() end }
