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
