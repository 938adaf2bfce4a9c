package rules

import (
	"slices"

	"github.com/matombo/matombo/host/kernel"
)

// custodian_rule: pieces caught between the piece that arrived and
// another of its player's along a line are captured (custodian capture,
// a mechanic of many moving games).

func init() {
	Register(Spec{Name: "custodian_rule", Group: "Placing and moving", Slot: SlotArrive, Mutates: true,
		Doc: "after p's piece arrived on `s`: each neighbour of `s` along one of the board's lines that is a piece of `over`, with a piece of `with` just beyond it on that line, goes to p's captured total (as `m.capture`): a piece caught between two of the mover's (custodian capture). All such pieces are found first, then captured. Returns whether it captured any",
		Fields: []Field{
			{Name: "over", Type: FieldFilter, PerPlayer: true, Required: true, Doc: "the pieces that can be caught (the opponent's)"},
			{Name: "with", Type: FieldFilter, PerPlayer: true, Required: true, Doc: "the pieces that catch them from the other side (the mover's)"},
		},
		New: func(a *Args) (any, error) {
			if err := needLines(a, "over", "no piece can be caught"); err != nil {
				return nil, err
			}
			return &custodian{over: a.Filters("over"), with: a.Filters("with")}, nil
		}})
}

type custodian struct {
	over, with []*kernel.Filter // per player
}

// Arrive captures the pieces caught by the piece on at.
func (r *custodian) Arrive(c *kernel.Ctx, p, at int) (bool, error) {
	cells, l := c.S.Cells, &c.Def.Layout
	over, with := r.over[p-1], r.with[p-1]
	jumps := c.Def.Board.JumpsFrom(at)
	if err := c.Charge(len(jumps)/4 + 1); err != nil {
		return false, err
	}
	var buf [16]int32 // the pieces caught; more than 16 lines through a site spill to the heap
	caught := buf[:0]
	for _, j := range jumps {
		if over.Matches(cells, l, p, j.Over) && with.Matches(cells, l, p, j.To) && !slices.Contains(caught, j.Over) {
			caught = append(caught, j.Over)
		}
	}
	for _, s := range caught {
		if _, err := c.Capture(int(s), p, -1); err != nil {
			return false, err
		}
	}
	return len(caught) > 0, nil
}
