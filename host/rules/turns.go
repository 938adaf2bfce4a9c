package rules

import (
	"github.com/matombo/matombo/host/kernel"
)

// Turns for any game: the legal moves by the decision pending within a
// turn, and the play of each kind of move by its own part.

func init() {
	Register(Spec{Name: "pending_legal", Group: "Turns", Slot: SlotEmit,
		Doc: "the legal moves by the pending decision the variable `pending` holds: 0 (nothing pending): each part of `none` in turn, `(p)`; a site `s` (from 1: a sowing waits there): `site(p, s)`; `-k` (k choices left): `count(p, k)`",
		Fields: []Field{
			{Name: "pending", Type: FieldVar, Required: true, Doc: "the variable of the pending decision"},
			{Name: "none", Type: FieldParts, Slot: SlotEmit, Required: true, Min: 1, Max: 8, Doc: "the moves when nothing is pending"},
			{Name: "site", Type: FieldPart, Slot: SlotChoices, Doc: "the moves when a decision waits at a site"},
			{Name: "count", Type: FieldPart, Slot: SlotCount, Doc: "the moves when k choices are left: `count(p, k)`"},
		},
		New: func(a *Args) (any, error) {
			r := &pendingLegal{pending: a.Var("pending")}
			for _, x := range a.Parts("none") {
				r.none = append(r.none, x.(Emitter))
			}
			r.site, r.count = AsChoices(a.Part("site")), AsChoices(a.Part("count"))
			return r, nil
		}})
	Register(Spec{Name: "play_by_kind", Group: "Turns", Slot: SlotPlay, Mutates: true,
		Doc: "`{[K1] = f1, [K2] = false, ...}`: a move of kind K is `f(p, sites...)`; `false` for a kind whose move changes nothing (a pass)",
		Fields: []Field{
			{Name: List, Type: FieldKindMap, Slot: SlotKindPlay, Required: true, Doc: "the part that plays each kind"},
		},
		New: func(a *Args) (any, error) {
			km := a.KindMap(List)
			if len(km) == 0 {
				return nil, a.Errorf("give at least one kind of move and the function that plays it")
			}
			r := &playByKind{plays: make([]Player, len(a.Def.Kinds)), none: make([]bool, len(a.Def.Kinds))}
			for k, x := range km {
				if x == nil {
					r.none[k] = true
				} else {
					r.plays[k] = x.(Player)
				}
			}
			return r, nil
		}})
}

// ---- pending_legal ----

type pendingLegal struct {
	pending     int
	none        []Emitter
	site, count ChoiceEmitter
}

func (r *pendingLegal) Emit(c *kernel.Ctx, p int) (int, error) {
	w, x := c.Pending(r.pending)
	switch w {
	case kernel.NotWaiting:
		total := 0
		for _, f := range r.none {
			n, err := f.Emit(c, p)
			if err != nil {
				return 0, err
			}
			total += n
		}
		return total, nil
	case kernel.WaitingAt:
		if r.site == nil {
			return 0, nil
		}
		if x >= c.Def.Layout.Sites {
			return 0, kernel.Failf("the pending variable holds %d, which is not a site", x+1)
		}
		return r.site.EmitAt(c, p, x)
	}
	if r.count == nil {
		return 0, nil
	}
	return r.count.EmitAt(c, p, x)
}

// ---- play_by_kind ----

type playByKind struct {
	plays []Player // by kind; nil for kinds not listed
	none  []bool   // by kind: the move changes nothing
}

func (r *playByKind) Play(c *kernel.Ctx, p int, m kernel.Move) error {
	k := int(m.Kind)
	if r.none[k] {
		return nil
	}
	f := r.plays[k]
	if f == nil {
		return kernel.Failf("a move of kind %s, but play_by_kind has no function for it", c.Def.Kinds[k].Name)
	}
	return f.Play(c, p, m)
}
