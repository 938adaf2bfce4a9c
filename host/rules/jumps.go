package rules

import "github.com/matombo/matombo/host/kernel"

// jumps_rule: pieces jumping along the board's lines over the sites of a
// filter (the opponent's pieces) in the way each may go, a capture by
// jumping; the same part lists the next jumps of a piece in the middle of
// a capture and tells whether it can go on.

func init() {
	Register(Spec{Name: "jumps_rule", Group: "Placing and moving", Slot: SlotEmit,
		Doc: "a move (from, to) of kind `kind` for each piece of `from` that can jump along one of the board's lines, in the way the piece moves (`toward`, or both ways for a piece of `both`), over a neighbour of `over` to the empty site just beyond (a piece of `fly`: over empty sites and one of `over` to any empty site beyond it, before the next occupied one), never over a site of `taken`, piece by piece in board order, each piece's jumps by the site landed on. As a site test, `(p, s)`: whether the piece on `s` can jump (a capture that goes on); as the choices of a pending decision, `(p, at)`: the jumps of the piece on `at`, as moves of kind `again` naming the site landed on, and with `stop` a move of that kind, which ends the capture there",
		Fields: append([]Field{
			{Name: "kind", Type: FieldKind, Arity: 2, Required: true, Doc: "the kind of the moves (from, to)"},
			{Name: "over", Type: FieldFilter, PerPlayer: true, Required: true, Doc: "the sites a piece may jump over (the opponent's pieces)"},
			{Name: "again", Type: FieldKind, Arity: 1, Doc: "the kind of the next jumps of a piece that waits in the middle of a capture, naming the site landed on (`kind` otherwise)"},
			{Name: "stop", Type: FieldKind, Arity: 0, Doc: "as the choices of a pending decision, a move of this kind after the jumps: the piece may end its capture where it waits, the jumps after the first are not compulsory (a `hop_play` plays it); not with `most`"},
			{Name: "go_on", Type: FieldBool, Doc: "of the sites beyond the piece it jumps, a piece of `fly` lands only on those from which it can jump again, when there are any"},
			{Name: "most", Type: FieldBool, Doc: "only the jumps that begin a chain of jumps taking the most pieces of any chain the player's pieces can make (each piece jumped counts one; the pieces jumped are marked as `taken` does)"},
			{Name: "promote_row", Type: FieldRow, PerPlayer: true, Doc: "with `most`: a piece not of `fly` that lands on its player's row in the middle of a chain goes on from there as a piece of `fly` moving both ways (a man crowned at once captures on as a king), or with `promote_ends` its chain ends there; without it a piece goes on as it started"},
			{Name: "promote_ends", Type: FieldBool, Doc: "with `promote_row`: a chain ends where the piece is promoted (a man crowned ends its move)"},
		}, append(headingFields(), markFields()...)...),
		New: func(a *Args) (any, error) {
			h, err := newHops(a, true)
			if err != nil {
				return nil, err
			}
			if a.Bool("most") && a.Kind("stop") >= 0 {
				return nil, a.Errorf("stop lets a capture end before the most pieces are taken, which most forbids: give one of them")
			}
			rows := a.Rows("promote_row")
			for p := range h.per {
				h.per[p].GoOn, h.per[p].Most = a.Bool("go_on"), a.Bool("most")
				if rows != nil {
					h.per[p].PromoteRow, h.per[p].PromoteEnds = rows[p]+1, a.Bool("promote_ends")
				}
			}
			r := &jumps{hops: h, again: a.Kind("again"), stop: a.Kind("stop"), taken: a.Ints("taken")}
			return r, nil
		}})
}

type jumps struct {
	hops
	again int   // -1: kind
	stop  int   // the kind of the move that ends a capture, -1 for none
	taken []int // the variables of the pieces jumped so far
}

func (r *jumps) Emit(c *kernel.Ctx, p int) (int, error) {
	h := r.of(p)
	if h == nil {
		return 0, nil
	}
	var buf [16]int32
	return c.EmitHops(r.kind, h, -1, false, marks(c, r.taken, buf[:0]))
}

func (r *jumps) TestSite(c *kernel.Ctx, p, site int) (bool, error) {
	h := r.of(p)
	if site < 0 || h == nil {
		return false, nil
	}
	var buf [16]int32
	return c.CanHop(h, site, marks(c, r.taken, buf[:0]))
}

func (r *jumps) EmitAt(c *kernel.Ctx, p, at int) (int, error) {
	var buf [16]int32
	ms := marks(c, r.taken, buf[:0])
	var n int
	var err error
	switch h := r.of(p); {
	case h == nil: // no jumps; a stop still ends the capture
	case r.again < 0:
		n, err = c.EmitHops(r.kind, h, at, false, ms)
	default:
		n, err = c.EmitHops(r.again, h, at, true, ms)
	}
	if err != nil || r.stop < 0 {
		return n, err
	}
	return n + 1, c.Push(kernel.Move{Kind: uint8(r.stop)})
}
