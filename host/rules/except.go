package rules

import "github.com/matombo/matombo/host/kernel"

// except_rule: legal moves but those a test bars, such as a step back
// that a rule forbids.

func init() {
	Register(Spec{Name: "except_rule", Group: "Turns", Slot: SlotEmit,
		Doc: "the moves of `moves(p)` but those for which `except(p, kind, sites...)` holds, in their order",
		Fields: []Field{
			{Name: "moves", Type: FieldPart, Slot: SlotEmit, Required: true, Doc: "the moves"},
			{Name: "except", Type: FieldPart, Slot: SlotMoveTest, Required: true, Doc: "the moves barred"},
		},
		New: func(a *Args) (any, error) {
			return &except{moves: a.Part("moves").(Emitter), except: a.Part("except").(MoveTester)}, nil
		}})
}

type except struct {
	moves  Emitter
	except MoveTester
}

func (r *except) Emit(c *kernel.Ctx, p int) (int, error) {
	before := len(c.S.Moves)
	if _, err := r.moves.Emit(c, p); err != nil {
		return 0, err
	}
	list := c.S.Moves
	k := before
	for i := before; i < len(list); i++ {
		barred, err := r.except.TestMove(c, p, list[i])
		if err != nil {
			return 0, err
		}
		if !barred {
			list[k] = list[i]
			k++
		}
	}
	c.Keep(k)
	return k - before, nil
}
