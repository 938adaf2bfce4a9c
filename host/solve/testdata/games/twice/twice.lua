-- twice: a test game for package solve, where a player may move twice in
-- a row. One pile of stones; a player takes one stone, or two stones and
-- then moves again. Whoever takes the last stone loses. With refill = true a
-- player may also put one stone back while the pile is below its start, so
-- play can go on for ever: the third repetition of a position is a draw.
local m = matombo

local P = m.declare {
  name = "twice",
  title = "Twice",
  description = "Take one stone, or two and move again; the last stone loses.",
  players = 2,
  params = {
    { name = "pile", default = 7, doc = "stones at the start" },
    { name = "refill", default = false, doc = "allow putting one stone back" },
  },
  conserve = false,
  repetition = 3,
}

m.board { rows = { "a" }, columns = 1 }

local ONE = m.move("one", "take1")
local TWO = m.move("two", "take2")
local BACK = m.move("back", "back")

local function setup()
  m.set_count(1, P.pile)
end

local function legal(p)
  local n = m.count(1)
  if n >= 1 then m.emit(ONE) end
  if n >= 2 then m.emit(TWO) end
  if P.refill and n < P.pile then m.emit(BACK) end
end

local function play(p, kind)
  if kind == ONE then
    m.add(1, -1)
  elseif kind == TWO then
    m.add(1, -2)
    m.set_to_move(p)
  else
    m.add(1, 1)
  end
  if m.count(1) == 0 then
    m.finish(m.next_player(p), "last stone")
  end
end

local function repeated(p)
  m.finish(0, "third repetition")
end

return { setup = setup, legal = legal, play = play, repeated = repeated }
