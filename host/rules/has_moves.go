package rules

import (
	"github.com/matombo/matombo/host/kernel"
)

// A condition on the moves a player would have: whether an emit part
// lists any, the list left as it was.

func init() {
	Register(Spec{Name: "has_moves_rule", Group: "Conditions and amounts", Slot: SlotCond,
		Doc: "whether `moves` lists some move for the player (p, or with `player = \"next\"` the player after p, as if it were their decision), the moves listed taken off again: a threat the next player could carry out (a capture they have)",
		Fields: []Field{
			{Name: "moves", Type: FieldPart, Slot: SlotEmit, Required: true, Doc: "the moves (an emit part)"},
			{Name: "player", Type: FieldWord, Words: []string{"mover", "next"}, Doc: "whose moves: `mover` (p, the default) or `next` (the player after p)"},
		},
		New: func(a *Args) (any, error) {
			return &hasMoves{moves: a.Part("moves").(Emitter), who: a.Word("player")}, nil
		}})
}

type hasMoves struct {
	moves Emitter
	who   string
}

func (r *hasMoves) Holds(c *kernel.Ctx, p int) (bool, error) {
	q := whose(c, r.who, p)
	before, mover := len(c.S.Moves), c.Mover
	c.Mover = q // the filters' owners are q's, as in q's decision
	n, err := r.moves.Emit(c, q)
	c.Mover = mover
	c.Keep(before)
	return n > 0, err
}

func init() {
	Register(Spec{Name: "one_target_rule", Group: "Conditions and amounts", Slot: SlotAmount,
		Doc: "the site (from 1) that every move `moves` lists for p aims at, when they all aim at one and the same; 0 when they aim at more than one, or there is no move. A move aims at the site of the row `opposite` facing the end of its first lap: all the counters of the site it starts from sown one per site along its direction (the threat of a player whose captures all take one site)",
		Fields: []Field{
			{Name: "moves", Type: FieldPart, Slot: SlotEmit, Required: true, Doc: "the moves (an emit part)"},
			{Name: "tracks", Type: FieldTracks, PerPlayer: true, Required: true, Doc: "the tracks of the directions, as the moves name them by the first site they sow"},
			{Name: "opposite", Type: FieldRow, PerPlayer: true, Required: true, Doc: "the row of the facing site"},
		},
		New: func(a *Args) (any, error) {
			return &oneTarget{moves: a.Part("moves").(Emitter), dirs: a.TrackLists("tracks"), opposite: a.Rows("opposite")}, nil
		}})
}

type oneTarget struct {
	moves    Emitter
	dirs     [][]*kernel.Track // per player
	opposite []int             // per player
}

func (r *oneTarget) Value(c *kernel.Ctx, p int) (int, error) {
	before, mover := len(c.S.Moves), c.Mover
	c.Mover = p
	_, err := r.moves.Emit(c, p)
	c.Mover = mover
	defer c.Keep(before)
	if err != nil {
		return 0, err
	}
	target := -1
	for _, m := range c.S.Moves[before:] {
		at, err := r.aim(c, p, m)
		if err != nil || at < 0 || target >= 0 && at != target {
			return 0, err
		}
		target = at
	}
	return target + 1, nil
}

// aim is the site facing the end of m's first lap, -1 for none.
func (r *oneTarget) aim(c *kernel.Ctx, p int, m kernel.Move) (int, error) {
	from, t := int(m.Sites[0]), r.dirs[p-1][0]
	if m.N >= 2 {
		var err error
		if t, err = toward(c, r.dirs[p-1], from, int(m.Sites[1])); err != nil {
			return -1, err
		}
	}
	n := int(c.S.Cells[from])
	if n <= 0 || !t.On(from) {
		return -1, nil
	}
	if t.Loop {
		n = (n-1)%len(t.Sites) + 1
	}
	if err := c.Charge(n/4 + 1); err != nil {
		return -1, err
	}
	end := from
	for ; n > 0 && end >= 0; n-- {
		end = t.Next(end)
	}
	if end < 0 {
		return -1, nil
	}
	b := c.Def.Board
	return b.At(r.opposite[p-1], b.Site(end).Col), nil
}
