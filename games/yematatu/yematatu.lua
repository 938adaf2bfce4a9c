-- Tsoro Yematatu: the rules script of Matombo's game `yematatu`.
--
-- It plays the points Y1-Y7 of its rules page, docs/rules/yematatu.md:
--   Y1 the triangle board (data)      -> "the boards" below, variants.yaml
--   Y2 three pieces each, in hand     -> y2_setup
--   Y3 drop phase                     -> y3_drops, legal, play
--   Y4 move phase: steps and jumps    -> y4_moves, legal, play
--   Y5 three on one line wins at once -> y5_three_on_a_line
--   Y6 third repetition is a draw     -> y6_third_repetition
--   Y7 the square board (data)        -> "the boards" below, variants.yaml
-- and one choice of the project where Y1-Y7 are silent: a player who has
-- no legal token loses (blocked; the rules page, "Y4 Move phase").
--
-- The board is data: variants.yaml lists the boards under data.boards
-- (points with drawing positions, lines, picture) and the parameter `board`
-- picks one. Neighbours and jumps come from the lines, so a board a user
-- adds in a variants file of their own plays with this script unchanged.
local m = matombo

-- ---- Y1, Y7: the boards, from variants.yaml (data.boards) ----

local BOARDS = m.data.boards
if type(BOARDS) ~= "table" then
  error("variants.yaml has no data.boards: Tsoro Yematatu needs at least one board there", 0)
end

-- The names of the boards, sorted: the allowed values of `board`.
local function board_names()
  local names = {}
  for name in pairs(BOARDS) do
    names[#names + 1] = tostring(name)
  end
  table.sort(names)
  return names
end

local function binomial(n, k)
  if k < 0 or n < k then
    return 0
  end
  local r = 1
  for i = 1, k do
    r = r * (n - k + i) / i
  end
  return r
end

-- max_plies: a proven bound, not a guess. Drop-phase positions never repeat
-- (the hands shrink), so from the opening there are at most 5 plies before
-- the move phase, the 6th drop reaches a move-phase position, and every
-- move-phase position (3 points of n for Player 1, 3 of the n - 3 others
-- for Player 2, either player to move: 2*C(n,3)*C(n-3,3) positions) can be
-- reached at most twice before its third occurrence ends the game (Y6).
-- So every game ends within 6 + 2 * positions plies: 566 on the triangle
-- (7 points), 6726 on the square (9 points). Random games end far sooner:
-- in 200,000 uniformly random games per board the longest took 112 plies
-- on the triangle and 140 on the square. Boards of more than 48 points are
-- capped at 10^9.
local function ply_bound(points)
  return math.min(6 + 2 * (2 * binomial(points, 3) * binomial(points - 3, 3)), 1000000000)
end

local P = m.declare {
  name = "yematatu",
  title = "Tsoro Yematatu",
  description = "Tsoro Yematatu, a small alignment game from Zimbabwe. Each player drops three pieces " ..
    "on the points of a triangle, one at a time, then moves them along the lines, one step to an empty " ..
    "neighbour or a jump over any piece to the empty point beyond. Three pieces of one player on one " ..
    "line win; the third repetition of a position is a draw.",
  players = 2,
  params = {
    { name = "board", default = "triangle", values = board_names(),
      doc = "the board: a name under data.boards in variants.yaml (triangle Y1, square Y7)" },
  },
  conserve = true,
  repetition = 3, -- Y6, see y6_third_repetition
}

-- Y1 "Board: an isosceles triangle with one line across its width and one
-- down its axis: 7 points. a1 is the apex; b1 b2 b3 the cross line (left,
-- centre, right); c1 c2 c3 the base. [...] Two points are adjacent when
-- they are next to each other on a line."
-- Y7 "Variant board: square: a square with its two diagonals and its two
-- midlines: 9 points a1..c3 on a 3x3 grid; lines of three are the 3 rows,
-- 3 columns and 2 diagonals; adjacency along those lines."
-- Both boards are data (variants.yaml, data.boards). The chosen board's own
-- table goes to matombo.board, so that the host can name the variants file
-- and line of a malformed board. Its style is always "pieces": a point
-- shows 1, 2 or . (docs/state-json.md: a point's owner is the player whose piece
-- stands on it, count 1; an empty point has count 0 and owner 0).
local y1_y7_board = m.rule("y1_y7_board", function(name)
  local board = BOARDS[name]
  if type(board) ~= "table" then
    error(string.format("board %s: want a mapping with points, lines and a picture", name), 0)
  end
  board.style = "pieces"
  m.board(board)
end)

y1_y7_board(P.board)

m.max_plies(ply_bound(m.size()))

local PIECES = 3 -- Y2: pieces per player
if m.size() < 2 * PIECES + 1 then
  error(string.format("board %s has %d points; Tsoro Yematatu needs at least %d " ..
    "(six pieces and a point to move to)", P.board, m.size(), 2 * PIECES + 1), 0)
end

-- The primitives used outside the rules' native hot path, in locals.
local owner, finish = m.owner, m.finish

-- Why a drop or a move is not possible, in the rules' words (not a rule:
-- the host asks it for a refused token). Y3: drops go on empty points, and
-- no piece moves until all six are down; Y4: a move steps along a line to
-- the empty point next to it or jumps over a piece to the empty point
-- beyond.
local function drop_why(p, sites)
  if m.hand(p) == 0 then
    return "your three pieces are on the board: move one (Y4)"
  elseif owner(sites[1]) ~= 0 then
    return m.name(sites[1]) .. " is occupied (Y3)"
  end
  return nil
end

local function move_why(p, sites)
  local from, to = sites[1], sites[2]
  if m.hand(1) + m.hand(2) > 0 then
    return "no piece moves until all six are on the board (Y3)"
  elseif owner(from) ~= p then
    return m.name(from) .. " holds no piece of yours"
  elseif owner(to) ~= 0 then
    return m.name(to) .. " is occupied: a piece steps or jumps to an empty point (Y4)"
  end
  return m.name(to) .. " is neither next to " .. m.name(from) .. " on a line nor just beyond a piece next to it (Y4)"
end

-- Y3 token: the point, e.g. b2; Y4 token: from-to, e.g. b1-c1 or a1-c2.
-- The prompts say what each decision is to the players, the docs name a
-- move in words.
local DROP = m.move("drop", "{1}", { prompt = "Drop a piece from your hand on an empty point",
  doc = "Drop a piece on {1}", why = drop_why })
local MOVE = m.move("move", "{from}-{to}",
  { prompt = "Move one of your pieces along a line to the empty point next to it, or jump over a piece to the empty point beyond",
    doc = "Move {from} to {to}", why = move_why })

local EMPTY = m.filter { owner = "nobody", max = 0 } -- an empty point: count 0, owner 0
local MINE = m.filter { owner = "mover", min = 1 }   -- the pieces of the player to move

-- ---- Y2 ----

-- Y2 "Pieces: 3 each; all start in hand. Player 1 moves first."
-- (Every state starts with Player 1 to move.)
local y2_setup = m.rule("y2_setup", function()
  m.set_hand(1, PIECES)
  m.set_hand(2, PIECES)
end)

-- ---- Y3 ----

-- Y3 "Drop phase: players alternately place one piece from hand on any
-- empty point. Token: the point, e.g. b2. Pieces cannot be moved until all
-- six are on the board." (legal and play below tell the phases apart.)
-- (Y3 to Y5 are native rules, docs/lua-api.md "Native rules": data the
-- host runs, so that a ply never enters Lua.)
local y3_drops = m.rule("y3_drops", m.emit_rule { kind = DROP, each = EMPTY })

-- ---- Y4 ----

-- Y4 "Move phase: a move takes one own piece either one step along a line
-- to an adjacent empty point, or jumps it over an adjacent piece of either
-- colour, in a straight line, to the empty point just beyond. Nothing is
-- captured. Token: from-to". Steps and jumps follow the board's lines
-- (Y1, Y7): a neighbour is the next point on a line, a jump goes over it
-- to the point after it on the same line, so no move bends.
local y4_steps_and_jumps = m.rule("y4_steps_and_jumps", m.emit_rule { kind = MOVE, steps = MINE, jumps = MINE })

-- On a board a user draws, one from-to can be both a step and a jump (lines
-- x-y and x-z-y) or two jumps (lines x-z-y and x-w-y): the emitters list
-- such a move once.
local y4_moves = y4_steps_and_jumps

-- ---- Y5 ----

-- Y5 "Win: a player whose three pieces stand on one line wins at once (this
-- can happen in the drop phase)." Only the mover's pieces changed, and
-- they stood on no common line before (the game would have ended), so a
-- winning line passes through the point the mover just dropped on or
-- moved to.
--
-- Three pieces on one line win wherever they stand on it: on the shipped
-- boards every line has three points, and on a user's board with longer
-- lines three pieces anywhere on one line win too, gaps or not.
-- y5_three_on_a_line(p, s) tells whether p has three pieces on a line
-- through s.
local y5_three_on_a_line = m.rule("y5_three_on_a_line", m.line_rule { length = PIECES, anywhere = true })

-- The points of a win, which the result names (the page highlights them):
-- found once the game is won, so checking for a win makes no table. (In
-- play, placement_play names them from the winning line; this serves
-- y5_result below.)
local function winning_points(p, s)
  for _, line in ipairs(m.lines(s)) do
    local mine = {}
    for _, x in ipairs(line) do
      if owner(x) == p then
        mine[#mine + 1] = x
      end
    end
    if #mine >= PIECES then
      return mine
    end
  end
end

-- ---- Y6 ----

-- Y6 "Draw: when the same position (pieces and player to move) occurs for
-- the third time the game is drawn." The host counts positions after every
-- decision and calls this at a third occurrence (repetition = 3 in the
-- declaration), after play has had its chance to find a win (Y6: "After
-- each drop or move a win is checked first, then repetition").
local y6_third_repetition = m.rule("y6_third_repetition", function()
  finish(0, "third repetition")
end)

-- ---- blocked: the project's choice ----

-- Y1-Y7 are silent on a player who has no legal token. The project's
-- choice, as in many alignment games: that player loses. On both shipped
-- boards it never happens in a game from the opening: with six pieces
-- down the triangle has one empty point and the square three, and the
-- player to move can always step or jump to one of them (checked over
-- every such position). It can happen on a user's board, or from a set-up
-- position (e.g. one where the player to move has no piece in hand but
-- the opponent has: nobody may move yet, Y3, and there is nothing to drop).
local function blocked(p)
  finish(3 - p, "no legal move")
end

-- ---- the rule functions ----

-- legal: Y3 while the player to move has a piece in hand; Y4 once both
-- hands are empty ("Pieces cannot be moved until all six are on the
-- board"); otherwise (only in a set-up position) nothing, and blocked
-- decides.
local legal = m.placement_legal { drops = y3_drops, moves = y4_moves }

-- play: Y3 a drop (a piece from p's hand onto the empty point) or Y4 a
-- step or jump (nothing is captured); then Y5 on the point the piece went
-- to, then (in the host, see y6_third_repetition) Y6.
local play = m.placement_play { drop = DROP, move = MOVE, win = y5_three_on_a_line, reason = "three on a line" }

-- ---- evaluate: advice for computer players, not a rule ----

-- A line where one player holds every point but one, and that one is
-- empty, is a threat: the player completes it with a drop, or with a step
-- or jump into the gap; m.open_lines(p) counts p's. evaluate(p) counts
-- p's threats against the opponent's; a threat of the player to move
-- counts double, since it can be played at once. The score stays within
-- -0.9..0.9, short of a win.
local threats = m.open_lines

local function evaluate(p)
  local q = 3 - p
  local mine, theirs = threats(p), threats(q)
  if m.to_move() == p then
    mine = mine * 2
  else
    theirs = theirs * 2
  end
  local v = 0.2 * (mine - theirs)
  return math.max(-0.9, math.min(0.9, v))
end

-- Y5 for a position that was set up rather than played (a scenario, a
-- solver's position): whoever has three on a line has won. The player who
-- made the last decision is checked first, as play would have found it.
local function has_three(q)
  for s = 1, m.size() do
    if owner(s) == q and y5_three_on_a_line(q, s) then
      return s
    end
  end
  return nil
end

local function y5_result(p)
  local s = has_three(3 - p)
  if s then
    return finish { winner = 3 - p, reason = "three on a line", sites = winning_points(3 - p, s) }
  end
  s = has_three(p)
  if s then
    return finish { winner = p, reason = "three on a line", sites = winning_points(p, s) }
  end
end

return {
  setup = y2_setup,
  legal = legal,
  play = play,
  blocked = blocked,
  repeated = y6_third_repetition,
  result = y5_result,
  evaluate = evaluate,
}
