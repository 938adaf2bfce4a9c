package rules

import "github.com/matombo/matombo/host/kernel"

// jumps_rule: pieces jumping along the board's lines over the sites of a
// filter (the opponent's pieces) in the way each may go, a capture by
// jumping; the same part lists the next jumps of a piece in the middle of
// a capture and tells whether it can go on.

func init() {
	Register(Spec{Name: "jumps_rule", Group: "Placing and moving", Slot: SlotEmit,
		Doc: "a move (from, to) of kind `kind` for each piece of `from` that can jump along one of the board's lines, in the way the piece moves (`toward`, or both ways for a piece of `both`), over a neighbour of `over` to the empty site just beyond, piece by piece in board order. As a site test, `(p, s)`: whether the piece on `s` can jump (a capture that goes on); as the choices of a pending decision, `(p, at)`: the jumps of the piece on `at`, as moves of kind `again` naming the site landed on",
		Fields: append([]Field{
			{Name: "kind", Type: FieldKind, Arity: 2, Required: true, Doc: "the kind of the moves (from, to)"},
			{Name: "over", Type: FieldFilter, PerPlayer: true, Required: true, Doc: "the sites a piece may jump over (the opponent's pieces)"},
			{Name: "again", Type: FieldKind, Arity: 1, Doc: "the kind of the next jumps of a piece that waits in the middle of a capture, naming the site landed on (`kind` otherwise)"},
		}, headingFields()...),
		New: func(a *Args) (any, error) {
			h, err := newHops(a, true)
			if err != nil {
				return nil, err
			}
			r := &jumps{hops: h, again: a.Kind("again")}
			return r, nil
		}})
}

type jumps struct {
	hops
	again int // -1: kind
}

func (r *jumps) Emit(c *kernel.Ctx, p int) (int, error) {
	return c.EmitHops(r.kind, &r.per[p-1], -1, false)
}

func (r *jumps) TestSite(c *kernel.Ctx, p, site int) (bool, error) {
	if site < 0 {
		return false, nil
	}
	return c.CanHop(&r.per[p-1], site)
}

func (r *jumps) EmitAt(c *kernel.Ctx, p, at int) (int, error) {
	if r.again < 0 {
		return c.EmitHops(r.kind, &r.per[p-1], at, false)
	}
	return c.EmitHops(r.again, &r.per[p-1], at, true)
}
