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
		Doc: "whether p owns `length` consecutive sites of a line through `s`, `s` among them (as `in_a_row`); with `anywhere`, `length` sites of a line through `s` wherever they stand on it; with `through`, the lines through that site instead, which p must own. With `s` nil, any line of the board",
		Fields: []Field{
			{Name: "length", Type: FieldInt, Min: 1, Max: kernel.MaxSites, Default: 3, Required: true, Doc: "the number of sites in a line that win"},
			{Name: "anywhere", Type: FieldBool, Doc: "p's sites of the line need not be consecutive"},
			{Name: "through", Type: FieldSite, Doc: "the lines through this site instead"},
		},
		New: func(a *Args) (any, error) {
			r := &line{length: a.Int("length"), anywhere: a.Bool("anywhere"), through: a.Site("through")}
			b := a.Def.Board
			for li := range b.NumLines() {
				l := b.Line(li)
				sites := make([]int, len(l))
				for i, x := range l {
					sites[i] = int(x)
				}
				r.whole = append(r.whole, sites)
			}
			return r, nil
		}})
	Register(Spec{Name: "placement_play", Group: "Placing and moving", Slot: SlotPlay, Mutates: true,
		Doc: "a move of kind `drop` puts a piece from p's hand on its site (as `m.place`), one of kind `move` takes a piece from its first site to its second (as `m.move_piece`); then, when `win(p, s)` holds for the site `s` the piece went to, p wins (`finish(p, reason)`; a `line_rule` names the line's sites in the result). A move of another kind is `other(p, kind, sites...)`",
		Fields: []Field{
			{Name: "drop", Type: FieldKind, Arity: 1, Doc: "the kind of a drop (the point)"},
			{Name: "move", Type: FieldKind, Arity: 2, Doc: "the kind of a move (from, to)"},
			{Name: "win", Type: FieldPart, Slot: SlotSiteTest, Doc: "whether the piece's site wins"},
			{Name: "reason", Type: FieldText, Doc: "how a win ends the game (required with win)"},
			{Name: "other", Type: FieldPart, Slot: SlotPlay, Doc: "plays moves of other kinds"},
		},
		New: func(a *Args) (any, error) {
			r := &placementPlay{drop: a.Kind("drop"), move: a.Kind("move"), win: tester(a.Part("win")), other: player(a.Part("other")), reason: a.Word("reason")}
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
	if r.steps != nil {
		if _, err := c.EmitSteps(r.kind, r.steps[p-1]); err != nil {
			return 0, err
		}
	}
	if r.jumps != nil {
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
	through  int     // -1: the site given
	whole    [][]int // per line of the board, its sites: the result's sites when p holds all of it
}

func (r *line) TestSite(c *kernel.Ctx, p, site int) (bool, error) {
	li, err := r.find(c, p, site)
	return li >= 0, err
}

// TestSiteNamed is TestSite, naming the sites of the line that made it
// hold.
func (r *line) TestSiteNamed(c *kernel.Ctx, p, site int) (bool, []int, error) {
	li, err := r.find(c, p, site)
	if li < 0 || err != nil {
		return false, nil, err
	}
	if r.through >= 0 {
		site = r.through
	}
	return true, r.sites(c, li, p, site), nil
}

// find is TestSite, giving the index of the line that wins (-1 when none
// does).
func (r *line) find(c *kernel.Ctx, p, site int) (int, error) {
	if r.through >= 0 {
		site = r.through
		if c.Owner(site) != p {
			return -1, nil
		}
	}
	l, _, _, err := c.InARow(p, site, r.length, r.anywhere)
	if l == nil || err != nil {
		return -1, err
	}
	b := c.Def.Board
	if site < 0 {
		for li := range b.NumLines() {
			if &b.Line(li)[0] == &l[0] {
				return li, nil
			}
		}
	}
	for _, li := range b.LinesAt(site) {
		if &b.Line(int(li))[0] == &l[0] {
			return int(li), nil
		}
	}
	return -1, nil
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
	if r.win == nil {
		return nil
	}
	var won bool
	var sites []int
	var err error
	if x, ok := r.win.(SiteNamer); ok { // a test that names the sites that made it hold
		won, sites, err = x.TestSiteNamed(c, p, at)
	} else {
		won, err = r.win.TestSite(c, p, at)
	}
	if won && err == nil {
		c.Finish(p, r.reason, nil, sites)
	}
	return err
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
