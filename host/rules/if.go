package rules

import "github.com/matombo/matombo/host/kernel"

// if_rule: legal moves that depend on the position, such as a first move
// that must (or may not) go to some sites; after_if_rule: what follows a
// decision only in some positions, such as the count of an ending kept
// only once few pieces are left.

func init() {
	Register(Spec{Name: "if_rule", Group: "Turns", Slot: SlotEmit,
		Doc: "the moves of `emit(p)` when `when(p)` holds, otherwise those of `otherwise(p)` (none without it): a first drop that must go to the centre, removals while a mill's removal is pending",
		Fields: []Field{
			{Name: "when", Type: FieldPart, Slot: SlotCond, Required: true, Doc: "the condition"},
			{Name: "emit", Type: FieldPart, Slot: SlotEmit, Required: true, Doc: "the moves when it holds"},
			{Name: "otherwise", Type: FieldPart, Slot: SlotEmit, Doc: "the moves when it does not"},
		},
		New: func(a *Args) (any, error) {
			return &ifEmit{when: a.Part("when").(Condition), emit: a.Part("emit").(Emitter), otherwise: emitter(a.Part("otherwise"))}, nil
		}})
	Register(Spec{Name: "after_if_rule", Group: "Turns", Slot: SlotAfter, Ends: true,
		Doc: "`(p, n)`, after a decision: when `when(p)` holds, each part of `after` follows, `(p, n)`, until the game ends; otherwise nothing: a count of the moves of an ending kept (by a script function) only once few pieces are left, instead of after every decision",
		Fields: []Field{
			{Name: "when", Type: FieldPart, Slot: SlotCond, Required: true, Doc: "the condition"},
			{Name: "after", Type: FieldParts, Slot: SlotAfter, Required: true, Min: 1, Max: 8, Doc: "what follows when it holds"},
		},
		New: func(a *Args) (any, error) {
			r := &ifAfter{when: a.Part("when").(Condition)}
			for _, x := range a.Parts("after") {
				r.after = append(r.after, x.(Follower))
			}
			return r, nil
		}})
}

type ifAfter struct {
	when  Condition
	after []Follower
}

func (r *ifAfter) After(c *kernel.Ctx, p, n int) error {
	ok, err := r.when.Holds(c, p)
	if err != nil || !ok {
		return err
	}
	return followAll(c, r.after, p, n)
}

type ifEmit struct {
	when            Condition
	emit, otherwise Emitter
}

func (r *ifEmit) Emit(c *kernel.Ctx, p int) (int, error) {
	ok, err := r.when.Holds(c, p)
	switch {
	case err != nil:
		return 0, err
	case ok:
		return r.emit.Emit(c, p)
	case r.otherwise != nil:
		return r.otherwise.Emit(c, p)
	}
	return 0, nil
}
