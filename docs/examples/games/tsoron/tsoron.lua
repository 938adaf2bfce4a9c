-- Tsoro with as many counters as you like in every outer-row hole at the
-- start: the shipped Tsoro with one rule replaced and one parameter of its
-- own (docs/extending.md).
local m = matombo

return m.extends("tsoro", {
  title = "Tsoro, n counters",
  description = "Tsoro as shipped, but every outer-row hole starts with the number of counters the parameter counters gives (T2).",
  params = {
    { name = "counters", default = 3, values = { 2, 3, 4, 5 }, doc = "counters in each outer-row hole at the start (T2)" },
  },
  replace = {
    -- T2 Setup: the shipped setup, then more counters in every hole it filled.
    t2_setup = function(setup)
      setup()
      local more = m.param("counters") - 2
      for site = 1, m.size() do
        if m.count(site) > 0 then
          m.add(site, more)
        end
      end
    end,
  },
})
