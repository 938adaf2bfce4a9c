-- Tsoro Yemutwelve (twelve men's morris): the rules script of Matombo's
-- game `yemutwelve`.
--
-- It plays the points M1-M12 of its rules page, docs/rules/yemutwelve.md:
--   M1  the board (data): 24 points, lines, corner diagonals -> m1_board, variants.yaml
--   M2  twelve pieces each, in hand (pieces)                 -> m2_setup
--   M3  placing: a piece on any empty point                  -> m3_places
--   M4  moving: a step along a line to the empty point       -> m4_moves
--   M5  a mill: three of one player filling a line           -> m5_mill
--   M6  a mill removes an opponent's piece not in a mill     -> m6_removals
--   M7  a player left with two pieces loses                  -> m7_two_left
--   M8  a player who cannot move loses; a full board draws   -> m8_blocked
--   M9  the third repetition of a position is a draw         -> m9_repetition
--   M10 flying with three pieces (flying)                    -> m4_moves
--   M11 Nine Men's Morris (board plain, pieces 9)            -> variants.yaml
--   M12 Morabaraba (morabaraba): no mill remade at once by   -> m12_no_return,
--       moving back; ten moves each at three cows draw          m12_three_cows
local m = matombo

local BOARDS = m.data.boards
if type(BOARDS) ~= "table" then
  error("variants.yaml has no data.boards: Tsoro Yemutwelve needs at least one board there", 0)
end
local function board_names()
  local names = {}
  for name in pairs(BOARDS) do
    names[#names + 1] = tostring(name)
  end
  table.sort(names)
  return names
end

local P = m.declare {
  name = "yemutwelve",
  title = "Tsoro Yemutwelve",
  description = "Tsoro Yemutwelve, twelve men's morris as the Shona of Zimbabwe call it: twelve pieces " ..
    "each are placed on a board of three squares with corner diagonals, then moved along its lines; " ..
    "three in a line (a mill) remove an opponent's piece. A player left with two pieces, or unable to " ..
    "move, loses; a board filled by the placing is a draw. Variants: flying, Nine Men's Morris, Morabaraba.",
  players = 2,
  score_label = "removed",
  params = {
    { name = "board", default = "diagonals", values = board_names(),
      doc = "the board: a name under data.boards in variants.yaml (M1, M11)" },
    { name = "pieces", default = 12, values = { 9, 10, 11, 12 }, doc = "pieces per player (M2, M11)" },
    { name = "flying", default = false, doc = "a player with three pieces left may move one to any empty point (M10)" },
    { name = "morabaraba", default = false, doc = "Morabaraba's two rules: no mill remade at once by moving back, and ten moves each at three cows draw (M12)" },
  },
  conserve = true, -- on the board + in hand + removed (the captured totals)
  repetition = 3, -- M9
  -- Not a bound the rules prove (M9, the third repetition, ends every game
  -- but only after very many plies at worst); a cap with a wide margin over
  -- random games (see the rules page, M9).
  max_plies = 5000,
}

local PIECES, FLYING, MORABARABA = P.pieces, P.flying, P.morabaraba

-- M1 "Three squares inside each other, joined at the middles of their
-- sides, and the four diagonals joining their corners: 24 points a1..g7,
-- 20 lines of three. A piece steps to the next point of a line." The board
-- is data; its own fields go to matombo.board.
local m1_board = m.rule("m1_board", function(name)
  local b = BOARDS[name]
  if type(b) ~= "table" then
    error(string.format("board %s: want a mapping with points, lines and a picture", name), 0)
  end
  b.style = "pieces"
  m.board(b)
end)
m1_board(P.board)
if m.size() < 2 * 3 + 1 then
  error(string.format("board %s has %d points; morris needs at least 7", P.board, m.size()), 0)
end

local PLACE = m.move("place", "{1}", { doc = "Place a piece on {1}" }) -- M3 token: the point, e.g. d2
local MOVE = m.move("move", "{from}-{to}", { doc = "Move {from} to {to}" }) -- M4 token: from-to, e.g. d2-d3
local REMOVE = m.move("remove", "x{1}", { doc = "Remove the piece on {1}", -- M6 token: x and the point, e.g. xe4
  prompt = "You made a mill: remove one of your opponent's pieces, one in no mill of theirs while they have any (xe4)" })

-- REMOVING is 1 while the mover, who has just made a mill, is to remove a
-- piece (M6). BACK_FROM[p], BACK_TO[p] (M12): the move that p may not make
-- next, 0 when none. QUIET (M12): decisions since both players came down
-- to three pieces without a removal; not part of the position.
local REMOVING = m.var("removing")
local BACK = { { m.var("back_from_1"), m.var("back_to_1") }, { m.var("back_from_2"), m.var("back_to_2") } }
local QUIET = m.var("quiet", { position = false })

local EMPTY = m.filter { owner = "nobody", max = 0 }
local MINE = m.filter { owner = "mover", min = 1 }
local THEIRS = m.filter { owner = "opponent", min = 1 }
local THEIRS_FREE = m.filter { owner = "opponent", min = 1, not_in_row = 3 }

local captured = m.captured

-- The pieces a player still has, on the board and in hand: those the
-- opponent has not removed (removed pieces are the remover's captured
-- total, M6).
local function pieces_left(p)
  return PIECES - captured(3 - p)
end

-- M2 "Each player has twelve pieces (pieces: 9 to 12), in hand at the
-- start; the board is empty; Player 1 moves first."
local m2_setup = m.rule("m2_setup", function()
  m.set_hand(1, PIECES)
  m.set_hand(2, PIECES)
end)

-- The rules of a turn are native rules (docs/lua-api.md, "Native rules"):
-- declared as data, run by the host, each a rule point like any function.
-- A player's pieces left are PIECES less what the opponent removed (the
-- opponent's captured total): "p has three left" is "the next player has
-- removed PIECES - 3".

-- M3 "While a player has pieces in hand, a turn places one on any empty
-- point."
local m3_places = m.rule("m3_places", m.emit_rule { kind = PLACE, each = EMPTY })

-- M5 "A player whose piece, just placed or moved to s, fills a line of
-- three with their own pieces has made a mill (two lines at once count as
-- one mill)."
local m5_mill = m.rule("m5_mill", m.line_rule { length = 3 })

-- M6 "After making a mill the same player removes one of the opponent's
-- pieces": the mover decides again, a removal (REMOVING), "unless the
-- opponent has no piece on the board". m6_mill(p, s): whether it did.
local m6_mill = m.rule("m6_mill", m.again_rule { when = m5_mill, need = THEIRS, set = REMOVING })

-- M12 Morabaraba (2): "when both players have three pieces left and ten
-- moves each (twenty decisions) pass without a removal, the game is a
-- draw." m12_three_cows(p, n) after a move that removed n (0: a move that
-- made no mill).
local m12_three_cows = m.rule("m12_three_cows", m.quiet_rule {
  result = m.winner_rule { winner = "draw" },
  count = QUIET, limit = 20, reason = "ten moves each at three pieces",
  when = m.compare_rule { amount = m.captured_rule { player = "next" }, op = "==", value = PIECES - 3, player = "each" },
})

-- M4 a move: the piece goes from one point to the other, then M5 and M6's
-- mill, and (Morabaraba) a move that made no mill counts for M12 (2).
local m4_move = m.placement_play { move = MOVE, arrival = { m6_mill }, after = MORABARABA and m12_three_cows or nil }

-- M12 Morabaraba (1): "a player who breaks a mill by moving a piece and so
-- makes a new mill may not move that piece straight back on their next
-- move, if that would make a mill again." It plays the move (m4_move),
-- keeps the way back in BACK[p] and, in m4_moves, bars it.
local m12_no_return = m.rule("m12_no_return", m.no_return_rule {
  play = m4_move, line = m5_mill,
  from = { BACK[1][1], BACK[2][1] }, to = { BACK[1][2], BACK[2][2] },
})

-- M4 "When a player has placed all their pieces, a turn moves one of them
-- one step along a line to the next point, which must be empty." M10 with
-- flying: "a player with exactly three pieces left may move one of them
-- to any empty point." M12: not the step back m12_no_return bars.
local steps = m.emit_rule { kind = MOVE, steps = MINE }
if MORABARABA then
  steps = m.except_rule { moves = steps, except = m12_no_return }
end
local m4_moves = m.rule("m4_moves", FLYING and m.if_rule {
  when = m.compare_rule { amount = m.captured_rule { player = "next" }, op = "==", value = PIECES - 3 },
  emit = m.emit_rule { kind = MOVE, pairs = { from = MINE, to = EMPTY } },
  otherwise = steps,
} or steps)

-- M6 "After making a mill the player removes one of the opponent's pieces
-- from the board, a piece that is not in a mill of the opponent's; only
-- when all of them are in mills may one of those be removed. A player
-- whose opponent has no piece on the board removes none. The token is x
-- and the point." Removed pieces count as the remover's captured total.
local m6_removals = m.rule("m6_removals", m.first_of_rule {
  m.emit_rule { kind = REMOVE, each = THEIRS_FREE },
  m.emit_rule { kind = REMOVE, each = THEIRS },
})

-- M7 "A player left with two pieces (on the board and in hand together)
-- has lost." m7_two_left(q): q has two pieces left.
local m7_two_left = m.rule("m7_two_left", m.compare_rule {
  amount = m.captured_rule { player = "next" }, op = ">=", value = PIECES - 2,
})

-- M6 the removal itself, then M7 for the player who lost the piece, then
-- (Morabaraba) the count of M12 (2) starts again.
local m6_remove = m.rule("m6_remove", m.remove_play {
  clear = { REMOVING },
  after = {
    m.end_rule { result = m.winner_rule { winner = "mover" }, { when = m7_two_left, player = "next", reason = "two pieces left" } },
    MORABARABA and m12_three_cows or nil,
  },
})

-- M8 "A player who must move and cannot has lost; but when the placing
-- has filled the board (24 pieces, no mill made), nobody can move and the
-- game is a draw."
local m8_blocked = m.rule("m8_blocked", function(p)
  if m.first(EMPTY) == nil then
    return m.finish(0, "full board")
  end
  m.finish(3 - p, "no legal move")
end)

-- M9 "The third occurrence of a position (pieces, hands, the player to
-- move and what they must do) is a draw."
local m9_repetition = m.rule("m9_repetition", function()
  m.finish(0, "third repetition")
end)

-- legal: M6 while a removal is pending (REMOVING), M3 while the player
-- has pieces in hand, then M4.
local legal = m.if_rule {
  when = m.compare_rule { amount = m.var_rule { var = REMOVING }, op = ">", value = 0 },
  emit = m6_removals,
  otherwise = m.placement_legal { drops = m3_places, moves = m4_moves },
}

-- play: M3 a placing and M4 a move, each followed by M5 and M6's mill
-- (then the mover removes); M6 a removal.
local play = m.play_by_kind {
  [PLACE] = m.placement_play { drop = PLACE, arrival = { m6_mill } },
  [MOVE] = MORABARABA and m12_no_return or m4_move,
  [REMOVE] = m6_remove,
}

-- A position set up rather than played: a player already down to two
-- pieces has lost, the player to move first.
local result = m.end_rule {
  { when = m7_two_left, reason = "two pieces left", result = m.winner_rule { winner = "next" } },
  { when = m7_two_left, player = "next", reason = "two pieces left", result = m.winner_rule { winner = "mover" } },
}

-- The scores: the pieces each player has removed.
local score = m.score_rule { amount = m.captured_rule {} }

-- evaluate: advice for computer players, not a rule. Pieces left weigh
-- most (two left loses), then mobility: the steps each player could make.
local ADJ = {}
for s = 1, m.size() do ADJ[s] = m.adjacent(s) end
local function mobility(p)
  local n = 0
  for s = 1, m.size() do
    if m.owner(s) == p then
      for _, t in ipairs(ADJ[s]) do
        if m.count(t) == 0 then n = n + 1 end
      end
    end
  end
  return n
end

local function evaluate(p)
  local q = 3 - p
  local mine, theirs = pieces_left(p), pieces_left(q)
  local material = (mine - theirs) / (mine + theirs)
  local mm, mt = mobility(p), mobility(q)
  local mob = (mm - mt) / (mm + mt + 1)
  return math.max(-0.95, math.min(0.95, 0.8 * material + 0.15 * mob))
end

return {
  setup = m2_setup, legal = legal, play = play, blocked = m8_blocked, repeated = m9_repetition,
  result = result, score = score, evaluate = evaluate,
}
