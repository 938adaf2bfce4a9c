-- Tsoro with three counters in every outer-row hole at the start: the
-- shipped Tsoro with one rule replaced (docs/extending.md).
local m = matombo

return m.extends("tsoro", {
  title = "Tsoro, three counters",
  description = "Tsoro as shipped, but the setup puts one counter more in every hole it fills: 3 in each outer-row hole (T2).",
  replace = {
    -- T2 Setup: the shipped setup, then one more counter in every hole it filled.
    t2_setup = function(setup)
      setup()
      for site = 1, m.size() do
        if m.count(site) > 0 then
          m.add(site, 1)
        end
      end
    end,
  },
})
