---@meta
-- Type annotations of the Matombo rule-script API for the Lua language
-- server (LuaLS): completion, hover and type checks in editors. This file
-- is never run. The reference is docs/lua-api.md.

---A site: its number (1..size(), board order) or its name, e.g. "a7".
---@alias matombo.Site integer|string
---@alias matombo.Player integer
---@alias matombo.Track integer A track handle from matombo.track.
---@alias matombo.Tag integer A tag handle from matombo.tag.
---@alias matombo.Kind integer A move kind handle from matombo.move.
---@alias matombo.Var integer A variable handle from matombo.var.

---@class matombo.Filter A site filter from matombo.filter.

---@class matombo.Param
---@field name string
---@field default integer|boolean|string The default; its type is the parameter's type.
---@field values? (integer|boolean|string)[] The allowed values.
---@field doc? string

---@class matombo.Declaration
---@field name string Must match the game's folder and file name.
---@field title? string
---@field description? string
---@field players? integer 1 to 8, default 2.
---@field params? matombo.Param[]
---@field conserve? boolean Board + captured + hands stays equal to the opening total (default true).
---@field max_plies? integer Every game ends within this many decisions.
---@field repetition? integer The occurrence of a position that calls the rules' repeated function.
---@field score_label? string What the score is called ("seeds"); goes with the rules' score function.

---@class matombo.BoardSpec
---@field rows? string[] Grid: row labels from South to North.
---@field columns? integer Grid: columns per row.
---@field points? table<string, integer> Point board: name -> horizontal drawing position.
---@field lines? string[][] Lines of site names, for adjacency and jumps.
---@field style? "counts"|"pieces"
---@field picture? string Drawing: one @ per site on each line that starts with a row label.
---@field ends? table<string, "west"|"east"> Grid: sites drawn at the west or east end of the board, beside all rows (stores).

---@class matombo.FilterSpec
---@field owner? integer|"mover"|"opponent"|"nobody"
---@field min? integer
---@field max? integer
---@field tag? matombo.Tag
---@field not_tag? matombo.Tag
---@field row? integer Row number, 1 = a.
---@field track? matombo.Track
---@field next_empty? matombo.Track The next site on this track is empty.
---@field in_row? integer The site's owner owns this many sites in a row along a line through it (a morris mill).
---@field not_in_row? integer The opposite of in_row: the site is in no such row (empty sites included).

---@class matombo.Jump
---@field over integer
---@field to integer

---@class matombo.Rules
---@field setup fun()
---@field legal fun(p: matombo.Player, ...: integer) The script's variables follow p, in declaration order.
---@field play fun(p: matombo.Player, kind: matombo.Kind, s1?: integer, s2?: integer, s3?: integer, s4?: integer)
---@field blocked? fun(p: matombo.Player)
---@field repeated? fun(p: matombo.Player) Ends a game whose position occurred `repetition` times.
---@field result? fun() Decides the result of a set-up position (may only call finish).
---@field evaluate? fun(p: matombo.Player): number Advice for computer players, -1 to 1.
---@field score? fun(over: boolean): integer, integer One whole number per player; the final scores once over.
---@field prompt? fun(p: matombo.Player, ...: integer): string? What the decision asks, in words; nil for the kinds' prompts.

---@class matombo.MoveOptions
---@field prompt? string What a move of the kind does, in words for the players.

---@class matombo.Finish
---@field winner matombo.Player 0 for a draw.
---@field reason? string
---@field notes? string[]
---@field sites? matombo.Site[] The sites that made the result (three on a line).

---@class matombo
---@field data table The variants files' data section.
matombo = {}

-- Declarations, while the script loads.

---Declares the game; returns its resolved parameters.
---@param decl matombo.Declaration
---@return table<string, integer|boolean|string>
function matombo.declare(decl) end

---Declares the board (a grid or a point board).
---@param spec matombo.BoardSpec
function matombo.board(spec) end

---@param name string
---@param sites matombo.Site[]
---@return matombo.Tag
function matombo.tag(name, sites) end

---Diagrams show this character after the count of a tagged site.
---@param tag matombo.Tag
---@param char string
function matombo.mark(tag, char) end

---@param name string
---@param sites matombo.Site[]
---@param loop? boolean
---@return matombo.Track
function matombo.track(name, sites, loop) end

---Declares a move kind and its token template ({1}..{4}, {from}, {to}, {sites}).
---@param name string
---@param template string
---@param options? matombo.MoveOptions
---@return matombo.Kind
function matombo.move(name, template, options) end

---@param name string
---@param opts? {position: boolean}
---@return matombo.Var
function matombo.var(name, opts) end

---@param spec matombo.FilterSpec
---@return matombo.Filter
function matombo.filter(spec) end

---Sets the ply cap after declare, when it depends on the parameters.
---@param n integer
function matombo.max_plies(n) end

---Raises an error about a table of matombo.data, naming its variants file and line.
---@param t table
---@param message string
function matombo.data_error(t, message) end

---Declares a rule point an extending script may replace (docs/extending.md):
---returns fn, or the replacement, which is called with fn first, then fn's arguments.
---@generic F: function
---@param name string
---@param fn F
---@return F
function matombo.rule(name, fn) end

---@class matombo.ExtendSpec
---@field title? string
---@field description? string
---@field replace? table<string, function> Rule point name -> replacement(replaced, ...).
---@field params? matombo.Param[] Parameters of the extending game's own, after the base game's.

---Runs the script of the game `base` with rule points replaced and returns
---what it returned (docs/extending.md). The name must be a literal string.
---@param base string
---@param spec? matombo.ExtendSpec
---@return table
function matombo.extends(base, spec) end

---The value of a parameter, after declare.
---@param name string
---@return integer|boolean|string
function matombo.param(name) end

-- The board.

---@param name matombo.Site
---@return integer
function matombo.site(name) end
---@param s matombo.Site
---@return string
function matombo.name(s) end
---@param s matombo.Site
---@return integer
function matombo.row(s) end
---@param s matombo.Site
---@return integer
function matombo.col(s) end
---@return integer
function matombo.size() end
---@param s matombo.Site
---@param tag matombo.Tag
---@return boolean
function matombo.has_tag(s, tag) end
---@param track matombo.Track
---@param s matombo.Site
---@param k? integer
---@return integer?
function matombo.next(track, s, k) end
---@param track matombo.Track
---@param s matombo.Site
---@param k? integer
---@return integer?
function matombo.prev(track, s, k) end
---@param track matombo.Track
---@param s matombo.Site
---@return boolean
function matombo.on_track(track, s) end
---@param s matombo.Site
---@param row integer
---@return integer?
function matombo.opposite(s, row) end
---@param s matombo.Site
---@return integer[]
function matombo.adjacent(s) end
---@param s matombo.Site
---@return matombo.Jump[]
function matombo.jumps(s) end
---@param s? matombo.Site
---@return integer[][]
function matombo.lines(s) end
---@return integer
function matombo.players() end
---@param p matombo.Player
---@return matombo.Player
function matombo.next_player(p) end

-- The state.

---@param s matombo.Site
---@return integer
function matombo.count(s) end
---@param s matombo.Site
---@param n integer
function matombo.set_count(s, n) end
---@param s matombo.Site
---@param n integer
---@return integer
function matombo.add(s, n) end
---@param s matombo.Site
---@return integer
function matombo.take(s) end
---@param s matombo.Site
---@return matombo.Player
function matombo.owner(s) end
---@param s matombo.Site
---@param p matombo.Player
function matombo.set_owner(s, p) end
---@param p matombo.Player
---@return integer
function matombo.captured(p) end
---@param s matombo.Site
---@param p matombo.Player
---@param n? integer
---@return integer
function matombo.capture(s, p, n) end
---@param p matombo.Player
---@param s matombo.Site
---@param n integer
function matombo.pay(p, s, n) end
---@param p matombo.Player
---@return integer
function matombo.hand(p) end
---@param p matombo.Player
---@param n integer
function matombo.set_hand(p, n) end
---@param p matombo.Player
---@param s matombo.Site
function matombo.place(p, s) end
---@param from matombo.Site
---@param to matombo.Site
function matombo.move_piece(from, to) end
---@return matombo.Player
function matombo.to_move() end
---@param p matombo.Player
function matombo.set_to_move(p) end
---@return integer
function matombo.ply() end
---@param v matombo.Var
---@return integer
function matombo.get(v) end
---@param v matombo.Var
---@param value integer
function matombo.set(v, value) end

-- Sowing and capturing.

---@param track matombo.Track
---@param from matombo.Site
---@param n integer
---@return integer last
---@return boolean was_empty
function matombo.sow(track, from, n) end
---@param track matombo.Track
---@param from matombo.Site
---@param stop_tag? matombo.Tag
---@param max_laps? integer
---@param on_lap? fun(last: integer, track: matombo.Track, laps: integer): (boolean|matombo.Track|nil), matombo.Site?, matombo.Site?
---@return integer last
---@return "empty"|"stop"|"laps"|"hook" how
---@return integer laps
function matombo.relay(track, from, stop_tag, max_laps, on_lap) end
---@param track matombo.Track
---@param from matombo.Site
---@param stop_tag? matombo.Tag
---@param max_laps? integer
---@return boolean
function matombo.relay_ends(track, from, stop_tag, max_laps) end
---@param p matombo.Player
---@param track matombo.Track
---@param from matombo.Site
---@param step integer
---@param ... integer the counts to capture
---@return integer
function matombo.capture_run(p, track, from, step, ...) end
---@return integer
function matombo.sweep() end
---Sows n counters along the track from the site after from, never into from itself.
---@param track matombo.Track
---@param from matombo.Site
---@param n integer
---@return integer last
---@return boolean was_empty
function matombo.sow_skip(track, from, n) end
---What capture_run would take, without taking it.
---@param track matombo.Track
---@param from matombo.Site
---@param step integer
---@param ... integer the counts to capture
---@return integer counters
---@return integer sites
function matombo.capture_count(track, from, step, ...) end

-- Native rules (docs/lua-api.md, "Native rules"): declared as tables while
-- loading, run by the host; each returns the function it stands for.

---(p, from) -> last, was_empty: sows every counter of from along p's track.
---@param spec {track: matombo.Track|matombo.Track[]|string, skip_origin: boolean?}
---@return fun(p: integer, from: matombo.Site): integer, boolean
function matombo.sow_rule(spec) end
---(p, last) -> boolean: p moves again when last is p's site.
---@param spec {sites: matombo.Site|matombo.Site[]}
---@return fun(p: integer, last: matombo.Site): boolean
function matombo.extra_turn_rule(spec) end
---(p, last, was_empty) -> counters captured.
---@param spec {owner: "mover"|"opponent"|nil, was_empty: boolean?, counts: integer[]?, opposite: integer|integer[]|nil, behind: integer|integer[]|nil, row: integer|integer[]|nil, with_last: boolean?, runs: table[]?, unless: function?, into: matombo.Site|matombo.Site[]|nil}
---@return fun(p: integer, last: matombo.Site, was_empty: boolean): integer
function matombo.capture_rule(spec) end
---(last, opp) -> whether the capture would take every counter opp owns.
---@param spec table the table of a capture_rule
---@return fun(last: matombo.Site, opp: integer): boolean
function matombo.takes_all_rule(spec) end
---(p, captured): the first condition that holds ends the game with result(reason).
---@param spec table a list of {when=, empty=, none=, ply_above=, captured_above=, captured_each=, player=, reason=, result=} and result
---@return fun(p: integer, captured: integer)
function matombo.end_rule(spec) end
---(reason): the largest total of captured and owned counters wins.
---@param spec {sweep: boolean?}
---@return fun(reason: string)
function matombo.result_rule(spec) end
---(p) -> moves emitted: a move of kind for each site p may sow from.
---@param spec {kind: matombo.Kind, from: matombo.Filter|matombo.Filter[]|nil, sites: matombo.Site[][]?, feeding: matombo.Track|matombo.Track[]|nil, ends: function?, none: matombo.Kind?}
---@return fun(p: integer): integer
function matombo.sowings_rule(spec) end
---A play function: sow, extra turn or capture, after_capture, after; other kinds to other.
---@param spec {kind: matombo.Kind, sow: function, extra_turn: function?, capture: function?, irreversible: boolean?, after_capture: function?, after: function?, other: function?}
---@return fun(p: integer, kind: matombo.Kind, ...: integer)
function matombo.sowing_play(spec) end
---A legal function: feeding(p) when the next player's starving filter is empty, else sowings(p).
---@param spec {sowings: function, starving: matombo.Filter|matombo.Filter[]|nil, feeding: function?}
---@return fun(p: integer)
function matombo.sowing_legal(spec) end
---(p) -> moves emitted: the moves of emit_each, or of emit_steps, emit_jumps and emit_pairs, or one move of each kind of moves.
---@param spec {kind: matombo.Kind?, each: matombo.Filter|matombo.Filter[]|nil, steps: matombo.Filter|matombo.Filter[]|nil, jumps: matombo.Filter|matombo.Filter[]|nil, pairs: {from: matombo.Filter|matombo.Filter[], to: matombo.Filter|matombo.Filter[]}?, moves: matombo.Kind[]?, when_none: matombo.Filter|matombo.Filter[]|nil}
---@return fun(p: integer): integer
function matombo.emit_rule(spec) end
---(p, s) -> whether p owns length sites in a row (anywhere: on one line) through s (or through); with s nil, any line (a condition too).
---@param spec {length: integer, anywhere: boolean?, through: matombo.Site?, only: (matombo.Site|string)[][]|(matombo.Site|string)[][][]|nil, except: (matombo.Site|string)[][]|(matombo.Site|string)[][][]|nil}
---@return fun(p: integer, s: matombo.Site?): boolean
function matombo.line_rule(spec) end
---A legal function: drops(p) while p has pieces in hand, moves(p) once nobody has (stuck(p) when it emits nothing).
---@param spec {drops: function?, moves: function?, stuck: function?}
---@return fun(p: integer)
function matombo.placement_legal(spec) end
---A play function: a drop places a piece from hand, a move moves one; then win(p, s) ends the game with reason, or each of arrival(p, s) follows, and after(p, 0) when p does not decide again; other kinds to other.
---@param spec {drop: matombo.Kind?, move: matombo.Kind?, win: function?, reason: string?, arrival: function[]?, after: function?, other: function?}
---@return fun(p: integer, kind: matombo.Kind, ...: integer)
function matombo.placement_play(spec) end
---(p, s) -> whether p decides again: when(p, s) holds (and a site of need matches), set becomes value and p decides again.
---@param spec {when: function, need: matombo.Filter|matombo.Filter[]|nil, set: integer|string, value: integer?}
---@return fun(p: integer, s: matombo.Site): boolean
function matombo.again_rule(spec) end
---(p, s): the counters on s go to p's captured total, clear's variables become 0, then after's functions (p, n) in order.
---@param spec {clear: (integer|string)[]?, after: function[]?}
---@return fun(p: integer, s: matombo.Site)
function matombo.remove_play(spec) end
---A play function: play(p, kind, ...), then a move that broke a line and made one bars its way back (from, to per player); as a move test, whether a move is that way back and would make a line again.
---@param spec {play: function, line: function, from: (integer|string)|(integer|string)[], to: (integer|string)|(integer|string)[]}
---@return fun(p: integer, kind: matombo.Kind, ...: integer)
function matombo.no_return_rule(spec) end
---(p) -> moves emitted: emit(p) when when(p) holds, otherwise otherwise(p).
---@param spec {when: function, emit: function, otherwise: function?}
---@return fun(p: integer): integer
function matombo.if_rule(spec) end
---(p) -> moves emitted: the moves of the first function of the list that emits any.
---@param spec function[]
---@return fun(p: integer): integer
function matombo.first_of_rule(spec) end
---(p) -> moves emitted: the moves of moves(p) but those for which except(p, kind, sites...) holds.
---@param spec {moves: function, except: function}
---@return fun(p: integer): integer
function matombo.except_rule(spec) end
---(p, n): count becomes 0 after a capture (n > 0) or while when(p) does not hold, grows otherwise; at limit, result(reason).
---@param spec {count: integer|string, when: function?, limit: integer, reason: string, result: function}
---@return fun(p: integer, n: integer)
function matombo.quiet_rule(spec) end
---(p) -> the value of a variable.
---@param spec {var: integer|string}
---@return fun(p: integer): integer
function matombo.var_rule(spec) end
---(p) -> whether no site of the filter matches.
---@param spec {filter: matombo.Filter}
---@return fun(p: integer): boolean
function matombo.none_rule(spec) end
---(p) -> whether p is Player number.
---@param spec {number: integer}
---@return fun(p: integer): boolean
function matombo.player_rule(spec) end
---(p, from) -> last, how, laps: the relay of matombo.relay along p's track.
---@param spec {track: matombo.Track|matombo.Track[]|string, stop: matombo.Tag|string|nil, max_laps: integer?}
---@return fun(p: integer, from: matombo.Site): integer, string, integer
function matombo.relay_rule(spec) end
---(p, from) -> whether that relay ends within the lap limit.
---@param spec {track: matombo.Track|matombo.Track[]|string, stop: matombo.Tag|string|nil, max_laps: integer?}
---@return fun(p: integer, from: matombo.Site): boolean
function matombo.relay_ends_rule(spec) end
---(p, at) -> moves emitted: continue (when ends(p, at)), then stop.
---@param spec {continue: matombo.Kind, stop: matombo.Kind, ends: function?}
---@return fun(p: integer, at: matombo.Site): integer
function matombo.relay_choices_rule(spec) end
---(p, left): left bonus captures from the filter from, or none (pending 0).
---@param spec {pending: integer|string, from: matombo.Filter|matombo.Filter[]}
---@return fun(p: integer, left: integer)
function matombo.bonus_rule(spec) end
---A play function: sow or continue (relay, then capture and bonus, or a stop), stop, take; other kinds to other.
---@param spec {pending: integer|string, sow: matombo.Kind, continue: matombo.Kind?, stop: matombo.Kind?, take: matombo.Kind?, relay: function, capture: function?, bonus: function?, bonus_count: integer?, irreversible: boolean?, other: function?}
---@return fun(p: integer, kind: matombo.Kind, ...: integer)
function matombo.relay_play(spec) end
---A legal function by a pending decision in a variable: none's functions (0), site(p, s) (a site), count(p, k) (-k).
---@param spec {pending: integer|string, none: function[], site: function?, count: function?}
---@return fun(p: integer)
function matombo.pending_legal(spec) end
---A play function: a move of kind K is spec[K](p, sites...); false for a move that changes nothing.
---@param spec table<matombo.Kind, function|false>
---@return fun(p: integer, kind: matombo.Kind, ...: integer)
function matombo.play_by_kind(spec) end
---(p) -> moves emitted: offers of 1 to k sites of from.
---@param spec {kind: matombo.Kind, from: matombo.Filter|matombo.Filter[], keep: integer?, most: integer?, price: integer?}
---@return fun(p: integer): integer
function matombo.offers_rule(spec) end
---(p, s1, s2, ...): the sites offered go into the variables of holes.
---@param spec {holes: (integer|string)[]}
---@return fun(p: integer, ...: matombo.Site)
function matombo.offer_rule(spec) end
---(p): p takes the offered sites, paying price captured counters for each.
---@param spec {holes: (integer|string)[], price: integer?}
---@return fun(p: integer)
function matombo.accept_rule(spec) end
---(p): the offer is declined and cleared.
---@param spec {holes: (integer|string)[], declined: (integer|string)[]?}
---@return fun(p: integer)
function matombo.decline_rule(spec) end

-- Filters and lines.

---@param f matombo.Filter
---@return integer
function matombo.count_sites(f) end
---@param f matombo.Filter
---@return integer
function matombo.sum(f) end
---@param f matombo.Filter
---@return integer?
function matombo.first(f) end
---@param f matombo.Filter
---@return integer[]
function matombo.sites(f) end
---@param p matombo.Player
---@param s? matombo.Site
---@param k integer
---@return boolean
function matombo.in_a_row(p, s, k) end
---The sites of the run in_a_row finds, or nil.
---@param p matombo.Player
---@param s? matombo.Site
---@param k integer
---@return integer[]?
function matombo.row_sites(p, s, k) end
---How many lines of the board p holds but for one point, which is empty.
---@param p matombo.Player
---@return integer
function matombo.open_lines(p) end

-- Legal moves, inside legal only.

---@param kind matombo.Kind
---@param ... matombo.Site
function matombo.emit(kind, ...) end
---@param kind matombo.Kind
---@param f matombo.Filter
---@return integer
function matombo.emit_each(kind, f) end
---@param kind matombo.Kind
---@param f matombo.Filter
---@param kmin integer
---@param kmax integer
---@return integer
function matombo.emit_subsets(kind, f, kmin, kmax) end
---@param kind matombo.Kind
---@param f matombo.Filter
---@return integer
function matombo.emit_steps(kind, f) end
---@param kind matombo.Kind
---@param f matombo.Filter
---@return integer
function matombo.emit_jumps(kind, f) end
---Emits a move (a, b) for every site a matching `from` and every other site b matching `to`.
---@param kind matombo.Kind
---@param from matombo.Filter
---@param to matombo.Filter
---@return integer
function matombo.emit_pairs(kind, from, to) end
---Emits the matching sites whose relay sowing ends within max_laps laps.
---@param kind matombo.Kind
---@param f matombo.Filter
---@param track matombo.Track
---@param stop_tag? matombo.Tag
---@param max_laps? integer
---@return integer added
---@return integer matched
function matombo.emit_sowings(kind, f, track, stop_tag, max_laps) end

-- Repetition and the end.

---@return integer
function matombo.repetitions() end
---@return string
function matombo.key() end
---Ends the game: finish(winner, reason, note, ...) or finish { winner = ..., reason = ..., notes = ..., sites = ... }.
---@param winner matombo.Player|matombo.Finish 0 for a draw.
---@param reason? string
---@param ... string notes
function matombo.finish(winner, reason, ...) end
---@return boolean
function matombo.over() end
---Inside play: no earlier position can occur again; repetitions count from the position this move makes.
function matombo.irreversible() end

---Calls fn(...) on a scratch copy of the state and returns its results; the state is then as before.
---@generic R
---@param fn fun(...): R
---@return R
function matombo.try(fn, ...) end
