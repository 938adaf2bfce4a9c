-- probe: a small test game for the host's unit tests (host/*_test.go). It
-- declares one of everything the host offers, so that tests can call every
-- primitive on a known board:
--
--   board  3 rows x 4 columns, sites (index: name)
--            c:  9 c1*  10 c2   11 c3   12 c4
--            b:  5 b1+   6 b2    7 b3    8 b4+
--            a:  1 a1    2 a2    3 a3    4 a4*
--          lines: the four columns, row b, and the diagonal a1-b2-c3
--   tags   1 head {a4, c1} mark *, 2 store {b1, b4} mark +, 3 inner (row b, no mark)
--   tracks 1 ring   a1 a2 a3 a4 c4 c3 c2 c1, looping
--          2 middle b1 b2 b3 b4, not looping
--   kinds  1 sow "{1}", 2 take "x{1}", 3 step "{from}-{to}",
--          4 offer "offer:{sites}", 5 pass "pass", 6 tri "{1}>{2}>{3}",
--          7 quad "{4}/{3}/{2}/{1}"
--   vars   1 phase (position), 2 bonus (position), 3 memo (not position)
--   filters (the tests see them as F[1]..F[16], in this order): see below
--
-- The game itself: in phase 0 the mover sows the counters of one of their
-- ring holes along the ring (Goré-like captures of 2 or 4 in the
-- opponent's holes, chains both ways); after 40 plies, or when a player
-- cannot move, the player with more captured counters wins. Phase 1 (only
-- reached from a position a test sets up) lists one move of every kind.
local m = matombo

local P = m.declare {
  name = "probe",
  title = "Probe",
  description = "A test game that declares one of everything.",
  players = 2,
  params = {
    { name = "seeds", default = 2, values = { 1, 2, 3, 4 }, doc = "counters per ring hole" },
    { name = "fast", default = false, doc = "a boolean parameter" },
    { name = "shape", default = "grid", values = { "grid", "ring" }, doc = "a string with allowed values" },
    { name = "label", default = "x", doc = "any string" },
    { name = "limit", default = 40, doc = "plies before the game ends" },
  },
  max_plies = 1000,
}

m.board {
  rows = { "a", "b", "c" },
  columns = 4,
  lines = {
    { "a1", "b1", "c1" }, { "a2", "b2", "c2" }, { "a3", "b3", "c3" }, { "a4", "b4", "c4" },
    { "b1", "b2", "b3", "b4" },
    { "a1", "b2", "c3" },
  },
}

local HEAD = m.tag("head", { "a4", "c1" })
m.mark(HEAD, "*")
local STORE = m.tag("store", { "b1", "b4" })
m.mark(STORE, "+")
local INNER = m.tag("inner", { "b1", "b2", "b3", "b4" })

local RING = m.track("ring", { "a1", "a2", "a3", "a4", "c4", "c3", "c2", "c1" }, true)
local MIDDLE = m.track("middle", { "b1", "b2", "b3", "b4" })

local SOW = m.move("sow", "{1}")
local TAKE = m.move("take", "x{1}")
local STEP = m.move("step", "{from}-{to}")
local OFFER = m.move("offer", "offer:{sites}")
local PASS = m.move("pass", "pass")
local TRI = m.move("tri", "{1}>{2}>{3}")
local QUAD = m.move("quad", "{4}/{3}/{2}/{1}")

local PHASE = m.var("phase")
local BONUS = m.var("bonus")
local MEMO = m.var("memo", { position = false })

local F = {
  m.filter {},                                   -- 1 any site
  m.filter { owner = "mover", min = 1 },          -- 2 the mover's non-empty sites
  m.filter { owner = "opponent" },                -- 3 the opponent's sites
  m.filter { owner = "nobody" },                  -- 4 sites nobody owns
  m.filter { owner = 2 },                         -- 5 Player 2's sites
  m.filter { min = 2 },                           -- 6 at least 2 counters
  m.filter { max = 1 },                           -- 7 at most 1 counter
  m.filter { min = 1, max = 3 },                  -- 8 1 to 3 counters
  m.filter { tag = HEAD },                        -- 9 heads
  m.filter { not_tag = HEAD },                    -- 10 not heads
  m.filter { row = 2 },                           -- 11 row b
  m.filter { track = RING },                      -- 12 on the ring
  m.filter { next_empty = RING, min = 1 },        -- 13 non-empty, next ring site empty
  m.filter { next_empty = MIDDLE },               -- 14 next site on the middle track empty
  m.filter { owner = "nobody", max = 0 },         -- 15 empty and nobody's
  m.filter { owner = 0, tag = STORE },            -- 16 nobody's stores
}
local MOVABLE = F[2]

local function setup()
  for c = 1, 4 do
    m.set_count("a" .. c, P.seeds)
    m.set_owner("a" .. c, 1)
    m.set_count("c" .. c, P.seeds)
    m.set_owner("c" .. c, 2)
  end
  m.set_hand(1, 1)
  m.set_hand(2, 1)
end

local function legal(p)
  local phase = m.get(PHASE)
  if phase == 0 then
    m.emit_each(SOW, MOVABLE)
  elseif phase == 1 then
    m.emit(PASS)
    m.emit(TAKE, "c2")
    m.emit(STEP, "b2", "b3")
    m.emit_subsets(OFFER, F[9], 1, 2)
    m.emit(TRI, 1, 6, 11)
    m.emit(QUAD, "a1", "a2", "a3", "a4")
  end
end

local function end_by_captures()
  local c1, c2 = m.captured(1), m.captured(2)
  if c1 > c2 then
    m.finish(1, "more captured")
  elseif c2 > c1 then
    m.finish(2, "more captured")
  else
    m.finish(0, "equal captured")
  end
end

local function play(p, kind, a, b, c, d)
  if kind == SOW then
    local last = m.sow(RING, a, m.take(a))
    local n = m.count(last)
    if m.owner(last) == 3 - p and (n == 2 or n == 4) then
      m.capture(last, p)
      m.capture_run(p, RING, last, 1, 2, 4)
      m.capture_run(p, RING, last, -1, 2, 4)
    end
  elseif kind == TAKE then
    m.capture(a, p)
  elseif kind == STEP then
    m.set(BONUS, m.get(BONUS) + 1)
  elseif kind == OFFER then
    m.set(BONUS, m.get(BONUS) + (b and 2 or 1))
  end
  m.set(PHASE, 0)
  m.set(MEMO, m.get(MEMO) + 1)
  if m.ply() >= P.limit then
    end_by_captures()
  end
end

local function blocked(p)
  end_by_captures()
end

return { setup = setup, legal = legal, play = play, blocked = blocked }
