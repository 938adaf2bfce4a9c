package rules

import (
	"github.com/matombo/matombo/host/kernel"
)

// The parts of games that place pieces and move them (drops from a hand,
// steps and jumps along lines, a line that wins), and emit_rule, which
// serves any game.

func init() {
	Register(Spec{Name: "emit_rule", Group: "Placing and moving", Slot: SlotEmit,
		Doc: "the moves of the primitives of the same names, in this order: `emit` of each kind of `moves` (kinds without sites), `emit_each(kind, each)`, `emit_steps(kind, steps)`, `emit_jumps(kind, jumps)`, `emit_pairs(kind, pairs.from, pairs.to)`; nothing when a site of `when_none` matches. Filters are per player",
		Fields: []Field{
			{Name: "kind", Type: FieldKind, Arity: AnyArity, Doc: "the kind of the moves with sites"},
			{Name: "each", Type: FieldFilter, PerPlayer: true, Doc: "a move for each site of the filter"},
			{Name: "steps", Type: FieldFilter, PerPlayer: true, Doc: "a move to each empty neighbour along the lines"},
			{Name: "jumps", Type: FieldFilter, PerPlayer: true, Doc: "a move over an occupied neighbour to the empty site beyond"},
			{Name: "pairs", Type: FieldTable, Doc: "a move from each site of `from` to each other site of `to`", Fields: []Field{
				{Name: "from", Type: FieldFilter, PerPlayer: true, Required: true, Doc: "the sites moved from"},
				{Name: "to", Type: FieldFilter, PerPlayer: true, Required: true, Doc: "the sites moved to"},
			}},
			{Name: "moves", Type: FieldKinds, Arity: 0, Min: 1, Max: 64, Doc: "kinds of moves without sites"},
			{Name: "when_none", Type: FieldFilter, PerPlayer: true, Doc: "emit nothing when a site of this filter matches"},
		},
		New: newEmit})
	Register(Spec{Name: "line_rule", Group: "Placing and moving", Slot: SlotSiteTest,
		Doc: "whether p owns `length` consecutive sites of a line through `s`, `s` among them (as `in_a_row`); with `anywhere`, `length` sites of a line through `s` wherever they stand on it; with `through`, the lines through that site instead, which p must own. With `s` nil, any line of the board: so it is a condition too, `(p)`. `only` and `except` (per player: one list of lines for every player, or one list for each) say which of the board's lines count: a line is given by its sites, in either order. With `exactly`, a run of `length` counts only when it is no longer (three in a row, where four capture nothing)",
		Fields: []Field{
			{Name: "length", Type: FieldInt, Min: 1, Max: kernel.MaxSites, Default: 3, Required: true, Doc: "the number of sites in a line that win"},
			{Name: "anywhere", Type: FieldBool, Doc: "p's sites of the line need not be consecutive"},
			{Name: "exactly", Type: FieldBool, Doc: "the run must hold exactly `length` sites: p's run through `s` (or any of p's runs, with `s` nil) between two sites not p's or the line's ends; a longer run does not count"},
			{Name: "through", Type: FieldSite, Doc: "the lines through this site instead"},
			{Name: "only", Type: FieldSiteLists, PerPlayer: true, Doc: "only these lines of the board count"},
			{Name: "except", Type: FieldSiteLists, PerPlayer: true, Doc: "these lines of the board do not count (a player's own home row)"},
		},
		New: newLine})
	Register(Spec{Name: "placement_play", Group: "Placing and moving", Slot: SlotPlay, Mutates: true,
		Doc: "a move of kind `drop` puts a piece from p's hand on its site (as `m.place`), one of kind `move` takes a piece from its first site to its second (as `m.move_piece`); then, when `win(p, s)` holds for the site `s` the piece went to, p wins (`finish(p, reason)`; a `line_rule` names the line's sites in the result). Otherwise each part of `arrival` follows in order, `(p, s)` (a mill's removal: `again_rule`), and when none of them gave p another decision, `after(p, 0)` (a full board's draw, a count). A move of another kind is `other(p, kind, sites...)`",
		Fields: []Field{
			{Name: "drop", Type: FieldKind, Arity: 1, Doc: "the kind of a drop (the point)"},
			{Name: "move", Type: FieldKind, Arity: 2, Doc: "the kind of a move (from, to)"},
			{Name: "win", Type: FieldPart, Slot: SlotSiteTest, Doc: "whether the piece's site wins"},
			{Name: "reason", Type: FieldText, Doc: "how a win ends the game (required with win)"},
			{Name: "arrival", Type: FieldParts, Slot: SlotArrive, Max: 8, Doc: "what follows the piece's arrival when it did not win"},
			{Name: "after", Type: FieldPart, Slot: SlotAfter, Doc: "what follows a move after which p does not decide again: `(p, 0)`"},
			{Name: "other", Type: FieldPart, Slot: SlotPlay, Doc: "plays moves of other kinds"},
		},
		New: func(a *Args) (any, error) {
			r := &placementPlay{drop: a.Kind("drop"), move: a.Kind("move"), win: tester(a.Part("win")), other: player(a.Part("other")),
				after: follower(a.Part("after")), reason: a.Word("reason")}
			r.namer, _ = r.win.(SiteNamer)
			for _, x := range a.Parts("arrival") {
				r.arrival = append(r.arrival, x.(Arriver))
			}
			if r.drop < 0 && r.move < 0 {
				return nil, a.Errorf("give drop or move (a move kind), or both")
			}
			if r.win != nil && !a.Has("reason") {
				return nil, a.Errorf("reason must be the reason the game ends (text of at most 200 characters), got nil")
			}
			return r, nil
		}})
	Register(Spec{Name: "placement_legal", Group: "Placing and moving", Slot: SlotEmit,
		Doc: "while p has pieces in hand, `drops(p)`; once no player has, `moves(p)`, and `stuck(p)` when it emitted nothing; otherwise nothing (a position where p must wait for the others' drops)",
		Fields: []Field{
			{Name: "drops", Type: FieldPart, Slot: SlotEmit, Doc: "the drops"},
			{Name: "moves", Type: FieldPart, Slot: SlotEmit, Doc: "the moves once every hand is empty"},
			{Name: "stuck", Type: FieldPart, Slot: SlotEmit, Doc: "the moves when moves has none (a pass)"},
		},
		New: func(a *Args) (any, error) {
			r := &placementLegal{drops: emitter(a.Part("drops")), moves: emitter(a.Part("moves")), stuck: emitter(a.Part("stuck"))}
			if r.drops == nil && r.moves == nil {
				return nil, a.Errorf("give drops or moves (functions that emit them), or both")
			}
			return r, nil
		}})
}

// ---- emit_rule ----

type emitParts struct {
	kind               int
	each               []*kernel.Filter
	steps, jumps       []*kernel.Filter
	pairsFrom, pairsTo []*kernel.Filter
	moves              []int
	whenNone           []*kernel.Filter
}

func newEmit(a *Args) (any, error) {
	r := &emitParts{kind: -1, each: a.Filters("each"), steps: a.Filters("steps"), jumps: a.Filters("jumps"),
		moves: a.Ints("moves"), whenNone: a.Filters("when_none")}
	if p := a.Table("pairs"); p != nil {
		r.pairsFrom, r.pairsTo = p.Filters("from"), p.Filters("to")
	}
	sited := r.each != nil || r.steps != nil || r.jumps != nil || r.pairsFrom != nil
	if r.steps != nil {
		if err := needLines(a, "steps", "no piece can step"); err != nil {
			return nil, err
		}
	}
	if r.jumps != nil {
		if err := needLines(a, "jumps", "no piece can jump"); err != nil {
			return nil, err
		}
	}
	switch {
	case r.moves != nil && (sited || a.Has("kind")):
		return nil, a.Errorf("give moves (kinds of moves without sites) or kind with each, steps, jumps or pairs, not both")
	case r.moves == nil && !sited:
		return nil, a.Errorf("give kind with each, steps, jumps or pairs (filters), or moves (a list of kinds)")
	case sited:
		if !a.Has("kind") {
			return nil, a.Errorf("kind is required (a move kind)")
		}
		r.kind = a.Kind("kind")
		k := &a.Def.Kinds[r.kind]
		if r.each != nil && (r.steps != nil || r.jumps != nil || r.pairsFrom != nil) {
			return nil, a.Errorf("each emits moves of one site, steps, jumps and pairs of two: give them in rules of their own")
		}
		want := 2
		if r.each != nil {
			want = 1
		}
		if k.Arity() != want {
			return nil, a.Errorf("kind %s takes %s, but these moves name %d", k.Name, ArityText(k.Arity()), want)
		}
	}
	return r, nil
}

func (r *emitParts) Emit(c *kernel.Ctx, p int) (int, error) {
	if r.whenNone != nil {
		f := r.whenNone[p-1]
		if err := c.Charge(f.Cost()); err != nil {
			return 0, err
		}
		if f.First(c.S.Cells, &c.Def.Layout, c.Mover) >= 0 {
			return 0, nil
		}
	}
	before := len(c.S.Moves)
	for _, k := range r.moves {
		if err := c.Push(kernel.Move{Kind: uint8(k)}); err != nil {
			return 0, err
		}
	}
	if r.each != nil {
		if _, err := c.EmitEach(r.kind, r.each[p-1]); err != nil {
			return 0, err
		}
	}
	switch {
	case r.steps != nil && r.jumps != nil:
		if _, err := c.EmitStepsJumps(r.kind, r.steps[p-1], r.jumps[p-1]); err != nil {
			return 0, err
		}
	case r.steps != nil:
		if _, err := c.EmitSteps(r.kind, r.steps[p-1]); err != nil {
			return 0, err
		}
	case r.jumps != nil:
		if _, err := c.EmitJumps(r.kind, r.jumps[p-1]); err != nil {
			return 0, err
		}
	}
	if r.pairsFrom != nil {
		if _, err := c.EmitPairs(r.kind, r.pairsFrom[p-1], r.pairsTo[p-1]); err != nil {
			return 0, err
		}
	}
	return len(c.S.Moves) - before, nil
}

// ArityText names the sites a kind of moves takes.
func ArityText(a int) string {
	switch {
	case a < 0:
		return "a list of sites"
	case a == 1:
		return "1 site"
	case a == 0:
		return "0 sites"
	}
	return itoa(a) + " sites"
}

func itoa(n int) string {
	if n < 10 && n >= 0 {
		return string(rune('0' + n))
	}
	var b [20]byte
	i := len(b)
	neg := n < 0
	if neg {
		n = -n
	}
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}

// ---- line_rule ----

type line struct {
	length   int
	anywhere bool
	exactly  bool     // a run of length and no longer
	through  int      // -1: the site given
	skip     [][]bool // per player, per line of the board: the line does not count; nil when all count
	whole    [][]int  // per line of the board, its sites: the result's sites when p holds all of it
}

func newLine(a *Args) (any, error) {
	if err := needLines(a, "length", "no line can be made"); err != nil {
		return nil, err
	}
	r := &line{length: a.Int("length"), anywhere: a.Bool("anywhere"), exactly: a.Bool("exactly"), through: a.Site("through")}
	if r.anywhere && r.exactly {
		return nil, a.Errorf("give anywhere or exactly (sites anywhere on a line, or a run of exactly length), not both")
	}
	b := a.Def.Board
	for li := range b.NumLines() {
		l := b.Line(li)
		sites := make([]int, len(l))
		for i, x := range l {
			sites[i] = int(x)
		}
		r.whole = append(r.whole, sites)
	}
	only, except := a.SiteListsPer("only"), a.SiteListsPer("except")
	if only == nil && except == nil {
		return r, nil
	}
	if only != nil && except != nil {
		return nil, a.Errorf("give only or except (the lines that count, or those that do not), not both")
	}
	given, name := only, "only"
	if except != nil {
		given, name = except, "except"
	}
	r.skip = make([][]bool, len(given))
	for p, lines := range given {
		skip := make([]bool, b.NumLines())
		if only != nil {
			for li := range skip {
				skip[li] = true
			}
		}
		for k, sites := range lines {
			li := b.LineOf(sites)
			if li < 0 {
				return nil, a.Errorf("%s: line %d (%s) is not a line of the board", name, k+1, siteNames(b, sites))
			}
			skip[li] = except != nil
		}
		r.skip[p] = skip
	}
	return r, nil
}

// needLines refuses the field of a part that reads the board's lines on a
// board that has none: a grid declares no lines of its own, so its steps,
// jumps and rows would never be found and the game would quietly have
// none. what says what the part could then never do.
func needLines(a *Args, field, what string) error {
	if b := a.Def.Board; b == nil || b.NumLines() > 0 {
		return nil
	}
	return a.Errorf("%s: the board has no lines, so %s (a grid has none of its own: give matombo.board its lines, as a list of lists of sites)", field, what)
}

// siteNames names sites for a message, e.g. "a1 a2 a3".
func siteNames(b *kernel.Board, sites []int) string {
	out := ""
	for i, x := range sites {
		if i > 0 {
			out += " "
		}
		out += b.SiteName(x)
	}
	return out
}

// Holds is TestSite with s nil: a condition (p owns a line of the board,
// or one through the site `through`).
func (r *line) Holds(c *kernel.Ctx, p int) (bool, error) { return r.TestSite(c, p, -1) }

func (r *line) TestSite(c *kernel.Ctx, p, site int) (bool, error) {
	li, _, err := r.find(c, p, site)
	return li >= 0, err
}

// TestSiteNamed is TestSite, naming the sites of the line that made it
// hold.
func (r *line) TestSiteNamed(c *kernel.Ctx, p, site int) (bool, []int, error) {
	li, end, err := r.find(c, p, site)
	if li < 0 || err != nil {
		return false, nil, err
	}
	if r.exactly {
		return true, r.whole[li][end-r.length : end], nil
	}
	if r.through >= 0 {
		site = r.through
	}
	return true, r.sites(c, li, p, site), nil
}

// find is TestSite, giving the index of the line that wins (-1 when none
// does) and the end of the winning run on it (exclusive).
func (r *line) find(c *kernel.Ctx, p, site int) (li, end int, err error) {
	if r.through >= 0 {
		site = r.through
		if c.Owner(site) != p {
			return -1, 0, nil
		}
	}
	var skip []bool
	if r.skip != nil {
		skip = r.skip[p-1]
	}
	if r.exactly {
		return c.ExactRun(p, site, r.length, skip)
	}
	li, end, _, err = c.LineRun(p, site, r.length, r.anywhere, skip)
	return li, end, err
}

// sites names the sites of a winning line that made the win: p's run of
// length or more through site (anywhere: all of p's sites on the line).
// Made once a game is won, for the result's sites; p holding the whole
// line (as three on a line of three) costs no allocation.
func (r *line) sites(c *kernel.Ctx, li, p, site int) []int {
	l := c.Def.Board.Line(li)
	all := true
	for _, x := range l {
		all = all && c.Owner(int(x)) == p
	}
	if all {
		return r.whole[li] // shared: a result's sites are never modified in place
	}
	out := make([]int, 0, len(l))
	has := site < 0
	for _, x := range l {
		if c.Owner(int(x)) != p {
			if !r.anywhere {
				if len(out) >= r.length && has {
					return out
				}
				out, has = out[:0], site < 0
			}
			continue
		}
		out = append(out, int(x))
		has = has || int(x) == site
	}
	return out
}

// ---- placement_play and placement_legal ----

type placementPlay struct {
	drop, move int // -1: none
	win        SiteTester
	namer      SiteNamer // win, when it names the sites that made it hold
	arrival    []Arriver
	after      Follower
	other      Player
	reason     string
}

func (r *placementPlay) Play(c *kernel.Ctx, p int, m kernel.Move) error {
	var at int
	switch int(m.Kind) {
	case r.drop:
		at = int(m.Sites[0])
		if err := c.Place(p, at); err != nil {
			return err
		}
	case r.move:
		at = int(m.Sites[1])
		if err := c.MovePiece(int(m.Sites[0]), at); err != nil {
			return err
		}
	default:
		return playOther(c, r.other, p, m)
	}
	if r.win != nil {
		var won bool
		var sites []int
		var err error
		if r.namer != nil {
			won, sites, err = r.namer.TestSiteNamed(c, p, at)
		} else {
			won, err = r.win.TestSite(c, p, at)
		}
		if err != nil {
			return err
		}
		if won {
			c.Finish(p, r.reason, nil, sites)
			return nil
		}
	}
	for _, t := range r.arrival {
		if c.S.Result.Over {
			return nil
		}
		if _, err := t.Arrive(c, p, at); err != nil {
			return err
		}
	}
	if r.after != nil && !c.S.Result.Over && !c.ToMoveSet {
		return r.after.After(c, p, 0)
	}
	return nil
}

type placementLegal struct {
	drops, moves, stuck Emitter
}

func (r *placementLegal) Emit(c *kernel.Ctx, p int) (int, error) {
	if c.Hand(p) > 0 {
		if r.drops == nil {
			return 0, nil
		}
		return r.drops.Emit(c, p)
	}
	for q := 1; q <= c.Def.Players; q++ {
		if c.Hand(q) > 0 {
			return 0, nil
		}
	}
	if r.moves == nil {
		return 0, nil
	}
	n, err := r.moves.Emit(c, p)
	if n == 0 && err == nil && r.stuck != nil {
		return r.stuck.Emit(c, p)
	}
	return n, err
}
