-- Bawo, the Bao of the Yao of Malawi, Malawi's national game: the rules
-- script of Matombo's game `bawo`. Bawo is Bao la Kiswahili with a few
-- differences (docs/rules/bawo.md, W1), so this script extends the shipped
-- `baokiswahili` and replaces the rule points that differ:
--   W2 the opening: 8 seeds in the kuu (10 with kuu=10),   -> z2_setup
--      20 in hand (18)
--   W3 a kuu is functional with its opening count or more  -> z9_house_min
--   W4 a lone kichwa may be sown into the back row, and    -> z13_lone_kichwa
--      the player so emptying their front row loses
-- Everything else, and every move of the game, is Bao la Kiswahili's
-- (docs/rules/baokiswahili.md Z1-Z18), played by its native rules.
local m = matombo

return m.extends("baokiswahili", {
  title = "Bawo",
  description = "Bawo, the Bao of the Yao of Malawi and Malawi's national game: Bao la Kiswahili with a bigger " ..
    "square house (the kuu, 8 seeds at the start, 20 in hand), a kuu that plays its part only while it holds as many " ..
    "seeds as it started with, and a lone kichwa that may be sown into the back row, which loses at once.",
  params = {
    { name = "kuu", default = 8, values = { 8, 10 },
      doc = "the seeds in each kuu at the start (the hand holds the rest of the player's 32: 20, or 18), and the fewest a functional kuu holds (W2, W3)" },
  },
  replace = {
    -- W2 "Each player has 8 seeds in their kuu and two in each of the two
    -- holes to its right, and 20 in hand (with kuu=10: 10 and 18)": the
    -- shipped opening, the kuu filled up and the hand so much the smaller.
    z2_setup = function(setup)
      setup()
      local kuu = m.param("kuu")
      for p, name in ipairs({ "b5", "c4" }) do
        local s = m.site(name)
        m.set_hand(p, m.hand(p) - (kuu - m.count(s)))
        m.set_count(s, kuu)
      end
    end,
    -- W3 "A kuu is functional while its owner owns it and it holds at least
    -- as many seeds as it started with."
    z9_house_min = function()
      return m.param("kuu")
    end,
    -- W4 "A lone kichwa may be sown either way: into the back row it
    -- empties the front row, and the player has lost."
    z13_lone_kichwa = function()
      return "either"
    end,
  },
})
