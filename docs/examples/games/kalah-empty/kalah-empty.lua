-- Kalah with empty captures: the shipped Kalah with one rule replaced
-- (docs/extending.md). A last seed in your own empty pit goes into your
-- store even when the opposite pit is empty.
local m = matombo

return m.extends("kalah", {
  title = "Kalah, empty captures",
  description = "Kalah as shipped, but a last seed that falls into one of your own empty pits always goes into your store, with the opposite pit's seeds if it holds any (K4).",
  replace = {
    -- K4 Capture: the shipped capture, then the last seed alone when the
    -- opposite pit was empty.
    k4_capture = function(capture, p, last, was_empty)
      capture(p, last, was_empty)
      if was_empty and m.owner(last) == p and m.count(last) == 1 then
        m.add(m.site(p == 1 and "a7" or "b7"), m.take(last))
      end
    end,
  },
})
