package rules

import "github.com/matombo/matombo/host/kernel"

// promote_rule: a piece arriving on a row is promoted, counters put on it
// (a crown): a man reaching the far row becomes a king.

func init() {
	Register(Spec{Name: "promote_rule", Group: "Placing and moving", Slot: SlotArrive, Mutates: true,
		Doc: "after p's piece arrived on `s`: when `s` is in p's row `row` and the piece matches `piece`, `add` counters are put on it (from p's hand with `from_hand`, as `m.set_hand` and `m.add`): a man crowned a king. Returns whether it did",
		Fields: []Field{
			{Name: "row", Type: FieldRow, PerPlayer: true, Required: true, Doc: "the row where a player's pieces are promoted (the far row)"},
			{Name: "piece", Type: FieldFilter, PerPlayer: true, Doc: "the pieces promoted (a man: one counter); any piece without it"},
			{Name: "add", Type: FieldInt, Min: 1, Max: kernel.MaxCount, Default: 1, Doc: "the counters put on the piece"},
			{Name: "from_hand", Type: FieldBool, Doc: "the counters come from p's hand (the crowns a player keeps)"},
		},
		New: func(a *Args) (any, error) {
			return &promote{row: a.Rows("row"), piece: a.Filters("piece"), add: a.Int("add"), fromHand: a.Bool("from_hand")}, nil
		}})
}

type promote struct {
	row      []int // per player, from 0
	piece    []*kernel.Filter
	add      int
	fromHand bool
}

func (r *promote) Arrive(c *kernel.Ctx, p, at int) (bool, error) {
	if c.Def.Board.Site(at).Row != r.row[p-1] {
		return false, nil
	}
	if r.piece != nil && !r.piece[p-1].Matches(c.S.Cells, &c.Def.Layout, p, int32(at)) {
		return false, nil
	}
	if r.fromHand {
		h := c.Hand(p)
		if h < r.add {
			return false, kernel.Failf("promote_rule: player %d has %d in hand, not the %d a promotion on %s takes", p, h, r.add, c.SiteName(at))
		}
		if err := c.SetHand(p, h-r.add); err != nil {
			return false, err
		}
	}
	if _, err := c.Add(at, r.add); err != nil {
		return false, err
	}
	return true, nil
}
