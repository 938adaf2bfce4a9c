package rules

import "github.com/matombo/matombo/host/kernel"

// first_of_rule: the moves of the first of several emitters that has
// any, such as the removals of pieces outside a mill, and only when there
// are none the others.

func init() {
	Register(Spec{Name: "first_of_rule", Group: "Turns", Slot: SlotEmit,
		Doc: "`{f1, f2, ...}`: the moves of `f1(p)`; when it emits none, those of `f2(p)`, and so on: a piece outside a mill is removed first, any piece only when all are in mills",
		Fields: []Field{
			{Name: List, Type: FieldParts, Slot: SlotEmit, Required: true, Min: 1, Max: 8, Doc: "the emitters, in order"},
		},
		New: func(a *Args) (any, error) {
			r := &firstOf{}
			for _, x := range a.Parts(List) {
				r.emitters = append(r.emitters, x.(Emitter))
			}
			return r, nil
		}})
}

type firstOf struct{ emitters []Emitter }

func (r *firstOf) Emit(c *kernel.Ctx, p int) (int, error) {
	for _, e := range r.emitters {
		if n, err := e.Emit(c, p); n > 0 || err != nil {
			return n, err
		}
	}
	return 0, nil
}
