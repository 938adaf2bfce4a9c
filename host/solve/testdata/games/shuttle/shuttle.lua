-- shuttle: a test game for package solve whose positions repeat on a line
-- of play. One pile of three stones; a player takes a stone or, while the
-- pile is below three, puts one back. Whoever takes the last stone loses;
-- the third repetition of a position is a draw. Each player's score is the
-- stones they took less those they put back (the pile's count is all the
-- state, so the score is the opening's count less the pile's for both).
local m = matombo

m.declare {
  name = "shuttle",
  title = "Shuttle",
  description = "Take a stone or put one back; the last stone loses.",
  players = 2,
  conserve = false,
  repetition = 3,
}

m.board { rows = { "a" }, columns = 1 }

local START = 3
local TAKE = m.move("take", "take")
local BACK = m.move("back", "back")

local function setup()
  m.set_count(1, START)
end

local function legal(p)
  local n = m.count(1)
  if n >= 1 then m.emit(TAKE) end
  if n < START then m.emit(BACK) end
end

local function play(p, kind)
  if kind == TAKE then
    m.add(1, -1)
  else
    m.add(1, 1)
  end
  if m.count(1) == 0 then
    m.finish(m.next_player(p), "last stone")
  end
end

local function repeated()
  m.finish(0, "third repetition")
end

local function score()
  local taken = START - m.count(1)
  return taken, taken
end

return { setup = setup, legal = legal, play = play, repeated = repeated, score = score }
