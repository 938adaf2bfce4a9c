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
---@field tag? matombo.Tag|string
---@field not_tag? matombo.Tag|string
---@field row? integer Row number, 1 = a.
---@field track? matombo.Track|string
---@field next_empty? matombo.Track|string The next site on this track is empty.
---@field supported? boolean The site is in row a, or the site below it in its column holds counters (where a dropped piece comes to rest).
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
---@field doc? string A move of the kind in words, with the template's placeholders: "Offer {sites}".
---@field why? fun(p: matombo.Player, sites: integer[], ...: integer): string|nil Why a move of the kind naming sites is not possible now (vars as legal gets them).

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
---@param opts? {doc: string} doc: what the tag means, in words for the players.
---@return matombo.Tag
function matombo.tag(name, sites, opts) end

---Diagrams show this character after the count of a tagged site.
---@param tag matombo.Tag
---@param char string
function matombo.mark(tag, char) end

---@param name string
---@param sites matombo.Site[]
---@param loop? boolean
---@return matombo.Track
function matombo.track(name, sites, loop) end

---Declares a move kind and its token template ({1}..{4}, {from}, {to}, {sites}; with # a site's number: {#1}, {#from}).
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

---Sets declare's repetition after declare, when it depends on the parameters.
---@param n integer
function matombo.repetition(n) end

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
-- Rule parts (made from host/rules by go test ./host/rules -update; do not edit):
---(p, last, was_empty) → counters captured: takes the last site's counters, or the opposite site's, when the conditions of its fields hold, and returns how many it took.
---@param spec {owner: ("mover"|"opponent")?, was_empty: boolean?, counts: integer[]?, parity: ("even"|"odd")?, opposite: (integer)|(integer)[]?, empty_opposite: boolean?, opposite_min: integer?, behind: (integer)|(integer)[]?, row: (integer)|(integer)[]?, with_last: boolean?, runs: table[]?, unless: function?, when: function?, into: (matombo.Site)|(matombo.Site)[]?}
---@return fun(p: integer, last: matombo.Site, was_empty: boolean): integer
function matombo.capture_rule(spec) end
---(p, n): the first condition that holds ends the game with `result(reason)`. A condition is `{when = C, reason = TEXT}` with C a condition (a part of the table below, or a function `(p)` → boolean), or one of the short forms: `empty = F` (per player: some player's filter holds no counter), `none = F` (no site matches), `ply_above = N`, `captured_above = N` (some captured total), `captured_each = N` (every captured total); `player = "next"` asks the condition of the player after p.
---@param spec table
---@return fun(p: integer, n: integer?)
function matombo.end_rule(spec) end
---(p, site) → boolean: when `last` is p's site (a store), p moves again.
---@param spec {sites: (matombo.Site)|(matombo.Site)[]}
---@return fun(p: integer, site: matombo.Site?): boolean
function matombo.extra_turn_rule(spec) end
---(reason): each player's total is their captured counters plus the counters on the sites they own (with `sweep` these first go into the captured totals, as `m.sweep`); the one largest total wins, otherwise a draw (`finish`).
---@param spec {sweep: boolean?}
---@return fun(reason: string)
function matombo.result_rule(spec) end
---(p, from) → last, was_empty: takes every counter of `from` and sows them one per site along p's track; with `skip_origin` never into `from` (as `sow_skip`), otherwise laps drop into it too (as `sow`); with `origin_first` the first counter goes back into `from`.
---@param spec {track: (matombo.Track|string)|(matombo.Track|string)[], skip_origin: boolean?, origin_first: boolean?}
---@return fun(p: integer, from: matombo.Site): integer, boolean
function matombo.sow_rule(spec) end
---(p) → moves emitted: when the next player's `starving` filter holds no counter, `feeding(p)` (or nothing); otherwise `sowings(p)`.
---@param spec {sowings: function, starving: (matombo.Filter)|(matombo.Filter)[]?, feeding: function?}
---@return fun(p: integer): integer
function matombo.sowing_legal(spec) end
---play(p, kind, ...): a move of kind `kind`: `last, was_empty = sow(p, from)` (a move of two sites sows from the first towards the second, with a `relay_rule` of `tracks`); unless `extra_turn(p, last)` is true, `n = capture(p, last, was_empty)`; if `n > 0`, with `irreversible` every earlier position is forgotten (`m.irreversible`) and `after_capture(p, n)` runs; then `after(p, n)` for each part of `after`, in order, until the game ends. A move of another kind is `other(p, kind, sites...)`. Only `sow` is required.
---@param spec {kind: matombo.Kind|string, sow: function, extra_turn: function?, capture: function?, irreversible: boolean?, after_capture: function?, after: function|function[]?, other: function?}
---@return fun(p: integer, kind: matombo.Kind, ...: integer)
function matombo.sowing_play(spec) end
---(p) → moves emitted: emits a move of kind `kind` for each site p may sow from: the sites of the filter `from` that match, or those of p's list `sites` that hold counters, in that order. `feeding` keeps only the sowings that reach a site another player owns along the track; `ends` only those for which `ends(p, site)` is true (a `relay_ends_rule`); `none` emits one move of that kind (no sites) when there is no sowing (a pass). With `tracks` a move names its direction by the first site sown, or with `start` by the direction's start site, and a site of `toward` moves only in its direction.
---@param spec {kind: matombo.Kind|string, from: (matombo.Filter)|(matombo.Filter)[]?, tracks: matombo.Track[]|matombo.Track[][]?, sites: (matombo.Site[])|(matombo.Site[])[]?, feeding: (matombo.Track|string)|(matombo.Track|string)[]?, ends: function?, none: matombo.Kind|string?, start: matombo.Site[][]?, toward: matombo.Site[][]?, toward_alone: (matombo.Filter)|(matombo.Filter)[]?, else_from: (matombo.Filter)|(matombo.Filter)[]?, skip: matombo.Var|string?}
---@return fun(p: integer): integer
function matombo.sowings_rule(spec) end
---(last, owner) → boolean: with the table of a capture (`counts`, `runs`): whether that capture from `last` would take every counter on the sites `owner` owns (a capture of everything, which some games forbid).
---@param spec {owner: ("mover"|"opponent")?, was_empty: boolean?, counts: integer[]?, parity: ("even"|"odd")?, opposite: (integer)|(integer)[]?, empty_opposite: boolean?, opposite_min: integer?, behind: (integer)|(integer)[]?, row: (integer)|(integer)[]?, with_last: boolean?, runs: table[]?, unless: function?, when: function?, into: (matombo.Site)|(matombo.Site)[]?}
---@return fun(last: matombo.Site, owner: integer): boolean
function matombo.takes_all_rule(spec) end
---(reason): ends the game with a winner: the player who moved (`mover`), the next player (`next`), or a draw (`draw`).
---@param spec {winner: ("mover"|"next"|"draw")}
---@return fun(reason: string)
function matombo.winner_rule(spec) end
---(p, kind, sites...) → boolean: whether some move test of the list holds for the move, asked in order until one does: a cheap test first (a `relay_ends_rule`), a costly one (a script's, an `ends_rule`) only for the moves it leaves.
---@param spec table
---@return fun(p: integer, kind: matombo.Kind, ...: integer): boolean
function matombo.any_move_rule(spec) end
---(p, n): `(p, left)`: with `left > 0` and a site of the filter `from` to take from, p makes `left` more choices, one decision each: the pending decision becomes `-left` and p decides next. Otherwise it becomes 0: the move is over.
---@param spec {pending: matombo.Var|string, from: (matombo.Filter)|(matombo.Filter)[]}
---@return fun(p: integer, n: integer?)
function matombo.bonus_rule(spec) end
---(p, last, track, laps) → how the relay goes on: the end of a lap (a relay's `lap`): when the lap ended on a site that was occupied and the site facing it in the row `opposite` holds counters, those counters are captured and sown in along the player's track of the direction, starting with that direction's `start` site; the relay goes on from there. The direction is the sowing's, unless the site is one of a direction's `toward` sites. When `ends_when` holds after the capture, the captured counters are sown and the relay ends.
---@param spec {tracks: matombo.Track[]|matombo.Track[][], opposite: (integer)|(integer)[], start: matombo.Site[][], toward: matombo.Site[][]?, ends_when: function?}
---@return fun(p: integer, last: matombo.Site, track: matombo.Track, laps: integer): any
function matombo.capture_sow_rule(spec) end
---(p, sites...): `(p, s, d)`: one counter from p's hand goes into `s`, then the `lap` of `relay` (a `relay_rule` with `tracks` and `lap`) is asked about `s` as about the end of a lap of p's in the direction the move names with `d` (its `start` site, or else the first site sown), and the relay goes on as the lap says: a capture sown in and relayed, the sowing of `s` on, or nothing; with `sow_on`, `s` is sown on without asking. With `pending`, when that variable is not 0 after the relay (a decision waits), p moves next; with `irreversible` the move forgets every earlier position. Then `after(p, 0)` for each part of `after`, in order, until the game ends.
---@param spec {relay: function, start: matombo.Site[][]?, pending: matombo.Var|string?, irreversible: boolean?, after: function|function[]?, drop: integer?, clear: (matombo.Var|string)[]?, sow_on: boolean?, house: function?}
---@return fun(p: integer, ...: matombo.Site)
function matombo.drop_relay_play(spec) end
---(p, kind, sites...) → boolean: whether a move's relay ends within the relay's lap limit, tried on a copy of the state (a relay whose laps capture and sow on cannot be bounded without playing it).
---@param spec {relay: function}
---@return fun(p: integer, kind: matombo.Kind, ...: integer): boolean
function matombo.ends_rule(spec) end
---(p, site) → boolean: whether the site facing `site` (its column in p's row `opposite`) holds at least `min` counters: a site whose sowing or counter put in would capture, where captures take the facing site.
---@param spec {opposite: (integer)|(integer)[], min: integer?}
---@return fun(p: integer, site: matombo.Site?): boolean
function matombo.facing_rule(spec) end
---(p, kind, sites...) → boolean: whether a move's first lap ends where `lap` acts (a lap that captures), tried on a copy of the counts: the first lap sows every counter of the site moved from, in the move's direction.
---@param spec {tracks: matombo.Track[]|matombo.Track[][], lap: function, lap_tag: matombo.Tag|string?, max: integer?}
---@return fun(p: integer, kind: matombo.Kind, ...: integer): boolean
function matombo.first_lap_rule(spec) end
---(p, last, track, laps) → how the relay goes on: the end of a lap (a relay's `lap`) where houses are kept (a `house_rule`): a lap that ends in an empty site ends the relay; otherwise `lap` is heard first (a capture) and what it says goes, a house it has the relay take up or capture being lost. Else, with `stops`, a lap ending in p's house while it plays its part (`house(p)`) ends the relay there, and with `pending` that variable becomes the lap's direction (its place in p's `tracks`, from 1), a decision waiting in the house; a lap ending on the site the variable `stop_at` holds (from 1) ends it too. Otherwise the relay goes on from the site, a house taken up so being lost.
---@param spec {house: function, lap: function?, stops: boolean?, pending: matombo.Var|string?, tracks: matombo.Track[]|matombo.Track[][]?, stop_at: matombo.Var|string?}
---@return fun(p: integer, last: matombo.Site, track: matombo.Track, laps: integer): any
function matombo.house_lap_rule(spec) end
---(p) → boolean: whether p's house plays its part: p still owns it (p's variable of `owns` is 1) and it holds at least `min` counters. The owner loses a house the first time it is emptied: a `house_lap_rule` sets the variable to 0 when a lap takes the house up or a capture takes it, a script when a move starts from it.
---@param spec {sites: (matombo.Site)|(matombo.Site)[], owns: matombo.Var|string, min: integer?}
---@return fun(p: integer): boolean
function matombo.house_rule(spec) end
---(p, at) → moves emitted: at a site where a sowing waits: a move of kind `continue` (when `ends(p, at)` holds, or without `ends`), then one of kind `stop`.
---@param spec {continue: matombo.Kind|string, stop: matombo.Kind|string, ends: function?}
---@return fun(p: integer, at: matombo.Site): integer
function matombo.relay_choices_rule(spec) end
---(p, site) → boolean: with the table of a relay: whether the relay from `from` ends (in an empty site or at the stop tag) within `max_laps` laps, without changing the state, as `matombo.relay_ends`; with `drop`, that many counters put into `from` first. As a move test (`ends(p, kind, from, first)`, a `sowings_rule`'s `ends` with `tracks`) the relay goes in the direction the move names by the first site it sows.
---@param spec {track: (matombo.Track|string)|(matombo.Track|string)[]?, tracks: matombo.Track[]|matombo.Track[][]?, stop: matombo.Tag|string?, max_laps: integer?, skip_origin: boolean?, lap: function?, lap_tag: matombo.Tag|string?, drop: integer?}
---@return fun(p: integer, site: matombo.Site?): boolean
function matombo.relay_ends_rule(spec) end
---play(p, kind, ...): a move of kind `sow` relays with `relay(p, from)`; a relay that ends at a stop waits there (the pending decision becomes the site) for a move of kind `continue` (sow on from it) or `stop`; one that ends in an empty site is followed by `capture(p, last, true)`, and a capture by `bonus(p, bonus_count)`; a move of kind `take` captures the site chosen, then `bonus(p, left - 1)`. With `irreversible` a capture forgets every earlier position. Other kinds go to `other`.
---@param spec {pending: matombo.Var|string, sow: matombo.Kind|string, continue: matombo.Kind|string?, stop: matombo.Kind|string?, take: matombo.Kind|string?, relay: function, capture: function?, bonus: function?, bonus_count: integer?, irreversible: boolean?, other: function?}
---@return fun(p: integer, kind: matombo.Kind, ...: integer)
function matombo.relay_play(spec) end
---(p, from) → last, how, laps: sows every counter of `from` along p's track and relays, as `matombo.relay`: while the last counter falls into an occupied site without the `stop` tag, its counters are sown on; returns the last site and how the sowing ended (`"empty"`, `"stop"`, `"laps"`, or `"hook"` when `lap` ended it). It fits the sow slot too (a `sowing_play`'s `sow`, a multi-lap sowing with stores and captures): there it returns the last site and whether the sowing ended in an empty site (`was_empty`, as `how == "empty"`).
---@param spec {track: (matombo.Track|string)|(matombo.Track|string)[]?, tracks: matombo.Track[]|matombo.Track[][]?, stop: matombo.Tag|string?, max_laps: integer?, skip_origin: boolean?, lap: function?, lap_tag: matombo.Tag|string?}
---@return fun(p: integer, from: matombo.Site): integer, string, integer
function matombo.relay_rule(spec) end
---(p, s) → whether it acted: after p's piece arrived on `s`: when `when(p, s)` holds and a site of `need` matches (without `need`, always), the variable `set` becomes `value` and p decides again (as `m.set_to_move(p)`): a mill that makes its player remove a piece. Returns whether it did.
---@param spec {when: function, need: (matombo.Filter)|(matombo.Filter)[]?, set: matombo.Var|string, value: integer?}
---@return function
function matombo.again_rule(spec) end
---(p, s) → whether it acted: after p's piece arrived on `s`: each neighbour of `s` along one of the board's lines that is a piece of `over`, with a piece of `with` just beyond it on that line, goes to p's captured total (as `m.capture`): a piece caught between two of the mover's (custodian capture). All such pieces are found first, then captured. Returns whether it captured any.
---@param spec {over: (matombo.Filter)|(matombo.Filter)[], with: (matombo.Filter)|(matombo.Filter)[]}
---@return function
function matombo.custodian_rule(spec) end
---(p) → moves emitted: the moves of the primitives of the same names, in this order: `emit` of each kind of `moves` (kinds without sites), `emit_each(kind, each)`, `emit_steps(kind, steps)`, `emit_jumps(kind, jumps)`, `emit_pairs(kind, pairs.from, pairs.to)`; nothing when a site of `when_none` matches. Filters are per player.
---@param spec {kind: matombo.Kind|string?, each: (matombo.Filter)|(matombo.Filter)[]?, steps: (matombo.Filter)|(matombo.Filter)[]?, jumps: (matombo.Filter)|(matombo.Filter)[]?, pairs: {from: (matombo.Filter)|(matombo.Filter)[], to: (matombo.Filter)|(matombo.Filter)[]}?, moves: (matombo.Kind|string)[]?, when_none: (matombo.Filter)|(matombo.Filter)[]?}
---@return fun(p: integer): integer
function matombo.emit_rule(spec) end
---(p, sites...): `(p, from, to)`, or `(p, to)` for the piece that waits in the middle of a capture (the pending decision holds its site): the pieces of other players on the sites between `from` and `to` along a line go to p's captured total (as `m.capture`; where two lines join `from` and `to`, along the first whose sites between hold one piece, another player's: the one a jump passed over), then the piece moves to `to` (as `m.move_piece`) and each part of `arrival` follows, `(p, to)` (a crowning). After a capture, unless an arrival acted and `arrival_ends` is set, when `again(p, to)` holds the move waits at `to` (the pending decision becomes its site, and p decides next); otherwise the pending decision becomes 0. A capture, and a move of a piece of `progress`, forget every earlier position (as `m.irreversible`). Then `after(p, n)` for each part of `after`, until the game ends: n is the counters captured, or 1 for a move of a piece of `progress` that captured none. A move naming no site, `(p)` (a `jumps_rule`'s `stop`), ends the capture of the piece that waits where it stands: the pending decision becomes 0, the pieces of `taken` come off, and `arrival` (with `arrival_last`) and `after` follow as at the end of any move.
---@param spec {pending: matombo.Var|string, again: function?, arrival: function|function[]?, arrival_ends: boolean?, progress: (matombo.Filter)|(matombo.Filter)[]?, after: function|function[]?, taken: (matombo.Var|string)[]?, arrival_last: boolean?}
---@return fun(p: integer, ...: matombo.Site)
function matombo.hop_play(spec) end
---(p) → moves emitted: a move (from, to) of kind `kind` for each piece of `from` that can jump along one of the board's lines, in the way the piece moves (`toward`, or both ways for a piece of `both`), over a neighbour of `over` to the empty site just beyond (a piece of `fly`: over empty sites and one of `over` to any empty site beyond it, before the next occupied one), never over a site of `taken`, piece by piece in board order, each piece's jumps by the site landed on. As a site test, `(p, s)`: whether the piece on `s` can jump (a capture that goes on); as the choices of a pending decision, `(p, at)`: the jumps of the piece on `at`, as moves of kind `again` naming the site landed on, and with `stop` a move of that kind, which ends the capture there.
---@param spec {kind: matombo.Kind|string, over: (matombo.Filter)|(matombo.Filter)[], again: matombo.Kind|string?, stop: matombo.Kind|string?, go_on: boolean?, most: boolean?, promote_row: (integer)|(integer)[]?, promote_ends: boolean?, from: (matombo.Filter)|(matombo.Filter)[], toward: ("ahead"|"back"|"both"|"ahead_across"|"back_across"|"none")|("ahead"|"back"|"both"|"ahead_across"|"back_across"|"none")[]?, both: (matombo.Filter)|(matombo.Filter)[]?, fly: (matombo.Filter)|(matombo.Filter)[]?, taken: (matombo.Var|string)[]?}
---@return fun(p: integer): integer
function matombo.jumps_rule(spec) end
---(p, site) → boolean: whether p owns `length` consecutive sites of a line through `s`, `s` among them (as `in_a_row`); with `anywhere`, `length` sites of a line through `s` wherever they stand on it; with `through`, the lines through that site instead, which p must own. With `s` nil, any line of the board: so it is a condition too, `(p)`. `only` and `except` (per player: one list of lines for every player, or one list for each) say which of the board's lines count: a line is given by its sites, in either order. With `exactly`, a run of `length` counts only when it is no longer (three in a row, where four capture nothing).
---@param spec {length: integer, anywhere: boolean?, exactly: boolean?, through: matombo.Site?, only: matombo.Site[][]?, except: matombo.Site[][]?}
---@return fun(p: integer, site: matombo.Site?): boolean
function matombo.line_rule(spec) end
---play(p, kind, ...): plays a move with `play`; a move `(from, to)` by p that broke a line (`line(p, from)` held before it) and made one (`line(p, to)` holds after it) bars its way back: the variables `from` and `to` of p become `to` and `from` (sites from 1), and 0 after any other move of two sites. As a move test (`except_rule`'s `except`), `(p, kind, a, b)` holds for the barred move back when p's piece is on `a`, `b` is empty and the move would make a line again (tried on a copy).
---@param spec {play: function, line: function, from: matombo.Var|string, to: matombo.Var|string}
---@return fun(p: integer, kind: matombo.Kind, ...: integer)
function matombo.no_return_rule(spec) end
---(p) → moves emitted: while p has pieces in hand, `drops(p)`; once no player has, `moves(p)`, and `stuck(p)` when it emitted nothing; otherwise nothing (a position where p must wait for the others' drops).
---@param spec {drops: function?, moves: function?, stuck: function?}
---@return fun(p: integer): integer
function matombo.placement_legal(spec) end
---play(p, kind, ...): a move of kind `drop` puts a piece from p's hand on its site (as `m.place`), one of kind `move` takes a piece from its first site to its second (as `m.move_piece`); then, when `win(p, s)` holds for the site `s` the piece went to, p wins (`finish(p, reason)`; a `line_rule` names the line's sites in the result). Otherwise each part of `arrival` follows in order, `(p, s)` (a mill's removal: `again_rule`), and when none of them gave p another decision, `after(p, 0)` (a full board's draw, a count). A move of another kind is `other(p, kind, sites...)`.
---@param spec {drop: matombo.Kind|string?, move: matombo.Kind|string?, win: function?, reason: string?, arrival: function|function[]?, after: function?, other: function?}
---@return fun(p: integer, kind: matombo.Kind, ...: integer)
function matombo.placement_play(spec) end
---(p, s) → whether it acted: after p's piece arrived on `s`: when `s` is in p's row `row` and the piece matches `piece`, `add` counters are put on it (from p's hand with `from_hand`, as `m.set_hand` and `m.add`): a man crowned a king. Returns whether it did.
---@param spec {row: (integer)|(integer)[], piece: (matombo.Filter)|(matombo.Filter)[]?, add: integer?, from_hand: boolean?}
---@return function
function matombo.promote_rule(spec) end
---(p, sites...): `(p, s)`: the counters on `s` go to p's captured total (as `m.capture(s, p)`), the variables of `clear` become 0, then `after(p, n)` for each part of `after` in order, n the counters taken, until the game ends.
---@param spec {clear: (matombo.Var|string)[]?, after: function|function[]?}
---@return fun(p: integer, ...: matombo.Site)
function matombo.remove_play(spec) end
---(p) → moves emitted: a move (from, to) of kind `kind` for each piece of `from` and each empty neighbour (any empty site up to the first occupied one, for a piece of `fly`) along the board's lines in the way the piece moves (`toward`, or both ways for a piece of `both`), piece by piece in board order, each piece's moves by the site moved to. As a site test, `(p, s)`: whether the piece on `s` can step.
---@param spec {kind: matombo.Kind|string, from: (matombo.Filter)|(matombo.Filter)[], toward: ("ahead"|"back"|"both"|"ahead_across"|"back_across"|"none")|("ahead"|"back"|"both"|"ahead_across"|"back_across"|"none")[]?, both: (matombo.Filter)|(matombo.Filter)[]?, fly: (matombo.Filter)|(matombo.Filter)[]?}
---@return fun(p: integer): integer
function matombo.steps_rule(spec) end
---(p, n): `(p, n)`, after a decision: when `when(p)` holds, each part of `after` follows, `(p, n)`, until the game ends; otherwise nothing: a count of the moves of an ending kept (by a script function) only once few pieces are left, instead of after every decision.
---@param spec {when: function, after: function|function[]}
---@return fun(p: integer, n: integer?)
function matombo.after_if_rule(spec) end
---(p, kind, sites...) → boolean: whether `cond(p)` holds once the move is played with `play`, tried on a copy of the state: a move legal only for what it leaves (a sowing that must feed an opponent without counters, with `cond` a `not_rule` of the next player's `empty_rule`; in a `prefer_rule`'s `when` or `keep`).
---@param spec {play: function, cond: function}
---@return fun(p: integer, kind: matombo.Kind, ...: integer): boolean
function matombo.after_move_rule(spec) end
---(p) → moves emitted: the moves of `moves(p)` but those for which `except(p, kind, sites...)` holds, in their order.
---@param spec {moves: function, except: function}
---@return fun(p: integer): integer
function matombo.except_rule(spec) end
---(p) → moves emitted: `{f1, f2, ...}`: the moves of `f1(p)`; when it emits none, those of `f2(p)`, and so on: a piece outside a mill is removed first, any piece only when all are in mills.
---@param spec table
---@return fun(p: integer): integer
function matombo.first_of_rule(spec) end
---(p, sites...): `(p, sites...)`: a move played by `play` when `when(p)` holds (or the move test `test(p, kind, sites...)`), otherwise by `otherwise` (a stage of the game whose moves of one kind play another way; a move that captures).
---@param spec {when: function?, test: function?, play: function, otherwise: function}
---@return fun(p: integer, ...: matombo.Site)
function matombo.if_play(spec) end
---(p) → moves emitted: the moves of `emit(p)` when `when(p)` holds, otherwise those of `otherwise(p)` (none without it): a first drop that must go to the centre, removals while a mill's removal is pending.
---@param spec {when: function, emit: function, otherwise: function?}
---@return fun(p: integer): integer
function matombo.if_rule(spec) end
---(p) → moves emitted: the legal moves by the pending decision the variable `pending` holds: 0 (nothing pending): each part of `none` in turn, `(p)`; a site `s` (from 1: a sowing waits there): `site(p, s)`; `-k` (k choices left): `count(p, k)`.
---@param spec {pending: matombo.Var|string, none: function|function[], site: function?, count: function?}
---@return fun(p: integer): integer
function matombo.pending_legal(spec) end
---play(p, kind, ...): `{[K1] = f1, [K2] = false, ...}`: a move of kind K is `f(p, sites...)`; `false` for a kind whose move changes nothing (a pass).
---@param spec table
---@return fun(p: integer, kind: matombo.Kind, ...: integer)
function matombo.play_by_kind(spec) end
---(p) → moves emitted: the moves of `moves`; when some of them pass `when`, only those (a capture that must be taken when one is possible); then only those that pass `keep`.
---@param spec {moves: function, when: function, keep: function?}
---@return fun(p: integer): integer
function matombo.prefer_rule(spec) end
---(p, n): `(p, n)`, after a decision that captured n: when n > 0 or `when(p)` does not hold, the variable `count` becomes 0; otherwise it grows by one, and when it reaches `limit` the game ends with `result(reason)`.
---@param spec {count: matombo.Var|string, when: function?, limit: integer, reason: string, result: function}
---@return fun(p: integer, n: integer?)
function matombo.quiet_rule(spec) end
---(p, sites...): `(p)`: each site of the pending offer becomes p's (as `m.set_owner`) and p pays `price` of their captured counters into it (as `m.pay`); then the offer is cleared and p decides next.
---@param spec {holes: (matombo.Var|string)[], price: integer?}
---@return fun(p: integer, ...: matombo.Site)
function matombo.accept_rule(spec) end
---(p, sites...): `(p)`: the pending offer is cleared, p's variable of `declined` (one per player) becomes 1, and p decides next.
---@param spec {holes: (matombo.Var|string)[], declined: (matombo.Var|string)[]?}
---@return fun(p: integer, ...: matombo.Site)
function matombo.decline_rule(spec) end
---(p, sites...): `(p, s1, s2, ...)`: the sites offered go into the variables `holes`, the rest become 0.
---@param spec {holes: (matombo.Var|string)[]}
---@return fun(p: integer, ...: matombo.Site)
function matombo.offer_rule(spec) end
---(p) → moves emitted: a move of kind `kind` (a kind taking a list of sites) for each set of 1 to k sites of the filter `from`, smaller sets first, each in board order (as `emit_subsets`), k the most sites p may offer: at most `most`, keeping `keep` sites of the filter, and no more than the next player can pay for at `price` counters each from their captured total.
---@param spec {kind: matombo.Kind|string, from: (matombo.Filter)|(matombo.Filter)[], keep: integer?, most: integer?, price: integer?}
---@return fun(p: integer): integer
function matombo.offers_rule(spec) end
---(p) → boolean: every condition of the list holds.
---@param spec table
---@return fun(p: integer): boolean
function matombo.all_rule(spec) end
---(p) → boolean: some condition of the list holds.
---@param spec table
---@return fun(p: integer): boolean
function matombo.any_rule(spec) end
---(p) → number: a player's captured total.
---@param spec {player: ("mover"|"next"|"each"|"any")?}
---@return fun(p: integer): integer
function matombo.captured_rule(spec) end
---(p) → boolean: compares an amount with a number (`value`) or another amount (`to`): `op` is one of `<`, `<=`, `==`, `~=`, `>=`, `>`; `player = "each"` or `"any"` asks it of every player (all must hold, or one).
---@param spec {amount: function, op: ("<"|"<="|"=="|"~="|">="|">"), value: integer?, to: function?, player: ("mover"|"next"|"each"|"any")?}
---@return fun(p: integer): boolean
function matombo.compare_rule(spec) end
---(p) → number: the sites of the filter that match (per player: the player's).
---@param spec {filter: (matombo.Filter)|(matombo.Filter)[], player: ("mover"|"next"|"each"|"any")?}
---@return fun(p: integer): integer
function matombo.count_rule(spec) end
---(p) → boolean: the player's filter holds no counter.
---@param spec {filter: (matombo.Filter)|(matombo.Filter)[], player: ("mover"|"next"|"each"|"any")?}
---@return fun(p: integer): boolean
function matombo.empty_rule(spec) end
---(p) → number: the counters or pieces in a player's hand.
---@param spec {player: ("mover"|"next"|"each"|"any")?}
---@return fun(p: integer): integer
function matombo.hand_rule(spec) end
---(p) → boolean: whether `moves` lists some move for the player (p, or with `player = "next"` the player after p, as if it were their decision), the moves listed taken off again: a threat the next player could carry out (a capture they have).
---@param spec {moves: function, player: ("mover"|"next")?}
---@return fun(p: integer): boolean
function matombo.has_moves_rule(spec) end
---(p) → boolean: the player owns `length` consecutive sites of one of the board's lines.
---@param spec {length: integer, player: ("mover"|"next"|"each"|"any")?}
---@return fun(p: integer): boolean
function matombo.line_cond_rule(spec) end
---(p) → boolean: no site of the filter matches (a full board: no empty point), with the mover's filter when it depends on the mover.
---@param spec {filter: matombo.Filter}
---@return fun(p: integer): boolean
function matombo.none_rule(spec) end
---(p) → boolean: the condition does not hold.
---@param spec {cond: function}
---@return fun(p: integer): boolean
function matombo.not_rule(spec) end
---(p) → number: the site (from 1) that every move `moves` lists for p aims at, when they all aim at one and the same; 0 when they aim at more than one, or there is no move. A move aims at the site of the row `opposite` facing the end of its first lap: all the counters of the site it starts from sown one per site along its direction (the threat of a player whose captures all take one site).
---@param spec {moves: function, tracks: matombo.Track[]|matombo.Track[][], opposite: (integer)|(integer)[]}
---@return fun(p: integer): integer
function matombo.one_target_rule(spec) end
---(p) → boolean: the game is over: a rule ended it (after a move, in an `after_move_rule`: the move ended the game).
---@param spec {}
---@return fun(p: integer): boolean
function matombo.over_rule(spec) end
---(p) → boolean: p is the player `number` (Player 1's first drop, say).
---@param spec {number: integer}
---@return fun(p: integer): boolean
function matombo.player_rule(spec) end
---(p) → number: the number of decisions made since the opening.
---@param spec {}
---@return fun(p: integer): integer
function matombo.ply_rule(spec) end
---(over) → one number per player: the rules table's `score`: each player's score is the amount `amount` asked for that player; once the game is over, the amount `over` (when given). For example the counters each player captured, `m.score_rule { amount = m.captured_rule {} }`.
---@param spec {amount: function, over: function?}
---@return fun(over: boolean): integer...
function matombo.score_rule(spec) end
---(p) → number: the counters on the sites of the filter (per player: the player's).
---@param spec {filter: (matombo.Filter)|(matombo.Filter)[], player: ("mover"|"next"|"each"|"any")?}
---@return fun(p: integer): integer
function matombo.sum_rule(spec) end
---(p) → number: the value of a script variable (`m.get(var)`).
---@param spec {var: matombo.Var|string}
---@return fun(p: integer): integer
function matombo.var_rule(spec) end
-- End of the rule parts.

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
